#!/usr/bin/python3
"""Plots of impact-law sweeps for the clatter CLI (thesis Figs 3.3-3.5 and 3.8).

The C++ CLI writes a CSV and calls this script to render it as a PNG:

    /usr/bin/python3 python/clatter_plots/impact_sweep.py --kind KIND --csv DATA.csv \
        [--markers MARKERS.csv] --out OUT.png [--title "..."]

KIND = energy-loss
    DATA.csv columns  e,mu,T_L_bar  (many rows per e; mu = Brach impulse ratio).
    One line T_L_bar(mu) per distinct e (legend "e = 0.5"), a horizontal line
    at 0, the y-axis clipped to the 2nd..98th percentile of the finite values
    (extended to include 0 and the markers, plus a 10% margin), because T_L_bar
    goes to -infinity near mu_s.
    MARKERS.csv columns  e,name,mu  with name in
    {mu_E1, mu_E2, mu_M, mu_C, mu_s, mu_brach}: mu_s is a dashed vertical line
    (drawn once per distinct value), the others are markers on the curve of
    their e (one shape per name, the colour of the curve, height interpolated
    on the curve). Markers with mu = NaN or outside the plotted range are skipped.
    With markers, a second panel (b) zooms on them, from min(0, markers) to the
    top of the curves, as in the thesis panels (b).

KIND = map
    DATA.csv columns  v_TC_pre,v_TC_post_brach,v_TC_post_energetic,mu_brach,brach_choice,region
    (brach_choice a string such as mu_f / mu_C / mu_E; region an int 0-10).
    A 2x2 figure: (a) Brach V_TC^+ vs V_TC^- coloured by brach_choice,
    (b) energetic V_TC^+ vs V_TC^- coloured by region, (c) both as lines,
    (d) the Brach impulse ratio vs V_TC^-.
    MARKERS.csv columns  name,v_TC_pre: thin vertical lines with a label in every panel.

Output: OUT.png, written atomically (OUT.png.tmp-<pid> in the same directory,
then os.replace). Errors (missing file or column, bad value) are reported on
stderr and the exit status is 2.
"""

import argparse
import csv
import math
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.transforms as mtransforms  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402


class InputError(Exception):
    """A problem with the input files; reported on stderr, exit status 2."""


# ---------------------------------------------------------------------------
# CSV input
# ---------------------------------------------------------------------------

def read_csv(path, required, what):
    """Read a CSV into {column: [str, ...]}; check the file and the columns."""
    if not os.path.isfile(path):
        raise InputError(f"{what} file not found: {path}")
    try:
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            header = [h.strip() for h in (reader.fieldnames or [])]
            missing = [c for c in required if c not in header]
            if missing:
                raise InputError(f"{what} file {path} lacks column(s): {', '.join(missing)} "
                                 f"(found: {', '.join(header) or 'no header'})")
            reader.fieldnames = header
            cols = {c: [] for c in required}
            for row in reader:
                for c in required:
                    cols[c].append((row.get(c) or "").strip())
    except OSError as exc:
        raise InputError(f"cannot read {what} file {path}: {exc}") from exc
    return cols


def to_float(values, column, path):
    """Strings -> float array; blank means NaN; 'inf', '-inf', 'nan' accepted."""
    out = np.empty(len(values))
    for i, s in enumerate(values):
        try:
            out[i] = float(s) if s != "" else math.nan
        except ValueError:
            raise InputError(f"{path}: column {column}, data row {i + 1}: "
                             f"not a number: {s!r}") from None
    return out


def to_int(values, column, path):
    """Strings -> list of int (e.g. '3' or '3.0')."""
    out = []
    for i, s in enumerate(values):
        try:
            x = float(s)
            if not x.is_integer():
                raise ValueError
            out.append(int(x))
        except ValueError:
            raise InputError(f"{path}: column {column}, data row {i + 1}: "
                             f"not an integer: {s!r}") from None
    return out


