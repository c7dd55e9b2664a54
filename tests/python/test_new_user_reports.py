"""What a new user met with systems of their own (a forced impact pendulum, a block on a belt,
written as Python models; the session's dogfood review, 2026-11-29), each now a test.

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
