"""What new users met with systems of their own, each now a test: a forced impact pendulum and a
block on a belt written as Python models (the first review, 2026-11-29); a block on a belt with a
wall behind it, a forced oscillator between two stops and a chain of three unequal balls (the
second review, the same day; the section below its marker). Expected values are closed forms,
each derived in its test's docstring.

Expected values are analytic: the pendulum below its stop never reaches it (started at rest, its
response to a torque amplitude 0.05 N m is the steady one, of amplitude at most
0.05 / (m g L - m L^2 omega^2) = 0.014 rad for omega = 2.5, away from resonance sqrt(g/L) = 3.13,
plus a decaying free oscillation no larger: below 0.03 rad, far from the stop at 0.3 rad); a
negative mass falls
upwards, so it must be refused; a contact with J_T = 0 has a rank-one W and no regions of
Stronge's law.
"""
import copy
import math
import os

import numpy as np
import pytest

import clatter


class Pendulum:
    """A point mass on a massless rod (L = 1), torque tau0 cos(omega t), a stop at theta_s:
    m L^2 theta'' = -m g L sin(theta) - c theta' + tau0 cos(omega t); gap L (theta_s - theta),
    J_N = -L, J_T = 0 (a one-coordinate contact)."""
    nq = 1
    contacts = ["stop"]
    coordinate_names = ["theta"]

    def __init__(self, m=1.0, tau0=3.0, omega=2.5, theta_s=0.3, extra=None):
        self.m, self.L, self.g, self.c = m, 1.0, 9.81, 0.2
        self.tau0, self.omega, self.theta_s = tau0, omega, theta_s
        self.extra = extra or {}

    def parameters(self):
        p = {"torque": (self.tau0, "N m", "torque amplitude"),
             "omega": (self.omega, "rad/s", "forcing frequency")}
        p.update(self.extra)
        return p

    def with_parameter(self, name, value):
        o = copy.copy(self)
        setattr(o, {"torque": "tau0", "omega": "omega"}[name], value)
        return o

    def mass_matrix(self, t, q):
        return ((self.m * self.L * self.L,),)

    def applied_forces(self, t, q, qd):
        return (-abs(self.m) * self.g * self.L * math.sin(q[0]) - self.c * qd[0]
                + self.tau0 * math.cos(self.omega * t),)

    def contact(self, c, t, q, qd):
        return (self.L * (self.theta_s - q[0]), ((0.0,), (-self.L,)), (0.0, 0.0), (0.0, 0.0),
                self.L)

    def potential_energy(self, t, q):
        return abs(self.m) * self.g * self.L * (1.0 - math.cos(q[0]))

    def applied_power(self, t, q, qd):
        return (-self.c * qd[0] + self.tau0 * math.cos(self.omega * t)) * qd[0]

    def force_scale(self):
        return abs(self.m) * self.g + abs(self.tau0) / self.L


def test_simulate_with_out_writes_the_files_and_the_plot_for_a_model(tmp_path):
    # it wrote the CSVs, then failed on the plot's title (None) for anything but a Scenario
    for label, model, start in (
            ("ball", clatter.Model("ball", mass=1.0, e=0.8, law="newton"),
             dict(q=[0.0, 1.0, 0.0], qd=[0.0, 0.0, 0.0])),
            ("pendulum", clatter.python_model(Pendulum(), law="newton", e=0.7),
             dict(q=[0.0], qd=[0.0]))):
        folder = tmp_path / label
        r = clatter.simulate(model, t_end=1.0, out=str(folder), progress=False, **start)
        assert r.reason == "end_time"
        for name in ("timeseries", "events", "summary", "plot"):
            assert os.path.isfile(r.files[name]), (label, name)


def test_a_section_the_run_never_crosses_is_empty_not_an_error():
    # below the stop all along (see the module's docstring): no impact within 20 s
    pend = clatter.python_model(Pendulum(tau0=0.05), law="newton", e=0.7)
    s = clatter.poincare(pend, "impact", count=3, q=[0.0], qd=[0.0], t_max=20.0)
    assert len(s["t"]) == 0 and len(s["theta"]) == 0 and len(s["thetadot"]) == 0
    assert s.x.shape == (0, 2)
    assert s.message, s.stopped  # why it found none
    with_crossings = clatter.poincare(pend, "crossing:theta:0.0:up", count=3, q=[0.0], qd=[0.0],
                                      t_max=20.0)
    assert len(with_crossings["t"]) == 3


def test_a_negative_mass_is_refused_by_the_engine_and_by_the_conformance_check():
    pend = clatter.python_model(Pendulum(m=-1.0), law="newton", e=0.7)
    with pytest.raises(ValueError, match="model.mass_matrix.*positive definite"):
        clatter.simulate(pend, q=[0.0], qd=[0.0], t_end=1.0, progress=False)
    report = pend.check_conformance(0.0, [0.1], [0.2])
    assert not report["pass"]
    failed = [c["name"] for c in report["checks"] if not c["pass"]]
    assert "mass_spd" in failed, failed


