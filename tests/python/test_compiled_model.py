"""Python models compiled with numba (clatter.python_model(..., compile=True), issue 26 item 2;
python/clatter/_compiled.py, docs/python.md "Compiled models").

Expected values come from independent routes, never from an earlier compiled run:
  - the same class uncompiled (its methods called by the engine through Python): compiled code
    performs the same IEEE operations in the same order (numba's default: no fast-math, no
    contraction into FMA; math.sin/cos from the same libm), so both runs must agree to round-off,
    asserted to 1e-12 on states of order 1-50 (they are in fact equal to the last bit here);
  - the built-in C++ models and McGeer's closed form for the rimless wheel's gait
    (tests/python/test_symmetry_orbits.py states it);
  - the closed-form apex of the ball's period-1 orbit on a sinusoidal floor, in a two-thread
    sweep of a compiled model (test_python_model.py::test_sweep_of_a_python_model_parameter).
numba is a test dependency (scripts/setup.sh installs python3-numba): these tests do not skip.
"""
import copy
import math
import os
import sys

import numpy as np
import pytest

import clatter

HERE = os.path.dirname(__file__)
sys.path.insert(0, os.path.join(HERE, "..", "..", "examples", "python_model"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "examples", "rimless_wheel"))
from planar_body import PlanarBody  # noqa: E402
from rimless_wheel import RimlessWheel  # noqa: E402
from rimless_wheel_arrays import ArrayWheel  # noqa: E402

from test_symmetry_orbits import SEQUENTIAL, closed_form, gait  # noqa: E402

START = dict(q=[0.0, 1.0, 0.0], qd=[1.5, 0.0, -1.5])


def assert_same_run(a, b, tol=1e-12):
    assert a.reason == b.reason == "end_time", (a.message, b.message)
    assert len(a.events["t"]) == len(b.events["t"]) >= 3
    np.testing.assert_array_equal(a.events["kind"], b.events["kind"])
    np.testing.assert_array_equal(a.events["contact"], b.events["contact"])
    np.testing.assert_allclose(a.events["t"], b.events["t"], rtol=0, atol=tol)
    np.testing.assert_allclose(a.q, b.q, rtol=0, atol=tol)
    np.testing.assert_allclose(a.qd, b.qd, rtol=0, atol=tol)
    np.testing.assert_allclose(a.energy, b.energy, rtol=0, atol=tol)


@pytest.mark.parametrize("cls", [RimlessWheel, ArrayWheel])
def test_compiled_wheel_walks_as_the_uncompiled_one_and_the_plugin(cls):
    # 40 s down the slope: ~43 impacts of the spokes, sticking (Stronge e* = 0, mu = 3)
    opts = dict(t_end=40.0, output_dt=0.05, **SEQUENTIAL)
    compiled = clatter.python_model(cls(), law="stronge", e=0.0, mu=3.0, compile=True)
    plain = clatter.python_model(cls(), law="stronge", e=0.0, mu=3.0)
    a, b = clatter.simulate(compiled, **START, **opts), clatter.simulate(plain, **START, **opts)
    assert_same_run(a, b)
    assert a.counts["impacts"] >= 40
    # the C++ plugin (examples/rimless_wheel/rimless_wheel.cpp) computes the same mechanics with
    # its own expressions: equal to round-off amplified over 40 impacts (measured 0, allowed 1e-9)
    clatter.load_plugin("rimless_wheel")
    plugin = clatter.Model("rimless_wheel", law="stronge", e=0.0, mu=3.0, spokes=6)
    assert_same_run(a, clatter.simulate(plugin, **START, **opts), tol=1e-9)


def test_tuple_and_array_results_are_the_same_model():
    # both styles, uncompiled: the tuple-returning class converted by the binding (a tuple
    # becomes a new array, which must outlive the reading of its numbers) equals the array one
    opts = dict(t_end=10.0, output_dt=0.05, **SEQUENTIAL)
    a = clatter.simulate(clatter.python_model(RimlessWheel(), mu=3.0), **START, **opts)
    b = clatter.simulate(clatter.python_model(ArrayWheel(), mu=3.0), **START, **opts)
    assert_same_run(a, b, tol=0.0)


def test_compiled_wheel_gait_is_mcgeers():
    # the symmetry stays a Python call; the orbit and its multiplier as McGeer's closed form
    # (to 1e-8 and 1e-5, as test_symmetry_orbits.py for the uncompiled model)
    eta, _, w0 = closed_form()
    o = gait(clatter.python_model(RimlessWheel(), law="stronge", e=0.0, mu=3.0, compile=True))
    assert o["converged"], o["message"]
    assert o["x0"][5] == pytest.approx(-w0, abs=1e-8)
    assert abs(o["multipliers"][0]) == pytest.approx(eta * eta, abs=1e-5)


