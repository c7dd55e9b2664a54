"""A user's own model written in Python (examples/python_model/planar_body.py), run by the same
engine through clatter.python_model.

Expected values: the built-in models (Model("ball"), Model("rod")) on the same start. Both runs
use the Runge-Kutta flow (exact_flight=False: a Python model has no closed-form flight), so they
perform the same arithmetic and must agree to 1e-12 (absolute, on states of order 1-10) over the
whole trajectory, with the same events (on the oscillating floor, the sines differ: see there).
"""
import os
import sys

import numpy as np
import pytest

import clatter

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples", "python_model"))
from planar_body import PlanarBody  # noqa: E402

TOL = 1e-12


def compare(a, b, tol_events=TOL, tol_states=TOL):
    assert a.reason == b.reason == "end_time"
    assert len(a.events["t"]) == len(b.events["t"]) >= 3
    np.testing.assert_array_equal(a.events["kind"], b.events["kind"])
    np.testing.assert_array_equal(a.events["contact"], b.events["contact"])
    np.testing.assert_allclose(a.events["t"], b.events["t"], rtol=0, atol=tol_events)
    np.testing.assert_allclose(a.t, b.t, rtol=0, atol=0)
    np.testing.assert_allclose(a.q, b.q, rtol=0, atol=tol_states)
    np.testing.assert_allclose(a.qd, b.qd, rtol=0, atol=tol_states)
    np.testing.assert_allclose(a.energy, b.energy, rtol=0, atol=tol_states)


def test_python_ball_equals_builtin_ball():
    builtin = clatter.Model("ball", mass=1.0, law="newton", e=0.8)
    mine = clatter.python_model(PlanarBody.ball(mass=1.0), law="newton", e=0.8)
    q, qd = [0.0, 1.0, 0.0], [0.3, 0.0, 0.0]
    opts = dict(t_end=2.0, output_dt=0.01, exact_flight=False)
    compare(clatter.simulate(mine, q, qd, **opts), clatter.simulate(builtin, q, qd, **opts))


def test_python_rod_equals_builtin_rod_on_oscillating_floor():
    # here the two runs do not perform the same arithmetic: the built-in surface and rotation take
    # their sines from clatter's sincos (core/sincos.hpp, within 3 ulp), the Python model from
    # numpy (within 1 ulp). The run ends in a chatter whose late, tiny bounces have ill-conditioned
    # times: the built-in rod started 1 ulp higher moves them by ~3e-10 s (checked below), so the
    # event times are compared to 1e-9 s and the states (well conditioned) to 1e-11.
    surface = dict(amplitude=0.3, omega=4.405)
    builtin = clatter.Model("rod", mass=1.0, half_length=1.0, surface=surface, e=0.8, mu=0.3)
    mine = clatter.python_model(PlanarBody.rod(1.0, 1.0, **surface), law="stronge", e=0.8, mu=0.3)
    q, qd = [0.0, 2.0, 0.4], [0.2, 0.0, 1.0]
    opts = dict(t_end=4.0, output_dt=0.01, exact_flight=False, two_contact="sequential")
    ref = clatter.simulate(builtin, q, qd, **opts)
    nudged = clatter.simulate(builtin, [0.0, np.nextafter(2.0, 3.0), 0.4], qd, **opts)
    assert len(nudged.events["t"]) == len(ref.events["t"])
    sensitivity = np.abs(nudged.events["t"] - ref.events["t"]).max()
    assert 1e-11 < sensitivity < 1e-9
    compare(clatter.simulate(mine, q, qd, **opts), ref, tol_events=1e-9, tol_states=1e-11)


def test_python_model_errors_surface_as_python_exceptions():
    # a callback raising: the engine stops and the exception reaches the caller unchanged
    class Broken(PlanarBody):
        def applied_forces(self, t, q, qd):
            raise ZeroDivisionError("from the model")

    m = clatter.python_model(Broken.ball(), law="newton", e=0.5)
    with pytest.raises(ZeroDivisionError, match="from the model"):
        clatter.simulate(m, [0, 1, 0], [0, 0, 0], t_end=1.0, exact_flight=False)

    class WrongShape(PlanarBody):
        def applied_forces(self, t, q, qd):
            return np.zeros(2)

    m = clatter.python_model(WrongShape.ball(), law="newton", e=0.5)
    with pytest.raises(ValueError, match="applied_forces: must return 3 numbers"):
        clatter.simulate(m, [0, 1, 0], [0, 0, 0], t_end=1.0, exact_flight=False)
    with pytest.raises(ValueError, match="law"):
        clatter.python_model(PlanarBody.ball(), law="bouncy")


