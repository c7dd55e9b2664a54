"""clatter: event-driven simulation of rigid bodies with impacts and Coulomb friction.

The C++ library from Python (docs/python.md): impact laws on numpy arrays, the built-in models and
scenario files, your own model written in Python, simulations, sweeps and periodic orbits. Column
names are those of the command line's CSV files.
"""

import functools as _functools
import os as _os
import sys as _sys
import warnings as _warnings
from typing import Any, Sequence, Union

import numpy as _np
import numpy.typing as _npt

from ._clatter import (
    CONTACT_MODES,
    EVENT_KINDS,
    LAWS,
    STATUS_NAMES,
    STOP_REASONS,
    Model,
    Scenario,
    __version__,
    closed_form_orbit,
    find_orbit,
    impact,
    impacts,
    load_plugin,
    load_scenario,
    models,
    state_names,
)
from . import _clatter

# the types of the signatures below (the package is typed: py.typed)
System = Union[Model, Scenario]  #: a model, or a scenario (its model, start and options)
Vector = _npt.ArrayLike  #: numbers, one per coordinate (or auxiliary state)
Names = Union[str, Sequence[str]]  #: state names, a list or "a,b,c"
Crossing = Union[tuple[str, float], tuple[str, float, str]]  #: (name, value[, up|down|both])

__all__ = [
    "CONTACT_MODES", "EVENT_KINDS", "LAWS", "STATUS_NAMES", "STOP_REASONS", "Model", "Scenario",
    "SimulationResult", "Table", "Branch", "Sweep", "Section", "closed_form_orbit", "find_orbit",
    "impact", "impacts", "load_plugin", "load_scenario", "models", "orbit_branch", "painleve",
    "regions", "schema", "Report", "impact_report", "impact_sweep", "compliant", "compliant_sweep",
    "multipoint",
    "python_model", "simulate", "sweep", "periodic_orbit", "continue_orbit", "poincare",
    "boundary_crossing", "state_names", "sweep_parameters", "System", "Vector", "Names",
    "Crossing", "plot", "cmake_prefix",
]


def cmake_prefix() -> str:
    """The prefix of clatter's headers and CMake package that came with this module, for
    building a plugin against it: `cmake -DCMAKE_PREFIX_PATH=<this> ...` and, in the plugin's
    CMakeLists.txt, `find_package(clatter CONFIG REQUIRED)` (docs/install.md). A module installed
    with pip carries them in its own folder (lib/cmake/clatter, include/clatter, lib/libclatter);
    a module used from a build tree has none: raises FileNotFoundError saying where to find them
    (cmake --install of the build)."""
    here = _os.path.dirname(_os.path.abspath(__file__))
    if _os.path.isfile(_os.path.join(here, "lib", "cmake", "clatter", "clatterConfig.cmake")):
        return here
    raise FileNotFoundError(
        f"this clatter module ({here}) carries no CMake package: it was not installed with pip; "
        "install the build (cmake --install BUILD --prefix P) and use P as CMAKE_PREFIX_PATH")


def _frame(columns):
    """A pandas DataFrame of a dict of columns (pandas is optional)."""
    try:
        import pandas
    except ImportError as e:
        raise ImportError("to_pandas() needs pandas (apt-get install python3-pandas)") from e
    return pandas.DataFrame(columns)


class Table(dict):
    """Columns by name (numpy arrays of one length), as the CLI's CSV file of the same name;
    .units and .docs give each column's unit and meaning where its record's field list is known
    (clatter.schema(); the simulation's samples and events), else they are empty."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.units: dict[str, str] = {}
        self.docs: dict[str, str] = {}

    def to_pandas(self):
        """The rows as a DataFrame. A two-dimensional column is split into one column per
        entry (name0, name1, ...), except u, the unknowns, whose entries are columns by name."""
        columns = {}
        for k, v in self.items():
            a = _np.asarray(v) if not isinstance(v, _np.ndarray) else v
            if a.ndim == 2 and a.dtype != object:
                if k != "u":
                    columns.update({f"{k}{j}": a[:, j] for j in range(a.shape[1])})
            else:
                columns[k] = v
        return _frame(columns)

    def to_xarray(self):
        """The rows as an xarray Dataset along the dimension "row" (needs xarray)."""
        return self.to_pandas().rename_axis("row").to_xarray()


def _describe(table, record, names):
    """Sets table.units and .docs for its columns that the record's field list names."""
    for name, unit, doc in _clatter._csv_columns(record, names):
        if name in table:
            table.units[name], table.docs[name] = unit, doc
    return table


def _record_table(record, names, columns):
    """A Table of `columns` in the order of the record's field list (io/schema.hpp, as the
    command's CSV file), with .units and .docs by column."""
    fields = _clatter._csv_columns(record, names)
    t = Table((name, columns[name]) for name, _, _ in fields)
    t.units = {name: unit for name, unit, _ in fields}
    t.docs = {name: doc for name, _, doc in fields}
    return t


def schema(record: str | None = None) -> Any:
    """The records clatter writes (io/schema.hpp), each a dict: name, where (the files and
    commands), doc, json (keys of a JSON object, else CSV columns) and fields, each with name
    (a repeated field's pattern, "{q}dot_pre"), unit ("[q]": the coordinate's own), doc,
    repeat (once, coordinate, aux, contact, parameter, state, solved, multiplier, observable)
    and when (the condition of its presence). record: one of them by name ("event")."""
    records = _clatter._schemas()
    if record is None:
        return records
    for r in records:
        if r["name"] == record:
            return r
    raise ValueError(f"record: unknown {record!r} (known: "
                     f"{', '.join(r['name'] for r in records)})")


class Branch(Table):
    """A branch of periodic orbits continued in a parameter (continue_orbit), as `clatter
    continue` writes it: a Table of its points, the rows of branch.csv in order (every direction
    run, up first): branch ("up" or "down"), p, period, one column per solved component (by
    state name), stable, multipliers_reliable, max_abs_multiplier, tau_sn, tau_pd, tau_ns,
    margin, sticks, and u (the unknowns of each point as an (n, k) array; an autonomous orbit's
    last is its period). multipliers_reliable is False where the monodromy's differences
    straddled a change of the events (the orbit on a stick boundary or next to an obstacle).

    bifurcations   a Table as bifurcations.csv: branch, kind, p, period, the solved components,
                   max_abs_multiplier, detail, and u and multipliers (arrays per row)
    directions     per direction run: direction, points, end (why it ended), message
    end, message   those of the last direction run
    start          the start orbit, as periodic_orbit returns it
    solved         the solved components' names
    files          what out= wrote, by name
    """

    def __init__(self, columns, bifurcations, directions, start, solved, files):
        super().__init__(columns)
        self.bifurcations = bifurcations
        self.directions = directions
        self.start = start
        self.solved = solved
        self.files = files
        self.end = directions[-1]["end"] if directions else ""
        self.message = directions[-1]["message"] if directions else ""

    def stable_intervals(self):
        """[(direction, p_from, p_to)]: the runs of consecutive stable points of each direction,
        in the order they were found."""
        out = []
        for direction in dict.fromkeys(self["branch"]):
            rows = _np.flatnonzero(self["branch"] == direction)
            start = None
            for i in list(rows) + [None]:
                if i is not None and self["stable"][i]:
                    start = i if start is None else start
                    last = i
                elif start is not None:
                    out.append((direction, float(self["p"][start]), float(self["p"][last])))
                    start = None
        return out

    def bifurcation(self, kind):
        """The p of each located bifurcation of a kind ("SN", "PD", "NS", "grazing", ...)."""
        return self.bifurcations["p"][self.bifurcations["kind"] == kind]

    def to_pandas(self):
        """The points as a DataFrame (the columns of branch.csv; u is split into them)."""
        return _frame({k: v for k, v in self.items() if k != "u"})

    def to_xarray(self):
        """The points as an xarray Dataset along the dimension "point" (needs xarray)."""
        return self.to_pandas().rename_axis("point").to_xarray()


class Sweep(Table):
    """The records of a sweep (sweep_parameters): one row per (grid point, run), the columns of
    the command's summary (the parameter values, point, run, distinct, cycle, closed_at,
    refused, record_complete, impacts_per_period, reason, message) and values (an object array:
    each record's observed values).

    complete     False when the sweep stopped early (interrupted, wall time)
    parameters   the swept parameters' names (the grid's axes)
    observable   the observed quantity at its section, as the command names it ("y_apex")
    to_xarray()  a Dataset over the axes and the run, values padded with NaN along "record"
    plot(out)    the figure of `clatter sweep` as a PNG
    files        the files written with out= (data, summary, json, plot), else {}
    """

    def __init__(self, columns, parameters, complete, observable=""):
        super().__init__(columns)
        self.parameters = parameters
        self.complete = complete
        self.observable = observable
        self.files: dict[str, str] = {}

    def plot(self, out, title=""):
        """Draws the sweep as `clatter sweep` does (its script, on the command's CSV files:
        one parameter, the diagram and the distinct values; two, the period map), into the
        PNG `out`; returns its path."""
        from . import plot as _plot
        return _plot.sweep(self, out, title)

    def to_pandas(self):
        return _frame({k: (list(v) if k == "values" else v) for k, v in self.items()})

    def to_xarray(self):
        try:
            import xarray
        except ImportError as e:
            raise ImportError("to_xarray() needs xarray (apt-get install python3-xarray)") from e
        axes = [_np.unique(self[name]) for name in self.parameters]
        runs = _np.unique(self["run"]) if len(self["run"]) else _np.zeros(0, int)
        shape = [len(a) for a in axes] + [len(runs)]
        index = [_np.searchsorted(a, self[name]) for a, name in zip(axes, self.parameters)]
        index.append(_np.searchsorted(runs, self["run"]))
        index = tuple(index)
        dims = list(self.parameters) + ["run"]
        data = {}
        for name in ("distinct", "cycle", "closed_at", "refused", "impacts_per_period"):
            a = _np.full(shape, _np.nan)
            a[index] = self[name]
            data[name] = (dims, a)
        for name in ("reason", "message"):
            a = _np.full(shape, "", dtype=object)
            a[index] = self[name]
            data[name] = (dims, a)
        longest = max((len(v) for v in self["values"]), default=0)
        values = _np.full(shape + [longest], _np.nan)
        for k, v in enumerate(self["values"]):
            values[tuple(i[k] for i in index)][:len(v)] = v
        data["values"] = (dims + ["record"], values)
        coords = dict(zip(self.parameters, axes))
        coords["run"] = runs
        return xarray.Dataset(data, coords=coords, attrs={"complete": int(self.complete)})


