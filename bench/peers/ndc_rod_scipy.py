#!/usr/bin/python3
"""SciPy peer of clatter's rod on a belt of [NDC] over a long horizon with impacts (issue 26).

What it is
    The implementation a researcher would write: the free flight of the rod integrated by
    solve_ivp DOP853 (rtol = atol = 1e-12 by default, no max_step) with a terminal event on the
    gap of the end P1, g = y (direction -1, falling); at each event Stronge's energetic law in
    closed form (the pure-Python classifier and maps of bench/peers/stronge_map.py, fed with this
    model's contact matrix), then a restart from the post-impact state, until t_end. It is the
    long-horizon sibling of tests/peers/ndc_first_impact_scipy.py and shares no code with clatter.
    No sustained contact, chatter or P2 contact: with the parameters below the motion is
    impacts and free flight only (clatter's summary.json shows impacts only, P1 "open", zero
    friction loss); an accumulation of impacts stops the run with an error.

Model (spec/003_dib.md §2.2, §5.2; clatter's examples/ndc_case_{1_3,5_9}.toml)
    State z = (x, y, theta, xdot, ydot, omega), (x, y) the end P1, G = (x - cos th, y + sin th),
    unit mass, length 2, I_G = 1/3, no gravity. Flight (lambda = 0):
        xdd  = S_x - 3 R sin th - omega^2 cos th
        ydd  = S_y - 3 R cos th + omega^2 sin th
        thdd = 3 R
        S_x = -k_x (x - v_dr t) - c_x (xdot - v_dr)
        S_y = -k_y (y - y0) - c_y ((y - y0)^2 - y1^2) ydot
        R   = -k_th (th - th0) - c_th omega
    Impact of P1 on the fixed line y = 0: contact velocity v = (xdot, ydot), contact matrix
        A = 1 + 3 sin^2 th,  B = 3 sin th cos th,  C = 1 + 3 cos^2 th   ([NDC] Eq. 12),
    v+ = Stronge(v-, A, B, C, mu, e*) (regions 1..10, spec §3.4/§3.6), and the generalized jump
        xdot+ = v_T+,  ydot+ = v_N+,  omega+ = omega- - (3/4)(sin th dv_T + cos th dv_N).
    Cases ([NDC] Table 3/4, e* = r = 1): "1-3" (mu = 0.8507) and "5-9" (mu = 0.5448).

Usage
    /usr/bin/python3 bench/peers/ndc_rod_scipy.py [--case {1-3,5-9}] [--t-end T] [--repeats R]
        [--rtol RTOL] [--atol ATOL] [--max-step H] [--events FILE.csv]

prints one JSON line {"peer", "case", "t_end", "rtol", "atol", "impacts", "nfev", "steps",
"nfev_per_time_unit", "steps_per_time_unit", "wall_s_median", "ms_per_time_unit", "t_final",
"q_final", "qdot_final", "regions"}: nfev is the total of solve_ivp's right-hand-side
evaluations (sol.nfev summed over the flights, event location and restarts included), steps
the accepted DOP853 steps (len(sol.t) - 1 summed); --events writes one row per impact (time,
region, pre-impact state, post-impact velocities) for the accuracy comparison with clatter's
events.csv.
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

# [NDC] Table 3 (parameters, r = e* and mu of the impact law) and Table 4 (state at t = 0)
CASES = {
    "1-3": dict(r=1.0, mu=0.8507, v_dr=1.8, k_x=0.6, k_y=1.0, k_th=1.6, c_x=0.1, c_y=1.0,
                c_th=0.12, y0=0.5, y1=0.8, th0=0.275 * math.pi,
                z0=[-0.7585, 0.7032, 0.8728, 3.2236, -1.5523, -0.0019]),
    "5-9": dict(r=1.0, mu=0.5448, v_dr=0.2, k_x=0.7, k_y=1.0, k_th=1.9, c_x=0.05, c_y=0.05,
                c_th=0.05, y0=0.5, y1=0.8, th0=0.7 * math.pi,
                z0=[0.0843, 0.4948, 2.1111, -0.0226, -0.4921, 0.1553]),
}


def make_rhs(p):
    v_dr, k_x, k_y, k_th = p["v_dr"], p["k_x"], p["k_y"], p["k_th"]
    c_x, c_y, c_th, y0, y1sq, th0 = p["c_x"], p["c_y"], p["c_th"], p["y0"], p["y1"] ** 2, p["th0"]

    def rhs(t, z):
        x, y, th, xd, yd, om = z
        dy = y - y0
        sx = -k_x * (x - v_dr * t) - c_x * (xd - v_dr)
        sy = -k_y * dy - c_y * (dy * dy - y1sq) * yd
        r = -k_th * (th - th0) - c_th * om
        s, c = math.sin(th), math.cos(th)
        om2 = om * om
        return [xd, yd, om, sx - 3.0 * r * s - om2 * c, sy - 3.0 * r * c + om2 * s, 3.0 * r]

    return rhs


def impact(z, mu, r):
    """Stronge's law at P1 on y = 0: the post-impact state and the region (1..10, 0)."""
    th, vT, vN, om = z[2], z[3], z[4], z[5]
    s, c = math.sin(th), math.cos(th)
    A, B, C = 1.0 + 3.0 * s * s, 3.0 * s * c, 1.0 + 3.0 * c * c
    vTp, vNp, region = stronge_map.stronge(vT, vN, A, B, C, mu, r)
    omp = om - 0.75 * (s * (vTp - vT) + c * (vNp - vN))
    return [z[0], 0.0, th, vTp, vNp, omp], region


