#!/usr/bin/python3
"""Plot of a brute-force bifurcation diagram for `clatter sweep` ([BP] Fig. 8 style).

    /usr/bin/python3 python/clatter_plots/sweep.py --data BIF.csv --summary SUM.csv --out OUT.png
        [--title "..."]
    /usr/bin/python3 python/clatter_plots/sweep.py --hdf5 SWEEP.h5 --out OUT.png [--title "..."]

From CSV: BIF.csv: <parameters>,[initial,][direction,]<observable> (one row per section value);
SUM.csv: <parameters>,[initial,][direction,]distinct,samples,impacts_per_period,reason,message.
From HDF5: the arrays of sweep.h5 (apps/clatter/commands/sweep_hdf5.hpp), read with h5py (the
section values only for one parameter, where they are drawn).
One parameter: top, the observable against the parameter (one dot per section value, one colour
per run); bottom, the number of distinct values per value (the period in section crossings;
chaos, more than 64, drawn at 65; 0 = the section was never crossed). Two parameters: the
period map (distinct values of the first run over the grid) and the impacts per period.
Output written atomically. Bad input: message on stderr, exit 2.
"""

import argparse
import csv
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

KEYS = {"initial", "direction"}


def read_csv(data, summary):
    with open(data, newline="") as fh:
        reader = csv.reader(fh)
        head = next(reader)
        rows = list(reader)
    with open(summary, newline="") as fh:
        srows = list(csv.DictReader(fh))
        shead = list(srows[0].keys()) if srows else []
    params = [c for c in head[:-1] if c not in KEYS]
    obs = head[-1]
    run_cols = [head.index(c) for c in head[:-1] if c in KEYS]
    runs = {}
    for r in rows:
        key = tuple(r[i] for i in run_cols)
        runs.setdefault(key, ([], []))
        runs[key][0].append([float(r[head.index(p)]) for p in params])
        runs[key][1].append(float(r[-1]))
    out = {"params": params, "observable": obs, "runs": {}, "summary": []}
    for key, (x, y) in runs.items():
        out["runs"][" ".join(key)] = (np.array(x).reshape(-1, len(params)), np.array(y))
    for s in srows:
        out["summary"].append(([float(s[p]) for p in params], int(s["distinct"]),
                               float(s.get("impacts_per_period") or "nan"),
                               " ".join(s[c] for c in shead if c in KEYS)))
    return out