def test_a_parameter_named_as_the_contacts_is_refused_at_once():
    # "mu" would have been hidden by the contacts' mu: with_parameter("mu") set the friction
    for clash in ("mu", "e", "contact.stop.mu_s"):
        with pytest.raises(ValueError, match=f"'{clash}' is given twice"):
            clatter.python_model(Pendulum(extra={clash: (0.5, "", "mine")}), law="newton", e=0.7)
    ok = clatter.python_model(Pendulum(extra={"mu_pivot": (0.5, "", "mine")}), law="newton", e=0.7)
    assert ok.parameters["mu_pivot"] == 0.5


def test_the_boundary_of_stronges_regions_is_refused_on_a_rank_one_contact():
    # before: "converged" at the starting mu with H = 0 (H vanishes identically there)
    pend = clatter.python_model(Pendulum(), law="stronge", e=0.7, mu=0.3)
    with pytest.raises(ValueError, match="rank one"):
        clatter.boundary_crossing(pend, None, "mu", q=[0.0], qd=[0.0], t0=0.0, frequency="omega",
                                  transient=40, regions=(1, 3))


def test_a_parameter_cannot_be_set_to_nan_or_infinity():
    pend = clatter.python_model(Pendulum(), law="newton", e=0.7)
    for bad in (float("nan"), float("inf")):
        with pytest.raises(ValueError, match="torque: must be a finite number"):
            pend.with_parameter("torque", bad)
    builtin = clatter.Model("ball", mass=1.0)
    with pytest.raises(ValueError, match="mass: must be a finite number"):
        builtin.with_parameter("mass", float("nan"))


def test_errors_name_the_keyword_the_caller_passed():
    # the library names its fields as the CLI and the scenario do (initial.qdot, range, param)
    pend = clatter.python_model(Pendulum(), law="newton", e=0.7)
    with pytest.raises(ValueError, match=r"^qd: must have 1 entries"):
        clatter.periodic_orbit(pend, q=[0.0], qd=[0.0, 1.0], t0=0.0, frequency="omega")
    with pytest.raises(ValueError, match=r"^p_range: must be two finite values"):
        clatter.continue_orbit(pend, None, "torque", p_range=(4.0, 1.0), q=[0.0], qd=[0.0],
                               t0=0.0, frequency="omega")


# ---------------------------------------------------------------------------------------------
# The second review (2026-11-29, a block on a belt with a wall behind it, a forced two-sided
# impact oscillator, a chain of three unequal balls; Python models and C++ plugins).

class BeltWall:
    """A mass on a belt of speed vb (mu_s = 0.4, mu_d = 0.2), held by a spring k to x = 0, with
    a rigid wall behind it at x = xw (e = 0.5): q = (x, y); contact belt: gap y, obstacle
    velocity (vb, 0); contact wall: gap x - xw."""
    nq = 2
    contacts = ["belt", "wall"]
    coordinate_names = ["x", "y"]

    def __init__(self, vb=0.5, k=10.0, m=1.0, g=9.81, xw=-0.03):
        self.vb, self.k, self.m, self.g, self.xw = vb, k, m, g, xw

    def parameters(self):
        return {"vb": (self.vb, "m/s", "belt velocity"), "xw": (self.xw, "m", "wall")}

    def with_parameter(self, name, value):
        o = copy.copy(self)
        setattr(o, name, value)
        return o

    def mass_matrix(self, t, q):
        return ((self.m, 0.0), (0.0, self.m))

    def applied_forces(self, t, q, qd):
        return (-self.k * q[0], -self.m * self.g)

    def contact(self, c, t, q, qd):
        if c == 0:
            return q[1], ((1.0, 0.0), (0.0, 1.0)), (self.vb, 0.0), (0.0, 0.0)
        return q[0] - self.xw, ((0.0, 1.0), (1.0, 0.0)), (0.0, 0.0), (0.0, 0.0)

    def potential_energy(self, t, q):
        return 0.5 * self.k * q[0] * q[0] + self.m * self.g * q[1]

    def force_scale(self):
        return self.m * self.g


def belt_wall(**kw):
    m = clatter.python_model(BeltWall(**kw), law="stronge", e=0.5, mu=0.2)
    return m.with_parameter("contact.belt.mu_s", 0.4).with_parameter("contact.wall.mu", 0.0)