def math_label(name):
    """'mu_E1' -> '$\\mu_{E1}$', 'mu_brach' -> '$\\mu_{brach}$'; other names unchanged."""
    m = re.fullmatch(r"mu_(\w+)", name)
    if m:
        return rf"$\mu_{{{m.group(1)}}}$"
    if name == "mu":
        return r"$\mu$"
    return name


# ---------------------------------------------------------------------------
# Atomic PNG output
# ---------------------------------------------------------------------------

def save_atomic(fig, out):
    out_dir = os.path.dirname(os.path.abspath(out))
    os.makedirs(out_dir, exist_ok=True)
    tmp = f"{out}.tmp-{os.getpid()}"
    try:
        fig.savefig(tmp, format="png", dpi=130)
        os.replace(tmp, out)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


# ---------------------------------------------------------------------------
# --kind energy-loss (thesis Figs 3.3-3.5)
# ---------------------------------------------------------------------------

MARKER_SHAPES = {
    "mu_E1": "o",
    "mu_E2": "s",
    "mu_M": "D",
    "mu_C": "^",
    "mu_brach": "*",
}


def plot_energy_loss(csv_path, markers_path, title):
    cols = read_csv(csv_path, ("e", "mu", "T_L_bar"), "data")
    e = to_float(cols["e"], "e", csv_path)
    mu = to_float(cols["mu"], "mu", csv_path)
    tl = to_float(cols["T_L_bar"], "T_L_bar", csv_path)
    if len(e) == 0:
        raise InputError(f"data file {csv_path} has no data rows")

    # one curve per distinct e, sorted by mu
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    curves = {}   # e -> (mu, T_L_bar, colour)
    for i, ev in enumerate(sorted(set(e[np.isfinite(e)].tolist()))):
        sel = e == ev
        order = np.argsort(mu[sel], kind="stable")
        curves[ev] = (mu[sel][order], tl[sel][order], colours[i % len(colours)])
    if not curves:
        raise InputError(f"data file {csv_path}: column e has no finite values")
    all_mu = mu[np.isfinite(mu)]
    mu_lo, mu_hi = (all_mu.min(), all_mu.max()) if all_mu.size else (0.0, 1.0)

    # resolve the markers: mu_s values, and (name, mu, T_L_bar, colour) on the curves
    mu_s_values, points = [], []
    if markers_path:
        mcols = read_csv(markers_path, ("e", "name", "mu"), "markers")
        me = to_float(mcols["e"], "e", markers_path)
        mmu = to_float(mcols["mu"], "mu", markers_path)
        for ev, name, mv in zip(me, mcols["name"], mmu):
            if not np.isfinite(mv):
                continue
            if name == "mu_s":
                if mu_lo <= mv <= mu_hi and not any(np.isclose(mv, d) for d in mu_s_values):
                    mu_s_values.append(mv)
                continue
            key = next((k for k in curves if np.isclose(k, ev, rtol=1e-9, atol=1e-12)), None)
            if key is None:
                print(f"warning: marker {name} at e = {ev:g}: no curve with that e; skipped",
                      file=sys.stderr)
                continue
            x, y, colour = curves[key]
            ok = np.isfinite(x) & np.isfinite(y)
            if not ok.any() or mv < x[ok].min() or mv > x[ok].max():
                continue
            if name not in MARKER_SHAPES:
                print(f"warning: unknown marker name {name!r}; drawn as 'x'", file=sys.stderr)
            points.append((name, mv, float(np.interp(mv, x[ok], y[ok])), colour))

    # full view: 2nd..98th percentile of the finite values, plus 0 and the markers, 10% margin
    finite = tl[np.isfinite(tl)]
    lo, hi = np.percentile(finite, [2.0, 98.0]) if finite.size else (0.0, 0.0)
    lo = min(lo, 0.0, *(p[2] for p in points))
    hi = max(hi, 0.0, *(p[2] for p in points))
    span = hi - lo if hi > lo else 1.0
    full = ((mu_lo, mu_hi), (lo - 0.1 * span, hi + 0.1 * span))

    # zoom (thesis panels (b)): around the markers, from min(0, markers) to the top of the curves
    zoom = None
    if points:
        pm = [p[1] for p in points]
        zlo, zhi = min(pm), max(pm)
        width = max(zhi - zlo, 0.05 * (mu_hi - mu_lo))
        zlo, zhi = max(mu_lo, zlo - 0.25 * width), min(mu_hi, zhi + 0.25 * width)
        ys = [p[2] for p in points] + [0.0]
        for x, y, _ in curves.values():
            ok = np.isfinite(y) & (x >= zlo) & (x <= zhi)
            if ok.any():
                ys.append(float(y[ok].max()))
        ylo, yhi = min(0.0, *(p[2] for p in points)), max(ys)
        yspan = yhi - ylo if yhi > ylo else max(abs(yhi), 1e-12)
        zoom = ((zlo, zhi), (ylo - 0.1 * yspan, yhi + 0.1 * yspan))
        # no zoom panel when it would show the same thing as the full view
        if (zhi - zlo) > 0.8 * (mu_hi - mu_lo) and yspan > 0.8 * span:
            zoom = None

    if zoom:
        fig, axes = plt.subplots(1, 2, figsize=(13, 5.5), layout="constrained")
        panels = [(axes[0], full, "(a) "), (axes[1], zoom, "(b) zoom: ")]
    else:
        fig, ax = plt.subplots(figsize=(8, 5.5), layout="constrained")
        panels = [(ax, full, "")]

    for ax, ((x0, x1), (y0, y1)), prefix in panels:
        for ev, (x, y, colour) in curves.items():
            # non-finite values (the pole at mu_s) break the line
            ax.plot(x, np.where(np.isfinite(y), y, np.nan), color=colour, lw=1.6,
                    label=f"e = {ev:g}")
        ax.axhline(0.0, color="black", lw=0.8, zorder=1)
        for v in mu_s_values:
            ax.axvline(v, color="0.3", ls="--", lw=1.0, zorder=1)
        for name, mv, yv, colour in points:
            shape = MARKER_SHAPES.get(name, "x")
            ax.plot([mv], [yv], ls="none", marker=shape, ms=13 if shape == "*" else 8,
                    mfc=colour, mec="black" if shape != "x" else colour, mew=0.8,
                    zorder=4 if name == "mu_brach" else 5)  # the big star behind the others
        ax.set_xlim(x0, x1)
        ax.set_ylim(y0, y1)
        ax.set_xlabel(r"impulse ratio $\mu$ (Brach)")
        ax.set_ylabel(r"normalised kinetic energy loss $\bar{T}_L$")
        ax.grid(True, lw=0.4, alpha=0.5)
        if prefix:
            ax.set_title(prefix + rf"$\mu \in [{x0:.3g}, {x1:.3g}]$", fontsize=10)

    # one legend on the first panel: the curves (e), then the marker shapes
    ax = panels[0][0]
    handles, _ = ax.get_legend_handles_labels()
    for name in ["mu_E1", "mu_E2", "mu_M", "mu_C", "mu_brach"] + sorted(
            {p[0] for p in points} - set(MARKER_SHAPES)):
        if any(p[0] == name for p in points):
            shape = MARKER_SHAPES.get(name, "x")
            handles.append(Line2D([], [], ls="none", marker=shape, ms=13 if shape == "*" else 8,
                                  mfc="white", mec="black", mew=0.8, label=math_label(name)))
    if mu_s_values:
        handles.append(Line2D([], [], color="0.3", ls="--", lw=1.0, label=math_label("mu_s")))
    ax.legend(handles=handles, loc="best", fontsize=9, framealpha=0.9)
    if title:
        fig.suptitle(title)
    return fig


