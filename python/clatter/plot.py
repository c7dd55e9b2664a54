"""The figures of the `clatter` commands, from Python results.

    r = clatter.simulate(clatter.load_scenario("examples/rod_fig5.toml"))
    r.plot("rod.png")                       # or clatter.plot.simulation(r, "rod.png")

The picture is the one `clatter simulate` draws for the same run: the result's tables are written
as the command's CSV files (timeseries.csv, events.csv: the same columns) into a temporary folder
and the command's plot script (python/clatter_plots/simulate.py, installed beside this module
as clatter/plots/) draws them with matplotlib, in a separate process with this interpreter. The
PNG is written atomically (a temporary beside it, then a rename).

Styles (docs/engine.md, "Plots"): "rod" ([BP] Fig. 5), "ball", "body" (planar bodies) or
"generic" (any model: coordinates, gaps with their events, energy). The default is the scenario's
(`[model]` decides, as for the command) for a run of a Scenario, "generic" for a Model.
"""
from __future__ import annotations

import csv as _csv
import os as _os
import subprocess as _subprocess
import sys as _sys
import tempfile as _tempfile
from typing import Any

import numpy as _np

STYLES = ("rod", "ball", "body", "generic")


def scripts_dir() -> str:
    """The folder of the plot scripts: $CLATTER_PLOT_DIR, else clatter/plots/ beside this module."""
    env = _os.environ.get("CLATTER_PLOT_DIR")
    return env if env else _os.path.join(_os.path.dirname(_os.path.abspath(__file__)), "plots")


def _write_table(table: Any, path: str) -> None:
    """A Table (columns of one length) as the command's CSV: a header, then one row per entry;
    numbers with 17 significant digits, NaN as an empty field (as the command leaves it)."""
    names = list(table.keys())
    columns = [_np.asarray(table[n]) for n in names]
    rows = len(columns[0]) if columns else 0

    def cell(x, name):
        if name in ("region", "brach_case") and int(x) < 0:
            return ""  # not applicable: the command leaves the field empty
        if isinstance(x, (float, _np.floating)):
            return "" if _np.isnan(x) else repr(float(x))
        if isinstance(x, (int, _np.integer)):
            return str(int(x))
        return str(x)

    with open(path, "w", newline="") as fh:
        w = _csv.writer(fh, lineterminator="\n")
        w.writerow(names)
        for i in range(rows):
            w.writerow([cell(c[i], n) for c, n in zip(columns, names)])


def _run(script: str, args: list[str]) -> None:
    path = _os.path.join(scripts_dir(), script)
    if not _os.path.isfile(path):
        raise FileNotFoundError(f"plot: the plot script {path} is missing (set CLATTER_PLOT_DIR "
                                "to the folder python/clatter_plots of the source tree)")
    p = _subprocess.run([_sys.executable, path, *args], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"plot: {script} failed (exit {p.returncode}): "
                           f"{p.stderr.strip() or p.stdout.strip()}")


def simulation(result: Any, out: str, style: str | None = None, title: str | None = None) -> str:
    """Draws a SimulationResult as `clatter simulate` does, into the PNG `out`; returns its path.

    style: one of STYLES (default: the scenario's, else "generic"); title: above the figure
    (default: the scenario's description, else none). Needs samples (not events_only).
    """
    style = style if style is not None else getattr(result, "plot_style", None) or "generic"
    if style not in STYLES:
        raise ValueError(f"style: must be one of {', '.join(STYLES)}, got {style!r}")
    if len(result.t) == 0:
        raise ValueError("result: no samples to draw (simulate(..., events_only=True) keeps none)")
    out = _os.fspath(out)
    folder = _os.path.dirname(_os.path.abspath(out))
    if not _os.path.isdir(folder):
        raise FileNotFoundError(f"out: the folder {folder} does not exist")
    title = title if title is not None else getattr(result, "plot_title", None) or ""
    with _tempfile.TemporaryDirectory(prefix="clatter-plot-") as tmp:
        ts = _os.path.join(tmp, "timeseries.csv")
        ev = _os.path.join(tmp, "events.csv")
        _write_table(result.timeseries, ts)
        _write_table(result.events, ev)
        _run("simulate.py", ["--style", style, "--timeseries", ts, "--events", ev, "--out", out,
                             "--title", title])
    return out


def _g12(x):
    """A number as the command's CSV files write it (C's %.12g)."""
    return "%.12g" % x


def sweep(result: Any, out: str, title: str = "") -> str:
    """Draws a Sweep (sweep_parameters) as `clatter sweep` does, into the PNG `out`; returns its
    path. The records are written as the command's bifurcation and summary CSV files (12
    significant digits; surface.omega named omega; several runs told apart by an "initial"
    column) and the command's script (sweep.py) draws them."""
    out = _os.fspath(out)
    folder = _os.path.dirname(_os.path.abspath(out))
    if not _os.path.isdir(folder):
        raise FileNotFoundError(f"out: the folder {folder} does not exist")
    from . import _clatter
    names = list(result.parameters)
    runs = len(set(int(r) for r in result["run"]))
    columns = {"parameters": names, "several_initials": runs > 1,
               "observable": result.observable or "value"}
    # the headers of the command's files (io/schema.hpp)
    head_data = [c for c, _, _ in _clatter._csv_columns("sweep_value", columns)]
    head_summary = [c for c, _, _ in _clatter._csv_columns("sweep_point", columns)]
    rows = len(result["run"])
    with _tempfile.TemporaryDirectory(prefix="clatter-plot-") as tmp:
        data = _os.path.join(tmp, "bifurcation.csv")
        summary = _os.path.join(tmp, "summary.csv")
        with open(data, "w", newline="") as fd, open(summary, "w", newline="") as fs:
            wd = _csv.writer(fd, lineterminator="\n")
            ws = _csv.writer(fs, lineterminator="\n")
            wd.writerow(head_data)
            ws.writerow(head_summary)
            for i in range(rows):
                k = [_g12(result[n][i]) for n in names]
                if runs > 1:
                    k.append(str(int(result["run"][i])))
                for v in result["values"][i]:
                    wd.writerow(k + [_g12(v)])
                ipp = result["impacts_per_period"][i]
                ws.writerow(k + [str(int(result["distinct"][i])), str(len(result["values"][i])),
                                 "" if _np.isnan(ipp) else _g12(ipp), str(result["reason"][i]),
                                 str(result["message"][i])])
        _run("sweep.py", ["--data", data, "--summary", summary, "--out", out, "--title", title])
    return out