def belt_wall_cycle(vb, k=10.0, m=1.0, g=9.81, xw=-0.03, mu_s=0.4, mu_d=0.2, e=0.5):
    """The stick -> slip -> impact -> slip -> stick cycle in closed form (piecewise harmonic
    about x_d = mu_d m g / k, w = sqrt(k/m)): slip from x_s = mu_s m g / k at the belt's speed
    to the wall, the impact reverses the speed times e, slip until xdot = vb, stick back to x_s.
    Returns the period and the speed just after the impact."""
    w = math.sqrt(k / m)
    xs, xd = mu_s * m * g / k, mu_d * m * g / k
    a, b = xs - xd, vb / w
    R, ph = math.hypot(a, b), math.atan2(b, a)
    t1 = (math.acos((xw - xd) / R) + ph) / w
    u = -e * (-R * w * math.sin(w * t1 - ph))
    R2, ph2 = math.hypot(xw - xd, u / w), math.atan2(u / w, xw - xd)
    s2 = (-math.pi + math.asin(vb / (R2 * w)) + ph2) / w
    if s2 < 0.0:
        s2 += 2.0 * math.pi / w
    x_stick = xd + R2 * math.cos(w * s2 - ph2)
    return t1 + s2 + (xs - x_stick) / vb, u


def test_a_branch_on_an_impact_section_reports_each_orbits_period():
    # the period column held max_period (1000 s) at every point; the orbits are the closed form
    m = belt_wall()
    br = clatter.continue_orbit(m, None, "vb", (0.45, 0.55), direction="up", progress=False,
                                impact="wall", q=[-0.03, 0.0], qd=[0.2, 0.0], max_points=8)
    assert len(br["p"]) >= 4
    for p, period, xdot in zip(br["p"], br["period"], br["xdot"]):
        T, u = belt_wall_cycle(p)
        assert abs(period - T) < 1e-8, (p, period, T)
        assert abs(xdot - u) < 1e-8, (p, xdot, u)
    assert br["multipliers_reliable"].all()


def test_an_orbit_posed_on_a_stick_boundary_has_the_multipliers_of_its_neighbours():
    # at x = 0.2 (mu_d m g / k < k x < mu_s m g: the mass sticks there) a velocity 1e-6 below
    # the belt's starts a slip the unperturbed orbit does not have; central differences across
    # that gave |lambda| = 332, "unstable". The stick phase collapses any perturbation of xdot:
    # the return map's derivative is 0 (analytic), as at x = 0.19 and 0.3, where no difference
    # straddles it.
    m = belt_wall()
    T, _ = belt_wall_cycle(0.5)
    for x in (0.19, 0.2, 0.3):
        o = clatter.periodic_orbit(m, anchor="x", period=2.0, q=[x, 0.0], qd=[0.5, 0.0],
                                   closed=["belt"])
        assert o["converged"], o["message"]
        assert o["solved"] == ["xdot"]  # the default leaves out y, ydot: the belt holds them
        assert abs(o["period"] - T) < 1e-9
        assert max(abs(complex(l)) for l in o["multipliers"]) < 1e-6, (x, o["multipliers"])
        assert o["stable"] and o["monodromy_warning"] == ""


def test_a_start_resting_on_an_undeclared_contact_gives_the_declared_ones_orbit():
    # the differences pushed y into the belt, a penetration refused (with a hint to declare the
    # contact closed) until 0.6.0; a start below an obstacle by less than 1e-6 of its gap scale
    # is now touching it, so the orbit with y solved is the declared one's (its period and its
    # multipliers, 0: a stick phase forgets every perturbation)
    declared = clatter.periodic_orbit(belt_wall(), anchor="x", period=2.0, q=[0.2, 0.0],
                                      qd=[0.5, 0.0], closed=["belt"], plot=False)
    undeclared = clatter.periodic_orbit(belt_wall(), anchor="x", period=2.0, q=[0.2, 0.0],
                                        qd=[0.5, 0.0], plot=False)
    assert declared["converged"] and undeclared["converged"], undeclared["message"]
    assert undeclared["solved"] == ["y", "xdot", "ydot"]
    assert undeclared["period"] == pytest.approx(declared["period"], abs=1e-9)
    T, _ = belt_wall_cycle(0.5)
    assert declared["period"] == pytest.approx(T, abs=1e-8)
    assert max(abs(complex(l)) for l in undeclared["multipliers"]) < 1e-6


def test_a_transient_before_an_impact_section_runs_from_the_given_start():
    # q, qd and transient on an impact section were refused: "takes no transient"
    T, u = belt_wall_cycle(0.5)
    o = clatter.periodic_orbit(belt_wall(), impact="wall", q=[0.0, 0.0], qd=[0.5, 0.0],
                               closed=["belt"], transient=2)
    assert o["converged"], o["message"]
    assert abs(o["period"] - T) < 1e-9 and abs(o["x0"][2] - u) < 1e-9


def test_a_contacts_mu_sets_its_sustained_friction_too():
    # contact.wall.mu = 0 left the wall's mu_s = mu_d at 0.2: "mu sets mu_s = mu_d" (models.md)
    m = clatter.python_model(BeltWall(), law="stronge", e=0.5, mu=0.2)
    m = m.with_parameter("contact.wall.mu", 0.0)
    params = m.parameters
    assert params["contact.wall.mu"] == 0.0
    assert params["contact.wall.mu_s"] == 0.0 and params["contact.wall.mu_d"] == 0.0
    assert params["contact.belt.mu_s"] == 0.2  # the other contact unchanged


