"""The coordinate-crossing Poincare section from Python (simulate(crossing=...), sweep_parameters
(section="crossing")), against closed forms:
- a ball in free flight: y(t) = y0 + v0 t - g t^2/2 crosses c at (v0 -+ sqrt(v0^2 - 2g(c - y0)))/g
  with ydot = +-sqrt(v0^2 - 2g(c - y0)) (energy);
- a pendulum (Runge-Kutta phases only): phi = 0 first reached after the quarter period
  sqrt(I/(m g d)) K(sin(phi0/2)), with |phidot| = sqrt(2 m g d (1 - cos phi0)/I) (energy);
- the ball on the table's period-1 orbit ([B] 6.3 [DERIVED]): it falls through y = 3 with
  ydot = -sqrt(2 g (H - 3)), H = A sin(phi) + g pi^2/(2 omega^2), cos(phi) = Gamma_SN/Gamma.
"""
import math
import os

import numpy as np
import pytest

import clatter

G = 9.81


def ellipk(k):
    """K(k) = pi / (2 AGM(1, sqrt(1 - k^2)))."""
    a, b = 1.0, math.sqrt(1.0 - k * k)
    for _ in range(40):  # quadratic convergence: round-off after ~5 steps
        a, b = 0.5 * (a + b), math.sqrt(a * b)
    return math.pi / (2.0 * a)


def test_ball_in_flight_crosses_at_the_ballistic_times():
    ball = clatter.Model("ball", mass=1.0, law="newton", e=0.5)
    y0, v0, c = 1.0, 5.0, 2.0
    root = math.sqrt(v0 * v0 - 2 * G * (c - y0))
    t_up, t_down = (v0 - root) / G, (v0 + root) / G
    both = clatter.simulate(ball, q=[0, y0, 0], qd=[0, v0, 0], t_end=1.1, crossing=("y", c))
    # closed-form flight: round-off (1e-13)
    np.testing.assert_allclose(both.sections["t"], [t_up, t_down], rtol=0, atol=1e-13)
    np.testing.assert_allclose(both.sections["qd"][:, 1], [root, -root], rtol=0, atol=1e-12)
    np.testing.assert_allclose(both.sections["q"][:, 1], [c, c], rtol=0, atol=1e-13)
    up = clatter.simulate(ball, q=[0, y0, 0], qd=[0, v0, 0], t_end=1.1, crossing=("y", c, "up"))
    np.testing.assert_allclose(up.sections["t"], [t_up], rtol=0, atol=1e-13)
    down = clatter.simulate(ball, q=[0, y0, 0], qd=[0, v0, 0], t_end=1.1,
                            sections="crossing:y:2:down")
    np.testing.assert_allclose(down.sections["t"], [t_down], rtol=0, atol=1e-13)


def test_pendulum_crosses_the_bottom_at_the_elliptic_quarter_period():
    m, d, I, phi0 = 1.0, 0.5, 1.0 / 3.0, 1.0
    pendulum = clatter.Model("physical_pendulum", mass=m, com_distance=d, inertia=I,
                             tip_distance=1.0, line_height=-2.0)
    quarter = math.sqrt(I / (m * G * d)) * ellipk(math.sin(phi0 / 2))
    rate = math.sqrt(2 * m * G * d * (1 - math.cos(phi0)) / I)
    r = clatter.simulate(pendulum, q=[phi0], qd=[0.0], t_end=5.0, crossing=("phi", 0.0))
    assert r.counts["rk_steps"] > 0
    k = np.arange(len(r.sections["t"]))
    assert len(k) == int((5.0 / quarter + 1) // 2)
    # Runge-Kutta at rtol = atol = 1e-12 over 5 s: 1e-9
    np.testing.assert_allclose(r.sections["t"], quarter * (1 + 2 * k), rtol=0, atol=1e-9)
    np.testing.assert_allclose(r.sections["qd"][:, 0], rate * np.where(k % 2 == 0, -1, 1),
                               rtol=0, atol=1e-9)


def test_sweep_on_the_crossing_section_gives_the_falling_speed(examples):
    e, A, w = 0.9, 1.0, 3.0
    phi = math.acos(math.pi * (1 - e) / (1 + e) / (A * w * w / G))
    H = A * math.sin(phi) + G * math.pi ** 2 / (2 * w * w)
    sc = clatter.load_scenario(os.path.join(examples, "ball_table_period1.toml"))
    r = clatter.sweep_parameters(sc, [("surface.omega", 3.0, 3.0, 1)], section="crossing",
                                 crossing=("y", 3.0, "down"), observe="ydot",
                                 transient_periods=600, record_periods=10)
    assert r["distinct"] == [1]
    assert len(r["values"][0]) == 10
    # the transient leaves < 1e-20; flights in closed form: 1e-8 m/s
    assert abs(r["values"][0][-1] + math.sqrt(2 * G * (H - 3.0))) < 1e-8


def test_bad_crossing_is_refused_with_the_field_named():
    ball = clatter.Model("ball", mass=1.0, law="newton", e=0.5)
    with pytest.raises(ValueError, match="sections"):
        clatter.simulate(ball, q=[0, 1, 0], qd=[0, 0, 0], t_end=1.0, crossing=("z", 0.0))
    with pytest.raises(ValueError, match="sections"):
        clatter.simulate(ball, q=[0, 1, 0], qd=[0, 0, 0], t_end=1.0, crossing=("y", 0.5, "sideways"))
    with pytest.raises(ValueError, match="crossing"):
        clatter.simulate(ball, q=[0, 1, 0], qd=[0, 0, 0], t_end=1.0, crossing=("y",))
    with pytest.raises(ValueError, match="crossing"):
        clatter.sweep_parameters(ball, [("surface.omega", 3.0, 3.0, 1)], section="crossing",
                                 initial=[(0.0, [0, 3, 0], [0, 0, 0])])
