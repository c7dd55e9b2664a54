"""McGeer's rimless wheel written in Python (docs/tutorial.md): the same mechanics as the plugin
examples/rimless_wheel/rimless_wheel.cpp, with its symmetry, so that clatter.periodic_orbit(...,
modulo_symmetry=True) finds the gait.

    q = (x, y, theta) of the hub, x down the slope, y along its normal; M = diag(m, m, I)
    f = m g (sin slope, -cos slope, 0),  V = -m g (x sin slope - y cos slope)
    spoke k at phi = theta + 2 pi k/n:  g_N = y - l cos phi,
      J = [[1, 0, l cos phi], [0, 1, l sin phi]],  gamma = (-l sin phi thetadot^2, l cos phi thetadot^2)
    symmetry: theta -> theta - 2 pi/n, x -> x + 2 l sin(pi/n); spoke k -> k + 1

Use:  clatter.python_model(RimlessWheel(), law="stronge", e=0.0, mu=3.0[, compile=True])
The state methods return tuples, not numpy arrays, and use only self's numbers and math: so
compile=True (numba, docs/python.md "Compiled models") runs them without allocating (an array
built in a compiled method costs ~0.15 us; this model compiled runs 1.5x its C++ plugin with
tuples, 7x with arrays: docs/performance.md).
"""
import copy
import math


class RimlessWheel:
    coordinate_names = ["x", "y", "theta"]
    nq = 3

    def __init__(self, spokes=6, mass=1.0, inertia=0.1, length=1.0, slope=0.2, gravity=9.81):
        self.n, self.m, self.I, self.l = spokes, mass, inertia, length
        self.slope, self.g = slope, gravity
        self.contacts = [f"spoke{k}" for k in range(spokes)]
        self.symmetry_contacts = [(k + 1) % spokes for k in range(spokes)]

    def parameters(self):
        return {"mass": (self.m, "kg", "mass of the hub"),
                "inertia": (self.I, "kg m^2", "moment of inertia about the hub"),
                "length": (self.l, "m", "spoke length"),
                "slope": (self.slope, "rad", "slope angle"),
                "gravity": (self.g, "m/s^2", "gravitational acceleration")}

    def with_parameter(self, name, value):
        other = copy.copy(self)
        setattr(other, {"mass": "m", "inertia": "I", "length": "l"}.get(name, name), value)
        return other

    def mass_matrix(self, t, q):
        return ((self.m, 0.0, 0.0), (0.0, self.m, 0.0), (0.0, 0.0, self.I))

    def applied_forces(self, t, q, qd):
        return (self.m * self.g * math.sin(self.slope), -self.m * self.g * math.cos(self.slope),
                0.0)

    def contact(self, c, t, q, qd):
        phi = q[2] + 2.0 * math.pi * c / self.n
        s, co = math.sin(phi), math.cos(phi)
        w2 = qd[2] * qd[2]
        J = ((1.0, 0.0, self.l * co), (0.0, 1.0, self.l * s))
        return q[1] - self.l * co, J, (0.0, 0.0), (-self.l * s * w2, self.l * co * w2), self.l

    def potential_energy(self, t, q):
        return -self.m * self.g * (q[0] * math.sin(self.slope) - q[1] * math.cos(self.slope))

    def force_scale(self):
        return self.m * self.g

    def mass_scale(self):
        return self.m

    def symmetry(self, t, q, qd):
        alpha = math.pi / self.n
        return (q[0] + 2.0 * self.l * math.sin(alpha), q[1], q[2] - 2.0 * alpha), qd
