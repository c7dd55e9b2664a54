#!/usr/bin/python3
"""SciPy peer of clatter's double pendulum on a belt: stick-slip, lift-off, impacts (issue 26).

What it is
    The implementation a researcher would write with solve_ivp DOP853 (rtol = atol = 1e-12 by
    default, no max_step) for clatter's examples/double_pendulum_stick_slip.toml (model kind
    double_pendulum_belt), the same scenario over any horizon. The contact of the lower end with
    the belt is a DAE reduced to an ODE per phase: free flight; sliding in either direction
    (Coulomb, lambda_T = -s mu lambda_N, lambda_N from the normal constraint); sticking (both
    constraints, lambda from the 2x2 system). Each phase is one solve_ivp call with terminal,
    direction-aware events for every transition out of it, and the switch is decided at the event:
        flight     gap g_N -> 0 falling            impact: Stronge's energetic law (closed form of
                                                   bench/peers/stronge_map.py with this model's W)
        slide s    s v_T -> 0 falling              stick if |lambda_T| <= mu lambda_N, else the
                                                   slip reverses (s = sgn(-lambda_T))
                   lambda_N -> 0 falling           lift-off (flight)
                   k_N = C - s mu B -> 0 falling   Painleve: the run stops with an error
        stick      mu lambda_N - lambda_T -> 0     slip onset to slide- (falling)
                   mu lambda_N + lambda_T -> 0     slip onset to slide+ (falling)
                   lambda_N -> 0 falling           lift-off (flight)
    The motion at t = 0 (at rest on the belt, the belt moving at V = -0.5) slides (slide+),
    sticks at t = 0.0903, slips again (slide-) at 0.186, lifts off at 0.686 and flies; the first
    impact is at t = 3.70 (after the scenario's t_end = 3, the default horizon), then impacts and
    flights. The motion is chaotic after the impacts: the events agree with clatter's to ~1e-10
    through the first impact, and the differences then grow by ~1e3 per impact (as between
    clatter at rtol 1e-12 and 1e-14), so the comparisons stop before the second impact (t = 7.87;
    bench/run_double_pendulum_bench.sh uses t_end = 0.6 and 5). Not treated (the run stops with
    an error): an impact that ends at v_N = 0 (a closing contact), a grazing gap event, Painleve,
    an accumulation of events. Unlike clatter the peer has no Baumgarte terms (they vanish on the
    constraint), no projection onto the constraint at the switches, no work integrals in the
    error-controlled state, and SciPy's root-mean-square error norm (clatter's is the max norm),
    and it builds the dense output only on steps where an event function changes sign (clatter
    samples its event functions inside every step). It shares no code with clatter.

Model (include/clatter/model/double_pendulum_belt.hpp; [B] section 6.2 with spec/000_thesis.md
section 7's fixes)
    q = (theta, phi), z = (theta, phi, thetadot, phidot); massless links l1, l2, point masses
    m1, m2, torque T at the top joint, belt at normal distance d from the top joint, moving at V:
        c   = (-l1 cos th - l2 cos ph,  l1 sin th + l2 sin ph + d)   (c_1 along the belt, c_2 gap)
        N   = dc/dq = [[l1 sin th, l2 sin ph], [l1 cos th, l2 cos ph]],  gamma = Ndot qdot
        M   = [[(m1+m2) l1^2, m2 l1 l2 cos(th-ph)], [m2 l1 l2 cos(th-ph), m2 l2^2]]
        L+U = (m2 l1 l2 sin(th-ph) phd^2 + (m1+m2) g l1 sin th - T,
               -m2 l1 l2 sin(th-ph) thd^2 + m2 g l2 sin ph)
        M qdd = -(L+U) + N^T lambda,   v = N qdot - (V, 0),   W = N M^-1 N^T = [[A, B], [B, C]]
    Scenario: m1 = m2 = 0.5, l1 = l2 = 1, g = 9.81, T = 2, V = -0.5, d set by touch = [3.6, 4.1]
    (c_2 = 0 there), Stronge e = 0.7, mu = 0.5 (mu_s = mu_d = mu), q0 = (3.6, 4.1), qdot0 = 0.

Usage
    /usr/bin/python3 bench/peers/double_pendulum_belt_scipy.py [--t-end T] [--repeats R]
        [--rtol RTOL] [--atol ATOL] [--max-step H] [--events FILE.csv]

prints one JSON line {"peer", "scenario", "t_end", "rtol", "atol", "max_step", "impacts",
"transitions", "events", "nfev", "steps", "nfev_per_time_unit", "steps_per_time_unit",
"wall_s_median", "ms_per_time_unit", "t_final", "q_final", "qdot_final", "regions",
"time_in_mode"}: transitions counts the events by clatter's kind names (stick, slip_onset,
slip_reversal, lift_off, impact), nfev is the total of solve_ivp's right-hand-side evaluations
(sol.nfev summed over the phases, event location and restarts included), steps the accepted
DOP853 steps (len(sol.t) - 1 summed); --events writes one row per event (time, kind, mode after,
Stronge region, q, qdot before and after) for the accuracy comparison with clatter's events.csv.
"""