def test_the_bifurcations_table_exports_to_pandas_and_xarray():
    pytest.importorskip("pandas")
    pend = clatter.python_model(Pendulum(), law="newton", e=0.8)
    br = clatter.continue_orbit(pend, None, "omega", (2.0, 3.0), q=[0.0], qd=[0.0], t0=0.0,
                                frequency="omega", transient=40, max_points=30, progress=False)
    frame = br.bifurcations.to_pandas()
    assert list(frame.columns[:3]) == ["branch", "kind", "p"] and len(frame) == len(
        br.bifurcations["p"])
    assert "u" not in frame.columns  # the unknowns are the named columns
    pytest.importorskip("xarray")
    assert br.bifurcations.to_xarray().sizes["row"] == len(frame)


def test_messages_name_the_python_models_class_and_an_arrays_shape():
    pend = clatter.python_model(Pendulum(), law="newton", e=0.7)
    with pytest.raises(ValueError, match=r"q: must be a flat sequence of 1 numbers .*got \(1, 1\)"):
        clatter.simulate(pend, q=[[0.3]], qd=[0.0], t_end=1.0)
    with pytest.raises(ValueError, match=r"python:Pendulum"):
        clatter.sweep_parameters(pend, [("torque", 1.0, 2.0, 3)],
                                 initial=[(0.0, [0.0], [0.0])], progress=False)


def test_an_unforced_sweep_is_told_so_before_the_sections_defaults():
    # the first error was 'unknown quantity "y" on the apex section'
    pend = clatter.python_model(Pendulum(), law="newton", e=0.7)
    with pytest.raises(ValueError, match="not forced.*period_parameter"):
        clatter.sweep_parameters(pend, [("torque", 1.0, 2.0, 3)],
                                 initial=[(0.0, [0.0], [0.0])], progress=False)
    with pytest.raises(ValueError, match=r"the default, y at the apex section.*observe="):
        clatter.sweep_parameters(pend, [("torque", 1.0, 2.0, 3)], period_parameter="omega",
                                 initial=[(0.0, [0.0], [0.0])], progress=False)


class TwoStops:
    """m x'' + c x' + k x = F cos(W t) between stops at x = -d and +d: x -> -x with the stops
    swapped is a symmetry only together with half a forcing period (F cos(W t + pi) = -F cos)."""
    nq = 1
    contacts = ["low", "high"]
    coordinate_names = ["x"]
    W = 1.0
    parameters = {"W": (1.0, "rad/s", "forcing frequency")}

    def mass_matrix(self, t, q):
        return ((1.0,),)

    def applied_forces(self, t, q, qd):
        return (-q[0] - 0.1 * qd[0] + 1.0 * math.cos(self.W * t),)

    def contact(self, c, t, q, qd):
        s = 1.0 if c == 0 else -1.0  # low: gap x + d, high: d - x
        return 1.0 + s * q[0], ((0.0,), (s,)), (0.0, 0.0), (0.0, 0.0)

    def potential_energy(self, t, q):
        return 0.5 * q[0] * q[0]

    def force_scale(self):
        return 1.0

    def symmetry(self, t, q, qd):
        return (-q[0],), (-qd[0],)

    symmetry_contacts = [1, 0]


def test_a_symmetry_that_needs_a_shift_of_the_forcing_is_refused():
    # it was accepted and returned a "converged, stable" orbit that is not periodic: at t = 0
    # the image's rate differs from the rate's image by 2 F cos(W t) = 2
    m = clatter.python_model(TwoStops(), law="newton", e=0.8)
    with pytest.raises(ValueError, match="symmetry does not map its motions onto motions"):
        clatter.periodic_orbit(m, frequency="W", q=[0.0], qd=[0.5], t0=0.0,
                               modulo_symmetry=True, plot=False)
    # posed on an anchored section, as the helper did, it is refused first: a forced model's
    # motion depends on t (0.6.0)
    with pytest.raises(ValueError, match="depends on time"):
        clatter.periodic_orbit(m, anchor="x", period=3.0, q=[0.0], qd=[0.5],
                               modulo_symmetry=True, plot=False)


class Chain3:
    """Three balls of masses 1, 2, 0.5 and radius 0.1 on a line, no forces: contacts ab (gap
    x2 - x1 - 2r) and bc (x3 - x2 - 2r), each with J_T = 0 (frictionless, W of rank one)."""
    nq = 3
    contacts = ["ab", "bc"]
    masses = (1.0, 2.0, 0.5)

    def mass_matrix(self, t, q):
        m = self.masses
        return ((m[0], 0.0, 0.0), (0.0, m[1], 0.0), (0.0, 0.0, m[2]))

    def applied_forces(self, t, q, qd):
        return (0.0, 0.0, 0.0)

    def contact(self, c, t, q, qd):
        jn = (-1.0, 1.0, 0.0) if c == 0 else (0.0, -1.0, 1.0)
        gap = q[c + 1] - q[c] - 0.2
        return gap, ((0.0, 0.0, 0.0), jn), (0.0, 0.0), (0.0, 0.0)

    def potential_energy(self, t, q):
        return 0.0

    def force_scale(self):
        return 1.0


