"""The rows of a simultaneous collision in events.csv ([issue 27] item 8).

[R]'s three-ball cradle (0.166 kg, L = 0.30 m, R = 0.05 m, frictionless, e* = 0.85), equal and
with the middle ball doubled (0.166, 0.332, 0.166 kg). The multi-point law resolves a collision as
a sequence of impact events; events.csv has a row per contact and event, each with its event's
velocities before and after, so the intermediate states are kept (they used to be lost: every
row held the collision's final state).

Independent checks of the rows, not the program's earlier output:
- the events chain: an event's q-dot after is the next event's q-dot before; the first is the
  state before the collision, the last the state after (the run's next sample continues from it);
- every event conserves the balls' horizontal momentum sum m_i L thetadot_i (the impulses between
  the balls are internal and horizontal at impact; the pivots' reactions are vertical there);
- an event's rows' delta_energy sum to its kinetic-energy change, I = m L^2 + (2/5) m R^2 per
  ball about its pivot, which is <= 0 with the integral work (docs/multipoint.md);
- a contact that separates is `open` after the collision (a row said `stick` for ball C leaving).
The equal cradle's first collision is two events, A-B-C then A-B, leaving centre speeds
(0.006, 0.069, 0.925) m/s ([R] Table 6.4, "This work"; tests/regression/cradle_engine_test.cpp).
"""
import os

import numpy as np

import clatter

L_PENDULUM = 0.30
RADIUS = 0.05


def cradle(examples, tmp_path, masses=None):
    with open(os.path.join(examples, "cradle3.toml")) as fh:
        text = fh.read()
    if masses is not None:
        text = text.replace("n = 3\n", f"masses = {list(masses)}\n").replace("mass = 0.166\n", "")
    path = tmp_path / "cradle.toml"
    path.write_text(text)
    return clatter.load_scenario(str(path))


def first_collision(r):
    """The first instant's impact rows as events: [(rows, qd_pre, qd_post)]."""
    ev = r.events
    rows = np.flatnonzero((ev["t"] == ev["t"][0]) & (ev["kind"] == "impact"))
    pre = np.array([[ev[f"theta_{b}dot_pre"][k] for b in "ABC"] for k in rows])
    post = np.array([[ev[f"theta_{b}dot_post"][k] for b in "ABC"] for k in rows])
    events = []
    for i, k in enumerate(rows):
        if events and np.array_equal(pre[i], events[-1][1]):
            assert np.array_equal(post[i], events[-1][2])  # rows of one event agree
            events[-1][0].append(k)
        else:
            events.append(([k], pre[i], post[i]))
    return rows, events


def check_rows(r, masses):
    ev = r.events
    m = np.asarray(masses)
    inertia = m * L_PENDULUM ** 2 + 0.4 * m * RADIUS ** 2
    rows, events = first_collision(r)
    # the chain of events, from rest of B and C to the state the collision leaves
    assert np.array_equal(events[0][1][1:], [0.0, 0.0])
    for (_, _, post), (_, pre, _) in zip(events, events[1:]):
        assert np.array_equal(post, pre)
    last = rows[-1]
    after = np.array([ev[f"theta_{b}dot_post"][last] for b in "ABC"])
    assert np.array_equal(events[-1][2], after)
    for k in rows:  # the collision's modes: a separating contact is open
        if ev["v_N_post"][k] > 1e-9:
            assert ev["mode_after"][k] == "open", (ev["contact"][k], ev["mode_after"][k])
    for ks, pre, post in events:
        p_pre, p_post = m @ pre * L_PENDULUM, m @ post * L_PENDULUM
        assert abs(p_post - p_pre) <= 1e-12 * abs(p_pre)
        dT = 0.5 * inertia @ (post ** 2 - pre ** 2)
        assert dT <= 1e-15
        de = ev["delta_energy"][ks]
        assert abs(de.sum() - dT) <= 1e-9 * abs(dT) + 1e-15
        for k in ks:
            assert ev["Lambda_N"][k] > 0.0
            assert ev["energy"][k] == ev["energy"][ks[0]]
    return events


def test_equal_cradle_keeps_its_two_events(examples, tmp_path):
    r = clatter.simulate(cradle(examples, tmp_path), t_end=0.3, progress=False)
    events = check_rows(r, [0.166] * 3)
    assert len(events) == 2
    assert sorted(r.events["contact"][events[0][0]]) == ["AB", "BC"]
    assert list(r.events["contact"][events[1][0]]) == ["AB"]
    # [R] Table 6.4 "This work": centre speeds L thetadot after the collision, to its 3 decimals
    speeds = L_PENDULUM * events[-1][2]
    np.testing.assert_allclose(speeds, [0.006, 0.069, 0.925], atol=6e-4)
    # the intermediate state: B and C move, A still does, before A catches B again
    mid = L_PENDULUM * events[0][2]
    assert mid[0] > 0.0 and mid[1] < mid[2]


def test_unequal_cradle_rows_are_per_event(examples, tmp_path):
    masses = [0.166, 0.332, 0.166]
    r = clatter.simulate(cradle(examples, tmp_path, masses), t_end=0.3, progress=False)
    events = check_rows(r, masses)
    assert len(events) == 2
    assert list(r.events["contact"][events[1][0]]) == ["AB"]
    # the second event is A alone on B (C has left): a frictionless two-body impact, where the
    # energetic law is Newton's, v_A' = (m_A - e m_B) v/(m_A + m_B), v_B' = m_A (1 + e) v/(m_A + m_B)
    (_, pre, post), e, (m_a, m_b, _) = events[1], 0.85, masses
    v = pre[0]
    assert pre[1] == 0.0
    np.testing.assert_allclose(post[:2], [(m_a - e * m_b) * v / (m_a + m_b),
                                          m_a * (1.0 + e) * v / (m_a + m_b)], rtol=1e-12)
    assert post[0] < 0.0  # A bounces back off the heavier B: the state the old rows lost
