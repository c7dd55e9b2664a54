#!/usr/bin/python3
"""Time per value along [BP] Fig. 8(a)'s carry-over chain (issue 13 performance; not a timed test).

Reads the CPU time of every value from `clatter sweep ... --timings CLATTER.csv` and the peer's
`bench/peers/fig8a_exact_flight.py --out PEER.csv` (PEER.times.csv, wall time per value), both
over the same grid, and prints: the totals, the median and largest value, the largest over the
median and the values above 10x the median (with their events and the periodic shortcut's cycle),
and the ratio peer / clatter per value (smallest, median). The two chains follow their own
attractors (the peer's V_tol chatter leaves the hopping one at 3.15), so a per-value ratio compares
the cost of each program's diagram, value by value.

    /usr/bin/python3 bench/fig8a_chain_times.py CLATTER.csv PEER.times.csv
"""

import csv
import statistics
import sys


def main():
    c_rows = list(csv.DictReader(open(sys.argv[1])))
    p_rows = list(csv.DictReader(open(sys.argv[2])))
    c = [float(r["seconds"]) for r in c_rows]
    p = [float(r["seconds"]) for r in p_rows]
    if len(c) != len(p):
        sys.exit("the two files have different grids")
    for name, x in (("clatter", c), ("peer", p)):
        med = statistics.median(x)
        print(f"{name:8s} total {sum(x):8.3f} s  median {1e3 * med:8.3f} ms  "
              f"max {1e3 * max(x):9.3f} ms  max/median {max(x) / med:7.1f}  "
              f"values > 10x median {sum(v > 10 * med for v in x)}")
    med = statistics.median(c)
    slow = [r for r in c_rows if float(r["seconds"]) > 10 * med]
    if slow:
        print("clatter's values above 10x its median (omega, ms, events, cycle):")
        for r in slow[:20]:
            print(f"  {r['omega']:>8s} {1e3 * float(r['seconds']):8.2f} {r['events']:>7s} "
                  f"{r['cycle']}")
    ratio = [b / a for a, b in zip(c, p) if a > 0]
    print(f"peer / clatter per value: min {min(ratio):.2f}  median {statistics.median(ratio):.2f}  "
          f"values below 8x: {sum(r < 8 for r in ratio)} of {len(ratio)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
