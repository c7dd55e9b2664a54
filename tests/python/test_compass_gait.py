"""The compass-gait walker (examples/compass_gait: a C++ plugin, and the same model in Python
below), whose swing foot's scuffing is ignored by contact guards (model::System::contact_guards),
against the simplest walking model of Garcia, Chatterjee, Ruina and Coleman (1998, "The simplest
walking model: stability, complexity, and scaling", J. Biomech. Eng. 120): in the limit of a
vanishing foot mass m/M -> 0, with g = l = 1, the stance angle theta and the angle between the
legs phi obey (their eqs. 3-4)

    theta'' = sin(theta - gamma)
    phi''   = sin(theta - gamma) + sin(phi) (theta'^2 - cos(theta - gamma))

the heel strike is phi = 2 theta (the swing foot on the slope ahead), and it maps (their eq. 5)
theta+ = -theta-, theta'+ = cos(2 theta-) theta'-, phi+ = -2 theta-, phi'+ = (1 - cos 2 theta-)
theta'+. The stride map of (theta, theta') after a heel strike is computed here with SciPy
(DOP853, rtol 1e-12); at gamma = 0.009 its fixed point is Garcia et al.'s stable gait
(0.20031090049483, -0.19983247291764), its multipliers -0.1901 +- 0.5576i.

clatter's walker has feet of mass m = 1e-5 (M = 1) and moves in (x, y, thetaA, thetaB): its gait
differs from the limit by O(m/M), the tolerances below.
"""
import math
import re

import numpy as np
import pytest

import clatter

scipy_integrate = pytest.importorskip("scipy.integrate")
scipy_optimize = pytest.importorskip("scipy.optimize")

GAMMA = 0.009
SEQUENTIAL = {"two_contact": "sequential"}  # the old stance foot leaves without an impulse
STATE = ["y", "thetaA", "thetaB", "xdot", "ydot", "thetaAdot", "thetaBdot"]  # x is cyclic


def garcia_stride(z, gamma):
    """Garcia et al.'s stride map (the limit m/M -> 0): (theta, theta') after a heel strike to
    the same after the next."""
    th, thd = z

    def rhs(t, s):
        th, ph, thd, phd = s
        thdd = math.sin(th - gamma)
        return [thd, phd, thdd, thdd + math.sin(ph) * (thd * thd - math.cos(th - gamma))]

    def strike(t, s):  # phi - 2 theta, once the swing leg is ahead of the stance leg
        return (s[1] - 2 * s[0]) if (s[0] - s[1]) > 0.05 else -1.0

    strike.terminal, strike.direction = True, 1
    s0 = [th, 2 * th, thd, (1 - math.cos(2 * th)) * thd]
    sol = scipy_integrate.solve_ivp(rhs, (0, 20), s0, events=strike, rtol=1e-12, atol=1e-13,
                                    method="DOP853")
    th, _, thd, _ = sol.y_events[0][0]
    return np.array([-th, math.cos(2 * th) * thd]), sol.t_events[0][0]


def garcia_gait(gamma):
    z = scipy_optimize.fsolve(lambda z: garcia_stride(z, gamma)[0] - z, [0.2, -0.2], xtol=1e-14)
    h, jac = 1e-6, np.zeros((2, 2))
    for i in range(2):
        dz = np.zeros(2)
        dz[i] = h
        jac[:, i] = (garcia_stride(z + dz, gamma)[0] - garcia_stride(z - dz, gamma)[0]) / (2 * h)
    return z, garcia_stride(z, gamma)[1], np.linalg.eigvals(jac)


def start_state(theta, thetadot):
    """Just after foot B's heel strike at the origin: B stands at theta with rate theta', A trails
    at -theta with the rate of Garcia et al.'s map, phi' = (1 - cos 2 theta) theta'."""
    q = [-math.sin(theta), math.cos(theta), -theta, theta]
    qd = [-math.cos(theta) * thetadot, -math.sin(theta) * thetadot,
          math.cos(2 * theta) * thetadot, thetadot]
    return q, qd


