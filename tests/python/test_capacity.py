"""A Python model at the engine's capacities (issue 25 item 7; model::kMaxDof = kMaxContacts = 32):
32 balls side by side, each falling on its own floor (q_i its height, M = I, f_i = -g, contact i:
g_N = q_i, J = e_i), dropped from distinct heights. Closed form (a bouncing ball, Newton's law
v+ = -e v-): impact k of a ball dropped from h is at t1 (1 + 2e + ... + 2e^(k-1)), t1 = sqrt(2h/g),
with v- = -e^(k-1) g t1. Uncompiled and compiled (numba) must both meet it; 33 balls are refused
naming nq and its range.
"""
import math

import numpy as np
import pytest

import clatter

G, E, N = 9.81, 0.5, 32


class BallRow:
    def __init__(self, n=N):
        self.nq = n
        self.coordinate_names = [f"y{i}" for i in range(n)]
        self.contacts = [f"floor{i}" for i in range(min(n, N))]

    def mass_matrix(self, t, q):
        return np.eye(self.nq)

    def applied_forces(self, t, q, qd):
        return np.full(self.nq, -G)

    def contact(self, c, t, q, qd):
        J = np.zeros((2, self.nq))
        J[1, c] = 1.0
        return q[c], J, (0.0, 0.0), (0.0, 0.0), 1.0 + abs(q[c])

    def potential_energy(self, t, q):
        return G * np.sum(q)

    def force_scale(self):
        return G

    def mass_scale(self):
        return 1.0


def heights(n=N):
    return np.array([1.0 + 0.037 * i for i in range(n)])


@pytest.mark.parametrize("compiled", [False, True])
def test_every_ball_bounces_as_the_closed_form(compiled):
    if compiled:
        pytest.importorskip("numba")
    model = clatter.python_model(BallRow(), law="newton", e=E, compile=compiled)
    h = heights()
    t1 = np.sqrt(2.0 * h / G)
    r = clatter.simulate(model, q=h, qd=np.zeros(N), t_end=t1[-1] * (1 + 2 * E) + 0.01,
                         events_only=True, chatter_horizon=0.05)
    assert r.reason == "end_time", r.message
    ev = r.events  # events.csv's columns
    seen = {}
    for row in range(len(ev["t"])):
        if ev["kind"][row] != "impact":
            continue
        i = int(str(ev["contact"][row])[len("floor"):])
        k = seen.get(i, 0)
        t_k = t1[i] * (1 + 2 * sum(E**j for j in range(1, k + 1)))
        v_k = G * t1[i] * E**k
        assert ev["t"][row] == pytest.approx(t_k, abs=1e-9), (i, k)
        assert ev[f"y{i}dot_pre"][row] == pytest.approx(-v_k, abs=1e-8), (i, k)
        assert ev[f"y{i}dot_post"][row] == pytest.approx(E * v_k, abs=1e-8), (i, k)
        seen[i] = k + 1
    assert len(seen) == N and min(seen.values()) >= 2


def test_more_coordinates_than_the_capacity_are_refused():
    with pytest.raises(ValueError, match=r"nq.*\[1, 32\]"):
        clatter.python_model(BallRow(N + 1), law="newton", e=E)
