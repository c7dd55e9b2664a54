#!/usr/bin/python3
"""Plot of a brute-force bifurcation diagram for `clatter sweep` ([BP] Fig. 8 style).

    /usr/bin/python3 python/clatter_plots/sweep.py --data BIF.csv --summary SUM.csv --out OUT.png
        [--title "..."]
    /usr/bin/python3 python/clatter_plots/sweep.py --hdf5 SWEEP.h5 --out OUT.png [--title "..."]

From CSV: BIF.csv: <parameters>,[initial,][direction,]<observable> (one row per section value);
SUM.csv: <parameters>,[initial,][direction,]distinct,samples,impacts_per_period,reason,message.
From HDF5: the arrays of sweep.h5 (apps/clatter/commands/sweep_hdf5.hpp), read with h5py.
The section values are read in blocks, twice (their range, then their pixels: pixel_raster.py),
and never held: the memory is that of the grid's per-point arrays and the picture, whatever the
number of section values (sweep_data.py).
One parameter: top, the observable against the parameter (one pixel per section value, one
colour per run); bottom, the number of distinct values per value (the period in section crossings;
chaos, more than 64, drawn at 65; 0 = the section was never crossed). Two parameters: the
period map (distinct values of the first run over the grid) and the impacts per period.
Output written atomically. Bad input: message on stderr, exit 2.
"""

import argparse
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.transforms import nonsingular  # noqa: E402

from pixel_raster import PixelRaster  # noqa: E402
from sweep_data import read_csv, read_hdf5  # noqa: E402
from plot_io import save_atomic  # noqa: E402

DPI = 110


def padded(lo, hi):
    """matplotlib's default view of data in [lo, hi]: 5 % margins (a single value widened)."""
    lo, hi = nonsingular(lo, hi, expander=0.05)
    m = 0.05 * (hi - lo)
    return lo - m, hi + m


def value_range(d):
    """The smallest and largest finite section value, or None: a first pass over the blocks."""
    lo, hi = math.inf, -math.inf
    for _, _, y in d.samples():
        y = y[np.isfinite(y)]
        if len(y):
            lo, hi = min(lo, float(y.min())), max(hi, float(y.max()))
    return (lo, hi) if lo <= hi else None


def draw_values(fig, ax, d, keys):
    """The section values against the first parameter, one pixel each, one colour per run."""
    several = len(keys) > 1
    colors = {k: (f"C{i}" if several else "k") for i, k in enumerate(keys)}
    x = d.points[:, 0]
    if len(x):
        ax.set_xlim(*padded(float(x.min()), float(x.max())))
    span = value_range(d)
    if span is None:
        return  # no section value at all (the section was never crossed)
    ax.set_ylim(*padded(*span))
    fig.canvas.draw()  # settles the layout: the axes' size in pixels
    box = ax.get_window_extent()
    width, height = max(1, round(box.width)), max(1, round(box.height))
    xlim, ylim = ax.get_xlim(), ax.get_ylim()
    rasters = {k: PixelRaster(xlim, ylim, width, height) for k in keys}
    for key, xs, ys in d.samples():
        for k in np.unique(key):
            if k not in rasters:
                raise ValueError(f"section values of run '{k}', which the summary does not have")
            sel = key == k
            rasters[k].add(xs[sel], ys[sel])
    # a sparse sweep (fewer parameter values than a quarter of the pixel columns): dots of 3 x 3
    # pixels, else one pixel per value as the dense diagrams of the seeds
    sparse = len(np.unique(x)) * 4 <= width
    for k in keys:
        if sparse:
            rasters[k].dilate(1)
        ax.imshow(rasters[k].image(colors[k]), extent=(*xlim, *ylim), origin="lower",
                  aspect="auto", interpolation="nearest", zorder=2)
    if several:
        ax.legend(handles=[Line2D([], [], marker="s", linestyle="", color=colors[k], label=k)
                           for k in keys])


# axis labels with units for the names the seeds' sweeps use; any other name is shown as it is
PARAMETER_LABELS = {"omega": r"$\omega$ [rad/s]", "surface.omega": r"$\omega$ [rad/s]",
                    "surface.amplitude": "A [m]", "amplitude": "A [m]", "mu": r"$\mu$",
                    "e": r"$e^*$", "v_dr": r"$v_{dr}$ [m/s]", "slope": "slope [rad]"}
OBSERVABLE_UNITS = {"x": "m", "y": "m", "xdot": "m/s", "ydot": "m/s", "theta": "rad",
                    "thetadot": "rad/s", "phase": "rad", "v_N": "m/s"}


def parameter_label(name):
    return PARAMETER_LABELS.get(name, name)


def observable_label(obs):
    """"y_apex" -> "y at the apex section [m]"; a unit where the quantity is one of the seeds'."""
    name, _, section = obs.partition("_")
    if name == "v" and section.startswith("N"):  # v_N[_section]
        name, _, section = "v_N", "", section[2:]
    unit = OBSERVABLE_UNITS.get(name)
    text = f"{name} at the {section} section" if section else name
    return f"{text} [{unit}]" if unit else text


