#!/usr/bin/python3
"""Plot of a Poincaré section for `clatter section`.

    /usr/bin/python3 python/clatter_plots/section.py --section SEC.csv --title TEXT --out OUT.png

SEC.csv: k,t,<state components>,events_passed. Draws the first two state components that vary
over the points against each other (one dot per crossing). Output written atomically.
Bad input: message on stderr, exit 2.
"""

import argparse
import sys

from plot_io import plt, read_csv, save


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--section", required=True)
    ap.add_argument("--title", default="")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    rows, fields = read_csv(a.section, "section.py")
    names = fields[2:-1]
    varying = [n for n in names if len({r[n] for r in rows}) > 1]
    pick = (varying + names)[:2]
    fig, ax = plt.subplots(figsize=(6, 5))
    if rows and len(pick) == 2:
        ax.plot([float(r[pick[0]]) for r in rows], [float(r[pick[1]]) for r in rows], ".",
                ms=3)
        ax.set_xlabel(pick[0])
        ax.set_ylabel(pick[1])
    ax.set_title(f"Poincare section {a.title}: {len(rows)} points")
    save(fig, a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