class PythonCompassGait:
    """The plugin's walker written in Python (examples/compass_gait/compass_gait.cpp has the
    equations): hip mass M, feet m, legs l, slope gamma, gravity g."""
    nq = 4
    contacts = ["footA", "footB"]
    coordinate_names = ["x", "y", "thetaA", "thetaB"]

    def __init__(self, hip=1.0, foot=1e-5, l=1.0, gamma=GAMMA, g=1.0, guards=True):
        self.M, self.m, self.l, self.gamma, self.g = hip, foot, l, gamma, g
        if guards:  # the foot may land only ahead of the other one
            self.contact_guards = lambda t, q, qd: (q[2] > q[3], q[3] > q[2])

    def mass_matrix(self, t, q):
        m, l = self.m, self.l
        M = np.zeros((4, 4))
        M[0, 0] = M[1, 1] = self.M + 2 * m
        for k in (2, 3):
            M[0, k] = M[k, 0] = m * l * math.cos(q[k])
            M[1, k] = M[k, 1] = m * l * math.sin(q[k])
            M[k, k] = m * l * l
        return M

    def applied_forces(self, t, q, qd):
        m, l, g, total = self.m, self.l, self.g, self.M + 2 * self.m
        f = [total * g * math.sin(self.gamma), -total * g * math.cos(self.gamma), 0.0, 0.0]
        for k in (2, 3):
            f[0] += m * l * math.sin(q[k]) * qd[k] ** 2
            f[1] -= m * l * math.cos(q[k]) * qd[k] ** 2
            f[k] = m * g * l * math.sin(self.gamma - q[k])
        return f

    def contact(self, c, t, q, qd):
        k, l = 2 + c, self.l
        s, co = math.sin(q[k]), math.cos(q[k])
        J = np.zeros((2, 4))
        J[0, 0], J[0, k], J[1, 1], J[1, k] = 1.0, l * co, 1.0, l * s
        return (q[1] - l * co, J, (0.0, 0.0), (-l * s * qd[k] ** 2, l * co * qd[k] ** 2), l)

    def potential_energy(self, t, q):
        m, l, g, total = self.m, self.l, self.g, self.M + 2 * self.m
        return (-total * g * (q[0] * math.sin(self.gamma) - q[1] * math.cos(self.gamma))
                - m * g * l * (math.cos(q[2] - self.gamma) + math.cos(q[3] - self.gamma)))

    def force_scale(self):
        return (self.M + 2 * self.m) * self.g

    def mass_scale(self):
        return self.M

    def symmetry(self, t, q, qd):
        return ([q[0], q[1], q[3], q[2]], [qd[0], qd[1], qd[3], qd[2]])

    symmetry_contacts = [1, 0]


@pytest.fixture(scope="module")
def garcia():
    z, T, lam = garcia_gait(GAMMA)
    # the reference itself: Garcia et al.'s published fixed point
    assert z[0] == pytest.approx(0.20031090049483, abs=1e-9)
    assert z[1] == pytest.approx(-0.19983247291764, abs=1e-9)
    return z, T, lam


@pytest.fixture(scope="module")
def plugin_walker():
    clatter.load_plugin("compass_gait")
    return clatter.Model("compass_gait", law="stronge", e=0.0, mu=10.0, foot_mass=1e-5)


def impacts(r):
    """(t, contact) of a simulation's impacts, in order."""
    ev = r.events
    return [(t, c) for t, k, c in zip(ev["t"], ev["kind"], ev["contact"]) if k == "impact"]


def gait(model, z):
    q, qd = start_state(*z)
    return clatter.periodic_orbit(model, STATE, impact="footB", q=q, qd=qd,
                                  modulo_symmetry=True, options=SEQUENTIAL, plot=False)