def test_conformance_of_python_models():
    # expected: model/conformance.hpp's verdict (finite differences, tolerances 1e-6 / 1e-10 /
    # 1e-8 as there): the planar body passes; a sign error in J_N's rotation entry fails the
    # gap gradient of both contacts
    rod = clatter.python_model(PlanarBody.rod(1.0, 1.0, amplitude=0.3, omega=4.405), e=0.8)
    assert rod.check_conformance(0.1, [0.0, 2.0, 0.4], [0.2, 0.0, 1.0])["pass"]

    class WrongSign(PlanarBody):
        def contact(self, c, t, q, qd):
            g, J, w, gamma, scale = super().contact(c, t, q, qd)
            J = J.copy()
            J[1, 2] = -J[1, 2]
            return g, J, w, gamma, scale

    r = clatter.python_model(WrongSign.rod(1.0, 1.0), e=0.8).check_conformance(
        0.1, [0.0, 2.0, 0.4], [0.2, 0.0, 1.0])
    failed = {c["name"] for c in r["checks"] if not c["pass"]}
    assert not r["pass"] and {"contact.P1.gap_gradient", "contact.P2.gap_gradient"} <= failed


def test_parameters_of_a_python_model():
    # declared with value, unit and doc (examples/python_model/planar_body.py), changed by its
    # with_parameter: a ball dropped from y = 1 onto a fixed floor under gravity g first hits it
    # at t = sqrt(2/g), for the declared g and for a changed one (closed form, to 1e-10 s)
    ball = clatter.python_model(PlanarBody.ball(), law="newton", e=0.5)
    table = {p["name"]: p for p in ball.parameter_table()}
    assert table["gravity"]["value"] == 9.81 and table["gravity"]["unit"] == "m/s^2"
    assert table["surface.omega"]["doc"] == "floor frequency"
    for m, g in ((ball, 9.81), (ball.with_parameter("gravity", 4.0), 4.0)):
        assert m.parameters["gravity"] == g
        r = clatter.simulate(m, [0.0, 1.0, 0.0], [0.0, 0.0, 0.0], t_end=0.8, exact_flight=False,
                             events_only=True)
        first = r.events["t"][list(r.events["kind"]).index("impact")]
        assert first == pytest.approx(np.sqrt(2.0 / g), abs=1e-10)
    with pytest.raises(ValueError, match="unknown parameter|known"):
        ball.with_parameter("stiffness", 1.0)

    # without with_parameter: a copy with the attribute set; a model whose parameters do not show
    # the new value is refused, naming the parameter
    class Attr(PlanarBody):
        with_parameter = None  # not PlanarBody's: the default route

        def __init__(self):
            super().__init__(1.0, 1.0, [(0.0, 0.0)], ["ball"])
            self.k = 2.0

        def parameters(self):
            return {"k": self.k}

    class Stale(Attr):
        def parameters(self):
            return {"k": 2.0}

    assert clatter.python_model(Attr()).with_parameter("k", 3.0).parameters["k"] == 3.0
    with pytest.raises(ValueError, match="^k: .*shows 2 instead of 3"):
        clatter.python_model(Stale()).with_parameter("k", 3.0)


@pytest.mark.parametrize("compiled", [False, True])
def test_sweep_of_a_python_model_parameter(compiled):
    # sweep_parameters over the Python ball's surface.omega, as over a C++ model's: the ball on
    # A sin(omega t) (A = 1, e = 0.9) settles on its period-1 orbit, whose apex height is, in
    # closed form (impact once per period T = 2 pi/omega at the phase phi with
    # cos(phi) = g T (1 - e) / (2 A omega (1 + e)), take-off speed g T/2),
    #   y_apex = A sin(phi) + g T^2 / 8   (the stable orbit: sin(phi) > 0; [B] section 6.3);
    # to 1e-6 (the Runge-Kutta tolerance of a model without closed-form flight). Compiled (numba,
    # tests/python/test_compiled_model.py): the same, on two threads without the GIL, the data
    # re-packed by every with_parameter
    model = clatter.python_model(PlanarBody.ball(amplitude=1.0, omega=3.0), law="newton", e=0.9,
                                 compile=compiled)
    r = clatter.sweep_parameters(model, [("surface.omega", 3.0, 3.1, 3)],
                                 initial=[(0.0, [0.0, 3.0, 0.0], [0.0, 0.0, 0.0])],
                                 carry_over="up", transient_periods=300, record_periods=5,
                                 exact_flight=False, threads=2)
    g, A, e = 9.81, 1.0, 0.9
    for k, omega in enumerate(np.linspace(3.0, 3.1, 3)):
        assert r["surface.omega"][k] == pytest.approx(omega, abs=1e-15)
        T = 2.0 * np.pi / omega
        c = g * T * (1.0 - e) / (2.0 * A * omega * (1.0 + e))
        apex = A * np.sqrt(1.0 - c * c) + g * T * T / 8.0
        assert len(r["values"][k]) >= 5
        np.testing.assert_allclose(r["values"][k], apex, rtol=0, atol=1e-6)