class Section(Table):
    """The crossings of a Poincare section (poincare), as `clatter section` writes section.csv: k,
    t, the state by name (clatter.state_names), events_passed (events since the last crossing).

    x         the states as one (n, dimension) array (an attribute: "x" may be a coordinate)
    stopped   why the run ended ("count reached" if every crossing asked for was found)
    message   why it stopped early ("" if it did not)
    files     what out= wrote, by name
    """

    def __init__(self, columns, x, stopped, message, files):
        super().__init__(columns)
        self.x = x
        self.stopped = stopped
        self.message = message
        self.files = files


def _names(table, codes):
    return _np.array(table, dtype=object)[_np.asarray(codes, dtype=_np.int64)]


class SimulationResult:
    """The outcome of simulate(): samples, events, sections, the final state and the ledger.

    t, q, qd, aux, energy, modes   the samples (q: (n, nq); modes: codes into CONTACT_MODES)
    events                         events.csv's columns (Table)
    timeseries                     timeseries.csv's columns (Table)
    sections                       the Poincare-section crossings (as the samples)
    reason, message                why the run stopped (STOP_REASONS) and in words
    energy_ledger, counts          summary.json's energy ledger and counts
    integrator                     {"requested": the option, "used": none | dopri5 | dop853 |
                                   dop853+dopri5}: the Runge-Kutta methods the run took
    t_final, q_final, qd_final     the state at the end; max_gap_drift, max_velocity_drift,
                                   wall_time_s
    files                          the files simulate(..., out=) wrote, by name (else empty)
    plot(out, style=None, title=None)  the figure of `clatter simulate` as a PNG (clatter.plot)
    """

    plot_style = None  # "rod", "ball", "body" or "generic"; None: generic (clatter.plot)
    plot_title = None

    def __init__(self, raw, model):
        self.model = model
        self._raw = raw
        s = raw["samples"]
        self.t, self.q, self.qd, self.energy = s["t"], s["q"], s["qd"], s["energy"]
        self.aux = s.get("aux", _np.zeros((len(self.t), 0)))
        self.modes = s["modes"]
        self.sections = Table(raw["sections"])
        for key in ("reason", "message", "t_final", "counts", "max_gap_drift",
                    "max_velocity_drift", "wall_time_s", "integrator"):
            setattr(self, key, raw.get(key))
        self.energy_ledger = raw["energy"]
        self.q_final = _np.array(raw["q_final"])
        self.qd_final = _np.array(raw["qd_final"])

    @_functools.cached_property
    def events(self):
        """events.csv's columns (built on first use)."""
        return self._event_table(self._raw["events"])

    @_functools.cached_property
    def timeseries(self):
        """timeseries.csv's columns (built on first use)."""
        return self._timeseries(self._raw["samples"])

    def plot(self, out, style=None, title=None):
        """The figure `clatter simulate` draws for this run, written to the PNG `out` (its path
        returned); style "rod", "ball", "body" or "generic" (default: the scenario's, else
        generic). See clatter.plot.simulation."""
        from . import plot as _plot
        return _plot.simulation(self, out, style=style, title=title)

    def _names(self, planar=False):
        m = self.model
        return {"coordinates": list(m.coordinate_names), "aux": list(m.aux_names),
                "contacts": list(m.contact_names), "planar_body": planar}

    def _event_table(self, e):
        contacts = _np.array([""] + self.model.contact_names, dtype=object)
        cols = {"t": e["t"], "kind": _names(EVENT_KINDS, e["kind"]),
                "contact": contacts[e["contact"] + 1], "other": contacts[e["other"] + 1],
                "mode_after": _names(CONTACT_MODES, e["mode_after"]),
                "region": e["region"],  # -1 where events.csv leaves it empty
                "brach_case": e["brach_case"],  # -1 likewise
                "status": _names(STATUS_NAMES, e["status"]),
                "delta_energy": e["delta_energy"], "energy": e["energy"],
                "t_accumulation": e["t_accumulation"]}  # NaN where events.csv leaves it empty
        for i, v in enumerate(("T", "N")):
            cols[f"v_{v}_pre"] = e["v_pre"][:, i]
            cols[f"v_{v}_post"] = e["v_post"][:, i]
            cols[f"Lambda_{v}"] = e["Lambda"][:, i]
        for i, n in enumerate(self.model.coordinate_names):
            cols[n] = e["q"][:, i]
            cols[n + "dot_pre"] = e["qd_pre"][:, i]
            cols[n + "dot_post"] = e["qd_post"][:, i]
        return _record_table("event", self._names(), cols)

    def _timeseries(self, s):
        m = self.model
        planar = "surface_h" in s
        cols = {"t": s["t"], "energy": s["energy"]}
        for i, n in enumerate(m.coordinate_names):
            cols[n] = s["q"][:, i]
            cols[n + "dot"] = s["qd"][:, i]
        for i, n in enumerate(m.aux_names):
            cols[n] = s["aux"][:, i]
        if planar:
            cols["surface_h"], cols["surface_u"] = s["surface_h"], s["surface_u"]
        for c, n in enumerate(m.contact_names):
            if planar:
                cols[n + "_x"], cols[n + "_y"] = s["contact_x"][:, c], s["contact_y"][:, c]
            cols[n + "_gap"] = s["gap"][:, c]
            cols[n + "_mode"] = _names(CONTACT_MODES, s["modes"][:, c])
        return _record_table("sample", self._names(planar), cols)

    def check(self):
        """Raises RuntimeError with the engine's message unless the run reached t_end (as the
        CLI's exit status 3); returns the result otherwise."""
        if self.reason != "end_time":
            raise RuntimeError(f"simulation stopped before t_end ({self.reason}): {self.message}")
        return self

    def __repr__(self):
        return (f"<SimulationResult {self.reason}: t_final={self.t_final}, "
                f"{len(self.t)} samples, {len(self.events['t'])} events>")


def _start(system, q, qd, t0, aux):
    """Model, initial state and options of a Model or a Scenario."""
    if isinstance(system, Scenario):
        init = system.initial
        options = system.options
        model = system.model
        q = init["q"] if q is None else q
        qd = init["qd"] if qd is None else qd
        t0 = init["t"] if t0 is None else t0
        aux = init["aux"] if aux is None else aux
        return model, q, qd, t0, aux, options, system.chatter_horizon_given
    if not isinstance(system, Model):
        raise TypeError("simulate: the first argument must be a clatter.Model or a Scenario")
    if q is None or qd is None:
        raise ValueError("q, qd: a Model needs the initial state (q=..., qd=...)")
    return system, q, qd, 0.0 if t0 is None else t0, aux, {}, False


def _crossing_section(section, crossing):
    """The section text of the engine: "crossing:NAME:VALUE:DIR" from crossing=(NAME, VALUE[,
    DIR]) (DIR "up", "down" or "both"), or the section as given."""
    if crossing is None:
        return section
    if section not in ("crossing", "none", "apex"):
        raise ValueError("crossing: given with the section " + repr(section))
    if len(crossing) not in (2, 3):
        raise ValueError("crossing: (name, value[, 'up'|'down'|'both']) expected")
    direction = crossing[2] if len(crossing) == 3 else "both"
    return "crossing:%s:%r:%s" % (crossing[0], float(crossing[1]), direction)


_CONFORMANCE_CHECKED: set[int] = set()


def _check_python_model_once(model, t0, q, qd):
    """A Python model's conformance check (model/conformance.hpp) at its first start, as the CLI
    checks a plugin's: a warning naming the failed checks (a Jacobian row of the wrong sign runs
    without an error otherwise), once per model object."""
    if not str(model.kind).startswith("python:") or id(model) in _CONFORMANCE_CHECKED:
        return
    _CONFORMANCE_CHECKED.add(id(model))
    try:
        report = model.check_conformance(float(t0), [float(x) for x in _np.ravel(q)],
                                         [float(x) for x in _np.ravel(qd)])
    except Exception:  # a start of the wrong shape: the run itself says what is wrong
        return
    failed = [f"{c['name']} (error {c['error']:.3g}, tolerance {c['tolerance']:.3g})"
              for c in report["checks"] if not c["pass"]]
    if failed:
        _warnings.warn(f"model {model.kind} fails its conformance check at the start: "
                       f"{'; '.join(failed)} (Model.check_conformance, docs/models.md)",
                       stacklevel=3)


