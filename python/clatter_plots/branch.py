#!/usr/bin/python3
"""Plot of a continued branch of periodic orbits for `clatter continue`.

    /usr/bin/python3 python/clatter_plots/branch.py --branch BR.csv --bifurcations BIF.csv
        --param NAME [--param-unit UNIT] [--title TEXT] --out OUT.png

BR.csv: branch,p,period,<solved components>,stable,max_abs_multiplier,... (one row per point in
the order of continuation). BIF.csv: branch,kind,p,period,<solved components>,... .
(a) the first solved component against the parameter, (b) the largest |multiplier| (log axis,
ticks as plain numbers); stable solid, unstable dashed (both in the legend), bifurcations marked
by kind. Output written atomically.
Bad input: message on stderr, exit 2.
"""

import argparse
import sys

from matplotlib.lines import Line2D
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

from plot_io import plt, read_csv, save

# units of the solved components the seeds' models name (any other is shown without one)
UNITS = {"x": "m", "y": "m", "xdot": "m/s", "ydot": "m/s", "theta": "rad", "thetadot": "rad/s",
         "phi": "rad", "phidot": "rad/s"}

MARKERS = {"SN": "o", "PD": "s", "NS": "D", "grazing": "^", "region_change": "v",
           "stick_change": "x", "slip_lift_change": "+"}


def runs(rows):
    run = []
    for r in rows:
        if run and (run[-1]["stable"] != r["stable"] or run[-1]["branch"] != r["branch"]):
            yield run[-1]["stable"], run + ([r] if run[-1]["branch"] == r["branch"] else [])
            run = []
        run.append(r)
    if run:
        yield run[-1]["stable"], run


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--branch", required=True)
    ap.add_argument("--bifurcations", required=True)
    ap.add_argument("--param", required=True)
    ap.add_argument("--param-unit", default="")
    ap.add_argument("--title", default="")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    rows, fields = read_csv(a.branch, "branch.py")
    bifs, _ = read_csv(a.bifurcations, "branch.py")
    comp = fields[3]
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    for stable, seg in runs(rows):
        style = "-" if stable == "1" else "--"
        p = [float(r["p"]) for r in seg]
        ax1.plot(p, [float(r[comp]) for r in seg], style, color="C0", lw=1.3)
        ax2.plot(p, [float(r["max_abs_multiplier"]) for r in seg], style, color="C0", lw=1.3)
    for b in bifs:
        m = MARKERS.get(b["kind"], "*")
        ax1.plot(float(b["p"]), float(b[comp]), m, color="C3", ms=7, mfc="none",
                 label=b["kind"])
        ax2.plot(float(b["p"]), float(b["max_abs_multiplier"]), m, color="C3", ms=7, mfc="none")
    handles, labels = ax1.get_legend_handles_labels()
    seen = dict(zip(labels, handles))
    seen["stable"] = Line2D([], [], color="C0", lw=1.3, ls="-")
    seen["unstable"] = Line2D([], [], color="C0", lw=1.3, ls="--")
    ax1.legend(seen.values(), seen.keys(), fontsize=8)
    ax2.axhline(1.0, color="0.6", lw=0.8, ls=":", label="|multiplier| = 1")
    unit = UNITS.get(comp)
    ax1.set_ylabel(comp + " on the section" + (f" [{unit}]" if unit else ""))
    ax1.set_title("(a) the orbit's state on the section", fontsize=10)
    ax2.set_ylabel("max |multiplier|")
    ax2.set_title("(b) its largest Floquet multiplier (stable below 1)", fontsize=10)
    ax2.set_yscale("log")
    # plain numbers at 1, 2, 5 × 10^k (not 10^0 alone, nor 1.4×10^0)
    ax2.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    ax2.yaxis.set_major_formatter(FuncFormatter(lambda y, _: "%g" % y))
    ax2.yaxis.set_minor_formatter(NullFormatter())
    ax2.set_xlabel(a.param + (" [%s]" % a.param_unit if a.param_unit else ""))
    fig.suptitle(a.title or "periodic orbits continued in " + a.param)
    save(fig, a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
