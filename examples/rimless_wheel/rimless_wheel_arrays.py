"""The rimless wheel of rimless_wheel.py with its state functions returning numpy arrays, as a
researcher might first write them. The same model, uncompiled and compiled; compiled, each array
is an allocation inside numba (~0.15 us), which makes it ~5x slower than the tuple version
(docs/performance.md, "Models written in Python, compiled"; tests/python/test_compiled_model.py
and bench/compiled_model_bench.py use it).
"""
import math

import numpy as np

from rimless_wheel import RimlessWheel


class ArrayWheel(RimlessWheel):
    def mass_matrix(self, t, q):
        return np.diag(np.array([self.m, self.m, self.I]))

    def applied_forces(self, t, q, qd):
        return np.array([self.m * self.g * math.sin(self.slope),
                         -self.m * self.g * math.cos(self.slope), 0.0])

    def contact(self, c, t, q, qd):
        phi = q[2] + 2.0 * math.pi * c / self.n
        s, co = math.sin(phi), math.cos(phi)
        w2 = qd[2] * qd[2]
        J = np.array([[1.0, 0.0, self.l * co], [0.0, 1.0, self.l * s]])
        # gamma as a list: the compiled route accepts arrays, lists and tuples
        return q[1] - self.l * co, J, np.zeros(2), [-self.l * s * w2, self.l * co * w2], self.l