def simulate(system: System, q: Vector | None = None, qd: Vector | None = None,
             t0: float | None = None, aux: Vector | None = None, t_end: float | None = None,
             output_dt: float | None = None, events_only: bool = False,
             record_events: bool = True, sections: str = "none",
             crossing: Crossing | None = None, progress: bool | None = None,
             out: str | None = None, plot: bool = True, precision: int = 10,
             wall_limit: float | None = None, **options: Any) -> "SimulationResult":
    """Runs the engine on a Model (q, qd required) or a Scenario (its initial state and options),
    as `clatter simulate` (app/simulate.hpp: the same request and defaults).

    t_end, output_dt: override the scenario's; output_dt = 0 gives 2000 samples, as the CLI.
    events_only: no samples (memory bounded by the events); record_events=False: no events;
    sections="apex": record the apex crossings (Poincare section) in result.sections;
    crossing=(name, value[, "up"|"down"|"both"]) (or sections="crossing:theta:0:up"): every
    crossing of the coordinate through the value in that direction (default both), located by the
    engine in every phase (docs/engine.md).
    options: any key of a scenario's [simulation] table (max_events, exact_flight, ...) and
    max_wall_time; wall_limit: the CLI's --wall-limit (the same limit). Like `clatter simulate`,
    the chatter horizon is the sample step unless given. out: a folder to write the command's
    timeseries.csv (precision significant digits), events.csv and summary.json into, byte for
    byte the CLI's but for summary.json's wall_time_s (and plot.png unless plot=False).
    Ctrl-C cancels the run and raises KeyboardInterrupt. progress: a tqdm bar of the simulated
    time (None: in terminals and notebooks, when tqdm is installed; False: never; True: always).
    """
    model, q, qd, t0, aux, opts, horizon_given = _start(system, q, qd, t0, aux)
    _check_python_model_once(model, t0, q, qd)
    opts = dict(opts)
    opts.update(options)
    horizon_given = horizon_given or "chatter_horizon" in options
    request = {"precision": int(precision)}
    if t_end is not None:
        request["t_end"] = t_end
    if output_dt is not None:
        request["output_dt"] = output_dt
    if wall_limit is not None:
        request["wall_limit"] = wall_limit
    end = t_end if t_end is not None else opts.get("t_end")
    if end is None:
        raise ValueError("t_end: required for a Model (the end time of the run [s])")
    folder = _output_folder(out)
    label = ([system.name, system.description, system.kind] if isinstance(system, Scenario)
             else ["", "", model.kind])
    bar = _progress(float(end) - float(t0), progress, "simulate", "s")
    try:
        raw = _clatter._simulate(model, float(t0), _np.asarray(q, float), _np.asarray(qd, float),
                                 None if aux is None or len(aux) == 0 else _np.asarray(aux, float),
                                 opts, not events_only, record_events,
                                 _crossing_section(sections, crossing),
                                 _advance_to(bar, lambda t: t - float(t0)), request,
                                 bool(horizon_given), folder, label, bool(plot) and bool(folder))
    finally:
        if bar is not None:
            bar.close()
    files = raw.pop("files")
    result = SimulationResult(raw, model)
    result.files = files
    if isinstance(system, Scenario):  # the command's plot style and title for plot()
        result.plot_style = system.plot
        result.plot_title = f"{system.name}: {system.description}"
    if folder and plot:
        from . import plot as _plot
        style = getattr(result, "plot_style", None) or "generic"
        _plot._run("simulate.py", ["--style", style, "--timeseries", files["timeseries"],
                                   "--events", files["events"], "--out",
                                   _os.path.join(folder, "plot.png"), "--title",
                                   result.plot_title or model.kind])
        result.files["plot"] = _os.path.join(folder, "plot.png")
    return result


def python_model(obj: Any, law: str = "stronge", e: float = 0.0, mu: float = 0.0,
                 compile: bool = False) -> Model:
    """A Model whose dynamics are the methods of the Python object `obj` (docs/python.md):
    nq, contacts, mass_matrix(t, q), applied_forces(t, q, qd), contact(c, t, q, qd) ->
    (g_N, J, w, gamma[, scale]), potential_energy(t, q), force_scale(); optionally
    coordinate_names, mass_scale(), kinetic_energy, applied_power, velocity_scale, rate_bound,
    gap_scale, and its parameters: `parameters` (a dict, or a method returning one, name -> value
    or (value, unit, doc)) and with_parameter(name, value) -> a changed object (default: a copy
    with the attribute `name` set), which sweeps, continuation and DIB use as a C++ model's.
    It runs in the same engine, calling back into Python (slower than C++).
    compile=True: numba compiles the state functions to machine code called without the GIL
    (1.5-1.8x the same model in C++ on the walker and the rod on a belt when the methods return
    tuples; 1.5-2.5 s of compilation per class and data layout, then cached); the
    methods must be written in the subset numba compiles, self seen as its numbers, tuples and
    arrays of numbers and its other methods (docs/python.md, "Compiled models")."""
    compiled = None
    if compile:
        from . import _compiled
        compiled = _compiled.compile_model(obj, int(obj.nq))
    return _clatter._python_model(obj, law, e, mu, compiled)


def _progress(total, show, desc="sweep", unit="it"):
    """A tqdm progress bar when tqdm is installed and show is True, or when show is None and the
    output is a terminal or a notebook; else None. Anything but None, True or False is refused
    (a string or NaN was taken for its truth value)."""
    if show is not None and not isinstance(show, (bool, _np.bool_)):
        raise TypeError(f"progress: must be None, True or False, got {show!r}")
    if show is None:
        show = _sys.stderr.isatty() or "ipykernel" in _sys.modules
    if not show:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    return tqdm(total=total, desc=desc, unit=unit, leave=False)


def _advance_to(bar, done):
    """A callback setting the bar to `done` (clipped to its total), or None without a bar."""
    if bar is None:
        return None

    def advance(value):
        value = min(max(float(value), 0.0), bar.total)
        if value > bar.n:
            bar.update(value - bar.n)
    return advance if done is None else (lambda *args: advance(done(*args)))


def sweep(system: System, omega: tuple[float, float, int], q: Vector | None = None,
          qd: Vector | None = None, t0: float | None = None, transient_periods: float = 1000.0,
          record_periods: float = 200.0, continuation: bool = False, threads: int = 2,
          progress: bool | None = None, periodic_tol: float | None = None,
          **options: Any) -> tuple["Table", "Table"]:
    """Brute-force bifurcation diagram against the surface frequency, as `clatter sweep --omega
    FROM TO N [--continuation]`: omega = (from, to, n). The same sweep as sweep_parameters over
    ("surface.omega", from, to, n) (analysis::run_sweep, the command's defaults: the apex
    section, the periodic shortcut); continuation=True carries each value's final state to the
    next (carry_over="up"); periodic_tol as `--periodic-tol` (0: every value in full). Returns
    (bifurcation, summary): Tables with the columns of
    bifurcation.csv (omega, y_apex) and summary.csv (omega, distinct, samples, reason, message).
    A value whose run fails gives reason "error" and its message; a progress bar is shown in
    terminals and notebooks when tqdm is installed (progress=False: never, True: always); Ctrl-C
    stops the sweep between values."""
    lo, hi, n = omega
    if n != int(n) or not 1 <= n <= 1_000_000:
        raise ValueError(f"n: must lie in [1, 1000000] (omega = (from, to, n)), got {n}")
    initial = None
    if q is not None or qd is not None or t0 is not None or not isinstance(system, Scenario):
        model, q, qd, t0, _, _, _ = _start(system, q, qd, t0, None)
        initial = [(t0, q, qd)]
    r = sweep_parameters(system, [("surface.omega", float(lo), float(hi), int(n))],
                         carry_over="up" if continuation else "none", initial=initial,
                         transient_periods=transient_periods, record_periods=record_periods,
                         threads=threads, progress=progress, periodic_tol=periodic_tol, **options)
    samples = _np.array([len(v) for v in r["values"]], _np.int64)
    omegas = _np.asarray(r["surface.omega"], float)
    bifurcation = Table(omega=_np.repeat(omegas, samples),
                        y_apex=_np.concatenate([_np.asarray(v, float) for v in r["values"]]
                                               or [_np.zeros(0)]))
    summary = Table(omega=omegas, distinct=_np.asarray(r["distinct"], _np.int32),
                    samples=samples, reason=_np.asarray(r["reason"], dtype=object),
                    message=_np.asarray(r["message"], dtype=object))
    return bifurcation, summary