def test_compiled_rod_with_helper_method_and_tuple_data_equals_the_built_in_rod():
    # PlanarBody uses self.points (a list of tuples: a tuple of tuples when compiled), a helper
    # method self.floor(t) and all the optional scale functions; against the built-in rod with
    # the tolerances of test_python_model.py (its sines differ from libm's by a few ulp)
    surface = dict(amplitude=0.3, omega=4.405)
    builtin = clatter.Model("rod", mass=1.0, half_length=1.0, surface=surface, e=0.8, mu=0.3)
    mine = clatter.python_model(PlanarBody.rod(1.0, 1.0, **surface), law="stronge", e=0.8,
                                mu=0.3, compile=True)
    plain = clatter.python_model(PlanarBody.rod(1.0, 1.0, **surface), law="stronge", e=0.8,
                                 mu=0.3)
    q, qd = [0.0, 2.0, 0.4], [0.2, 0.0, 1.0]
    opts = dict(t_end=4.0, output_dt=0.01, exact_flight=False, two_contact="sequential")
    a = clatter.simulate(mine, q, qd, **opts)
    ref = clatter.simulate(builtin, q, qd, **opts)
    assert len(a.events["t"]) == len(ref.events["t"])
    np.testing.assert_allclose(a.events["t"], ref.events["t"], rtol=0, atol=1e-9)
    np.testing.assert_allclose(a.q, ref.q, rtol=0, atol=1e-11)
    assert_same_run(a, clatter.simulate(plain, q, qd, **opts))
    assert mine.check_conformance(0.1, q, qd)["pass"]


def test_compiled_dropped_ball_sees_a_changed_parameter():
    # y = 1 dropped onto a fixed floor: the first impact at sqrt(2/g), for the declared g and a
    # changed one (closed form, to 1e-10 s): the compiled functions read the re-packed data
    ball = clatter.python_model(PlanarBody.ball(), law="newton", e=0.5, compile=True)
    for m, g in ((ball, 9.81), (ball.with_parameter("gravity", 4.0), 4.0)):
        r = clatter.simulate(m, [0.0, 1.0, 0.0], [0.0, 0.0, 0.0], t_end=0.8, exact_flight=False,
                             events_only=True)
        first = r.events["t"][list(r.events["kind"]).index("impact")]
        assert first == pytest.approx(math.sqrt(2.0 / g), abs=1e-10)


def test_what_cannot_be_compiled_is_named():
    class UsesAString(RimlessWheel):
        def applied_forces(self, t, q, qd):
            return (0.0, -self.m * self.g * len(self.contacts[0]), 0.0)

    with pytest.raises(ValueError, match=r"UsesAString\.applied_forces cannot be compiled.*"
                                         r"compile=False"):
        clatter.python_model(UsesAString(), compile=True)

    class EightNumbers(RimlessWheel):
        def mass_matrix(self, t, q):
            return ((self.m, 0.0, 0.0), (0.0, self.m, 0.0), (0.0, self.I))

    with pytest.raises(ValueError, match=r"EightNumbers\.mass_matrix.*9 numbers.*holds 8"):
        clatter.python_model(EightNumbers(), compile=True)

    class TwoForces(RimlessWheel):  # an array of the wrong size: found when it is called
        def applied_forces(self, t, q, qd):
            return np.zeros(2)

    m = clatter.python_model(TwoForces(), compile=True)
    with pytest.raises(ValueError, match="applied_forces: must return 3 numbers"):
        clatter.simulate(m, **START, t_end=1.0)

    class BadJ(RimlessWheel):
        def contact(self, c, t, q, qd):
            return q[1], np.zeros((2, 2)), (0.0, 0.0), (0.0, 0.0)

    m = clatter.python_model(BadJ(), compile=True)
    with pytest.raises(ValueError, match="contact: J: must return 6 numbers"):
        clatter.simulate(m, **START, t_end=1.0)


def test_an_exception_in_a_compiled_method_reaches_the_caller():
    # numba's C functions cannot pass an exception on: the wrapper reports it and the engine
    # calls the method again as Python, where it raises, as in the uncompiled route
    # (test_python_model.py::test_python_model_errors_surface_as_python_exceptions); before,
    # the exception was printed and the run went on with an unwritten force
    class Raising(RimlessWheel):
        def applied_forces(self, t, q, qd):
            if t > 0.5:
                raise ZeroDivisionError("from the model")
            return (0.0, -9.81, 0.0)

        def potential_energy(self, t, q):
            if t > 0.5:
                raise KeyError("from the energy")
            return 9.81 * q[1]

    m = clatter.python_model(Raising(), compile=True)
    with pytest.raises(ZeroDivisionError, match="from the model"):
        clatter.simulate(m, **START, t_end=1.0)
    r = clatter.simulate(m, **START, t_end=0.4)  # before it raises: a normal run
    assert r.reason == "end_time"


def test_a_parameter_change_must_keep_the_data_layout():
    class Renaming(RimlessWheel):
        def with_parameter(self, name, value):
            other = super().with_parameter(name, value)
            other.l = "one metre"  # a number becomes a string: the compiled code cannot see it
            return other

    m = clatter.python_model(Renaming(), compile=True)
    with pytest.raises(ValueError, match=r"changed from the layout.*attributes l"):
        m.with_parameter("slope", 0.1)

    # a number may change kind (a sweep sets floats): the spokes n, an int compiled as int(p[k]),
    # take 6.0 (a whole number); 7.5 has no int slot
    class Spokes(RimlessWheel):
        def parameters(self):
            return dict(super().parameters(), spokes=self.n)

        def with_parameter(self, name, value):
            if name != "spokes":
                return super().with_parameter(name, value)
            other = copy.copy(self)
            other.n = value
            return other

    m = clatter.python_model(Spokes(), compile=True)
    assert m.with_parameter("spokes", 6.0).parameters["spokes"] == 6.0
    with pytest.raises(ValueError, match=r"attributes n.*whole number"):
        m.with_parameter("spokes", 7.5)


def test_without_numba_the_error_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "numba", None)  # `import numba` raises ImportError
    with pytest.raises(ImportError, match="python3-numba.*compile=False"):
        clatter.python_model(RimlessWheel(), compile=True)