def run(case, t_end, rtol, atol, max_step):
    p = CASES[case]
    rhs = make_rhs(p)

    def gap(t, z):
        return z[1]

    gap.terminal = True
    gap.direction = -1

    t, z = 0.0, list(p["z0"])
    nfev = steps = 0
    impacts = []  # (t, region, z_pre, z_post)
    while t < t_end:
        sol = solve_ivp(rhs, (t, t_end), z, method="DOP853", rtol=rtol, atol=atol, events=gap,
                        max_step=max_step)
        if sol.status == -1:
            raise RuntimeError(sol.message)
        nfev += sol.nfev
        steps += len(sol.t) - 1
        if sol.status != 1:  # reached t_end
            t, z = t_end, list(sol.y[:, -1])
            break
        t = float(sol.t_events[0][0])
        pre = list(sol.y_events[0][0])
        if pre[4] >= 0.0:
            raise RuntimeError(f"grazing contact at t = {t} (v_N = {pre[4]}): not treated here")
        z, region = impact(pre, p["mu"], p["r"])
        impacts.append((t, region, pre, z))
        if len(impacts) > 3 and impacts[-1][0] - impacts[-4][0] < 1e-9:
            raise RuntimeError(f"impacts accumulate at t = {t}: no chatter treatment here")
    return dict(t=t, z=z, impacts=impacts, nfev=nfev, steps=steps)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--case", choices=sorted(CASES), default="1-3")
    ap.add_argument("--t-end", type=float, default=200.0)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--rtol", type=float, default=1e-12)
    ap.add_argument("--atol", type=float, default=1e-12)
    ap.add_argument("--max-step", type=float, default=math.inf,
                    help="solve_ivp max_step (default: none)")
    ap.add_argument("--events", default="", help="write the impacts to this CSV file")
    a = ap.parse_args()
    if a.repeats < 1 or not a.t_end > 0.0:
        ap.error("--repeats must be >= 1 and --t-end > 0")

    walls = []
    for _ in range(a.repeats):
        start = time.perf_counter()
        res = run(a.case, a.t_end, a.rtol, a.atol, a.max_step)
        walls.append(time.perf_counter() - start)

    if a.events:
        with open(a.events, "w") as fh:
            fh.write("t,region,x,y,theta,xdot_pre,ydot_pre,thetadot_pre,"
                     "xdot_post,ydot_post,thetadot_post\n")
            for t, region, pre, post in res["impacts"]:
                fh.write(",".join([repr(t), str(region)] + [repr(float(v)) for v in pre]
                                  + [repr(float(v)) for v in post[3:]]) + "\n")

    wall = statistics.median(walls)
    regions = {}
    for _, region, _, _ in res["impacts"]:
        regions[str(region)] = regions.get(str(region), 0) + 1
    z = [float(v) for v in res["z"]]
    print(json.dumps({
        "peer": "scipy_dop853", "case": a.case, "t_end": a.t_end, "rtol": a.rtol, "atol": a.atol,
        "max_step": a.max_step if math.isfinite(a.max_step) else None,
        "impacts": len(res["impacts"]), "nfev": res["nfev"], "steps": res["steps"],
        "nfev_per_time_unit": res["nfev"] / a.t_end, "steps_per_time_unit": res["steps"] / a.t_end,
        "wall_s_median": wall, "ms_per_time_unit": 1e3 * wall / a.t_end,
        "t_final": res["t"], "q_final": z[:3], "qdot_final": z[3:], "regions": regions}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