import argparse
import json
import math
import os
import statistics
import sys
import time

from scipy.integrate import solve_ivp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import stronge_map  # noqa: E402

# examples/double_pendulum_stick_slip.toml
M1, M2, L1, L2, G, TORQUE, V_BELT = 0.5, 0.5, 1.0, 1.0, 9.81, 2.0, -0.5
TOUCH = (3.6, 4.1)
D = -(L1 * math.sin(TOUCH[0]) + L2 * math.sin(TOUCH[1]))  # the end touches the belt at TOUCH
E, MU = 0.7, 0.5
Q0, QD0 = (3.6, 4.1), (0.0, 0.0)

SIGN = {"slide+": 1.0, "slide-": -1.0}


def dynamics(z, mode):
    """qdd and the contact force (lambda_T, lambda_N) and k_N of the mode, at z."""
    th, ph, thd, phd = z
    st, ct, sp, cp = math.sin(th), math.cos(th), math.sin(ph), math.cos(ph)
    a, c = (M1 + M2) * L1 * L1, M2 * L2 * L2
    b = M2 * L1 * L2 * math.cos(th - ph)
    s = M2 * L1 * L2 * math.sin(th - ph)
    f1 = -(s * phd * phd + (M1 + M2) * G * L1 * st - TORQUE)
    f2 = -(-s * thd * thd + M2 * G * L2 * sp)
    det = a * c - b * b
    a01, a02 = (c * f1 - b * f2) / det, (a * f2 - b * f1) / det  # M^-1 f
    if mode == "open":
        return a01, a02, 0.0, 0.0, 0.0
    n11, n12, n21, n22 = L1 * st, L2 * sp, L1 * ct, L2 * cp  # N
    u11, u12 = (c * n11 - b * n12) / det, (a * n12 - b * n11) / det  # M^-1 n1
    u21, u22 = (c * n21 - b * n22) / det, (a * n22 - b * n21) / det  # M^-1 n2
    A = n11 * u11 + n12 * u12
    B = n11 * u21 + n12 * u22
    C = n21 * u21 + n22 * u22
    t2, p2 = thd * thd, phd * phd
    r1 = n11 * a01 + n12 * a02 + L1 * ct * t2 + L2 * cp * p2  # N a0 + gamma: the free c''
    r2 = n21 * a01 + n22 * a02 - L1 * st * t2 - L2 * sp * p2
    if mode == "stick":  # W lambda = -r
        dW = A * C - B * B
        lt, ln = (-C * r1 + B * r2) / dW, (B * r1 - A * r2) / dW
        kN = 0.0
    else:
        sg = SIGN[mode]
        kN = C - sg * MU * B
        ln = -r2 / kN
        lt = -sg * MU * ln
    return a01 + u11 * lt + u21 * ln, a02 + u12 * lt + u22 * ln, lt, ln, kN


def contact_velocity(z):
    th, ph, thd, phd = z
    vT = L1 * math.sin(th) * thd + L2 * math.sin(ph) * phd - V_BELT
    vN = L1 * math.cos(th) * thd + L2 * math.cos(ph) * phd
    return vT, vN


