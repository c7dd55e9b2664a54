#!/usr/bin/python3
"""Region maps of Stronge's law for `clatter regions` ([NDC] Figs 2 and 4).

    /usr/bin/python3 python/clatter_plots/regions.py --regions R.csv --title TEXT --out OUT.png

R.csv: x,v_T,region,ends_in_stick (a section) or B,mu,panel (the parameter panels). Each region
(or panel) in its own colour, one cell per grid point, labelled at its centre (a region too
thin to see, such as the line v_T = 0, unlabelled); regions ending in stick hatched.
Output written atomically. Bad input: message on stderr, exit 2.
"""

import argparse
import sys

import numpy as np
from matplotlib.colors import ListedColormap

from plot_io import plt, read_csv, save


def edges(v):
    """Cell edges around sorted grid values (each value in the middle of its cell)."""
    if len(v) == 1:
        return np.array([v[0] - 0.5, v[0] + 0.5])
    mid = (v[1:] + v[:-1]) / 2
    return np.concatenate([[2 * v[0] - mid[0]], mid, [2 * v[-1] - mid[-1]]])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--regions", required=True)
    ap.add_argument("--title", default="")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    rows, fields = read_csv(a.regions, "regions.py")
    xf, yf, lf = fields[0], fields[1], fields[2]
    labels = sorted({r[lf] for r in rows}, key=lambda s: (len(s), s))
    code = {lab: i for i, lab in enumerate(labels)}
    colours = [f"C{i % 10}" for i in range(len(labels))]
    x = np.array([float(r[xf]) for r in rows])
    y = np.array([float(r[yf]) for r in rows])
    c = np.array([code[r[lf]] for r in rows])
    stick = np.array([r.get("ends_in_stick") == "1" for r in rows])
    ux, uy = np.unique(x), np.unique(y)
    fig, ax = plt.subplots(figsize=(7, 6))
    if len(ux) * len(uy) == len(rows):
        # a full grid: one cell per point, edge to edge (points drawn as markers left white
        # seams between the columns)
        ix, iy = np.searchsorted(ux, x), np.searchsorted(uy, y)
        z = np.zeros((len(uy), len(ux)))
        z[iy, ix] = c
        ex, ey = edges(ux), edges(uy)
        ax.pcolormesh(ex, ey, z, cmap=ListedColormap(colours), vmin=-0.5,
                      vmax=len(labels) - 0.5, shading="flat")
        if stick.any():
            s = np.zeros((len(uy), len(ux)))
            s[iy, ix] = stick
            ax.pcolor(ex, ey, np.ma.masked_equal(s, 0), hatch="///", alpha=0.0,
                      shading="flat")
    else:
        for lab in labels:
            sel = c == code[lab]
            ax.scatter(x[sel], y[sel], s=2, color=colours[code[lab]], marker="s", linewidths=0)
    for lab in labels:
        sel = c == code[lab]
        # a region too thin to see (the line v_T = 0) is not labelled
        if sel.sum() >= 0.002 * len(rows):
            ax.annotate(lab, (x[sel].mean(), y[sel].mean()), ha="center", va="center",
                        fontsize=10, weight="bold")
    if stick.any():
        ax.plot([], [], " ", label="hatched: the impact ends in stick")
        ax.legend(loc="lower right", fontsize=8, handlelength=0)
    ax.set_xlabel(xf)
    ax.set_ylabel(yf)
    ax.set_title(a.title)
    save(fig, a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