def test_two_unequal_contacts_struck_at_once_are_resolved_in_turn_not_as_a_symmetric_pair():
    # balls 1 and 3 reach ball 2 at the same instant with equal approach speeds, but the two
    # contacts' W differ (1/m1 + 1/m2 = 1.5, 1/m2 + 1/m3 = 2.5): the "nearly symmetric pair"
    # rule gave equal impulses (a final (0, 0, 1) with e = 0.5, momentum not conserved). In
    # turn, each an elastic two-body collision (analytic): bc first gives (-13/15, 8/15, 3/5),
    # ab first (-1/3, 0, 5/3). Momentum and (e = 1) energy are conserved either way.
    m = clatter.python_model(Chain3(), law="stronge", e=1.0, mu=0.0)
    r = clatter.simulate(m, q=[-0.5, 0.2, 0.9], qd=[1.0, 0.0, -1.0], t_end=1.0, progress=False)
    v = r.qd_final
    masses = np.asarray(Chain3.masses)
    assert abs(masses @ v - 0.5) < 1e-12  # 1 * 1 + 0.5 * (-1)
    assert abs(0.5 * masses @ (v * v) - 0.75) < 1e-12
    in_turn = (np.array([-13.0 / 15.0, 8.0 / 15.0, 0.6]), np.array([-1.0 / 3.0, 0.0, 5.0 / 3.0]))
    assert min(np.max(np.abs(v - w)) for w in in_turn) < 1e-12, v
    # one row and one count per impact
    impacts = int(np.sum(r.events["kind"] == "impact"))
    assert impacts == 2 and r.counts["impacts"] == 2 and r.counts["events"] == 2, r.counts


def test_the_boundary_of_stronges_regions_needs_a_contact_under_stronges_law():
    # "regions 1 and 2 share no boundary" did not say that the model's law was Newton's
    pend = clatter.python_model(Pendulum(), law="newton", e=0.7)
    with pytest.raises(ValueError, match=r"^law: dib locates .* no contact of the model uses it"):
        clatter.boundary_crossing(pend, None, "torque", q=[0.0], qd=[0.0], t0=0.0,
                                  frequency="omega", transient=40, regions=(1, 2))


class ImpactPendulum:
    """theta'' + c theta' + sin(theta) = A cos(W t), a wall at theta = 0 (gap theta), e = 0.8."""
    nq = 1
    contacts = ["wall"]
    coordinate_names = ["theta"]

    def __init__(self, omega=1.2):
        self.omega = omega

    def parameters(self):
        return {"omega": (self.omega, "rad/s", "forcing frequency")}

    def with_parameter(self, name, value):
        return ImpactPendulum(value)

    def mass_matrix(self, t, q):
        return ((1.0,),)

    def applied_forces(self, t, q, qd):
        return (0.5 * math.cos(self.omega * t) - 0.1 * qd[0] - math.sin(q[0]),)

    def contact(self, c, t, q, qd):
        return q[0], ((0.0,), (1.0,)), (0.0, 0.0), (0.0, 0.0)

    def potential_energy(self, t, q):
        return 1.0 - math.cos(q[0])

    def force_scale(self):
        return 1.0


def test_the_periodic_shortcut_records_the_shortest_cycle():
    # at W = 1.2 the motion repeats every 2 forcing periods (3 impacts in 2: the full run's
    # strobe values alternate), but the shortcut reported cycle = 4, a multiple, found first
    m = clatter.python_model(ImpactPendulum(), law="newton", e=0.8)
    kw = dict(initial=[(0.0, [0.3], [0.0])], section="strobe", observe="theta",
              period_parameter="omega", transient_periods=300, record_periods=50, progress=False)
    full = clatter.sweep_parameters(m, [("omega", 1.2, 1.2, 1)], periodic_tol=0, **kw)
    v = np.asarray(full["values"][0])
    assert np.max(np.abs(v[2:] - v[:-2])) < 1e-8 and abs(v[1] - v[0]) > 1e-3  # period 2
    quick = clatter.sweep_parameters(m, [("omega", 1.2, 1.2, 1)], **kw)
    assert quick["cycle"][0] == 2 and quick["distinct"][0] == 2