# ---------------------------------------------------------------------------
# --kind map (thesis Fig 3.8)
# ---------------------------------------------------------------------------

# fixed colour per Stronge region (0 = immediate stick, 1..10 of [NDC] Table 1)
REGION_COLOURS = {
    0: "#7f7f7f", 1: "#1f77b4", 2: "#ff7f0e", 3: "#2ca02c", 4: "#d62728", 5: "#9467bd",
    6: "#8c564b", 7: "#e377c2", 8: "#bcbd22", 9: "#17becf", 10: "#000000",
}


def draw_transitions(fig, gs, markers, panels):
    """Transitions as numbered vertical lines (Brach ones in the Brach panels, region ones in the
    energetic panel, all in the comparison) and a key below the panels: labels never overlap."""
    groups = []  # [x, [names]]: markers at the same V_TC^- share one number
    for name, x in sorted(markers, key=lambda m: m[1]):
        if groups and abs(x - groups[-1][0]) <= 1e-9 * max(1.0, abs(x)):
            groups[-1][1].append(name)
        else:
            groups.append([x, [name]])
    for ax, which in panels.items():
        trans = mtransforms.blended_transform_factory(ax.transData, ax.transAxes)
        lo, hi = ax.get_xlim()
        last_x, level = None, 0
        for k, (x, names) in enumerate(groups):
            kinds = {"brach" if n.startswith("brach") else "region" for n in names}
            if which != "both" and which not in kinds:
                continue
            ax.axvline(x, color="0.35", lw=0.6, zorder=0)
            # stagger the tags of transitions closer than 4 % of the axis
            close = last_x is not None and (x - last_x) < 0.04 * (hi - lo)
            level = (level + 1) % 3 if close else 0
            last_x = x
            ax.text(x, 1.0 - 0.07 * level, str(k + 1), transform=trans, fontsize=7,
                    ha="center", va="top", color="0.15",
                    bbox=dict(boxstyle="round,pad=0.15", fc="white", ec="0.5", lw=0.4))
    key = fig.add_subplot(gs[2, :])
    key.axis("off")
    lines = [f"{k + 1}: $V_{{TC}}^-$ = {x:.4f}   " + ", ".join(n.replace("->", " → ")
                                                               for n in names)
             for k, (x, names) in enumerate(groups)]
    columns = 2 if len(lines) > 6 else 1
    per = -(-len(lines) // columns)
    for c in range(columns):
        key.text(0.01 + 0.5 * c, 1.0, "\n".join(lines[c * per:(c + 1) * per]),
                 transform=key.transAxes, fontsize=8, va="top", ha="left", family="monospace")
    key.set_title("transitions (numbered in the panels; Brach: choice of $\\mu$, energetic: "
                  "region)", fontsize=9, loc="left")


def plot_map(csv_path, markers_path, title):
    required = ("v_TC_pre", "v_TC_post_brach", "v_TC_post_energetic", "mu_brach",
                "brach_choice", "region")
    cols = read_csv(csv_path, required, "data")
    v_pre = to_float(cols["v_TC_pre"], "v_TC_pre", csv_path)
    if len(v_pre) == 0:
        raise InputError(f"data file {csv_path} has no data rows")
    v_brach = to_float(cols["v_TC_post_brach"], "v_TC_post_brach", csv_path)
    v_en = to_float(cols["v_TC_post_energetic"], "v_TC_post_energetic", csv_path)
    mu_b = to_float(cols["mu_brach"], "mu_brach", csv_path)
    choice = np.array(cols["brach_choice"], dtype=object)
    region = np.array(to_int(cols["region"], "region", csv_path))

    markers = []
    if markers_path:
        mcols = read_csv(markers_path, ("name", "v_TC_pre"), "markers")
        mv = to_float(mcols["v_TC_pre"], "v_TC_pre", markers_path)
        markers = [(n, x) for n, x in zip(mcols["name"], mv) if np.isfinite(x)]

    order = np.argsort(v_pre, kind="stable")
    fig = plt.figure(figsize=(11, 10 if markers else 8.5), layout="constrained")
    gs = fig.add_gridspec(3 if markers else 2, 2, height_ratios=[1, 1, 0.22] if markers else [1, 1])
    ax_a = fig.add_subplot(gs[0, 0])
    ax_b = fig.add_subplot(gs[0, 1], sharex=ax_a)
    ax_c = fig.add_subplot(gs[1, 0], sharex=ax_a)
    ax_d = fig.add_subplot(gs[1, 1], sharex=ax_a)
    axs = np.array([[ax_a, ax_b], [ax_c, ax_d]])
    pt = dict(s=9, linewidths=0)

    # choice colours: in order of first appearance along V_TC^-
    choices = list(dict.fromkeys(choice[order].tolist()))
    cycle = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2"]
    choice_colour = {c: cycle[i % len(cycle)] for i, c in enumerate(choices)}

    # (a) Brach
    for c in choices:
        sel = choice == c
        ax_a.scatter(v_pre[sel], v_brach[sel], color=choice_colour[c], label=math_label(c), **pt)
    ax_a.set_title("(a) Brach law")
    ax_a.set_ylabel(r"$V_{TC}^+$")
    ax_a.legend(title="Brach choice", fontsize=8, markerscale=2, loc="best")

    # (b) energetic, coloured by region
    for reg in sorted(set(region.tolist())):
        sel = region == reg
        ax_b.scatter(v_pre[sel], v_en[sel], color=REGION_COLOURS.get(reg, "#aaaaaa"),
                     label=f"region {reg}", **pt)
    ax_b.set_title("(b) energetic law (Stronge)")
    ax_b.set_ylabel(r"$V_{TC}^+$")
    ax_b.legend(fontsize=8, markerscale=2, loc="best",
                ncol=2 if len(set(region.tolist())) > 5 else 1)

    # (c) both superimposed
    ax_c.plot(v_pre[order], v_brach[order], color="#1f77b4", lw=1.4, label="Brach")
    ax_c.plot(v_pre[order], v_en[order], color="#d62728", lw=1.4, ls="--", label="energetic")
    ax_c.set_title("(c) both laws")
    ax_c.set_ylabel(r"$V_{TC}^+$")
    ax_c.set_xlabel(r"$V_{TC}^-$")
    ax_c.legend(fontsize=8, loc="best")

    # (d) Brach impulse ratio
    ax_d.plot(v_pre[order], mu_b[order], color="0.6", lw=0.8, zorder=1)
    for c in choices:
        sel = choice == c
        ax_d.scatter(v_pre[sel], mu_b[sel], color=choice_colour[c], label=math_label(c),
                     zorder=2, **pt)
    ax_d.set_title(r"(d) Brach impulse ratio $\mu$")
    ax_d.set_ylabel(r"$\mu$")
    ax_d.set_xlabel(r"$V_{TC}^-$")
    ax_d.legend(title="Brach choice", fontsize=8, markerscale=2, loc="best")

    for ax in axs.flat:
        ax.grid(True, lw=0.4, alpha=0.5)
        ax.axhline(0.0, color="black", lw=0.5, zorder=0)
    if markers:
        draw_transitions(fig, gs, markers, {ax_a: "brach", ax_d: "brach", ax_b: "region",
                                            ax_c: "both"})
    if title:
        fig.suptitle(title)
    return fig


# ---------------------------------------------------------------------------

def main(argv=None):
    p = argparse.ArgumentParser(description="Render an impact-law sweep CSV as a PNG.")
    p.add_argument("--kind", required=True, choices=("energy-loss", "map"))
    p.add_argument("--csv", required=True, help="data CSV")
    p.add_argument("--markers", help="optional markers CSV")
    p.add_argument("--out", required=True, help="output PNG (written atomically)")
    p.add_argument("--title", default="", help="figure title")
    args = p.parse_args(argv)
    try:
        if args.kind == "energy-loss":
            fig = plot_energy_loss(args.csv, args.markers, args.title)
        else:
            fig = plot_map(args.csv, args.markers, args.title)
        save_atomic(fig, args.out)
    except InputError as exc:
        print(f"impact_sweep.py: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"impact_sweep.py: error: cannot write {args.out}: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
