#!/usr/bin/python3
"""Plot of the continued periodic orbits for `clatter orbits` ([BP] Fig. 10 / [B] Fig 5.10 style).

    /usr/bin/python3 python/clatter_plots/orbits.py --branches BR.csv --bifurcations BIF.csv
        --out OUT.png

BR.csv: e,impacts,periods,omega,...,apex_max,...,stable,margin (one row per branch point, in the
order of continuation). BIF.csv: e,impacts,periods,kind,omega,...,apex_max,... .
(a) the highest apex of each orbit against omega, one colour per e, stable solid, unstable
dashed, SN (circle), PD (square) and grazing (triangle) marked; (b) the same near the
period-doubling cascade when the file holds doubled branches (impacts > 1).
Output written atomically. Bad input: message on stderr, exit 2.
"""

import argparse
import csv
import os
import sys
from collections import OrderedDict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

MARKERS = {"SN": "o", "PD": "s", "grazing": "^"}


def segments(rows):
    """Runs of consecutive points with the same stability."""
    run = []
    for r in rows:
        if run and run[-1]["stable"] != r["stable"]:
            yield run[-1]["stable"], run + [r]
            run = []
        run.append(r)
    if run:
        yield run[-1]["stable"], run


def draw(ax, branches, bifs, colours, doubled_only=False):
    for (e, m, n), rows in branches.items():
        if (m == 1) == doubled_only:
            continue
        for stable, seg in segments(rows):
            ax.plot([r["omega"] for r in seg], [r["apex_max"] for r in seg],
                    "-" if stable == "1" else "--", color=colours[e], lw=1.4 if m == 1 else 1.0)
            if m > 1:  # the lower apex of the doubled orbits
                ax.plot([r["omega"] for r in seg], [r["apex_min"] for r in seg],
                        "-" if stable == "1" else "--", color=colours[e], lw=1.0)
    for b in bifs:
        if not doubled_only and b["impacts"] > 1:
            continue
        if doubled_only and b["kind"] != "PD":
            continue
        ax.plot(b["omega"], b["apex_max"], MARKERS.get(b["kind"], "x"), color=colours[b["e"]],
                mfc="none", ms=7)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--branches", required=True)
    p.add_argument("--bifurcations", required=True)
    p.add_argument("--out", required=True)
    a = p.parse_args()
    try:
        branches = OrderedDict()
        with open(a.branches, newline="") as fh:
            for r in csv.DictReader(fh):
                key = (r["e"], int(r["impacts"]), int(r["periods"]))
                row = {"omega": float(r["omega"]), "apex_max": float(r["apex_max"]),
                       "apex_min": float(r["apex_min"]), "stable": r["stable"]}
                branches.setdefault(key, []).append(row)
        bifs = []
        with open(a.bifurcations, newline="") as fh:
            for r in csv.DictReader(fh):
                bifs.append({"e": r["e"], "impacts": int(r["impacts"]), "kind": r["kind"],
                             "omega": float(r["omega"]), "apex_max": float(r["apex_max"])})
    except (OSError, KeyError, ValueError) as e:
        print(f"orbits.py: error: {e}", file=sys.stderr)
        return 2
    es = list(OrderedDict.fromkeys(k[0] for k in branches))
    colours = {e: f"C{i}" for i, e in enumerate(es)}
    has_doubled = any(k[1] > 1 for k in branches)
    # (a) across the top; (b) one panel per e below, each zoomed on its own cascade (a single
    # shared panel squeezed five cascades into one axis)
    cascades = [e for e in es if any(k[0] == e and k[1] > 1 for k in branches)]
    fig = plt.figure(figsize=(14, 10 if cascades else 6), constrained_layout=True)
    gs = fig.add_gridspec(2 if cascades else 1, max(1, len(cascades)),
                          height_ratios=[1.3, 1] if cascades else [1])
    ax = fig.add_subplot(gs[0, :])
    draw(ax, branches, bifs, colours)
    for e in es:
        ax.plot([], [], "-", color=colours[e], label=f"e = {e}")
    ax.plot([], [], "k-", label="stable")
    ax.plot([], [], "k--", label="unstable")
    for kind, mk in MARKERS.items():
        ax.plot([], [], mk, color="k", mfc="none", label=kind)
    ax.legend(fontsize=8, ncol=2)
    ax.set_xlabel(r"$\omega$ [rad/s]")
    ax.set_ylabel("apex height of the orbit [m]")
    ax.set_title("(a) period-n orbits: SN, PD and grazing")
    ax.grid(alpha=0.3)
    for i, e in enumerate(cascades):
        ax2 = fig.add_subplot(gs[1, i])
        sub = OrderedDict((k, v) for k, v in branches.items() if k[0] == e)
        draw(ax2, sub, [b for b in bifs if b["e"] == e], colours, doubled_only=True)
        ws = [b["omega"] for b in bifs if b["kind"] == "PD" and b["e"] == e]
        if ws:
            span = max(max(ws) - min(ws), 1e-3)
            ax2.set_xlim(min(ws) - 0.08 * span, max(ws) + 0.08 * span)
        ax2.set_xlabel(r"$\omega$ [rad/s]")
        if i == 0:
            ax2.set_ylabel("apex heights of the doubled orbits [m]")
        ax2.set_title(f"(b{i + 1}) cascade, e = {e}: {len(ws)} PD", fontsize=10)
        ax2.tick_params(axis="x", labelsize=8, labelrotation=30)
        ax2.grid(alpha=0.3)
    tmp = f"{a.out}.tmp-{os.getpid()}.png"
    fig.savefig(tmp, dpi=110)
    plt.close(fig)
    os.replace(tmp, a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
