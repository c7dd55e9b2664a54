#!/usr/bin/python3
"""Time per value of [BP] Fig. 8(a)'s sweep (issue 13 performance; not a timed test).

For every w of a grid, one independent run from the seeds' drop (examples/bp_fig8a.toml), 1000
forcing periods of transient and 100 recorded, timed alone (CPU time of this process, one thread):
  clatter   clatter.simulate of the same rod (symmetric reduction) to t0 + 1100 T, events only
            (the engine: flights, closed-form riding, chatter; 16 us of call overhead); with
            --periodic-tol TOL, clatter.sweep_parameters of that one value with the periodic
            shortcut (docs/analysis.md), as `clatter sweep --periodic-tol TOL` runs it
  peer      bench/peers/fig8a_exact_flight.py's run_value          (Python, exact flights, the
                                                                   seeds' V_tol cut-off)
Prints, per regime and overall: the median and largest time per value, the largest over the
median, and the ratio peer / clatter per value (its smallest value: "at least N x on every value").

    PYTHONPATH=build/python /usr/bin/python3 bench/fig8a_per_value.py [--omega 3 5 81]
        [--periodic-tol 1e-10] [--out times.csv]
"""

import argparse
import math
import os
import statistics
import sys
import time

# one BLAS thread: OpenBLAS's idle threads spin after numpy's calls, and their CPU time would be
# charged to whichever program is timed next (process_time counts every thread)
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "peers"))

import clatter  # noqa: E402
import fig8a_exact_flight as peer  # noqa: E402


def regime(w):
    if 1.0 * w * w <= peer.G:
        return "rests (A w^2 <= g)"
    if w < 3.325:
        return "chatter, ride, lift-off"
    return "flight"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--omega", nargs=3, type=float, default=[3.0, 5.0, 81])
    ap.add_argument("--transient", type=float, default=1000.0)
    ap.add_argument("--record", type=float, default=100.0)
    ap.add_argument("--periodic-tol", type=float, default=0.0)
    ap.add_argument("--out")
    a = ap.parse_args()
    lo, hi, n = a.omega[0], a.omega[1], int(a.omega[2])
    rows = []
    for i in range(n):
        w = lo + (hi - lo) * i / (n - 1) if n > 1 else lo
        rod = clatter.Model("rod", mass=1.0, half_length=1.0,
                            surface=dict(amplitude=peer.A, omega=w), law="stronge", e=peer.E,
                            mu=0.05)
        t_end = peer.T0 + (a.transient + a.record) * 2.0 * math.pi / w
        c0 = time.process_time()
        if a.periodic_tol > 0.0:
            clatter.sweep_parameters(rod, [("surface.omega", w, w, 1)],
                                     initial=[(peer.T0, [0.0, peer.Y0, 0.0], [0.0, 0.0, 0.0])],
                                     transient_periods=a.transient, record_periods=a.record,
                                     threads=1, periodic_tol=a.periodic_tol,
                                     two_contact="symmetric", chatter_horizon=0.0)
        else:
            clatter.simulate(rod, [0.0, peer.Y0, 0.0], [0.0, 0.0, 0.0], t0=peer.T0, t_end=t_end,
                             two_contact="symmetric", chatter_horizon=0.0, events_only=True,
                             record_events=False)
        c1 = time.process_time()
        p0 = time.process_time()
        peer.run_value(w, peer.T0, peer.Y0, 0.0, False, a.transient, a.record)
        p1 = time.process_time()
        rows.append((w, regime(w), c1 - c0, p1 - p0))
        print(f"w = {w:.4f}  clatter {1e3 * (c1 - c0):9.3f} ms  peer {1e3 * (p1 - p0):9.3f} ms",
              file=sys.stderr, flush=True)
    if a.out:
        with open(a.out, "w") as fh:
            fh.write("omega,regime,clatter_s,peer_s\n")
            fh.writelines(f"{w:.6g},{r},{c:.6g},{p:.6g}\n" for w, r, c, p in rows)
    for name in sorted({r for _, r, _, _ in rows}) + ["all"]:
        sel = [x for x in rows if name in ("all", x[1])]
        c = [x[2] for x in sel]
        p = [x[3] for x in sel]
        ratio = [pp / cc for cc, pp in zip(c, p) if cc > 0]
        print(f"{name:26s} n = {len(sel):4d}  clatter median {1e3 * statistics.median(c):8.3f} ms "
              f"max {1e3 * max(c):8.3f} ms | peer median {1e3 * statistics.median(p):8.3f} ms "
              f"max {1e3 * max(p):9.3f} ms | peer/clatter min {min(ratio):6.2f} "
              f"median {statistics.median(ratio):6.2f}")
    c_all = [x[2] for x in rows]
    print(f"clatter: largest value / median value = {max(c_all) / statistics.median(c_all):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