def one_parameter(d, title):
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(10, 8), sharex=True, dpi=DPI,
                                   gridspec_kw={"height_ratios": [3, 1]},
                                   constrained_layout=True)
    keys = sorted(set(d.run.tolist()))
    obs = d.observable
    ax1.set_ylabel(observable_label(obs))
    ax1.set_title("(a) bifurcation diagram (section after the transient)")
    for i, k in enumerate(keys):
        sel = d.run == k
        sw = d.points[sel, 0]
        sd = np.where(d.distinct[sel] < 0, 65, d.distinct[sel])
        order = np.argsort(sw, kind="stable")
        ax2.step(sw[order], sd[order], where="mid", color=f"C{i}")
    # symlog around 0 with plain tick labels (the default 10^0 and 0 collided)
    ax2.set_yscale("symlog", linthresh=1, linscale=0.4)
    ticks = [0, 1, 2, 4, 8, 16, 32, 65]
    ax2.set_yticks(ticks)
    ax2.set_yticklabels([str(t) for t in ticks[:-1]] + [">64"])
    ax2.minorticks_off()
    ax2.set_ylim(-0.3, 90)
    ax2.set_ylabel("distinct values")
    ax2.set_xlabel(parameter_label(d.params[0]))
    ax2.set_title("(b) distinct section values: the period (>64: chaos; 0: section not crossed)")
    for ax in (ax1, ax2):
        ax.grid(alpha=0.3)
    fig.suptitle(title)
    draw_values(fig, ax1, d, keys)  # last: it measures the settled layout
    return fig


def edges(v):
    v = np.asarray(v, dtype=float)
    if len(v) == 1:
        return np.array([v[0] - 0.5, v[0] + 0.5])
    mid = (v[1:] + v[:-1]) / 2
    return np.concatenate([[2 * v[0] - mid[0]], mid, [2 * v[-1] - mid[-1]]])


def two_parameters(d, title):
    """The period map and the impacts per period of the first run over the grid."""
    sel = d.run == sorted(set(d.run.tolist()))[0]
    xs, xi = np.unique(d.points[sel, 0], return_inverse=True)
    ys, yi = np.unique(d.points[sel, 1], return_inverse=True)
    period = np.full((len(ys), len(xs)), np.nan)
    impacts = np.full((len(ys), len(xs)), np.nan)
    period[yi, xi] = np.where(d.distinct[sel] < 0, 65, d.distinct[sel])
    impacts[yi, xi] = d.impacts[sel]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(13, 5.5), dpi=DPI, constrained_layout=True)
    cmap = plt.get_cmap("viridis", 10)
    m1 = ax1.pcolormesh(edges(xs), edges(ys), np.log2(np.maximum(period, 0.5)), cmap=cmap,
                        vmin=-1, vmax=7)
    cb = fig.colorbar(m1, ax=ax1)
    cb.set_ticks([-1, 0, 1, 2, 3, 4, 5, 6, 7])
    cb.set_ticklabels(["0", "1", "2", "4", "8", "16", "32", "64", ">64"])
    ax1.set_title(f"(a) distinct values of {d.observable} (the period; >64: chaos)")
    # a few chattering values (tens of impacts per period) would wash out the rest
    top = np.nanpercentile(impacts, 98) if np.isfinite(impacts).any() else 1.0
    m2 = ax2.pcolormesh(edges(xs), edges(ys), impacts, cmap="magma", vmin=0,
                        vmax=max(top, 1.0))
    fig.colorbar(m2, ax=ax2)
    ax2.set_title("(b) impacts per forcing period (colour scale to the 98th percentile)")
    for ax in (ax1, ax2):
        ax.set_xlabel(parameter_label(d.params[0]))
        ax.set_ylabel(parameter_label(d.params[1]))
    fig.suptitle(title)
    return fig


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--data")
    p.add_argument("--summary")
    p.add_argument("--hdf5")
    p.add_argument("--out", required=True)
    p.add_argument("--title", default="")
    a = p.parse_args()
    try:
        if a.hdf5:
            d = read_hdf5(a.hdf5)
        elif a.data and a.summary:
            d = read_csv(a.data, a.summary)
        else:
            raise ValueError("give --data and --summary, or --hdf5")
        if len(d.run) == 0:
            raise ValueError("the summary has no rows")
        fig = one_parameter(d, a.title) if len(d.params) == 1 else two_parameters(d, a.title)
    except (OSError, KeyError, ValueError, IndexError, StopIteration) as e:
        print(f"sweep.py: error: {e}", file=sys.stderr)
        return 2
    save_atomic(fig, a.out, DPI)
    return 0


if __name__ == "__main__":
    sys.exit(main())
