#!/usr/bin/python3
"""Python peer of `clatter sweep examples/bp_fig8a.toml --continuation` (issue 13 performance).

What it is
    The script a researcher would write for [BP] Fig. 8(a) / [B] Fig. 5.7(a) knowing that the flat
    rod of the seeds' symmetric start moves as a ball: its two ends hit together with equal
    impulses, v_T = 0, and J_T M^-1 J_N^T = 0, so Stronge's law is Newton's v+ = -e* v- on the
    velocity relative to the table h(t) = A sin(w t). Every phase is in closed form:
      flight     y = y0 + v0 s - g s^2/2; the earliest root of the gap y - h found by safe steps
                 s* = (g' + sqrt(g'^2 + 2 M2 g))/M2 (M2 = g + A w^2 bounds -g''), then Newton;
      chatter    the seeds' cut-off: an impact with |v_rel| < V_tol = 1e-6 into g + h'' > 0 is
                 plastic and the rod rides the table ([BP] Sec. 5.1, spec/000 Sec. 6.2);
      riding     y = h(t) until lift-off at w t = asin(g/(A w^2)) mod 2 pi (never if A w^2 <= g);
                 after a lift-off the gap is convex until w t = pi - asin(g/(A w^2)), where the
                 flight search starts.
    Carry-over as clatter's: each w from the previous final state at the same forcing phase.
    The observable is the apex height of the centre in the recorded periods (distinct values to
    1e-6 relative, as clatter's summary).

    /usr/bin/python3 bench/peers/fig8a_exact_flight.py --omega 3 5 101 [--transient 1000]
        [--record 100] [--out FILE.csv]

prints one JSON line {"peer": "python-exact-flight", "values": n, "wall_s": ..., "per_value_s":
{"median": ..., "max": ...}, "impacts": ...} and writes omega,y_apex rows (as bifurcation.csv) and
per-value times to FILE.csv / FILE.times.csv when --out is given.
"""

import argparse
import json
import math
import statistics
import sys
import time

G, A, E, VTOL = 9.81, 1.0, 0.9, 1e-6
T0, Y0 = 0.705258553846737, 7.145273725460764  # the seeds' symmetric drop (examples/bp_fig8a.toml)


def first_root(t0, y0, v0, w, s_start, s_max):
    """Earliest s in (s_start, s_max] with y0 + v0 s - g s^2/2 = A sin(w (t0 + s)), or None."""
    M2 = G + A * w * w
    s = s_start
    for _ in range(10000):
        gap = y0 + (v0 - 0.5 * G * s) * s - A * math.sin(w * (t0 + s))
        slope = v0 - G * s - A * w * math.cos(w * (t0 + s))
        tol = 1e-12 * (1.0 + abs(y0) + A)
        if gap <= tol and not (s == s_start and slope > 0.0):
            if slope >= 0.0:  # a graze: touches without crossing; step past it
                s += 1e-9
                continue
            for _ in range(4):  # Newton polish from above
                ds = -gap / slope
                s += ds
                gap = y0 + (v0 - 0.5 * G * s) * s - A * math.sin(w * (t0 + s))
                slope = v0 - G * s - A * w * math.cos(w * (t0 + s))
                if abs(ds) < 1e-15 * (1.0 + abs(t0 + s)):
                    break
            return s
        g_pos = max(gap, 0.0)
        step = (slope + math.sqrt(slope * slope + 2.0 * M2 * g_pos)) / M2 if slope >= 0.0 else \
            2.0 * g_pos / (math.sqrt(slope * slope + 2.0 * M2 * g_pos) - slope)
        step = max(step, 1e-15 * (1.0 + abs(t0 + s)))
        if s + step > s_max:
            return None
        s += step
    raise RuntimeError(f"flight search did not converge from t = {t0}")


def run_value(w, t, y, v, riding, n_transient, n_record):
    T = 2.0 * math.pi / w
    t_end = t + (n_transient + n_record) * T
    t_rec = t + n_transient * T
    phi_lift = math.asin(G / (A * w * w)) if A * w * w > G else None
    apexes, impacts = [], 0
    s_start = 0.0
    while t < t_end:
        if riding:
            if phi_lift is None:
                t = t_end
            else:
                k = math.ceil((w * t - phi_lift) / (2.0 * math.pi))
                t_lift = (phi_lift + 2.0 * math.pi * k) / w
                if t_lift <= t:
                    t_lift += T
                t = min(t_lift, t_end)
            y, v = A * math.sin(w * t), A * w * math.cos(w * t)
            if t >= t_end:
                break
            riding = False
            s_start = (math.pi - 2.0 * phi_lift) / w  # the gap is convex and > 0 before
            continue
        s = first_root(t, y, v, w, s_start, t_end - t)
        s_start = 0.0
        if v > 0.0 and (s is None or v / G < s) and t + v / G >= t_rec and t + v / G <= t_end:
            apexes.append(y + 0.5 * v * v / G)
        if s is None:
            y, v, t = y + (v - 0.5 * G * (t_end - t)) * (t_end - t), v - G * (t_end - t), t_end
            break
        t += s
        y, v = A * math.sin(w * t), v - G * s
        hd = A * w * math.cos(w * t)
        v_rel = v - hd
        impacts += 1
        if abs(v_rel) < VTOL and G - A * w * w * math.sin(w * t) > 0.0:
            riding, v = True, hd
        else:
            v = hd - E * v_rel
    return t, y, v, riding, apexes, impacts


def distinct(values):
    out = []
    for a in sorted(values):
        if not out or abs(a - out[-1]) > 1e-6 * max(1.0, abs(a)):
            out.append(a)
    return len(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--omega", nargs=3, type=float, default=[3.0, 5.0, 101])
    ap.add_argument("--transient", type=float, default=1000.0)
    ap.add_argument("--record", type=float, default=100.0)
    ap.add_argument("--out")
    a = ap.parse_args()
    lo, hi, n = a.omega[0], a.omega[1], int(a.omega[2])
    t, y, v, riding = T0, Y0, 0.0, False
    w_prev = None
    rows, times, impacts = [], [], 0
    start = time.perf_counter()
    for i in range(n):
        w = lo + (hi - lo) * i / (n - 1) if n > 1 else lo
        if w_prev is not None:  # carry-over: the same forcing phase at the new frequency
            t = math.fmod(t * w_prev, 2.0 * math.pi) / w
        t_value = time.perf_counter()
        t, y, v, riding, apexes, k = run_value(w, t, y, v, riding, a.transient, a.record)
        times.append(time.perf_counter() - t_value)
        impacts += k
        rows += [(w, h) for h in apexes]
        w_prev = w
    wall = time.perf_counter() - start
    if a.out:
        with open(a.out, "w") as fh:
            fh.write("omega,y_apex\n")
            fh.writelines(f"{w:.12g},{h:.12g}\n" for w, h in rows)
        with open(a.out.replace(".csv", "") + ".times.csv", "w") as fh:
            fh.write("omega,seconds\n")
            for i, s in enumerate(times):
                w = lo + (hi - lo) * i / (n - 1) if n > 1 else lo
                fh.write(f"{w:.12g},{s:.6g}\n")
    print(json.dumps({"peer": "python-exact-flight", "values": n, "wall_s": wall,
                      "per_value_s": {"median": statistics.median(times), "max": max(times)},
                      "impacts": impacts}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