def regions(fix: tuple[str, float] | None = None, panels: bool = False, r: float = 0.9,
            n: int = 301, out: str | None = None, plot: bool = True) -> Table:
    """The region maps of Stronge's law in [NDC]'s scaled variables, as `clatter regions`
    (app/regions.hpp: the same request and numbers): fix=("B", 0.5) or ("mu", 0.5), a section
    of the pre-impact v_T against the other parameter (its region 0-10 and whether it ends in
    stick; [NDC] Fig. 4), or panels=True, the parameter panels (a)-(e) of the (B, mu) plane
    (Fig. 2). r: e*; n: grid points per axis. Returns a Table as regions.csv (x, v_T, region,
    ends_in_stick, x = mu or B; or B, mu, panel) with .counts (points per region or panel) and
    .title; out: a folder to write regions.csv and summary.json into (byte for byte the CLI's;
    regions.png unless plot=False)."""
    name, value = ("", "") if fix is None else fix
    if not isinstance(value, str):
        text = repr(float(value))
        value = text[:-2] if text.endswith(".0") else text  # as a user types it: "0.5", "1"
    folder = _output_folder(out)
    raw = _clatter._regions(str(name), value, bool(panels), float(r), int(n), folder,
                            bool(plot) and bool(folder))
    lines = raw["csv"].splitlines()
    header = lines[0].split(",")
    cells = [line.split(",") for line in lines[1:]]
    columns = {}
    for k, h in enumerate(header):
        col = [c[k] for c in cells]
        columns[h] = (_np.array(col, dtype=object) if h == "panel" else
                      _np.array(col, dtype=int) if h in ("region", "ends_in_stick") else
                      _np.array(col, dtype=float))
    table = Table(columns)
    table.counts = dict(raw["counts"])
    table.title = raw["title"]
    table.files = {key[len("file_"):]: v for key, v in raw.items() if key.startswith("file_")}
    if folder and plot:
        from . import plot as _plot
        _plot._run("regions.py", ["--regions", table.files["regions"], "--title", table.title,
                                  "--out", _os.path.join(folder, "regions.png")])
        table.files["plot"] = _os.path.join(folder, "regions.png")
    return table


def painleve(preset: str | None = None, theta: float | None = None, phi: float | None = None,
             belt_velocity: float | None = None, e: float | None = None,
             mu0: float | None = None, mu_p: Sequence[float] | None = None,
             torque: float | None = None, t_jump: float = 1.25, t_end: float = 1.6,
             out: str | None = None, plot: bool = True) -> dict[str, Any]:
    """[B]'s Painleve experiment on the double pendulum against the belt, as `clatter painleve`
    (app/painleve.hpp: the same request and numbers): at t_jump the friction jumps from mu0 to
    each mu_p; past mu_c the sliding contact takes an impact without collision. preset
    ("fig6.7a", "fig6.7b", "fig6.8a", "fig6.8b", [B] Figs 6.7-6.8) gives the values of the
    arguments left None. Returns the values used, title, and runs: per mu_p its torque, reason,
    message, t_stop, energy_balance, W, mu_critical, samples (t, theta, phi, theta_dot, phi_dot,
    gap, gap_rate, slip, lambda_N, phase) and events (t, kind, region, v_T/v_N pre and post,
    Lambda_T, Lambda_N, delta_energy) as Tables. out: a folder to write timeseries.csv,
    events.csv and summary.json into (byte for byte the CLI's; plot.png unless plot=False)."""
    if preset is not None and (not isinstance(preset, str) or not preset):
        raise ValueError(f"preset: must be fig6.7a, fig6.7b, fig6.8a, fig6.8b or None, "
                         f"got {preset!r}")
    given = {"t_jump": float(t_jump), "t_end": float(t_end)}
    for key, value in (("preset", preset), ("theta", theta), ("phi", phi),
                       ("belt_velocity", belt_velocity), ("e", e), ("mu0", mu0),
                       ("torque", torque)):
        if value is not None:
            given[key] = value if key == "preset" else float(value)
    if mu_p is not None:
        given["mu_p"] = [float(m) for m in mu_p]
    folder = _output_folder(out)
    raw = _clatter._painleve(given, folder, bool(plot) and bool(folder))
    for run in raw["runs"]:
        run["samples"] = Table(run["samples"])
        run["samples"]["phase"] = _np.array(run["samples"]["phase"], dtype=object)
        run["events"] = Table(run["events"])
        run["events"]["kind"] = _np.array(run["events"]["kind"], dtype=object)
    if folder and plot:
        from . import plot as _plot
        _plot._run("painleve.py", ["--data", raw["file_timeseries"], "--events",
                                   raw["file_events"], "--out",
                                   _os.path.join(folder, "plot.png"), "--title", raw["title"]])
    return raw


class Report(dict):
    """The report of an operation that the CLI prints as JSON (impact_report, impact_sweep,
    compliant, compliant_sweep, multipoint): its keys, with
        tables   its CSV files as Tables, by file name ("trace.csv", "history.csv", ...)
        files    the paths written, by file name ("plot" for the figure)
        failure  "" or why the operation did not give a valid result (the CLI's exit 3)."""
    tables: dict[str, Table]
    files: dict[str, str]
    failure: str


def _csv_table(text):
    """A Table of a CSV file's text: a column of numbers (nan and inf included) as floats, one of
    whole numbers as ints, any other as objects (str)."""
    import csv
    import io
    rows = list(csv.reader(io.StringIO(text)))
    header, cells = rows[0], rows[1:]
    columns = {}
    for k, name in enumerate(header):
        col = [r[k] if k < len(r) else "" for r in cells]
        try:
            values = [float(c) for c in col]
        except ValueError:
            columns[name] = _np.array(col, dtype=object)
            continue
        whole = all(c.lstrip("-").isdigit() for c in col) and len(col) > 0
        columns[name] = _np.array(values, dtype=_np.int64 if whole else float)
    return Table(columns)


def _given(**kw):
    """The keywords a user gave (not None), as floats where they are numbers, lists where they
    are sequences: the other fields keep the request's defaults, the CLI's."""
    out = {}
    for key, value in kw.items():
        if value is None:
            continue
        if isinstance(value, (str, bool)):
            out[key] = value
        elif isinstance(value, (int, _np.integer)) and key in _INTEGER_FIELDS:
            out[key] = int(value)
        elif _np.ndim(value) == 0:
            out[key] = float(value)
        else:
            values = [float(v) for v in _np.asarray(value, dtype=float).ravel()]
            if not values:  # the command cannot be given an empty list: it is not "the default"
                raise ValueError(f"{key}: give at least one value (or leave it None)")
            out[key] = values
    return out


_INTEGER_FIELDS = {"n", "end", "lean", "samples", "max_events", "max_steps"}


def _report(raw, failure=""):
    import json
    r = Report(json.loads(raw["json"]))
    r.tables = {name: _csv_table(text) for name, text in raw.get("texts", {}).items()}
    r.files = dict(raw.get("paths", {}))
    r.failure = failure
    if raw.get("plot") is not None:
        from . import plot as _plot
        script, args, png = raw["plot"]
        _plot._run(script, list(args))
        r.files["plot"] = png
    return r


def impact_report(law: str | None = None, v_pre: Vector | None = None, W: Vector | None = None,
                  e: float | None = None, mu: float | None = None, *,
                  mass: float | None = None, inertia: float | None = None,
                  offset: float | None = None, angle: float | None = None,
                  qdot: Vector | None = None, end: int | None = None,
                  out: str | None = None) -> Report:
    """One impact as `clatter impact` reports it (app/impact.hpp: the same request, checks and
    JSON): the contact-space form (W = (A, B, C) or [[A, B], [B, C]], v_pre = (v_T, v_N)) or the rigid-body form of
    [B] Sec. 3.2 (mass, inertia, offset, angle, qdot = (V_T, V_N, theta_dot), end 1 or 2), with
    law (default stronge), e and mu (default 0). Returns the report (v_post, Lambda, region,
    case, delta_energy, status, segments, Stronge's boundaries and scaled variables, Brach's
    bounds, qdot_post and the kinetic energies in the rigid-body form); .failure is not empty
    where the law cannot resolve the impact. out: a file to write the JSON into (byte for byte
    the CLI's --out). For many impacts at C++ speed see impacts()."""
    if W is not None and _np.shape(W) == (2, 2):  # [[A, B], [B, C]] as impact() takes it
        w = _np.asarray(W, dtype=float)
        if w[0, 1] != w[1, 0]:
            raise ValueError(f"W: must be symmetric, got B = {w[0, 1]!r} and {w[1, 0]!r}")
        W = [w[0, 0], w[0, 1], w[1, 1]]
    raw = _clatter._impact_report(_given(law=law, v_pre=v_pre, W=W, e=e, mu=mu, mass=mass,
                                         inertia=inertia, offset=offset, angle=angle, qdot=qdot,
                                         end=end),
                                  "" if out is None else _os.fspath(out))
    failure = "" if raw["resolved"] else "the law cannot resolve this impact"
    report = _report(raw, failure)
    if out is not None:
        report.files["json"] = _os.fspath(out)
    return report


def impact_sweep(preset: str | None = None, kind: str | None = None, *,
                 angle: float | None = None, qdot: Vector | None = None,
                 e: Vector | None = None, mu: float | None = None, from_: float | None = None,
                 to: float | None = None, n: int | None = None, mass: float | None = None,
                 inertia: float | None = None, offset: float | None = None,
                 end: int | None = None, out: str | None = None, plot: bool = True) -> Report:
    """One input of an impact swept, the extended Brach law beside the energetic law, as `clatter
    impact-sweep` (app/impact_sweep.hpp): kind "energy-loss" (T_L/T- against the impulse ratio,
    one curve per e, [B] Figs 3.3-3.5) or "map" (V_TC- -> V_TC+, [B] Figs 3.8-3.11); preset
    fig3.3 ... fig3.11 gives the thesis's values of the arguments left None. Returns the summary
    with .tables (energy-loss.csv or map.csv, markers.csv). out: a folder to write the CSV files
    into (byte for byte the CLI's; <kind>.png unless plot=False)."""
    folder = _output_folder(out)
    raw = _clatter._impact_sweep(_given(preset=preset, kind=kind, angle=angle, qdot=qdot,
                                        e=None if e is None else _np.atleast_1d(e), mu=mu,
                                        from_=from_, to=to, n=n, mass=mass, inertia=inertia,
                                        offset=offset, end=end),
                                 folder, bool(plot) and bool(folder))
    return _report(raw)