def test_the_gait_is_garcias(plugin_walker, garcia):
    z, T, lam = garcia
    o = gait(plugin_walker, z)
    assert o["converged"], o["message"]
    s = dict(zip(clatter.state_names(plugin_walker), o["x0"]))
    # after foot B's heel strike: B stands at theta, A trails at -theta (m/M = 1e-5)
    assert s["thetaB"] == pytest.approx(z[0], abs=1e-4)
    assert s["thetaA"] == pytest.approx(-z[0], abs=1e-4)
    assert s["thetaBdot"] == pytest.approx(z[1], abs=1e-4)
    assert o["period"] == pytest.approx(T, rel=1e-4)
    # one heel strike per step (of the other foot), none while the swing foot scuffs
    impacts = [e for e in o["events"] if e["kind"] == "impact"]
    assert [plugin_walker.contact_names[e["contact"]] for e in impacts] == ["footA"]
    # the step's multipliers: Garcia's pair, the others vanish as m/M -> 0
    mu = sorted(o["multipliers"], key=abs, reverse=True)
    want = sorted(lam, key=lambda c: c.imag)
    got = sorted(mu[:2], key=lambda c: c.imag)
    for a, b in zip(got, want):
        assert abs(a - b) < 2e-3, (mu, lam)
    assert all(abs(x) < 0.05 for x in mu[2:]), mu
    assert o["stable"]


def test_the_walker_walks_step_after_step(plugin_walker, garcia):
    # ten steps from the gait: the heel strikes alternate, one per step time, each at the gait's
    # stance angle
    z, T, _ = garcia
    q, qd = start_state(*z)
    r = clatter.simulate(plugin_walker, q=q, qd=qd, t_end=10.2 * T, two_contact="sequential")
    hits = impacts(r)
    assert [c for _, c in hits] == ["footA", "footB"] * 5
    for k, (t, _) in enumerate(hits):
        assert t == pytest.approx((k + 1) * T, rel=2e-4)


def test_python_walker_equals_the_plugin(plugin_walker, garcia):
    z, T, _ = garcia
    q, qd = start_state(*z)
    py = clatter.python_model(PythonCompassGait(), law="stronge", e=0.0, mu=10.0)
    a = clatter.simulate(plugin_walker, q=q, qd=qd, t_end=2.2 * T, two_contact="sequential")
    b = clatter.simulate(py, q=q, qd=qd, t_end=2.2 * T, two_contact="sequential")
    ta = [t for t, _ in impacts(a)]
    tb = [t for t, _ in impacts(b)]
    assert len(ta) == 2 and len(tb) == 2
    assert tb == pytest.approx(ta, abs=1e-9)


def test_without_guards_the_swing_foot_scuffs(garcia):
    # the same walker without guards: the trailing foot, released at the heel strike's instant,
    # is below the ground as soon as the swing starts, and its landing there is the first impact
    # (the motion Garcia et al. exclude)
    z, T, _ = garcia
    q, qd = start_state(*z)
    py = clatter.python_model(PythonCompassGait(guards=False), law="stronge", e=0.0, mu=10.0)
    r = clatter.simulate(py, q=q, qd=qd, t_end=T, two_contact="sequential")
    t, c = impacts(r)[0]
    assert c == "footA"
    assert t < 0.5 * T


def test_leg_angles_left_out_of_the_unknowns_are_refused(plugin_walker, garcia):
    # the heel strike leaves the stance angle to the gait: solved for the velocities only (the
    # impact section's default), the orbit "converged" with multipliers 5.70 and 0.0038 (a
    # helper's walker, 0.5.0); the angles do not repeat and drive the velocities
    z, _, _ = garcia
    q, qd = start_state(z[0] + 0.01, z[1])
    o = clatter.periodic_orbit(plugin_walker, ["xdot", "ydot", "thetaAdot", "thetaBdot"],
                               impact=1, q=q, qd=qd, modulo_symmetry=True, options=SEQUENTIAL,
                               plot=False)
    assert not o["converged"] and not o["stable"]
    assert re.search(r"the component (y|thetaA|thetaB) is not solved for.*does not repeat",
                     o["message"]), o["message"]
