"""The outputs of `clatter sweep`, read for its plot (sweep.py) in bounded memory.

Two sources hold the same numbers: bifurcation.csv + summary.csv, or sweep.h5
(apps/clatter/commands/sweep_hdf5.hpp). `read_csv` and `read_hdf5` return a SweepData:

- per point and run (one row of summary.csv): the parameter values `points` (n, d), the number of
  distinct section values `distinct` (n,), the impacts per forcing period `impacts` (n,) and the
  run's key `run` (n,): "" for a single run, else the initial state's index and/or the direction
  ("0 up", "down", ...), as the CSV's columns `initial` and `direction` give them;
- the section values, which can be far more numerous (100 per point in the seeds' diagram, 1e3 in
  a strobe sweep): never held, but passed in blocks by `samples()`, an iterator of
  (run keys, first parameter, observable) arrays of at most CHUNK values each. It can be called
  again (the plot reads the values twice: their range, then their pixels).

The memory held is the per-point arrays (the grid) and one block, whatever the number of
section values. Malformed input raises ValueError (or OSError, KeyError) with the file named.
"""

import csv
import itertools

import numpy as np

KEYS = ("initial", "direction")
CHUNK = 1 << 16  # section values parsed (CSV rows) or read (HDF5 values) at a time
LABELS = {"surface.omega": "omega"}  # the HDF5 parameter names that the CSV writes shorter


class SweepData:
    def __init__(self, params, observable, points, distinct, impacts, run, samples):
        self.params = params  # parameter labels, as the CSV's header writes them
        self.observable = observable
        self.points = points
        self.distinct = distinct
        self.impacts = impacts
        self.run = run
        self._samples = samples

    def samples(self):
        """Blocks (run keys, first parameter, observable) of the section values, in file order."""
        return self._samples()


def _run_keys(cols):
    """The run key of every row from its key columns (strings): joined by one space."""
    if not cols:
        return None
    key = cols[0]
    for c in cols[1:]:
        key = np.char.add(np.char.add(key, " "), c)
    return key


def read_csv(data, summary):
    with open(summary, newline="") as fh:
        reader = csv.reader(fh)
        shead = next(reader)
        for need in ("distinct", "impacts_per_period"):
            if need not in shead:
                raise ValueError(f"{summary}: no column {need}")
        stop = shead.index("distinct")
        params = [c for c in shead[:stop] if c not in KEYS]
        pcols = [shead.index(p) for p in params]
        kcols = [shead.index(k) for k in KEYS if k in shead[:stop]]
        idist, iimp = shead.index("distinct"), shead.index("impacts_per_period")
        pts, dist, imp, keys = [], [], [], []
        for row in reader:
            if len(row) != len(shead):
                raise ValueError(f"{summary}: a row has {len(row)} fields, the header "
                                 f"{len(shead)}")
            pts.append([float(row[i]) for i in pcols])
            dist.append(int(row[idist]))
            imp.append(float(row[iimp] or "nan"))
            keys.append(" ".join(row[i] for i in kcols))
    with open(data, newline="") as fh:
        head = next(csv.reader(fh))
    if len(head) < 2 or head[:-1] != shead[:stop]:
        raise ValueError(f"{data}: its columns {head[:-1]} are not those of {summary}")
    xcol = head.index(params[0])
    dkeys = [head.index(k) for k in KEYS if k in head]

    def samples():
        # numbers and plain keys only (no quoting): numpy's parser, a block of lines at a time
        with open(data, newline="") as fh:
            next(fh)
            while True:
                lines = list(itertools.islice(fh, CHUNK))
                if not lines:
                    return
                if sum(line.count(",") for line in lines) != (len(head) - 1) * len(lines):
                    raise ValueError(f"{data}: every row must have {len(head)} fields")
                a = np.loadtxt(lines, delimiter=",", usecols=(xcol, len(head) - 1), ndmin=2)
                if dkeys:
                    k = np.loadtxt(lines, delimiter=",", usecols=dkeys, dtype=str, ndmin=2)
                    key = _run_keys([k[:, i] for i in range(len(dkeys))])
                else:
                    key = np.full(len(a), "")
                yield key, a[:, 0], a[:, 1]

    return SweepData(params, head[-1], np.array(pts, dtype=float).reshape(-1, len(params)),
                     np.array(dist, dtype=int), np.array(imp, dtype=float),
                     np.array(keys, dtype=str), samples)


def read_hdf5(path):
    import h5py

    with h5py.File(path, "r") as f:
        obs = f.attrs["observable"]
        obs = obs.decode() if isinstance(obs, bytes) else str(obs)
        v = f[obs]
        names = [d[0].name.lstrip("/") for d in list(v.dims)[:-2]]
        axes = [np.asarray(f[p]) for p in names]
        distinct = np.asarray(f["distinct"])  # (grid..., runs)
        impacts = np.asarray(f["impacts_per_period"])
        initial = np.asarray(f["run_initial"])
        direction = np.asarray(f["run_direction"])
        runs, n_samples = v.shape[-2], v.shape[-1]
    keys = []
    for r in range(runs):
        parts = [str(initial[r])] if initial.max() > 0 else []
        if direction.min() < 0:
            parts.append({1: "up", -1: "down"}[int(direction[r])])
        keys.append(" ".join(parts))
    grids = np.meshgrid(*axes, indexing="ij")
    grid_points = np.stack([g.ravel() for g in grids], axis=1)  # (grid points, parameters)
    n = len(grid_points)
    # point-major, then run: the row order of summary.csv
    points = np.repeat(grid_points, runs, axis=0)
    run = np.tile(np.array(keys, dtype=str), n)

    def samples():
        if len(names) != 1 or n_samples == 0:
            return
        step = max(1, CHUNK // n_samples)
        with h5py.File(path, "r") as f:
            values = f[obs]
            for r, key in enumerate(keys):
                for i in range(0, n, step):
                    block = np.asarray(values[i:i + step, r, :])
                    mask = ~np.isnan(block)
                    x = np.repeat(axes[0][i:i + step], mask.sum(axis=1))
                    yield np.full(len(x), key), x.astype(float), block[mask]

    return SweepData([LABELS.get(p, p) for p in names], obs, points,
                     distinct.reshape(-1).astype(int), impacts.reshape(-1).astype(float), run,
                     samples)