def compliant(body: str | None = None, *, W: Vector | None = None, v: Vector | None = None,
              theta: float | None = None, theta_deg: float | None = None,
              mass: float | None = None, radius: float | None = None,
              length: float | None = None, V0: float | None = None, lean: int | None = None,
              mu: float | None = None, eta: float | None = None, k3: float | None = None,
              method: str | None = None, samples: int | None = None,
              follow_lock: bool | None = None, t_max: float | None = None,
              history: str | None = None) -> Report:
    """One impact through the two-spring compliant contact of [Bi] Sec. 3.3, as `clatter
    compliant` (app/compliant.hpp: the same request, defaults and JSON): body "sphere", "rod",
    "pendulum" (default) or "custom" (W = (a11, a13, a33)), v = (x_dot, z_dot) before impact
    (the pendulum's is -V0 (cos theta, sin theta)), mu (0.5), eta = k3/k1 (1.21), k3 (1);
    method "closed" (default) or "numeric". Returns the report (outcome, phases, times in
    seconds and normalised, v_post, impulse, energy ledger); .failure is not empty where the
    impact was not resolved. history: a CSV file to write the normalised time history into
    (byte for byte the CLI's --history; also .tables["history.csv"])."""
    path = "" if history is None else _os.fspath(history)
    raw = _clatter._compliant(_given(body=body, W=W, v=v, theta=theta, theta_deg=theta_deg,
                                     mass=mass, radius=radius, length=length, V0=V0, lean=lean,
                                     mu=mu, eta=eta, k3=k3, method=method, samples=samples,
                                     follow_lock=follow_lock, t_max=t_max), path)
    report = _report({"json": raw["json"]}, raw["message"])
    if path:
        report.tables["history.csv"] = _csv_table(raw["history"])
        report.files["history.csv"] = path
    return report


def compliant_sweep(preset: str, n: int | None = None, *, theta_deg: float | None = None,
                    mu: float | None = None, B: Vector | None = None, out: str | None = None,
                    plot: bool = True) -> Report:
    """The thesis-style figures of the compliant contact ([Bi] Secs 3-4) as `clatter
    compliant-sweep` (app/compliant_sweep.hpp): preset sphere-fig3.4 ... pendulum-fig4.17,
    rigid-limit, flow-fig4.2, or "flow" with mu and theta_deg (the 3-D point pendulum) or B
    (b11 b12 b13 b22 b23 b33, any body); n samples per curve (default: the preset's). Returns the
    summary with .tables (history.csv, sweep.csv, markers.csv, theta_cr.csv, rigid_limit.csv or
    flow_*.csv). out: a folder to write them into (byte for byte the CLI's; <preset>.png unless
    plot=False)."""
    folder = _output_folder(out)
    raw = _clatter._compliant_sweep(_given(preset=preset, n=n, theta_deg=theta_deg, mu=mu, B=B),
                                    folder, bool(plot) and bool(folder))
    return _report(raw)


def multipoint(preset: str, *, e_star: Vector | None = None, mu_s: float | None = None,
               mu_d: float | None = None, work_def: str | None = None,
               compression: str | None = None, recipe: str | None = None,
               pairs: str | None = None, method: str | None = None, qdot: Vector | None = None,
               max_events: int | None = None, max_steps: int | None = None,
               masses: Vector | None = None, v_pre: float | None = None,
               length: float | None = None, radius: float | None = None,
               out: str | None = None, plot: bool = True) -> Report:
    """A simultaneous multi-point collision of [R] resolved as a sequence of impact events, as
    `clatter multipoint` (app/multipoint.hpp: the same presets, choices and JSON): preset
    ball-corner, rocking-block, rocking-block-friction, cradle3, cradle3-case2, cradle5,
    cradle5-case2, cradle5-case3, sphere-corner, block3d-3, block3d-4, block3d-centered, or
    "cradle" (masses, v_pre, length, radius: any Newton's cradle); the other arguments override
    the preset's. Returns the summary (status, events, impulses, velocities, energies, derived
    quantities) with .tables["trace.csv"] (impulses and velocities against P); .failure is not
    empty where the collision was not resolved or broke an invariant. out: a folder to write
    summary.json and trace.csv into (byte for byte the CLI's; multipoint.png unless plot=False)."""
    folder = _output_folder(out)
    raw = _clatter._multipoint(_given(preset=preset, e_star=None if e_star is None else
                                      _np.atleast_1d(e_star), mu_s=mu_s, mu_d=mu_d,
                                      work_def=work_def, compression=compression, recipe=recipe,
                                      pairs=pairs, method=method, qdot=qdot,
                                      max_events=max_events, max_steps=max_steps,
                                      masses=masses, v_pre=v_pre, length=length, radius=radius),
                               folder, bool(plot) and bool(folder))
    return _report(raw, raw["failure"])


def orbit_branch(e: float, amplitude: float = 1.0, gravity: float = 9.81, periods: int = 1,
                 omega_range: tuple[float, float] = (0.5, 7.0), cascade: int = 0,
                 out: str | None = None, plot: bool = True) -> dict[str, Any]:
    """The period-n orbits of a ball on A sin(wt) for one restitution e, continued in omega from
    halfway between the closed-form SN and PD, as `clatter orbits --e E [--cascade K]`. Returns a
    dict: branches and bifurcations (Tables with the columns of branches.csv and
    bifurcations.csv, with a cascade also the doubled branches and their PD points), start_omega,
    the closed-form SN and PD, end_high, end_low (with their messages), and cascade (impacts,
    periods, omega_pd: the levels of summary.json's cascade). out: a folder to write the
    command's branches.csv, bifurcations.csv and summary.json into (byte for byte `clatter orbits
    --e E ...`'s; orbits.png unless plot=False); files then names them."""
    folder = _output_folder(out)
    raw = _clatter._orbit_branch(float(e), float(amplitude), float(gravity), int(periods),
                                 float(omega_range[0]), float(omega_range[1]), int(cascade),
                                 folder, bool(plot) and bool(folder))
    raw["cascade"] = Table(raw["cascade"])
    raw["branches"] = Table(raw["branches"])
    bif = Table(raw["bifurcations"])
    bif["kind"] = _np.array(bif["kind"], dtype=object)
    raw["bifurcations"] = bif
    if folder and plot:
        from . import plot as _plot
        png = _os.path.join(folder, "orbits.png")
        _plot._run("orbits.py", ["--branches", raw["files"]["branches"], "--bifurcations",
                                 raw["files"]["bifurcations"], "--out", png])
        raw["files"]["plot"] = png
    return raw


# --- periodic orbits, continuation, Poincare maps and boundary crossings of any model ----------
# (analysis/periodic_problem.hpp and the rest; the same computations as `clatter orbits SCENARIO`,
# `continue`, `section` and `dib`)


def _orbit_start(system, q, qd, t0, aux):
    """(model, start): the start state over a Scenario's initial state, or a Model's (q, qd
    required)."""
    if isinstance(system, Scenario):
        model = system.model
    elif isinstance(system, Model):
        model = system
        if q is None or qd is None:
            raise ValueError("q, qd: a Model needs the guess state (q=..., qd=...)")
    else:
        raise TypeError("the first argument must be a clatter.Model or a Scenario")
    start = {key: _np.asarray(value, float) for key, value in (("q", q), ("qd", qd), ("aux", aux))
             if value is not None}
    if t0 is not None:
        start["t"] = float(t0)
    return model, start


def _solve_names(solve):
    """The solved components as a list of names ([]: the default, every component but the
    anchor)."""
    if solve is None:
        return []
    if isinstance(solve, str):
        return [s for s in solve.split(",") if s]
    if not isinstance(solve, (list, tuple)) or not all(isinstance(s, str) for s in solve):
        raise TypeError(f"solve: a list of state names or a comma-separated string, got {solve!r}")
    return [s for s in solve if s]


def _orbit_request(system, solve, q=None, qd=None, t0=None, aux=None, closed=None,
                   start_on_section=None, **posed):
    """(model, start, request) of an orbit problem: app::OrbitRequest's fields by name, the same
    request the CLI's options fill (app/orbit_setup.hpp). start_on_section None: True when a
    start state (q, qd or t0) is given, so that a user's guess is the section's start (on an
    impact section, unless a transient is asked for: the start is then where it begins); the
    Scenario's own start is moved onto the CLI's default section."""
    model, start = _orbit_start(system, q, qd, t0, aux)
    if start_on_section is None:
        start_on_section = bool(start) and not (posed.get("impact") is not None
                                                and (posed.get("transient") or 0) > 0)
    request = {key: value for key, value in posed.items() if value is not None}
    impact = request.get("impact")
    if impact is not None and not isinstance(impact, str):
        # a contact by index, as closed= takes them
        names = list(model.contact_names)
        if (isinstance(impact, bool) or not isinstance(impact, (int, _np.integer))
                or not 0 <= int(impact) < len(names)):
            raise ValueError(f"impact: a contact's name ({', '.join(names)}) or its index in "
                             f"[0, {len(names) - 1}], got {impact!r}")
        request["impact"] = names[int(impact)]
    request["solve"] = _solve_names(solve)
    request["start_on_section"] = bool(start_on_section)
    if closed is not None:
        names = list(model.contact_names)
        request["closed"] = [names[i] for i, c in enumerate(_closed_contacts(model, closed)) if c]
    return model, start, request


