#!/usr/bin/python3
"""Region maps of Stronge's law for `clatter regions` ([NDC] Figs 2 and 4).

    /usr/bin/python3 python/clatter_plots/regions.py --regions R.csv --title TEXT --out OUT.png

R.csv: x,v_T,region,ends_in_stick (a section) or B,mu,panel (the parameter panels). Each region
(or panel) in its own colour, labelled at its centre; regions ending in stick hatched.
Output written atomically. Bad input: message on stderr, exit 2.
"""

import argparse
import sys

from plot_io import plt, read_csv, save


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--regions", required=True)
    ap.add_argument("--title", default="")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    rows, fields = read_csv(a.regions, "regions.py")
    xf, yf, lf = fields[0], fields[1], fields[2]
    labels = sorted({r[lf] for r in rows}, key=lambda s: (len(s), s))
    colour = {lab: f"C{i % 10}" for i, lab in enumerate(labels)}
    fig, ax = plt.subplots(figsize=(7, 6))
    for lab in labels:
        sel = [r for r in rows if r[lf] == lab]
        xs = [float(r[xf]) for r in sel]
        ys = [float(r[yf]) for r in sel]
        stick = len(fields) > 3 and sel and sel[0].get("ends_in_stick") == "1"
        ax.scatter(xs, ys, s=2, color=colour[lab], marker="s", linewidths=0,
                   alpha=0.55 if stick else 0.9)
        ax.annotate(lab, (sum(xs) / len(xs), sum(ys) / len(ys)), ha="center", va="center",
                    fontsize=10, weight="bold")
    ax.set_xlabel(xf)
    ax.set_ylabel(yf)
    ax.set_title(a.title)
    save(fig, a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
