#!/usr/bin/python3
"""Plot of the two branches at a boundary crossing for `clatter dib` ([NDC] Figs 6-7 style).

    /usr/bin/python3 python/clatter_plots/dib.py --branches BR.csv --param NAME --critical P
        [--param-unit UNIT] [--title TEXT] --out OUT.png

BR.csv: side,region,p,period,stable,max_abs_multiplier,H,admissible,<solved components>,
abs_lambda1,... (a) the first solved component on the section against the parameter, (b) the
moduli of the multipliers, |lambda_1| ... in the legend; the H > 0 side solid, the H < 0 side
dashed, inadmissible points (a forced region beyond the boundary) grey, the critical value p*
marked and labelled.
Output written atomically. Bad input: message on stderr, exit 2.
"""

import argparse
import sys

from plot_io import plt, read_csv, save


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--branches", required=True)
    ap.add_argument("--param", required=True)
    ap.add_argument("--critical", type=float, required=True)
    ap.add_argument("--param-unit", default="")
    ap.add_argument("--title", default="")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    rows, fields = read_csv(a.branches, "dib.py")
    comp = fields[8] if len(fields) > 8 else None
    lams = [f for f in fields if f.startswith("abs_lambda")]
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    for side, style in (("H>0", "-"), ("H<0", "--")):
        every = sorted((r for r in rows if r["side"] == side), key=lambda r: float(r["p"]))
        for admissible in ("1", "0"):
            sel = [r for r in every if r["admissible"] == admissible]
            if not sel:
                continue
            p = [float(r["p"]) for r in sel]
            grey = {} if admissible == "1" else {"color": "0.75"}
            if comp:
                label = f"{side} (region {sel[0]['region']})" if admissible == "1" else None
                ax1.plot(p, [float(r[comp]) for r in sel], style, marker=".", ms=3, label=label,
                         **grey)
            for k, lam in enumerate(lams):
                # each multiplier named once, on the admissible H > 0 side
                name = (rf"$|\lambda_{k + 1}|$" if side == "H>0" and admissible == "1" else None)
                ax2.plot(p, [float(r[lam]) for r in sel], style, lw=1.0, label=name,
                         **(grey or {"color": f"C{k}"}))
    for ax in (ax1, ax2):
        ax.axvline(a.critical, color="0.6", lw=0.8, ls=":",
                   label=f"p* = {a.critical:.6g}" if ax is ax1 else None)
    ax2.axhline(1.0, color="0.8", lw=0.6)
    ax1.set_ylabel((comp or "") + " on the section")
    ax1.legend(fontsize=8)
    ax2.set_ylabel("|multipliers|")
    if lams:
        ax2.legend(fontsize=7, ncol=min(len(lams), 6))
    ax2.set_xlabel(a.param + (f" [{a.param_unit}]" if a.param_unit else ""))
    fig.suptitle(a.title or f"the orbit's branches at the boundary crossing in {a.param}")
    save(fig, a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