# the keywords continue_orbit and boundary_crossing pass on to the orbit problem (those of
# periodic_orbit that pose it); anything else is refused, not ignored
_ORBIT_KEYWORDS = ("periods", "phase", "frequency", "anchor", "drift", "period", "q", "qd", "t0",
                   "aux", "modulo_symmetry", "closed", "impact", "impacts", "max_period",
                   "transient", "start_on_section", "monodromy", "tol", "max_iter", "options")
_SECTION_KEYWORDS = ("contact", "event", "frequency", "phase", "component", "value", "direction",
                     "sample_dt")
_CROSSING_KEYWORDS = ("periods", "phase", "frequency", "anchor", "drift", "period", "q", "qd",
                      "t0", "aux", "transient", "start_on_section", "tol", "max_iter", "closed",
                      "modulo_symmetry", "options")


def _check_keywords(function, given, allowed):
    unknown = sorted(set(given) - set(allowed))
    if unknown:
        raise TypeError(f"{function}() got an unexpected keyword argument {unknown[0]!r} "
                        f"(allowed: {', '.join(allowed)})")


def _closed_contacts(model, closed):
    """[bool] per contact from None (all open), contact names or indices, or one bool each."""
    n = model.num_contacts
    if closed is None:
        return [False] * n
    closed = list(closed)
    if len(closed) == n and all(isinstance(c, bool) for c in closed):
        return closed
    names = list(model.contact_names)
    out = [False] * n
    for c in closed:
        if isinstance(c, str):
            if c not in names:
                raise ValueError(f"closed: no contact {c!r} (contacts: {', '.join(names)})")
            out[names.index(c)] = True
        elif isinstance(c, int) and not isinstance(c, bool) and 0 <= c < n:
            out[c] = True
        else:
            raise ValueError(f"closed: {c!r} is neither a contact name nor an index in [0, {n})")
    return out


def _output_folder(out):
    """The folder an operation writes into ('' for none); made by the first file written, so that
    a refused request leaves nothing behind."""
    return "" if out is None else _os.fspath(out)


def _scenario_label(system):
    return system.source if isinstance(system, Scenario) else ""



# the fields the library names in its errors (the CLI's and the scenario's) that a Python caller
# passed under another keyword
_PYTHON_KEYWORDS = {"initial.q": "q", "initial.qdot": "qd", "initial.t": "t0",
                    "initial.aux": "aux", "range": "p_range", "param": "parameter"}


def _python_keywords(f):
    """Errors of f that name a library field under its Python keyword ("initial.qdot: ..." ->
    "qd: ..."): the caller sees the name it passed."""
    @_functools.wraps(f)
    def wrapper(*args, **kwargs):
        try:
            return f(*args, **kwargs)
        except ValueError as e:
            text = str(e)
            field, sep, rest = text.partition(": ")
            if sep and field in _PYTHON_KEYWORDS and len(e.args) == 1:
                raise ValueError(f"{_PYTHON_KEYWORDS[field]}: {rest}") from e
            raise
    return wrapper


@_python_keywords
def periodic_orbit(system: System, solve: Names | None = None, periods: int = 1,
                   phase: float | None = None, frequency: str | None = None,
                   anchor: str | None = None, drift: str | None = None,
                   period: float | None = None, q: Vector | None = None,
                   qd: Vector | None = None, t0: float | None = None, aux: Vector | None = None,
                   monodromy: str = "differences", segments: int = 1, tol: float = 1e-10,
                   max_iter: int = 30, modulo_symmetry: bool = False,
                   closed: Sequence[str | int | bool] | None = None,
                   options: dict[str, Any] | None = None, impact: str | None = None,
                   impacts: int = 1, max_period: float = 1e3, transient: float = 0.0,
                   start_on_section: bool | None = None, out: str | None = None,
                   plot: bool = True) -> dict[str, Any]:
    """A periodic orbit by shooting, as `clatter orbits SCENARIO` (the same request,
    app/orbit_setup.hpp, so the same defaults and numbers).

    Forced models: the stroboscopic section omega t = phase, `periods` forcing periods; phase
    None: mid-way between events over the periods after the transient (the CLI's default), or
    omega t0 through the start when a start state is given (start_on_section). Autonomous
    models: anchor="x" (the component fixed on the section), drift="v_dr" (its drift rate, a
    parameter), period=T (the guess). impact="NAME" (or its index): the impact section of that
    contact (an unforced model): the orbit starts just after one of its impacts and ends just after the
    `impacts`-th that follows, within max_period seconds; the guess is the state after its first
    impact once `transient` of them passed, or the start itself when given without a transient
    (start_on_section; with a transient the given start is where the run begins).
    solve: the state components solved for (names of clatter.state_names(model); None: every
    component but the anchor, the velocities on an impact section). transient: forcing periods
    (autonomous: periods T) run from the start before the guess. modulo_symmetry=True: the orbit
    closes on the image of its start under the model's symmetry (a walker's step). closed: the
    contacts closed at the guess (names or indices). options: simulation options over the
    Scenario's (e.g. {"two_contact": "sequential"}). out: a folder to write the command's files
    into (orbit.json, timeseries.csv, and orbit.png unless plot=False), byte for byte the
    CLI's for the same options.
    Returns a dict: converged, message, iterations, residual, u, x0, t0, period, multipliers,
    stable, monodromy, DP, events, section (as posed), solved (names).
    """
    model, start, request = _orbit_request(
        system, solve, q=q, qd=qd, t0=t0, aux=aux, closed=closed,
        start_on_section=start_on_section, periods=int(periods), phase=phase,
        frequency=frequency, anchor=anchor, drift=drift, period=period, impact=impact,
        impacts=int(impacts), max_period=float(max_period), modulo_symmetry=bool(modulo_symmetry),
        transient=float(transient), monodromy=monodromy, segments=int(segments), tol=float(tol),
        max_iter=int(max_iter))
    folder = _output_folder(out)
    target = system if isinstance(system, Scenario) else model
    result = _clatter._periodic_orbit(target, start, dict(options or {}), request, folder,
                                      _scenario_label(system), bool(plot) and bool(folder))
    if folder and plot:
        from . import plot as _plot
        _plot._run("orbit.py", ["--timeseries", result["file_timeseries"], "--orbit",
                                result["file_orbit"], "--out",
                                _os.path.join(folder, "orbit.png")])
    return result


def _direction(direction):
    names = {1: "up", -1: "down", "up": "up", "down": "down", "both": "both"}
    if isinstance(direction, bool) or direction not in names:
        raise ValueError(f"direction: must be 'up', 'down', 'both', 1 or -1, got {direction!r}")
    return names[direction]


@_python_keywords
def continue_orbit(system: System, solve: Names | None, parameter: str,
                   p_range: tuple[float, float], direction: int | str = "both",
                   ds: float = 0.01, ds_max: float = 0.1, max_points: int = 400,
                   progress: bool | None = None, out: str | None = None, plot: bool = True,
                   **orbit: Any) -> dict[str, Any]:
    """Continues the orbit of periodic_orbit(system, solve, **orbit) in `parameter` over
    p_range = (lo, hi), as `clatter continue` (app/continuation.hpp: the same request, defaults
    and numbers). direction: "up", "down" or "both" (up first; 1 and -1 also taken).
    Returns the points of every direction in order (the rows of branch.csv): branch ("up" or
    "down"), p, u (one row per point, the solved components), period, max_abs_multiplier,
    stable, tau_sn, tau_pd, tau_ns, margin, sticks; the located bifurcations (SN, PD, NS,
    grazing, region and stick changes, slip onsets and lift-offs gained or lost, each with its
    branch); branches (per direction: points, end, message); end and message (of the last
    direction run); start (the start orbit, as periodic_orbit returns it). out: a folder to
    write branch.csv, bifurcations.csv, summary.json (and branch.png unless plot=False) into,
    byte for byte the CLI's. progress: a tqdm bar of the points (None: in terminals and
    notebooks; False: never). A keyword the orbit does not take raises TypeError."""
    _check_keywords("continue_orbit", orbit, _ORBIT_KEYWORDS)
    extra = orbit.pop("options", None)
    model, start, request = _orbit_request(system, solve, **orbit)
    lo, hi = p_range
    which = _direction(direction)
    folder = _output_folder(out)
    bar = _progress(int(max_points) * (2 if which == "both" else 1), progress, "continue",
                    "point")
    target = system if isinstance(system, Scenario) else model
    try:
        res = _clatter._continue_orbits(target, start, dict(extra or {}), request,
                                        {"parameter": parameter, "p_min": float(lo),
                                         "p_max": float(hi), "direction": which, "ds": float(ds),
                                         "ds_max": float(ds_max),
                                         "max_points": int(max_points)},
                                        _advance_to(bar, lambda points: points), folder,
                                        _scenario_label(system), bool(plot) and bool(folder))
    finally:
        if bar is not None:
            bar.close()
    branch = _branch(res)
    if folder and plot:
        from . import plot as _plot
        name = system.name if isinstance(system, Scenario) else model.kind
        _plot._run("branch.py", ["--branch", res["file_branch"], "--bifurcations",
                                 res["file_bifurcations"], "--param", parameter, "--param-unit",
                                 _clatter._parameter_unit(model, parameter), "--title",
                                 f"{name}: periodic orbits continued in {parameter}", "--out",
                                 _os.path.join(folder, "branch.png")])
        branch.files["plot"] = _os.path.join(folder, "branch.png")
    return branch