def test_a_block_at_rest_on_two_corners_sticks_on_both():
    # with mu = 0.3 < b/h = 0.5 the first corner, decided alone with the other still open, was
    # set sliding at zero speed and stayed so for the whole run. At rest on a level floor the
    # contact forces are m g / 2 each and no tangential force is needed (analytic): both stick.
    for mu in (0.3, 0.8):
        m = clatter.Model("block", mass=1.0, half_width=0.1, half_height=0.2, e=0.0, mu=mu)
        r = clatter.simulate(m, q=[0.0, 0.2, 0.0], qd=[0.0, 0.0, 0.0], t_end=0.5, progress=False)
        assert r.reason == "end_time"
        assert list(r.modes[0][:2]) == [3, 3] and list(r.modes[-1][:2]) == [3, 3], (mu, r.modes[0])
        assert len(r.events["t"]) == 0


class GearMesh:
    """Two gears (inertias 1, 2; radii 1, 1.5) with backlash 2b = 0.2 in the mesh coordinate
    x = r1 theta1 - r2 theta2, torque sin(W t) on gear 1, dampers 0.05, 0.2; contacts drive
    (gap b - x) and coast (b + x), e = 0.7. Coordinates (theta1, x): theta1 is cyclic."""
    nq = 2
    contacts = ["drive", "coast"]
    coordinate_names = ["theta1", "x"]

    def __init__(self, omega=2.0):
        self.omega = omega

    def parameters(self):
        return {"omega": (self.omega, "rad/s", "forcing frequency")}

    def with_parameter(self, name, value):
        return GearMesh(value)

    def mass_matrix(self, t, q):
        k = 2.0 / 1.5 ** 2
        return ((1.0 + k, -k), (-k, k))

    def applied_forces(self, t, q, qd):
        w2 = (qd[0] - qd[1]) / 1.5
        t2 = -0.2 * w2
        return (math.sin(self.omega * t) - 0.05 * qd[0] + t2 / 1.5, -t2 / 1.5)

    def contact(self, c, t, q, qd):
        s = -1.0 if c == 0 else 1.0
        return 0.1 + s * q[1], ((1.0, 0.0), (0.0, s)), (0.0, 0.0), (0.0, 0.0)

    def potential_energy(self, t, q):
        return 0.0

    def applied_power(self, t, q, qd):
        w2 = (qd[0] - qd[1]) / 1.5
        return (math.sin(self.omega * t) - 0.05 * qd[0]) * qd[0] - 0.2 * w2 * w2

    def force_scale(self):
        return 1.0


def impact_speeds(model, omega):
    """The drive and coast impact speeds of the motion settled after 150 forcing periods."""
    m = model.with_parameter("omega", omega)
    T = 2.0 * math.pi / omega
    r = clatter.simulate(m, q=[0.0, 0.0], qd=[0.0, 0.0], t_end=160 * T, events_only=True,
                         progress=False)
    ev = r.events
    late = (ev["kind"] == "impact") & (ev["t"] > 150 * T)
    speeds = {}
    for name in ("drive", "coast"):
        v = -np.asarray(ev["v_N_pre"])[late & (ev["contact"] == name)]
        speeds[name] = v
    return speeds


def test_a_symmetric_orbit_that_loses_its_symmetry_is_a_branch_point():
    # a real multiplier crossed +1 where the branch did not turn back, and nothing was reported
    # (a fold needs the turn). Independent check by simulation: above the branch point the
    # settled motion is the symmetric one (each flank is hit at the same speeds, to 1e-5), below
    # it an asymmetric one (the flanks' speeds differ).
    model = clatter.python_model(GearMesh(), law="newton", e=0.7, compile=True)
    br = clatter.continue_orbit(model, ["x", "theta1dot", "xdot"], "omega", (1.0, 4.0),
                                direction="down", q=[0.0, 0.0], qd=[0.0, 0.0], t0=0.0,
                                frequency="omega", transient=50, progress=False)
    bp = br.bifurcation("BP")
    assert len(bp) == 1, list(zip(br.bifurcations["kind"], br.bifurcations["p"]))
    # the speeds each flank takes within a period, as sorted sets
    def flanks(speeds):
        return [np.unique(np.round(speeds[name], 6)) for name in ("drive", "coast")]

    drive, coast = flanks(impact_speeds(model, bp[0] + 0.05))
    assert len(drive) == len(coast) and np.max(np.abs(drive - coast)) < 1e-5, (drive, coast)
    drive, coast = flanks(impact_speeds(model, bp[0] - 0.05))
    assert len(drive) != len(coast) or np.max(np.abs(drive - coast)) > 1e-2, (drive, coast)