def make_rhs(mode):
    def rhs(t, z):
        qdd1, qdd2 = dynamics(z, mode)[:2]
        return [z[2], z[3], qdd1, qdd2]

    return rhs


def terminal(fn, kind):
    fn.terminal = True
    fn.direction = -1
    fn.kind = kind
    return fn


def make_events(mode):
    """The transitions out of the mode: terminal functions falling through zero."""
    if mode == "open":
        return [terminal(lambda t, z: L1 * math.sin(z[0]) + L2 * math.sin(z[1]) + D, "impact")]
    lift = terminal(lambda t, z: dynamics(z, mode)[3], "lift_off")
    if mode == "stick":
        return [lift,
                terminal(lambda t, z: (lambda f: MU * f[3] - f[2])(dynamics(z, mode)),
                         "slip_onset-"),
                terminal(lambda t, z: (lambda f: MU * f[3] + f[2])(dynamics(z, mode)),
                         "slip_onset+")]
    sg = SIGN[mode]
    return [lift,
            terminal(lambda t, z: sg * contact_velocity(z)[0], "slide_end"),
            terminal(lambda t, z: dynamics(z, mode)[4], "painleve")]


def slide_mode(v):
    return "slide+" if v > 0.0 else "slide-"


def closed_mode(z):
    """Mode of a closed contact with v_N = 0 (clatter's closed_mode): slide along v_T, else
    stick if the cone holds the sticking force, else slide along -lambda_T."""
    vT = contact_velocity(z)[0]
    if abs(vT) > 1e-9:
        return slide_mode(vT)
    lt, ln = dynamics(z, "stick")[2:4]
    return "stick" if abs(lt) <= MU * max(ln, 0.0) else slide_mode(-lt)


def impact(z):
    """Stronge's law at the end: post-impact state, region, (v_T, v_N) before, after."""
    th, ph, thd, phd = z
    st, ct, sp, cp = math.sin(th), math.cos(th), math.sin(ph), math.cos(ph)
    a, c, b = (M1 + M2) * L1 * L1, M2 * L2 * L2, M2 * L1 * L2 * math.cos(th - ph)
    det = a * c - b * b
    n11, n12, n21, n22 = L1 * st, L2 * sp, L1 * ct, L2 * cp
    u11, u12 = (c * n11 - b * n12) / det, (a * n12 - b * n11) / det
    u21, u22 = (c * n21 - b * n22) / det, (a * n22 - b * n21) / det
    A, B, C = n11 * u11 + n12 * u12, n11 * u21 + n12 * u22, n21 * u21 + n22 * u22
    vT, vN = contact_velocity(z)
    vTp, vNp, region = stronge_map.stronge(vT, vN, A, B, C, MU, E)
    dvT, dvN = vTp - vT, vNp - vN
    dW = A * C - B * B
    LT, LN = (C * dvT - B * dvN) / dW, (A * dvN - B * dvT) / dW  # Lambda = W^-1 dv
    return [th, ph, thd + u11 * LT + u21 * LN, phd + u12 * LT + u22 * LN], region, (vT, vN), (
        vTp, vNp)