def _branch(res):
    """A Branch from the binding's columns, bifurcations and directions."""
    solved = list(res["start"]["solved"])
    u = _np.asarray(res["u"], float).reshape(len(res["p"]), len(res["start"]["u"]))
    columns = {"branch": _np.asarray(res["branch"], dtype=object),
               "p": _np.asarray(res["p"], float), "period": _np.asarray(res["period"], float)}
    for k, name in enumerate(solved):
        columns[name] = u[:, k]
    columns["stable"] = _np.asarray(res["stable"], bool)
    columns["multipliers_reliable"] = _np.asarray(res["multipliers_reliable"], bool)
    for key in ("max_abs_multiplier", "tau_sn", "tau_pd", "tau_ns", "margin"):
        columns[key] = _np.asarray(res[key], float)
    columns["sticks"] = _np.asarray(res["sticks"], int)
    columns["u"] = u
    found = res["bifurcations"]
    bif = {"branch": _np.array([f["branch"] for f in found], dtype=object),
           "kind": _np.array([f["kind"] for f in found], dtype=object),
           "p": _np.array([f["p"] for f in found], float),
           "period": _np.array([f["period"] for f in found], float)}
    bu = _np.array([f["u"] for f in found], float).reshape(len(found), u.shape[1])
    for k, name in enumerate(solved):
        bif[name] = bu[:, k] if len(found) else _np.zeros(0)
    bif["max_abs_multiplier"] = _np.array([f["max_abs_multiplier"] for f in found], float)
    bif["detail"] = _np.array([f["detail"] for f in found], dtype=object)
    bif["u"] = bu
    bif["multipliers"] = _np.array([None] * len(found), dtype=object)
    for k, f in enumerate(found):
        bif["multipliers"][k] = f["multipliers"]
    files = {key[len("file_"):]: value for key, value in res.items() if key.startswith("file_")}
    branch = Branch(columns, Table(bif), list(res["branches"]), res["start"], solved, files)
    _describe(branch, "branch_point", {"solved": solved})
    _describe(branch.bifurcations, "bifurcation", {"solved": solved})
    return branch


# the keywords of each kind of section (poincare's **spec)
_SECTION_KINDS = {"impact": ("contact",), "event": ("event", "contact"), "phase": ("phase",),
                  "crossing": ("component", "value", "direction")}


def _section_spec(model, section, spec):
    """The section as the CLI's SPEC (app/section.hpp): `section` itself if it is one
    ("impact:P1", "crossing:y:0:down"), else built from its kind and keywords."""
    if not isinstance(section, str):
        raise TypeError(f"section: a kind or a SPEC string, got {section!r}")
    kind = section.split(":")[0]
    if kind not in _SECTION_KINDS:
        raise ValueError(f"section: '{kind}': give impact, event, phase or crossing")
    given = set(spec) - {"frequency", "sample_dt"}
    if ":" in section:
        if given:
            raise TypeError(f"poincare() got {sorted(given)[0]!r} beside the SPEC {section!r}")
        return section
    wrong = sorted(given - set(_SECTION_KINDS[kind]))
    if wrong:
        raise TypeError(f"poincare() got an unexpected keyword argument {wrong[0]!r} for a "
                        f"{kind} section (allowed: {', '.join(_SECTION_KINDS[kind])})")
    def number(v):  # the shortest text that reads back to v, as a user would type it ("0", "1.5")
        text = repr(float(v))
        return text[:-2] if text.endswith(".0") else text

    parts = [kind]
    if kind == "event":
        if "event" not in spec:
            raise ValueError("event: an event section needs the kind, e.g. event='stick'")
        parts.append(str(spec["event"]))
    if kind in ("impact", "event") and spec.get("contact", -1) not in (-1, None):
        contact = spec["contact"]
        names = list(model.contact_names)
        if isinstance(contact, bool) or not isinstance(contact, (int, str)) or (
                isinstance(contact, int) and not 0 <= contact < len(names)):
            raise ValueError(f"contact: a contact name or an index in [0, {len(names)}), "
                             f"got {contact!r}")
        parts.append(contact if isinstance(contact, str) else names[contact])
    if kind == "phase" and "phase" in spec:
        parts.append(number(spec["phase"]))
    if kind == "crossing":
        if "component" not in spec:
            raise ValueError("component: a crossing section needs the state component")
        parts += [str(spec["component"]), number(spec.get("value", 0.0))]
        direction = spec.get("direction", 0)
        if direction not in (0, 1, -1) or isinstance(direction, bool):
            raise ValueError(f"direction: must be +1, -1 or 0, got {direction!r}")
        if direction:
            parts.append("up" if direction > 0 else "down")
    return ":".join(parts)


@_python_keywords
def poincare(system: System, section: str = "impact", count: int = 100,
             t_max: float | None = None, q: Vector | None = None, qd: Vector | None = None,
             t0: float | None = None, aux: Vector | None = None, transient: float = 0.0,
             out: str | None = None, plot: bool = True, **spec: Any) -> dict[str, Any]:
    """The Poincare map iterated `count` times along one run from the start state, as `clatter
    section` (app/section.hpp: the same request and defaults). section: the CLI's SPEC
    ("impact:P1", "event:stick", "phase:1.5", "crossing:ydot:0:down"), or a kind with keywords:
    "impact" (contact= name or index), "event" (event="stick", contact=), "phase" (phase=),
    "crossing" (component="ydot", value=0, direction=+1|-1|0); any section also takes
    frequency= (phase: omega's parameter) and sample_dt= (the step bracketing a velocity's
    crossing). Points before t0 + transient are not recorded; none after t_max (default: the
    Scenario's t_end; a Model needs it). out: a folder to write section.csv and summary.json into
    (byte for byte the CLI's; section.png unless plot=False). Returns a Section: a Table as
    section.csv (k, t, the state by clatter.state_names, events_passed) with .x (the states as
    one array), .stopped (why the run ended, "count reached" if it found them all) and message
    (why it stopped early, "" if not). A keyword the section does not take raises TypeError."""
    _check_keywords("poincare", spec, _SECTION_KEYWORDS)
    model, start = _orbit_start(system, q, qd, t0, aux)
    if t_max is None and not isinstance(system, Scenario):
        raise ValueError("t_max: required for a Model (no crossing after this time) [s]")
    spec_text = _section_spec(model, section, spec)
    request = {"section": spec_text, "count": int(count), "transient": float(transient),
               "t_max": 0.0 if t_max is None else float(t_max)}
    for key in ("frequency", "sample_dt"):
        if key in spec:
            request[key] = spec[key]
    folder = _output_folder(out)
    target = system if isinstance(system, Scenario) else model
    res = _clatter._poincare(target, start, {}, request, folder, _scenario_label(system),
                             bool(plot) and bool(folder))
    # (0, n) when the run met no crossing: reshape(0, -1) cannot infer n
    x = _np.asarray(res["x"], float).reshape(len(res["t"]), len(state_names(model)))
    columns = {"k": _np.arange(len(res["t"])), "t": _np.asarray(res["t"], float)}
    for i, name in enumerate(state_names(model)):
        columns[name] = x[:, i]
    columns["events_passed"] = _np.asarray(res["events_passed"], int)
    files = {key[len("file_"):]: value for key, value in res.items() if key.startswith("file_")}
    section = Section(columns, x, res["stopped"], res["message"], files)
    _describe(section, "section_point", {"state": list(state_names(model))})
    if folder and plot:
        from . import plot as _plot
        _plot._run("section.py", ["--section", files["section"], "--title", spec_text,
                                  "--out", _os.path.join(folder, "section.png")])
        section.files["plot"] = _os.path.join(folder, "section.png")
    return section


@_python_keywords
def boundary_crossing(system: System, solve: Names | None, parameter: str,
                      regions: Sequence[int], offset: float = 1e-5, impact: int = 0,
                      span: float = 0.0, kink_step: float = 1e-3, newton: str = "differences",
                      forced: bool = False, out: str | None = None, plot: bool = True,
                      **orbit: Any) -> dict[str, Any]:
    """The critical value of `parameter` where the orbit's impact (the `impact`-th) lies on the
    boundary between `regions` of Stronge's law, and Feigin's classification (1 - sigma, D,
    verdict, both sides' orbits), as `clatter dib` (app/dib.hpp: the same request, defaults and
    numbers). span > 0: both sides' branches over |p - p*| <= span; kink_step h > 0: the
    multipliers' one-sided slopes at p*; newton="variational": the critical point's Jacobian from
    the variational equations; forced=True: each side's region formula forced through p*. For
    an autonomous section (anchor/drift) the result also has "normal_form": the explicit normal
    form of [NDC] 5.1 (z_star, dQ_dz, dQ_dp, dg1_dz, dg1_dp, dg2_minus_g1_dH, gamma, N, alpha,
    beta, M, sigma, one_minus_sigma, D, eig_alpha, eig_alpha_plus_beta_gamma, verdict). "report"
    is dib.json's content; out: a folder to write dib.json and branches.csv into (byte for byte
    the CLI's; dib.png unless plot=False). A keyword the orbit does not take raises TypeError."""
    _check_keywords("boundary_crossing", orbit, _CROSSING_KEYWORDS)
    if isinstance(impact, bool) or not isinstance(impact, (int, _np.integer)):
        raise ValueError(f"impact: the orbit's impact that crosses the boundary, counted from 0 "
                         f"along the period (an int), got {impact!r}; dib takes no impact section "
                         f"(pose an anchored or stroboscopic one)")
    extra = orbit.pop("options", None)
    model, start, request = _orbit_request(system, solve, **orbit)
    target = system if isinstance(system, Scenario) else model
    folder = _output_folder(out)
    res = _clatter._boundary_crossing(target, start, dict(extra or {}), request,
                                      {"parameter": parameter, "regions": list(regions),
                                       "offset": float(offset), "impact": int(impact),
                                       "span": float(span), "kink_step": float(kink_step),
                                       "newton": newton, "forced": bool(forced)},
                                      folder, _scenario_label(system),
                                      bool(plot) and bool(folder))
    if folder and plot and "file_dib" in res:
        from . import plot as _plot
        name = system.name if isinstance(system, Scenario) else model.kind
        _plot._run("dib.py", ["--branches", res["file_branches"], "--param", parameter,
                              "--param-unit", _clatter._parameter_unit(model, parameter),
                              "--critical", "%f" % res["critical_value"], "--title",
                              f"{name}: the orbit's branches at the boundary crossing in "
                              f"{parameter}", "--out", _os.path.join(folder, "dib.png")])
    return res