def read_hdf5(path):
    """The arrays of sweep.h5, vectorised; the section values are read (a run at a time) only for
    one parameter, where they are drawn: a 2-D grid's plot needs the per-point arrays alone."""
    import h5py
    label = {"surface.omega": "omega"}
    with h5py.File(path, "r") as f:
        obs = f.attrs["observable"]
        obs = obs.decode() if isinstance(obs, bytes) else str(obs)
        v = f[obs]
        params = [d[0].name.lstrip("/") for d in list(v.dims)[:-2]]
        axes = [np.asarray(f[p]) for p in params]
        distinct = np.asarray(f["distinct"])
        ipp = np.asarray(f["impacts_per_period"])
        run_initial = np.asarray(f["run_initial"])
        run_direction = np.asarray(f["run_direction"])
        R = v.shape[-2]
        out = {"params": [label.get(p, p) for p in params], "observable": obs, "runs": {},
               "summary": []}
        grids = np.meshgrid(*axes, indexing="ij")
        points = np.stack([g.ravel() for g in grids], axis=1)  # (points, parameters)
        for r in range(R):
            key = " ".join(([str(run_initial[r])] if run_initial.max() > 0 else []) +
                           ([{1: "up", -1: "down"}[int(run_direction[r])]]
                            if run_direction.min() < 0 else []))
            if len(params) == 1:
                values = np.asarray(v[:, r, :]) if v.shape[-1] > 0 else np.empty((len(points), 0))
                mask = ~np.isnan(values)
                x = np.repeat(points, mask.sum(axis=1), axis=0)
                out["runs"][key] = (x.reshape(-1, 1), values[mask])
            dd = distinct[..., r].ravel()
            pp = ipp[..., r].ravel()
            out["summary"].extend((list(points[k]), int(dd[k]), float(pp[k]), key)
                                  for k in range(len(points)))
    return out


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
    except (OSError, KeyError, ValueError, IndexError, StopIteration) as e:
        print(f"sweep.py: error: {e}", file=sys.stderr)
        return 2
    params, obs = d["params"], d["observable"]
    if len(params) == 1:
        fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(10, 8), sharex=True,
                                       gridspec_kw={"height_ratios": [3, 1]},
                                       constrained_layout=True)
        several = len(d["runs"]) > 1
        for i, (key, (x, y)) in enumerate(sorted(d["runs"].items())):
            ax1.plot(x[:, 0] if len(x) else [], y, ",", color=f"C{i}" if several else "k",
                     label=key if several else None)
        if several:
            ax1.legend(markerscale=20)
        ax1.set_ylabel(obs.replace("_", " at the ") + " section" if "_" in obs else obs)
        ax1.set_title("(a) bifurcation diagram (section after the transient)")
        by_run = {}
        for x, dd, _, key in d["summary"]:
            by_run.setdefault(key, ([], []))
            by_run[key][0].append(x[0])
            by_run[key][1].append(65 if dd < 0 else dd)
        for i, (key, (sw, sd)) in enumerate(sorted(by_run.items())):
            order = np.argsort(sw)
            ax2.step(np.array(sw)[order], np.array(sd)[order], where="mid", color=f"C{i}")
        # symlog around 0 with plain tick labels (the default 10^0 and 0 collided)
        ax2.set_yscale("symlog", linthresh=1, linscale=0.4)
        ticks = [0, 1, 2, 4, 8, 16, 32, 65]
        ax2.set_yticks(ticks)
        ax2.set_yticklabels([str(t) for t in ticks[:-1]] + [">64"])
        ax2.minorticks_off()
        ax2.set_ylim(-0.3, 90)
        ax2.set_ylabel("distinct values")
        ax2.set_xlabel(r"$\omega$" if params[0] == "omega" else params[0])
        ax2.set_title("(b) distinct section values: the period (>64: chaos; 0: section not crossed)")
        for ax in (ax1, ax2):
            ax.grid(alpha=0.3)
    else:
        first = sorted({key for *_, key in d["summary"]})[0]
        pts = [(x, dd, ipp) for x, dd, ipp, key in d["summary"] if key == first]
        xs = sorted({x[0] for x, _, _ in pts})
        ys = sorted({x[1] for x, _, _ in pts})
        period = np.full((len(ys), len(xs)), np.nan)
        impacts = np.full((len(ys), len(xs)), np.nan)
        for x, dd, ipp in pts:
            i, j = ys.index(x[1]), xs.index(x[0])
            period[i, j] = 65 if dd < 0 else dd
            impacts[i, j] = ipp
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(13, 5.5), constrained_layout=True)

        def edges(v):
            v = np.asarray(v, dtype=float)
            if len(v) == 1:
                return np.array([v[0] - 0.5, v[0] + 0.5])
            mid = (v[1:] + v[:-1]) / 2
            return np.concatenate([[2 * v[0] - mid[0]], mid, [2 * v[-1] - mid[-1]]])

        cmap = plt.get_cmap("viridis", 10)
        m1 = ax1.pcolormesh(edges(xs), edges(ys), np.log2(np.maximum(period, 0.5)), cmap=cmap,
                            vmin=-1, vmax=7)
        cb = fig.colorbar(m1, ax=ax1)
        cb.set_ticks([-1, 0, 1, 2, 3, 4, 5, 6, 7])
        cb.set_ticklabels(["0", "1", "2", "4", "8", "16", "32", "64", ">64"])
        ax1.set_title(f"(a) distinct values of {obs} (the period; >64: chaos)")
        # a few chattering values (tens of impacts per period) would wash out the rest
        top = np.nanpercentile(impacts, 98) if np.isfinite(impacts).any() else 1.0
        m2 = ax2.pcolormesh(edges(xs), edges(ys), impacts, cmap="magma", vmin=0,
                            vmax=max(top, 1.0))
        fig.colorbar(m2, ax=ax2)
        ax2.set_title("(b) impacts per forcing period (colour scale to the 98th percentile)")
        for ax in (ax1, ax2):
            ax.set_xlabel(r"$\omega$" if params[0] == "omega" else params[0])
            ax.set_ylabel(r"$\omega$" if params[1] == "omega" else params[1])
    fig.suptitle(a.title)
    tmp = f"{a.out}.tmp-{os.getpid()}.png"
    fig.savefig(tmp, dpi=110)
    plt.close(fig)
    os.replace(tmp, a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
