#!/usr/bin/python3
"""Plot of one periodic orbit for `clatter orbits SCENARIO`.

    /usr/bin/python3 python/clatter_plots/orbit.py --timeseries TS.csv --orbit ORBIT.json
        --out OUT.png

TS.csv: t and the state components over one period (names from the model). ORBIT.json: the
orbit (solved components, period, multipliers, events). One panel per solved component against
time, the events marked; the title gives the period and the largest |multiplier|.
Output written atomically. Bad input: message on stderr, exit 2.
"""

import argparse
import json
import sys

from plot_io import plt, read_csv, save


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--timeseries", required=True)
    ap.add_argument("--orbit", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    rows, _ = read_csv(a.timeseries, "orbit.py")
    try:
        with open(a.orbit) as f:
            orbit = json.load(f)
    except (OSError, ValueError) as e:
        print(f"orbit.py: {e}", file=sys.stderr)
        return 2
    names = orbit["solved"]
    fig, axes = plt.subplots(len(names), 1, figsize=(7, 1.8 * len(names) + 0.8), sharex=True,
                             squeeze=False)
    t = [float(r["t"]) for r in rows]
    for ax, n in zip(axes[:, 0], names):
        ax.plot(t, [float(r[n]) for r in rows], lw=1.2)
        for e in orbit["events"]:
            ax.axvline(e["t"], color="0.7", lw=0.6, ls=":")
        ax.set_ylabel(n)
    axes[-1, 0].set_xlabel("t [s]")
    lam = max((m["abs"] for m in orbit["multipliers"]), default=0.0)
    fig.suptitle(f"period {orbit['period']:.6g} s, max |multiplier| {lam:.4g}, "
                 f"{'stable' if orbit['stable'] else 'unstable'}")
    save(fig, a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