def _initial_from_text(system, text):
    """(t0, q, qd) of a state written as `clatter sweep --initial` takes it: "NAME=VALUE,..."
    over the Scenario's start (names t, the coordinates and their NAMEdot)."""
    if not isinstance(system, Scenario):
        raise ValueError("initial: a state written as text changes the Scenario's start: give a "
                         "Scenario, or (t0, q, qd)")
    start = system.initial
    t, q, qd = float(start["t"]), _np.array(start["q"], float), _np.array(start["qd"], float)
    names = system.model.coordinate_names
    allowed = ", ".join(["t"] + [f"{n}, {n}dot" for n in names])
    for item in text.split(","):
        name, eq, value = item.partition("=")
        if not eq or not name:
            raise ValueError(f"initial: give NAME=VALUE pairs separated by commas (names: "
                             f"{allowed}), got {item!r}")
        try:
            v = float(value)
        except ValueError:
            raise ValueError(f"initial: {name} must be a number, got {value!r}") from None
        if not _np.isfinite(v):
            raise ValueError(f"initial: {name} must be finite")
        if name == "t":
            t = v
        elif name in names:
            q[names.index(name)] = v
        elif name.endswith("dot") and name[:-3] in names:
            qd[names.index(name[:-3])] = v
        else:
            raise ValueError(f"initial: unknown name {name!r} (allowed: {allowed})")
    return t, q, qd


def sweep_parameters(system: System, params: Sequence[tuple[str, float, float, int]],
                     carry_over: str = "none",
                     initial: Sequence[tuple[float, Vector, Vector] | str] | None = None,
                     section: str = "apex", observe: str | None = None,
                     contact: int | str = -1,
                     transient_periods: float = 1000.0, record_periods: float = 200.0,
                     period_parameter: str = "surface.omega", threads: int = 2,
                     periodic_tol: float | None = None, periodic_check: bool = True,
                     crossing: Crossing | None = None, clock: str = "periods",
                     max_time: float | None = None, progress: bool | None = None,
                     out: str | None = None, plot: bool = True,
                     **options: Any) -> dict[str, Any]:
    """Sweeps of any named parameter(s), as `clatter sweep --param ...` (analysis::run_sweep).

    params: [(name, from, to, n)] with one or two axes; carry_over: none, up, down or both;
    initial: [(t0, q, qd), ...] or texts as `--initial` takes them ("y=0.5,ydot=0" over the
    Scenario's start) (default: the Scenario's start); section "apex", "impact" or
    "strobe" (t0 + k 2 pi/omega), or "crossing" with crossing=(name, value[, "up"|"down"|"both"])
    (the coordinate crossing the value), and the quantity `observe` ("y", "ydot", "phase", "v_N";
    default: phase on the impact section, else y, as the command).
    periodic_tol > 0: a value stops once its stroboscopic states close a cycle of <= 64 periods
    to that relative tolerance, shown stable by a perturbed replay, and the rest of its record
    repeats the cycle (docs/analysis.md); None (default): 1e-10 under the periods clock, else 0,
    as `clatter sweep`; 0: every value in full. periodic_check=False takes a cycle without the
    replay.
    clock: what transient_periods and record_periods count: "periods" (of period_parameter, the
    forcing), "time" [s], "impacts" or "impacts:CONTACT" (impacts of any contact or of one), or
    "crossings" (of the section); a model without a forcing needs one of the last three. With
    impacts or crossings each value's run is bounded by max_time [s] (default: the Scenario's
    t_end - t0); a value that reaches it first has record_complete False and a message.
    progress: a tqdm bar of the finished values (None: in terminals and notebooks; False: never).
    Returns one row per (grid point, run): the parameter values, point, run, distinct,
    impacts_per_period, reason, message, cycle, closed_at and refused (the shortcut's cycle in periods,
    0 if run in full, and the period it closed at), and values (the observable's recorded
    values). The GIL is released; records are the same at any thread count.
    out: a folder to write the command's files into once every value is done (app/sweep_files.hpp:
    bifurcation.csv, summary.csv, summary.json; byte for byte `clatter sweep SCENARIO --param ...
    --out DIR` for the same options; bifurcation.png unless plot=False); .files names them. The
    initial states given here are named in summary.json as "t=T,NAME=V,...,NAMEdot=V".
    """
    texts = None
    if isinstance(system, Scenario):
        model, opts = system.model, dict(system.options)
        if initial is None:
            init = system.initial
            initial = [(init["t"], init["q"], init["qd"])]
            texts = ["scenario"]
    elif isinstance(system, Model):
        model, opts = system, {}
        if initial is None:
            raise ValueError("initial: a Model needs the initial states [(t0, q, qd), ...]")
    else:
        raise TypeError("the first argument must be a clatter.Model or a Scenario")
    opts.update(options)
    if initial and all(isinstance(i, str) for i in initial):
        texts = list(initial)
        initial = [_initial_from_text(system, text) for text in initial]
    initials = [(float(t), _np.asarray(q, float), _np.asarray(qd, float)) for t, q, qd in initial]
    if texts is None:  # as --initial spells a state
        names = model.coordinate_names
        texts = [",".join([f"t={t!r}"] + [f"{n}={float(v)!r}" for n, v in zip(names, q)]
                          + [f"{n}dot={float(v)!r}" for n, v in zip(names, qd)])
                 for t, q, qd in initials]
    if observe is None:
        observe = ""  # the command's default for the section (app/sweep.hpp): phase, else y
    if isinstance(contact, str):  # by name, as the CLI's --contact
        names = list(model.contact_names)
        if contact not in names:
            raise ValueError(f'contact: no contact "{contact}" (contacts: {", ".join(names)})')
        contact = names.index(contact)
    # a bad simulation option is one error here, not one error row per value
    _clatter._check_options(dict(opts, t_end=opts.get("t_end", 0.0) or initials[0][0] + 1.0)
                            if initials else opts, initials[0][0] if initials else 0.0)
    axes = [(str(n), float(a), float(b), int(k)) for n, a, b, k in params]
    if section == "crossing" and crossing is None:
        raise ValueError("crossing: the crossing section needs crossing=(name, value[, dir])")
    section = _crossing_section(section, crossing)
    folder = _output_folder(out)
    if isinstance(system, Scenario):
        name, title = system.name, f"{system.name}: {system.description}"
    else:
        name, title = "", model.kind
    n_records = len(initials)
    for _, _, _, k in axes:
        n_records *= k
    bar = _progress(n_records, progress, "sweep", "value")
    try:
        raw = _clatter._run_sweep(model, initials, opts, axes, carry_over, section, observe,
                                  int(contact), float(transient_periods), float(record_periods),
                                  period_parameter, int(threads),
                                  None if periodic_tol is None else float(periodic_tol),
                                  bool(periodic_check), str(clock),
                                  None if max_time is None else float(max_time),
                                  _advance_to(bar, lambda done, total: done), folder, name,
                                  texts, bool(plot) and bool(folder), title,
                                  system.kind if isinstance(system, Scenario) else "")
    finally:
        if bar is not None:
            bar.close()
    complete = raw.pop("complete")
    files = raw.pop("files", None) or {}
    figure = raw.pop("plot")
    if figure is not None:
        from . import plot as _plot
        script, args, png = figure
        _plot._run(script, list(args))
        files["plot"] = png
    values = raw.pop("values")
    observable = raw.pop("observable")
    columns = {k: (_np.asarray(v, dtype=object) if k in ("reason", "message") else _np.asarray(v))
               for k, v in raw.items()}
    columns["values"] = _np.empty(len(values), dtype=object)
    for k, v in enumerate(values):
        columns["values"][k] = _np.asarray(v, float)
    result = Sweep(columns, [name for name, _, _, _ in axes], complete, observable)
    result.files = files
    _describe(result, "sweep_point", {"parameters": [], "summary_json": True,
                                      "periodic_shortcut": True})
    for name, _, _, _ in axes:  # the parameters' columns keep their names (surface.omega)
        result.units[name], result.docs[name] = "[p]", "the swept parameter's value"
    return result


# the typing helpers were needed only to write the annotations above (evaluated at definition)
del Any, Sequence, Union


from . import plot  # noqa: E402  (the figures of the commands; no matplotlib at import)