def test_components_left_out_or_a_family_of_orbits_are_refused():
    # leaving out a coordinate the motion depends on gave the multipliers of a block of the
    # monodromy, "converged"; solving for a cyclic one made every orbit one of a family
    # (multiplier 1), and continuation reported a false fold at every turn of its wandering
    model = clatter.python_model(GearMesh(), law="newton", e=0.7, compile=True)
    start = dict(q=[0.0, 0.0], qd=[0.0, 0.0], t0=0.0, frequency="omega", transient=50)
    o = clatter.periodic_orbit(model, ["theta1dot", "xdot"], **start)
    assert not o["converged"] and "the component x is not solved for" in o["message"]
    o = clatter.periodic_orbit(model, ["theta1", "x", "theta1dot", "xdot"], **start)
    assert o["converged"] and min(abs(complex(l) - 1.0) for l in o["multipliers"]) < 1e-6
    with pytest.raises(ValueError, match="start: the start orbit has a multiplier 1"):
        clatter.continue_orbit(model, ["theta1", "x", "theta1dot", "xdot"], "omega", (1.0, 4.0),
                               progress=False, **start)


def test_a_models_list_parameter_is_given_as_a_python_list():
    # docs/models.md: "a cradle's ball masses are masses = [...]"; Python refused any list
    masses = [1.0, 1.5, 1.0, 0.7, 1.2]
    by_list = clatter.Model("pendulum_chain", masses=masses, radius=0.05, length=0.3)
    by_array = clatter.Model("pendulum_chain", masses=np.array(masses), radius=0.05, length=0.3)
    by_name = clatter.Model("pendulum_chain", n=5, radius=0.05, length=0.3,
                            **{f"{b}.mass": x for b, x in zip("ABCDE", masses)})
    assert by_list.parameters == by_name.parameters == by_array.parameters
    with pytest.raises(ValueError, match=r"model.masses\[1\]: must be a number"):
        clatter.Model("pendulum_chain", masses=[1.0, "heavy"], radius=0.05, length=0.3)


class PendulumWrongRow(Pendulum):
    """The pendulum with its contact's normal row of the wrong sign (J_N = +L for the gap
    L (theta_s - theta), whose gradient is -L)."""

    def contact(self, c, t, q, qd):
        return (self.L * (self.theta_s - q[0]), ((0.0,), (self.L,)), (0.0, 0.0), (0.0, 0.0),
                self.L)


def test_a_python_model_is_checked_for_conformance_at_its_first_run():
    # a sign error in J ran without an error (the ball ended 13 m inside the table); the CLI
    # checks a plugin's model at its start, Python did not
    bad = clatter.python_model(PendulumWrongRow(), law="newton", e=0.7)
    with pytest.warns(UserWarning, match=r"python:PendulumWrongRow fails its conformance check.*"
                                         r"contact.stop.gap_gradient"):
        clatter.simulate(bad, q=[0.0], qd=[0.0], t_end=0.1, progress=False)
    good = clatter.python_model(Pendulum(), law="newton", e=0.7)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        clatter.simulate(good, q=[0.0], qd=[0.0], t_end=0.1, progress=False)


def test_a_sweeps_contact_is_named_as_the_cli_takes_it():
    # --contact took an index only; the CLI now takes a name, and Python as well
    m = clatter.python_model(ImpactPendulum(), law="newton", e=0.8)
    kw = dict(initial=[(0.0, [0.3], [0.0])], section="impact", period_parameter="omega",
              transient_periods=20, record_periods=5, progress=False)
    by_name = clatter.sweep_parameters(m, [("omega", 1.2, 1.2, 1)], contact="wall", **kw)
    by_index = clatter.sweep_parameters(m, [("omega", 1.2, 1.2, 1)], contact=0, **kw)
    assert len(by_name["values"][0]) > 0
    np.testing.assert_array_equal(by_name["values"][0], by_index["values"][0])
    with pytest.raises(ValueError, match=r'contact: no contact "floor" \(contacts: wall\)'):
        clatter.sweep_parameters(m, [("omega", 1.2, 1.2, 1)], contact="floor", **kw)


# --- the third review (0.6.0): systems of new users' own, each finding a test ---------------


def test_a_contact_sticking_when_struck_along_it_slides_its_new_way():
    # the block sticks to the belt (speed -0.5) and reaches the wall at x = -0.03 at t = 0.06 with
    # xdot = -0.5; the impact (e = 0.5, frictionless wall) leaves xdot+ = 0.25, slipping on the
    # belt (the belt took no normal impulse, so no tangential one). It slides with friction
    # -mu_d m g (relative speed 0.75 > 0): m x'' = -k x - mu_d m g, x(0) = x_w = -0.03,
    # x'(0) = v+ = 0.25, x(tau) = x_e + (x_w - x_e) cos(w tau) + (v+/w) sin(w tau), x_e =
    # -mu_d m g/k, w = sqrt(k/m), and is back at the wall (before its speed reaches the belt's)
    # at w tau = 2 atan((v+/w)/(x_w - x_e)), with x'(tau) = -v+. It kept sticking before: the
    # projection reset xdot to the belt's -0.5, and the block hit the wall 1001 times at
    # t = 0.06 (a Zeno stop).
    m = belt_wall(vb=-0.5)
    r = clatter.simulate(m, q=[0.0, 0.0], qd=[-0.5, 0.0], t_end=0.5, progress=False)
    assert r.reason == "end_time", r.message
    ev = r.events
    assert list(zip(ev["kind"][:2], ev["contact"][:2])) == [("impact", "wall")] * 2
    assert ev["t"][0] == pytest.approx(0.06, abs=1e-12)
    assert ev["xdot_pre"][0] == pytest.approx(-0.5, abs=1e-12)
    assert ev["xdot_post"][0] == pytest.approx(0.25, abs=1e-12)
    w, xw, xe, vp = math.sqrt(10.0), -0.03, -0.2 * 9.81 / 10.0, 0.25
    tau = 2.0 * math.atan((vp / w) / (xw - xe)) / w
    assert ev["t"][1] == pytest.approx(0.06 + tau, abs=1e-9)
    assert ev["xdot_pre"][1] == pytest.approx(-vp, abs=1e-9)