def run(t_end, rtol, atol, max_step):
    t, z = 0.0, list(Q0) + list(QD0)
    gap0 = L1 * math.sin(z[0]) + L2 * math.sin(z[1]) + D
    mode = "open"
    if abs(gap0) <= 1e-12 and abs(contact_velocity(z)[1]) <= 1e-9:
        mode = closed_mode(z)
        if dynamics(z, mode)[3] < 0.0:
            mode = "open"
    nfev = steps = 0
    events = []  # (t, kind, mode_after, region, z_pre, z_post)
    time_in_mode = {}
    while t < t_end:
        evs = make_events(mode)
        sol = solve_ivp(make_rhs(mode), (t, t_end), z, method="DOP853", rtol=rtol, atol=atol,
                        events=evs, max_step=max_step)
        if sol.status == -1:
            raise RuntimeError(sol.message)
        nfev += sol.nfev
        steps += len(sol.t) - 1
        if sol.status != 1:  # reached t_end
            time_in_mode[mode] = time_in_mode.get(mode, 0.0) + (t_end - t)
            t, z = t_end, list(sol.y[:, -1])
            break
        # the terminal event: the earliest of those located on the last step
        k = min((i for i in range(len(evs)) if len(sol.t_events[i])),
                key=lambda i: sol.t_events[i][0])
        te, pre = float(sol.t_events[k][0]), [float(v) for v in sol.y_events[k][0]]
        time_in_mode[mode] = time_in_mode.get(mode, 0.0) + (te - t)
        kind, region, post = evs[k].kind, "", pre
        if kind == "impact":
            vN = contact_velocity(pre)[1]
            if vN >= 0.0:
                raise RuntimeError(f"grazing contact at t = {te} (v_N = {vN}): not treated here")
            post, region, _, (_, vNp) = impact(pre)
            if vNp <= 0.0:
                raise RuntimeError(f"impact at t = {te} ends with v_N = {vNp}: the contact "
                                   "would close, not treated here")
            mode = "open"
        elif kind == "lift_off":
            mode = "open"
        elif kind == "slide_end":
            lt, ln = dynamics(pre, "stick")[2:4]
            if abs(lt) <= MU * ln:
                kind, mode = "stick", "stick"
            else:
                kind, mode = "slip_reversal", slide_mode(-lt)
        elif kind.startswith("slip_onset"):
            kind, mode = "slip_onset", "slide" + kind[-1]
        else:
            raise RuntimeError(f"Painleve at t = {te}: k_N = 0 while sliding, not treated here")
        if mode != "open" and dynamics(pre, mode)[3] < 0.0:  # the new mode cannot hold: leave
            mode = "open"
        events.append((te, kind, mode, region, pre, post))
        if len(events) > 10 and te - events[-11][0] < 1e-9:
            raise RuntimeError(f"events accumulate at t = {te}: no chatter treatment here")
        t, z = te, post
    return dict(t=t, z=z, events=events, nfev=nfev, steps=steps, time_in_mode=time_in_mode)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--t-end", type=float, default=3.0)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--rtol", type=float, default=1e-12)
    ap.add_argument("--atol", type=float, default=1e-12)
    ap.add_argument("--max-step", type=float, default=math.inf,
                    help="solve_ivp max_step (default: none)")
    ap.add_argument("--events", default="", help="write the events to this CSV file")
    a = ap.parse_args()
    if a.repeats < 1 or not a.t_end > 0.0:
        ap.error("--repeats must be >= 1 and --t-end > 0")

    walls = []
    for _ in range(a.repeats):
        start = time.perf_counter()
        res = run(a.t_end, a.rtol, a.atol, a.max_step)
        walls.append(time.perf_counter() - start)

    if a.events:
        with open(a.events, "w") as fh:
            fh.write("t,kind,mode_after,region,theta,phi,thetadot_pre,phidot_pre,"
                     "thetadot_post,phidot_post\n")
            for t, kind, mode, region, pre, post in res["events"]:
                fh.write(",".join([repr(t), kind, mode, str(region)]
                                  + [repr(float(v)) for v in pre]
                                  + [repr(float(v)) for v in post[2:]]) + "\n")

    wall = statistics.median(walls)
    transitions, regions = {}, {}
    for _, kind, _, region, _, _ in res["events"]:
        transitions[kind] = transitions.get(kind, 0) + 1
        if kind == "impact":
            regions[str(region)] = regions.get(str(region), 0) + 1
    z = [float(v) for v in res["z"]]
    print(json.dumps({
        "peer": "scipy_dop853", "scenario": "double_pendulum_stick_slip", "t_end": a.t_end,
        "rtol": a.rtol, "atol": a.atol,
        "max_step": a.max_step if math.isfinite(a.max_step) else None,
        "impacts": transitions.get("impact", 0), "transitions": transitions,
        "events": len(res["events"]), "nfev": res["nfev"], "steps": res["steps"],
        "nfev_per_time_unit": res["nfev"] / a.t_end, "steps_per_time_unit": res["steps"] / a.t_end,
        "wall_s_median": wall, "ms_per_time_unit": 1e3 * wall / a.t_end,
        "t_final": res["t"], "q_final": z[:2], "qdot_final": z[2:], "regions": regions,
        "time_in_mode": res["time_in_mode"]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
