"""Orbits periodic modulo a symmetry (issue 25 item 5) from Python, on McGeer's rimless wheel
written twice outside the library: in Python (examples/rimless_wheel/rimless_wheel.py) and in C++
as a plugin (rimless_wheel.cpp). Both against McGeer's closed form (McGeer 1990, "Passive dynamic
walking", IJRR 9(2) §2; restated in rimless_wheel.cpp): with alpha = pi/n, J = m l^2 + I,
eta = (m l^2 cos 2 alpha + I)/J, K = 4 m g l sin(alpha) sin(slope)/J, the gait's post-impact
angular velocity w*^2 = eta^2 K/(1 - eta^2), at mid-stance w0^2 = w*^2 + 2 m g l (cos(alpha -
slope) - cos(slope))/J, and the step-to-step multiplier eta^2.
"""
import math
import os

import pytest

import clatter


def closed_form(n=6, m=1.0, I=0.1, l=1.0, slope=0.2, g=9.81):
    a, J = math.pi / n, m * l * l + I
    eta = (m * l * l * math.cos(2 * a) + I) / J
    K = 4 * m * g * l * math.sin(a) * math.sin(slope) / J
    w2 = eta * eta * K / (1 - eta * eta)
    return eta, math.sqrt(w2), math.sqrt(w2 + 2 * m * g * l * (math.cos(a - slope) - math.cos(slope)) / J)


# the trailing spoke lifts off without an impulse (the classical analysis): the sequential rule
SEQUENTIAL = {"two_contact": "sequential"}


def gait(model):
    return clatter.periodic_orbit(model, ["xdot", "ydot", "thetadot"], anchor="theta", period=1.0,
                                  q=[0.0, 1.0, 0.0], qd=[1.5, 0.0, -1.5], modulo_symmetry=True,
                                  options=SEQUENTIAL)


def test_python_wheel_gait_is_mcgeers(python_wheel):
    eta, w_star, w0 = closed_form()
    o = gait(python_wheel)
    assert o["converged"], o["message"]
    assert o["x0"][5] == pytest.approx(-w0, abs=1e-8)
    impacts = [e for e in o["events"] if e["kind"] == "impact"]
    assert len(impacts) == 1
    assert abs(o["multipliers"][0]) == pytest.approx(eta * eta, abs=1e-5)
    assert o["stable"]


def test_plugin_wheel_gait_is_mcgeers_and_continues_in_the_slope():
    clatter.load_plugin("rimless_wheel")
    model = clatter.Model("rimless_wheel", law="stronge", e=0.0, mu=3.0, spokes=6)
    eta, w_star, w0 = closed_form()
    o = gait(model)
    assert o["converged"], o["message"]
    assert o["x0"][5] == pytest.approx(-w0, abs=1e-8)
    assert abs(o["multipliers"][0]) == pytest.approx(eta * eta, abs=1e-5)
    b = clatter.continue_orbit(model, ["xdot", "ydot", "thetadot"], "slope", (0.12, 0.24),
                               anchor="theta", period=1.0, q=[0.0, 1.0, 0.0], qd=[1.5, 0.0, -1.5],
                               modulo_symmetry=True, max_points=40, options=SEQUENTIAL)
    assert len(b["p"]) >= 4
    for p, u, lam in zip(b["p"], b["u"], b["max_abs_multiplier"]):
        _, _, w0p = closed_form(slope=p)
        assert u[2] == pytest.approx(-w0p, abs=1e-7)
        assert lam == pytest.approx(eta * eta, abs=1e-5)


def test_a_model_without_symmetry_is_refused(examples):
    sc = clatter.load_scenario(os.path.join(examples, "rocking_block.toml"))
    with pytest.raises(ValueError, match="symmetry"):
        clatter.periodic_orbit(sc, ["thetadot"], anchor="theta", period=1.0,
                               modulo_symmetry=True)


def test_gait_on_the_impact_section_of_spoke0(python_wheel):
    # just after spoke 0 lands (theta = alpha, pivoting on its tip), to just after spoke 1 lands
    eta, w_star, _ = closed_form()
    a, w = math.pi / 6, -1.1 * w_star
    o = clatter.periodic_orbit(python_wheel, ["xdot", "ydot", "thetadot"], impact="spoke0",
                               q=[0.0, math.cos(a), a], qd=[-w * math.cos(a), -w * math.sin(a), w],
                               modulo_symmetry=True, closed=["spoke0"], options=SEQUENTIAL)
    assert o["converged"], o["message"]
    assert o["x0"][5] == pytest.approx(-w_star, abs=1e-8)
    assert abs(o["multipliers"][0]) == pytest.approx(eta * eta, abs=1e-5)