class TableBall:
    """A ball on a table moved by A sin(omega t), its frequency a parameter named "omega" (not
    surface.omega): q = (y,), contact table: gap y - A sin(omega t), obstacle velocity
    A omega cos(omega t)."""
    nq = 1
    contacts = ["table"]

    def __init__(self, A=0.3, omega=2 * math.pi, g=9.81):
        self.A, self.omega, self.g = A, omega, g

    def parameters(self):
        return {"A": (self.A, "m", "amplitude"), "omega": (self.omega, "rad/s", "frequency")}

    def mass_matrix(self, t, q):
        return ((1.0,),)

    def applied_forces(self, t, q, qd):
        return (-self.g,)

    def contact(self, c, t, q, qd):
        A, w = self.A, self.omega
        return (q[0] - A * math.sin(w * t), ((0.0,), (1.0,)), (0.0, A * w * math.cos(w * t)),
                (0.0, A * w * w * math.sin(w * t)))

    def potential_energy(self, t, q):
        return self.g * q[0]

    def force_scale(self):
        return self.g

    def applied_power(self, t, q, qd):
        return 0.0


def test_an_impact_section_of_a_model_that_depends_on_time_is_refused():
    # it converged with multiplier -1.10 (one entry of the impact map's Jacobian) where the
    # stroboscopic orbit has |lambda| = e = 0.5; started 0.03 s off it converged with period
    # 0.980, the forcing's being 1
    m = clatter.python_model(TableBall(), law="newton", e=0.5)
    with pytest.raises(ValueError, match="depends on time.*stroboscopic section"):
        clatter.periodic_orbit(m, impact="table", q=[0.5], qd=[0.0], t0=0.0, plot=False)
    with pytest.raises(ValueError, match="depends on time"):
        clatter.periodic_orbit(m, ["q0dot"], anchor="q0", period=1.0, q=[0.5], qd=[-1.0],
                               plot=False)


def test_an_orbit_that_did_not_converge_is_not_stable(examples):
    # one Newton step from a guess off the ball's stable period-one orbit: its multipliers (of a
    # flow that is no orbit) are inside the unit circle, and `stable` said True
    sc = clatter.load_scenario(os.path.join(examples, "ball_table_period1.toml"))
    o = clatter.periodic_orbit(sc, "y,ydot", max_iter=1, tol=1e-14, plot=False)
    assert not o["converged"]
    assert not o["stable"]


class FloorBall:
    """A ball over a floor at height h (a parameter): q = (y,), gap y - h."""
    nq = 1
    contacts = ["floor"]

    def __init__(self, h=0.0, g=9.81):
        self.h, self.g = h, g

    def parameters(self):
        return {"h": (self.h, "m", "floor height")}

    def mass_matrix(self, t, q):
        return ((1.0,),)

    def applied_forces(self, t, q, qd):
        return (-self.g,)

    def contact(self, c, t, q, qd):
        return (q[0] - self.h, ((0.0,), (1.0,)), (0.0, 0.0), (0.0, 0.0))

    def potential_energy(self, t, q):
        return self.g * q[0]

    def force_scale(self):
        return self.g


def test_a_value_whose_carried_start_is_refused_passes_on_the_chains_start():
    # raising the floor under a ball that came to rest on the previous one puts the carried start
    # inside it: that value is refused, and the next one started from that refused state too, so
    # every later value failed (8 of 25 in the helper's sweep of a stop's position). Each value
    # after a refused one now starts from the chain's own start (y = 1, at rest), above the floor:
    # floors 0, 0.1, ..., 0.5 give ok, refused, ok, refused, ok, refused
    m = clatter.python_model(FloorBall(), law="newton", e=0.5)
    r = clatter.sweep_parameters(m, [("h", 0.0, 0.5, 6)], carry_over="up",
                                 initial=[(0.0, [1.0], [0.0])], section="impact", observe="v_N",
                                 clock="time",
                                 transient_periods=3.0, record_periods=1.0, progress=False)
    refused = ["penetrates" in msg for msg in r["message"]]
    assert refused == [False, True, False, True, False, True], r["message"]
