#!/usr/bin/python3
"""Plot of a brute-force bifurcation diagram for `clatter sweep` ([BP] Fig. 8 style).

    /usr/bin/python3 python/clatter_plots/sweep.py --data BIF.csv --summary SUM.csv --out OUT.png
        [--title "..."]

BIF.csv: omega,y_apex (one row per recorded apex). SUM.csv: omega,distinct,samples,reason,message.
Top: y_apex against omega (one dot per apex). Bottom: the number of distinct apex heights per
omega (the period in impacts; chaos, more than 64, drawn at 65; 0 = sustained contact).
Output written atomically. Bad input: message on stderr, exit 2.
"""

import argparse
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--data", required=True)
    p.add_argument("--summary", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--title", default="")
    a = p.parse_args()
    try:
        with open(a.data, newline="") as fh:
            rows = list(csv.DictReader(fh))
        with open(a.summary, newline="") as fh:
            summary = list(csv.DictReader(fh))
        w = [float(r["omega"]) for r in rows]
        y = [float(r["y_apex"]) for r in rows]
        sw = [float(r["omega"]) for r in summary]
        sd = [int(r["distinct"]) for r in summary]
    except (OSError, KeyError, ValueError) as e:
        print(f"sweep.py: error: {e}", file=sys.stderr)
        return 2
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(10, 8), sharex=True,
                                   gridspec_kw={"height_ratios": [3, 1]}, constrained_layout=True)
    ax1.plot(w, y, ",", color="k")
    ax1.set_ylabel("apex height of the centre of mass")
    ax1.set_title("(a) bifurcation diagram (apex section after the transient)")
    ax2.step(sw, [65 if d < 0 else d for d in sd], where="mid", color="C0")
    # symlog around 0 with plain tick labels (the default 10^0 and 0 collided)
    ax2.set_yscale("symlog", linthresh=1, linscale=0.4)
    ticks = [0, 1, 2, 4, 8, 16, 32, 65]
    ax2.set_yticks(ticks)
    ax2.set_yticklabels([str(t) for t in ticks[:-1]] + [">64"])
    ax2.minorticks_off()
    ax2.set_ylim(-0.3, 90)
    ax2.set_ylabel("distinct apexes")
    ax2.set_xlabel(r"$\omega$")
    ax2.set_title("(b) distinct apex heights per omega: the period in impacts (>64: chaos; 0: sustained contact)")
    for ax in (ax1, ax2):
        ax.grid(alpha=0.3)
    fig.suptitle(a.title)
    tmp = f"{a.out}.tmp-{os.getpid()}.png"
    fig.savefig(tmp, dpi=110)
    plt.close(fig)
    os.replace(tmp, a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
