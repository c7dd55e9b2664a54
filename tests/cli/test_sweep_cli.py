#!/usr/bin/python3
"""Command-line tests of `clatter sweep` over named parameters (issue 13, infrastructure).

Usage: /usr/bin/python3 tests/cli/test_sweep_cli.py PATH/TO/clatter [--mpi MPIEXEC | --skip WHY]

Asserted (every comparison of outputs is of bytes: sha256 of the files):
- the ω sweep's columns and rows are those of the earlier `clatter sweep --omega` (header
  "omega,y_apex"; one row per apex);
- a 2-D grid (surface.omega, surface.amplitude) with carry-over both ways and two initial states
  gives the same bifurcation.csv, summary.csv and sweep.h5 at 1 and 2 threads; so does [BP]
  Fig. 8(a) where it is chaotic (independent runs);
- sweep.h5 opens with h5py: one dataset per quantity, the grid coordinates attached as dimension
  scales (and with xarray, engine h5netcdf, when installed: coordinates named by the parameters);
  the PNG is drawn from the HDF5 file;
- a sweep stopped by --max-wall-time (exit 4) or by SIGINT writes no final file (only the
  checkpoint sweep-checkpoint.r0.partial), refuses to start again without --resume (exit 2), and
  --resume finishes it with the same bytes as an uninterrupted run, removing the checkpoint; one
  killed by SIGKILL leaves its outputs' temporaries (never the final names), which --resume
  removes;
- --periodic-tol 1e-10 on the ball's period-1 orbit (closed form, [B] §6.3): each value stops
  after fewer periods than the transient (summary.json: cycle, closed_at) and its apex heights
  equal the full run's to 1e-9 relative; --section strobe samples t0 + k 2 pi/omega (one row per
  period, both ends of the record); --timings writes the CPU time of every value;
- the crossing section (--section crossing --crossing y 3 down) gives the closed-form falling
  speed of the period-1 orbit in the column ydot_crossing;
- bad input (unknown parameter, N = 0, three axes, an out-of-range e, an unknown --initial name
  or observable, a --periodic-tol outside [0, 1e-3], a missing or malformed --crossing) exits 2
  with one line naming the option, and writes nothing;
- the outputs are written while the sweep runs: its peak memory (the child's ru_maxrss) grows by
  less than 4 MB from 500 to 2 000 values of 1 001 section values each, where holding the records
  would add 1 500 x 1 001 x 8 B = 12 MB (summary.json's points included; CSV outputs); so does
  the peak of the same 2 000-value sweep resumed after a stop (its journal read, not held);
- with --mpi: `mpirun -np 2 clatter sweep ...` gives the same bytes as one process (both sweeps),
  also over TCP with rendezvous messages, and its progress bar (--progress: drawn on a pipe
  too) counts both ranks' values; a rank slowed to ≈ 1.5 % of a core (taskset, nice 19) runs
  fewer than a quarter of the values (chains dealt to whichever rank asks; dealt c mod 2 it
  ran half), with the same bytes; a 2-rank sweep stopped by the wall-clock limit resumes on 2
  ranks and on 1 process, and one whose rank 1 is killed (SIGKILL) resumes on 2 ranks, with the
  bytes of one uninterrupted process (skipped, exit 77, with --skip WHY: built without MPI, or a
  sanitizer build).
"""
import csv
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
EXAMPLES = os.path.join(ROOT, "examples")
# riding by DOPRI5 steps (no closed-form riding, not DOP853): values slow enough to be cut by a
# wall-clock limit or a killed rank; appended to a scenario whose [simulation] table is last
SLOW_RIDE = "exact_contact = false\nintegrator = \"dopri5\"\n"

BALL = os.path.join(EXAMPLES, "ball_table_period1.toml")
CLATTER = None
MPIEXEC = None
SANITIZED = False

# a small 2-D sweep with every kind of chain: (omega, A), carry-over both ways, two starts
GRID = ["--param", "surface.omega", 3.0, 3.6, 7, "--param", "surface.amplitude", 0.9, 1.0, 2,
        "--carry-over", "both", "--initial", "y=3", "--initial", "y=4.5,ydot=1",
        "--transient-periods", 40, "--record-periods", 10, "--no-plot", "--no-progress"]
DATA = ["bifurcation.csv", "summary.csv"]
# [BP] Fig. 8(a) (the rod, e* = 0.9) where it is chaotic: independent runs, the seeds' diagram
FIG8A = [os.path.join(EXAMPLES, "bp_fig8a.toml"), "--omega", 3.62, 5, 40, "--transient-periods",
         300, "--record-periods", 50, "--no-plot", "--no-progress"]


def run(*args, timeout=300, env=None):
    p = subprocess.run([CLATTER, *map(str, args)], capture_output=True, text=True,
                       timeout=timeout, env=env)
    return p.returncode, p.stdout, p.stderr


def digest(folder, names):
    out = {}
    for name in names:
        with open(os.path.join(folder, name), "rb") as fh:
            out[name] = hashlib.sha256(fh.read()).hexdigest()
    return out


def hdf5_built():
    with tempfile.TemporaryDirectory() as d:
        rc, _, err = run("sweep", BALL, "--omega", 3, 3.1, 2, "--transient-periods", 1,
                         "--record-periods", 1, "--hdf5", "--no-plot", "--out", d)
        return rc == 0


class OmegaSweep(unittest.TestCase):
    def test_columns_of_the_omega_sweep_are_unchanged(self):
        with tempfile.TemporaryDirectory() as d:
            rc, out, err = run("sweep", BALL, "--omega", 3, 3.1, 3, "--continuation",
                               "--transient-periods", 600, "--record-periods", 10, "--out", d,
                               "--no-plot")
            self.assertEqual(rc, 0, err)
            with open(os.path.join(d, "bifurcation.csv")) as fh:
                lines = fh.read().splitlines()
            self.assertEqual(lines[0], "omega,y_apex")
            self.assertEqual(len(lines), 1 + 3 * 10)  # period 1: one apex per period
            with open(os.path.join(d, "summary.csv")) as fh:
                head = fh.readline().strip()
            self.assertEqual(head, "omega,distinct,samples,impacts_per_period,reason,message")
            j = json.loads(out)
            self.assertEqual(j["n"], 3)
            self.assertTrue(j["continuation"])
            self.assertEqual([p["distinct"] for p in j["points"]], [1, 1, 1])
            self.assertFalse([f for f in os.listdir(d) if "partial" in f or "tmp" in f])


    def test_impact_section_gives_the_closed_form_phase(self):
        # ball_table_period1.toml: A = 1, omega = 3, e = 0.9 from rest at y = 3 converges to the
        # period-1 orbit with impact phase 1.38958 ([B] §6.3, printed to 5 digits; the closed
        # form acos(Gamma_SN/Gamma) = 1.389577...): one distinct phase, one impact per period
        with tempfile.TemporaryDirectory() as d:
            rc, out, err = run("sweep", BALL, "--omega", 3, 3, 1, "--section", "impact",
                               "--transient-periods", 600, "--record-periods", 10, "--out", d,
                               "--no-plot", "--no-progress")
            self.assertEqual(rc, 0, err)
            with open(os.path.join(d, "bifurcation.csv")) as fh:
                lines = fh.read().splitlines()
            self.assertEqual(lines[0], "omega,phase_impact")
            self.assertEqual(len(lines), 11)
            self.assertAlmostEqual(float(lines[-1].split(",")[1]), 1.38958, delta=5e-6)
            p = json.loads(out)["points"][0]
            self.assertEqual((p["distinct"], p["impacts_per_period"]), (1, 1.0))
            # the contact by name, as every other option takes contacts (an index was required)
            rc, _, err = run("sweep", BALL, "--omega", 3, 3, 1, "--section", "impact",
                             "--contact", "ball", "--transient-periods", 600, "--record-periods",
                             10, "--out", os.path.join(d, "named"), "--no-plot", "--no-progress")
            self.assertEqual(rc, 0, err)
            with open(os.path.join(d, "named", "bifurcation.csv")) as fh:
                self.assertEqual(fh.read().splitlines(), lines)
            rc, _, err = run("sweep", BALL, "--omega", 3, 3, 1, "--section", "impact",
                             "--contact", "floor", "--out", os.path.join(d, "bad"), "--no-plot")
            self.assertEqual(rc, 2)
            self.assertIn('--contact: no contact "floor" (contacts: ball)', err)


    def test_crossing_section_gives_the_closed_form_falling_speed(self):
        # the same period-1 orbit: apex H = A sin(phi) + g pi^2/(2 omega^2) with cos(phi) =
        # Gamma_SN/Gamma ([B] 6.3 [DERIVED]); the ball falls through y = 3 with ydot =
        # -sqrt(2 g (H - 3)) (energy in free flight), once per period; the engine locates the
        # crossing in the closed-form flight (to round-off): 1e-6 m/s covers the transient
        import math
        g, e, A, w = 9.81, 0.9, 1.0, 3.0
        phi = math.acos(math.pi * (1 - e) / (1 + e) / (A * w * w / g))
        H = A * math.sin(phi) + g * math.pi ** 2 / (2 * w * w)
        with tempfile.TemporaryDirectory() as d:
            rc, out, err = run("sweep", BALL, "--omega", 3, 3, 1, "--section", "crossing",
                               "--crossing", "y", 3, "down", "--observe", "ydot",
                               "--transient-periods", 600, "--record-periods", 10, "--out", d,
                               "--no-plot", "--no-progress")
            self.assertEqual(rc, 0, err)
            with open(os.path.join(d, "bifurcation.csv")) as fh:
                lines = fh.read().splitlines()
            self.assertEqual(lines[0], "omega,ydot_crossing")
            self.assertEqual(len(lines), 11)
            self.assertAlmostEqual(float(lines[-1].split(",")[1]), -math.sqrt(2 * g * (H - 3)),
                                   delta=1e-6)
            self.assertEqual(json.loads(out)["points"][0]["distinct"], 1)


class Clocks(unittest.TestCase):
    # models without a forcing (issue 25 item 5): McGeer's rimless wheel (examples/rimless_wheel,
    # a plugin) swept in its slope, counted in impacts. Closed form (rimless_wheel.cpp): the
    # gait's angular velocity before each impact is -sqrt(w*^2 + K), w*^2 = eta^2 K/(1 - eta^2),
    # K = 4 m g l sin(alpha) sin(slope)/J, eta = (m l^2 cos 2 alpha + I)/J; after 30 impacts a
    # deviation has shrunk by eta^60 < 1e-15
    WHEEL = os.path.join(EXAMPLES, "rimless_wheel", "rimless_wheel.toml")
    ZENO = os.path.join(EXAMPLES, "ball_zeno.toml")

    @staticmethod
    def omega_minus(slope, n=6, m=1.0, I=0.1, l=1.0, g=9.81):
        import math
        a, J = math.pi / n, m * l * l + I
        eta = (m * l * l * math.cos(2 * a) + I) / J
        K = 4 * m * g * l * math.sin(a) * math.sin(slope) / J
        return math.sqrt(eta * eta * K / (1 - eta * eta) + K)

    def test_impacts_clock_gives_the_closed_form_gait(self):
        with tempfile.TemporaryDirectory() as d:
            # slopes where the gait exists (it passes over the top of each step: slope > 0.1573)
            rc, out, err = run("sweep", self.WHEEL, "--param", "slope", 0.18, 0.24, 4, "--section",
                               "impact", "--observe", "thetadot", "--clock", "impacts:spoke1",
                               "--transient", 5, "--record", 2, "--max-time", 100, "--out", d,
                               "--no-plot", "--no-progress")
            self.assertEqual(rc, 0, err)
            summary = json.loads(out)
            self.assertEqual((summary["clock"], summary["clock_contact"]), ("impacts", 1))
            with open(os.path.join(d, "bifurcation.csv")) as fh:
                rows = [tuple(map(float, r.split(","))) for r in fh.read().splitlines()[1:]]
            for slope in (0.18, 0.2, 0.22, 0.24):
                got = [v for p, v in rows if abs(p - slope) < 1e-12]
                # the record holds every spoke's impacts between spoke1's 5th and 7th: 12
                self.assertEqual(len(got), 12, (slope, got))
                for v in got:
                    self.assertAlmostEqual(v, -self.omega_minus(slope), delta=1e-9)
            for p in summary["points"]:
                self.assertEqual((p["reason"], p["message"], p["distinct"]), ("end_time", None, 1))

    def test_a_forcing_frequency_named_by_the_user(self):
        # the mass on a belt whose velocity is U sin(Omega t) (Omega = surface.belt_omega = 2 pi;
        # surface.omega = 0): --frequency names Omega, so the periods clock and the strobe count
        # T = 2 pi / Omega. With U Omega <= 0.38 m/s^2, far below mu_s g = 2.94, the mass sticks
        # after its first slip and moves with the belt, whose velocity at the strobe times t = kT
        # is U sin(2 pi k) = 0: every recorded xdot is 0 (analytic), 5 per value (4 periods).
        ex = os.path.join(EXAMPLES, "ball_belt_stick_slip.toml")
        axis = ["--param", "surface.belt_amplitude", 0.02, 0.06, 3, "--section", "strobe",
                "--observe", "xdot", "--transient", 20, "--record", 4]
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "s")
            rc, _, err = run("sweep", ex, *axis, "--frequency", "surface.belt_omega", "--out", out,
                             "--no-plot")
            self.assertEqual(rc, 0, err)
            with open(os.path.join(out, "bifurcation.csv")) as f:
                rows = list(csv.DictReader(f))
            self.assertEqual(len(rows), 15)
            for r in rows:
                self.assertLess(abs(float(r["xdot_strobe"])), 1e-11, r)
            # without it: refused, and the message says how to name it
            rc, _, err = run("sweep", ex, *axis, "--out", out + "2")
            self.assertEqual(rc, 2, err)
            self.assertIn("--frequency", err)
            self.assertFalse(os.path.exists(out + "2"))
            rc, _, err = run("sweep", ex, *axis, "--frequency", "nosuch", "--out", out + "3")
            self.assertEqual(rc, 2, err)
            self.assertIn("--frequency: unknown parameter \"nosuch\"", err)
            self.assertFalse(os.path.exists(out + "3"))

    def test_an_unforced_model_needs_a_clock(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "s")
            rc, _, err = run("sweep", self.ZENO, "--param", "e", 0.5, 0.8, 4, "--out", out)
            self.assertEqual(rc, 2, err)
            self.assertIn("--clock", err)
            self.assertIn("not forced", err)
            self.assertFalse(os.path.exists(out))
            for args, option in ((["--clock", "impacts:nope"], "--clock"),
                                 (["--clock", "laps"], "--clock"),
                                 (["--clock", "time", "--max-time", 3], "--max-time"),
                                 (["--clock", "time", "--section", "strobe"], "--section"),
                                 (["--clock", "impacts", "--transient", 2.5], "transient")):
                rc, _, err = run("sweep", self.ZENO, "--param", "e", 0.5, 0.8, 4, *args,
                                 "--out", out)
                self.assertEqual(rc, 2, (args, err))
                self.assertIn(option, err)
                self.assertFalse(os.path.exists(out))


class PeriodicShortcut(unittest.TestCase):
    def sweep(self, d, name, *extra):
        out = os.path.join(d, name)
        rc, stdout, err = run("sweep", BALL, "--omega", 3, 3.1, 3, "--continuation",
                              "--transient-periods", 600, "--record-periods", 10, "--out", out,
                              "--no-plot", "--no-progress", *extra)
        self.assertEqual(rc, 0, err)
        with open(os.path.join(out, "bifurcation.csv")) as fh:
            rows = fh.read().splitlines()
        return rows, json.loads(stdout)

    def test_values_equal_the_full_run_after_fewer_periods(self):
        with tempfile.TemporaryDirectory() as d:
            full, jf = self.sweep(d, "full", "--no-periodic-shortcut")
            cut, jc = self.sweep(d, "cut", "--periodic-tol", "1e-10")
            self.assertEqual(jf["periodic_tol"], 0)
            self.assertEqual(jc["periodic_tol"], 1e-10)
            # the default (issue 26 item 3): the shortcut at 1e-10 under the periods clock, the
            # same bytes as asked for explicitly; off under another clock
            default, jd = self.sweep(d, "default")
            self.assertEqual(jd["periodic_tol"], 1e-10)
            self.assertEqual(default, cut)
            self.assertEqual(jd["points"], jc["points"])
            self.assertNotIn("cycle", jf["points"][0])
            self.assertEqual(len(cut), len(full))
            self.assertEqual(cut[0], full[0])
            for a, b in zip(full[1:], cut[1:]):
                wa, ya = map(float, a.split(","))
                wb, yb = map(float, b.split(","))
                self.assertEqual(wa, wb)
                self.assertLessEqual(abs(ya - yb), 1e-9 * abs(ya), (a, b))
            for p in jc["points"]:
                self.assertGreaterEqual(p["cycle"], 1)
                self.assertLess(p["closed_at"], 600)
                self.assertEqual(p["distinct"], 1)
                self.assertLess(p["events"], 600)
                self.assertEqual(p["refused"], 0)  # a stable orbit: shown stable at once
            # without the stability check: the same cycles at the same periods (the replay
            # never touches the run), the same values
            raw, jr = self.sweep(d, "unchecked", "--periodic-tol", "1e-10", "--no-periodic-check")
            self.assertEqual(raw, cut)
            self.assertEqual([p["closed_at"] for p in jr["points"]],
                             [p["closed_at"] for p in jc["points"]])

    def test_default_diagram_equals_the_full_run_value_by_value(self):
        # issue 26 item 3: [BP] Fig. 8(a)'s range, 81 independent values (resting, chattering,
        # periodic, period-doubled and chaotic motions) by default (the shortcut at 1e-10) and
        # in full. A value whose cycle is taken has the full run's record to 1e-9 relative (the
        # tolerance's effect, docs/analysis.md); a value run in full is the full run bit for bit.
        # (A carry-over chain is not compared value by value: a 1e-10 change of a carried state,
        # like a 10 % change of chatter_tol, moves the chain's values after a chaotic window;
        # docs/performance.md measures both.)
        with tempfile.TemporaryDirectory() as d:
            def sweep(name, *extra):
                out = os.path.join(d, name)
                rc, stdout, err = run("sweep", os.path.join(EXAMPLES, "bp_fig8a.toml"), "--omega",
                                      3, 5, 81, "--transient-periods", 1000, "--record-periods",
                                      100, "--out", out, "--no-plot", "--no-progress", *extra)
                self.assertEqual(rc, 0, err)
                rows = {}
                with open(os.path.join(out, "bifurcation.csv")) as fh:
                    for line in fh.read().splitlines()[1:]:
                        w, y = map(float, line.split(","))
                        rows.setdefault(w, []).append(y)
                return rows, {p["omega"]: p for p in json.loads(stdout)["points"]}

            full, pf = sweep("full", "--no-periodic-shortcut")
            default, pd = sweep("default")
            self.assertEqual(sorted(pf), sorted(pd))
            taken = 0
            for w, p in pd.items():
                a, b = full.get(w, []), default.get(w, [])
                self.assertEqual(len(a), len(b), w)
                self.assertEqual(p["distinct"], pf[w]["distinct"], w)
                if p["cycle"] == 0:
                    self.assertEqual(a, b, w)
                else:
                    taken += 1
                    for ya, yb in zip(a, b):
                        self.assertLessEqual(abs(ya - yb), 1e-9 * abs(ya), (w, ya, yb))
            # independent runs from the seeds' drop: 19 values close a cycle (resting, period 1,
            # 2, 3, 4, 6), the chaotic rest runs in full
            self.assertGreater(taken, 10)
            self.assertLess(taken, 81)

    def test_timings_file(self):
        # --timings: one row per value with its CPU time (> 0), events and the shortcut's cycle,
        # beside the deterministic outputs
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.csv")
            self.sweep(d, "timed", "--periodic-tol", "1e-10", "--timings", path)
            with open(path) as fh:
                rows = fh.read().splitlines()
            self.assertEqual(rows[0], "omega,seconds,events,cycle,closed_at,refused")
            self.assertEqual(len(rows), 4)
            for row in rows[1:]:
                w, sec, ev, cyc, at, refused = row.split(",")
                self.assertEqual(int(refused), 0)  # the ball's stable period-1 orbit
                self.assertGreater(float(sec), 0.0)
                self.assertGreater(int(ev), 0)
                self.assertGreaterEqual(int(cyc), 1)
            rc, _, err = run("sweep", BALL, "--omega", 3, 3.1, 3, "--timings",
                             os.path.join(d, "no", "such", "t.csv"), "--out",
                             os.path.join(d, "x"))
            self.assertEqual(rc, 2)
            self.assertIn("--timings", err)
            self.assertFalse(os.path.exists(os.path.join(d, "x")))

    def test_stroboscopic_section(self):
        with tempfile.TemporaryDirectory() as d:
            rows, j = self.sweep(d, "strobe", "--section", "strobe")
            self.assertEqual(rows[0], "omega,y_strobe")
            self.assertEqual(len(rows), 1 + 3 * 11)  # t_record ... t_end, both ends
            self.assertEqual([p["distinct"] for p in j["points"]], [1, 1, 1])


class Deterministic(unittest.TestCase):
    def test_same_bytes_at_one_and_two_threads(self):
        names = DATA + (["sweep.h5"] if hdf5_built() else [])
        extra = ["--hdf5"] if "sweep.h5" in names else []
        with tempfile.TemporaryDirectory() as d:
            res = {}
            for threads in (1, 2):
                out = os.path.join(d, f"t{threads}")
                rc, _, err = run("sweep", BALL, *GRID, *extra, "--threads", threads, "--out", out)
                self.assertEqual(rc, 0, err)
                res[threads] = digest(out, names)
            self.assertEqual(res[1], res[2])
            with open(os.path.join(d, "t1", "summary.csv")) as fh:
                rows = fh.read().splitlines()
            self.assertEqual(rows[0].split(",")[:4], ["omega", "surface.amplitude", "initial",
                                                      "direction"])
            self.assertEqual(len(rows), 1 + 7 * 2 * 2 * 2)

    def test_fig8a_same_bytes_at_one_and_two_threads(self):
        with tempfile.TemporaryDirectory() as d:
            res = {}
            for threads in (1, 2):
                out = os.path.join(d, f"t{threads}")
                rc, _, err = run("sweep", *FIG8A, "--threads", threads, "--out", out)
                self.assertEqual(rc, 0, err)
                res[threads] = digest(out, DATA)
            self.assertEqual(res[1], res[2])


@unittest.skipUnless(os.path.exists("/usr/bin/python3"), "needs Debian's python3")
class Hdf5(unittest.TestCase):
    def test_layout_opens_with_h5py_and_xarray(self):
        if not hdf5_built():
            self.skipTest("clatter was built without HDF5")
        try:
            import h5py
        except ImportError:
            self.skipTest("h5py is not installed (python3-h5py)")
        with tempfile.TemporaryDirectory() as d:
            args = [a for a in GRID if a not in ("--no-plot",)]
            rc, _, err = run("sweep", BALL, *args, "--hdf5", "--out", d)
            self.assertEqual(rc, 0, err)
            self.assertTrue(os.path.getsize(os.path.join(d, "bifurcation.png")) > 10000)
            with h5py.File(os.path.join(d, "sweep.h5"), "r") as f:
                v = f["y_apex"]
                self.assertEqual(v.shape[:3], (7, 2, 4))
                self.assertEqual([dim[0].name for dim in list(v.dims)[:3]],
                                 ["/surface.omega", "/surface.amplitude", "/run"])
                self.assertAlmostEqual(float(f["surface.omega"][6]), 3.6, places=15)
                self.assertEqual(list(f["run_direction"]), [1, -1, 1, -1])
                # the same distinct counts as summary.csv (row order: omega, A, initial, direction)
                with open(os.path.join(d, "summary.csv")) as fh:
                    rows = fh.read().splitlines()[1:]
                flat = [int(r.split(",")[4]) for r in rows]
                self.assertEqual(flat, [int(x) for x in f["distinct"][...].reshape(-1)])
            try:
                import xarray
            except ImportError:
                return
            try:
                ds = xarray.open_dataset(os.path.join(d, "sweep.h5"), engine="h5netcdf")
            except (ValueError, ImportError) as e:
                self.skipTest(f"xarray cannot use h5netcdf here: {e}")
            self.assertIn("surface.omega", ds["y_apex"].dims)
            self.assertEqual(ds["distinct"].dims, ("surface.omega", "surface.amplitude", "run"))


def peak_memory_kb(args):
    """Runs clatter with `args`; returns (exit status, its peak resident memory in KB)."""
    p = subprocess.Popen([CLATTER, *map(str, args)], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    return p.returncode, usage.ru_maxrss


class Streaming(unittest.TestCase):
    def test_memory_does_not_grow_with_the_grid(self):
        if SANITIZED:
            self.skipTest("sanitizer build: freed memory stays in ASan's quarantine (the Release "
                          "build runs this test)")
        # the ball from rest at y = 3 without a transient: 1 001 strobe values per grid value
        args = ["--section", "strobe", "--transient-periods", 0, "--record-periods", 1000,
                "--periodic-tol", "1e-9", "--threads", 2, "--no-plot", "--no-progress"]
        peaks = {}
        for n in (500, 2000):
            with tempfile.TemporaryDirectory() as d:
                rc, peaks[n] = peak_memory_kb(["sweep", BALL, "--omega", 3, 3.6, n, *args,
                                               "--out", d])
                self.assertEqual(rc, 0)
                with open(os.path.join(d, "summary.csv")) as f:
                    rows = f.read().splitlines()[1:]
                self.assertEqual(len(rows), n)
                self.assertTrue(all(r.split(",")[2] == "1001" for r in rows))
        held = 1500 * 1001 * 8 / 1024  # KB the extra records' values would take if held
        self.assertLess(peaks[2000] - peaks[500], 4096, (peaks, held))
        # a resumed sweep reads its journal without holding it (the same bytes as in one go:
        # Resume.*): stopped after 0.3 s of about 0.8 s, then resumed
        with tempfile.TemporaryDirectory() as d:
            grid = ["sweep", BALL, "--omega", 3, 3.6, 2000, *args, "--out", d]
            rc, _ = peak_memory_kb([*grid, "--max-wall-time", 0.3])
            self.assertEqual(rc, 4)
            rc, peaks["resumed"] = peak_memory_kb([*grid, "--resume"])
            self.assertEqual(rc, 0)
        self.assertLess(peaks["resumed"] - peaks[500], 4096, peaks)


class Resume(unittest.TestCase):
    # ~2.4 s in all: the ball rests on the table (sustained contact, the slow values) up to
    # ω ≈ 3.13 (Γ = Aω²/g = 1), then lifts off and bounces. Resting is integrated by Runge-Kutta
    # steps (exact_contact = false) so that the sweep lasts long enough to be cut; in closed form
    # it would take a few milliseconds.
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        with open(BALL) as fh:
            text = fh.read()
        assert text.rstrip().splitlines()[-3] == "[simulation]"  # the last table
        cls.BALL = os.path.join(cls.tmp.name, "ball_table_period1.toml")
        with open(cls.BALL, "w") as fh:
            fh.write(text + SLOW_RIDE)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    # every value in full: with the periodic shortcut (the default) each would end in a few
    # periods, too soon to be cut
    ARGS = ["--omega", 2.9, 3.4, 11, "--carry-over", "up", "--transient-periods", 300,
            "--record-periods", 20, "--threads", 1, "--no-plot", "--no-progress",
            "--no-periodic-shortcut"]

    def reference(self, d):
        out = os.path.join(d, "ref")
        rc, _, err = run("sweep", self.BALL, *self.ARGS, "--out", out)
        self.assertEqual(rc, 0, err)
        return digest(out, DATA)

    def test_wall_time_limit_then_resume_gives_the_same_bytes(self):
        with tempfile.TemporaryDirectory() as d:
            ref = self.reference(d)
            out = os.path.join(d, "cut")
            rc, _, err = run("sweep", self.BALL, *self.ARGS, "--out", out, "--max-wall-time", 0.4)
            self.assertEqual(rc, 4, err)
            self.assertIn("--resume", err)
            self.assertEqual(sorted(os.listdir(out)), ["sweep-checkpoint.r0.partial"])
            rc, _, err = run("sweep", self.BALL, *self.ARGS, "--out", out)
            self.assertEqual(rc, 2)
            self.assertIn("--resume", err)
            for k in range(30):  # as many rounds as it takes, longer each time (slow builds)
                rc, _, err = run("sweep", self.BALL, *self.ARGS, "--out", out, "--resume",
                                 "--max-wall-time", 0.5 * 1.3 ** k)
                if rc != 4:
                    break
            self.assertEqual(rc, 0, err)
            self.assertEqual(digest(out, DATA), ref)
            self.assertFalse([f for f in os.listdir(out) if "partial" in f])

    def start_until_journalled(self, out):
        """Starts the sweep into `out`; returns (process, journal) once 2 values are journalled."""
        p = subprocess.Popen([CLATTER, "sweep", self.BALL, *map(str, self.ARGS), "--out", out],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        journal = os.path.join(out, "sweep-checkpoint.r0.partial")
        deadline = time.time() + 60
        while time.time() < deadline:
            if os.path.exists(journal):
                with open(journal) as fh:
                    if len(fh.read().splitlines()) >= 3:
                        break
            time.sleep(0.01)
        return p, journal

    def test_sigint_then_resume_gives_the_same_bytes(self):
        with tempfile.TemporaryDirectory() as d:
            ref = self.reference(d)
            out = os.path.join(d, "cut")
            p, journal = self.start_until_journalled(out)
            p.send_signal(signal.SIGINT)
            p.wait(timeout=60)
            self.assertEqual(p.returncode, -signal.SIGINT)
            self.assertEqual(sorted(os.listdir(out)), ["sweep-checkpoint.r0.partial"])
            # a line cut in half by a crash is ignored
            with open(journal, "a") as fh:
                fh.write("R 10 0 0 1 2 0x1p+0 3")
            rc, _, err = run("sweep", self.BALL, *self.ARGS, "--out", out, "--resume")
            self.assertEqual(rc, 0, err)
            self.assertEqual(digest(out, DATA), ref)

    def test_sigkill_then_resume_gives_the_same_bytes_and_removes_the_temporaries(self):
        # a crash: no handler runs, so the outputs' temporaries (written while the sweep runs)
        # stay; the resumed run removes them (their process is gone) and commits its own
        with tempfile.TemporaryDirectory() as d:
            ref = self.reference(d)
            out = os.path.join(d, "cut")
            p, _ = self.start_until_journalled(out)
            p.kill()
            p.wait(timeout=60)
            self.assertEqual(p.returncode, -signal.SIGKILL)
            left = sorted(os.listdir(out))
            self.assertIn(f"bifurcation.tmp-{p.pid}.csv", left)
            self.assertNotIn("bifurcation.csv", left)  # nothing that looks complete
            rc, _, err = run("sweep", self.BALL, *self.ARGS, "--out", out, "--resume")
            self.assertEqual(rc, 0, err)
            self.assertEqual(digest(out, DATA), ref)
            self.assertEqual(sorted(os.listdir(out)), ["bifurcation.csv", "summary.csv",
                                                       "summary.json"])

    def test_resume_refuses_another_sweeps_checkpoint(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "cut")
            rc, _, err = run("sweep", self.BALL, *self.ARGS, "--out", out, "--max-wall-time", 0.2)
            self.assertEqual(rc, 4, err)
            other = [a if a != 300 else 299 for a in self.ARGS]
            rc, _, err = run("sweep", self.BALL, *other, "--out", out, "--resume")
            self.assertEqual(rc, 2)
            self.assertIn("another sweep", err)


class BadInput(unittest.TestCase):
    def check(self, args, option):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "s")
            rc, stdout, err = run("sweep", BALL, *args, "--out", out)
            self.assertEqual(rc, 2, err)
            self.assertEqual(len(err.strip().splitlines()), 1, err)
            self.assertIn(option, err)
            self.assertFalse(os.path.exists(out))
            return err

    def test_refused_with_the_option_named(self):
        err = self.check(["--param", "no_such", 1, 2, 3], "--param")
        self.assertIn("surface.omega", err)  # lists the known names
        self.check(["--param", "e", 0.5, 0.9, 0], "--param")
        self.check(["--param", "e", 0.5, 1.5, 3], "--param")  # e in [0, 1]
        self.check(["--omega", 3, 4, 3, "--param", "e", 0.5, 0.9, 2, "--param", "surface.amplitude",
                    1, 2, 2], "--param")
        self.check(["--omega", 3, 4, 3, "--initial", "z=1"], "--initial")
        self.check(["--omega", 3, 4, 3, "--observe", "phase"], "--observe")
        self.check(["--omega", 3, 4, 3, "--carry-over", "sideways"], "--carry-over")
        self.check(["--omega", 3, 4, 3, "--max-wall-time", -1], "--max-wall-time")
        self.check(["--omega", 3, 4, 3, "--periodic-tol", 1], "--periodic-tol")
        self.check(["--omega", 3, 4, 3, "--periodic-tol", 0, "--no-periodic-check"],
                   "--no-periodic-check")
        self.check(["--omega", 3, 4, 3, "--no-periodic-shortcut", "--no-periodic-check"],
                   "--no-periodic-check")
        self.check(["--omega", 3, 4, 3, "--no-periodic-shortcut", "--periodic-tol", 1e-9],
                   "--no-periodic-shortcut")
        self.check(["--omega", 3, 4, 3, "--periodic-tol", "nan"], "--periodic-tol")
        self.check(["--omega", 3, 4, 3, "--periodic-tol", -1e-9], "--periodic-tol")
        self.check(["--omega", 3, 4, 3, "--section", "strobe", "--observe", "phase"], "--observe")
        self.check(["--omega", 3, 4, 3, "--section", "crossing"], "--crossing")
        err = self.check(["--omega", 3, 4, 3, "--section", "crossing", "--crossing", "z", 1],
                         "--crossing")
        self.assertIn("theta", err)  # lists the coordinates
        self.check(["--omega", 3, 4, 3, "--section", "crossing", "--crossing", "y", "high"],
                   "--crossing")
        self.check(["--omega", 3, 4, 3, "--section", "crossing", "--crossing", "y", 1, "sideways"],
                   "--crossing")
        self.check(["--omega", 3, 4, 3, "--crossing", "y", 1], "--crossing")  # not the section
        self.check([], "--omega")


MPI_ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1")


def mpirun(*commands, timeout=300):
    """`mpirun` of one rank per command (MPMD: `-np 1 A : -np 1 B ...`), not bound to cores."""
    args = [MPIEXEC, "--oversubscribe", "--bind-to", "none"]
    for k, c in enumerate(commands):
        args += ([":"] if k else []) + ["-np", "1", *map(str, c)]
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout, env=MPI_ENV)


def ran_by_rank(stderr):
    """The values each rank ran ("clatter: sweep: values run by rank: 120 80")."""
    for line in stderr.splitlines():
        if "values run by rank:" in line:
            return [int(x) for x in line.split(":")[-1].split()]
    return None


class Mpi(unittest.TestCase):
    def setUp(self):
        if MPIEXEC is None:
            self.skipTest("clatter was built without MPI")

    def test_a_slow_rank_runs_fewer_values(self):
        # rank 1 shares rank 0's core at nice 19 (≈ 1.5 % of it): dealt chains in order to whoever
        # asks, it runs a few; dealt statically (chain c to rank c mod 2) it would run half, and
        # the sweep would last as long as its half. The bytes are those of one process.
        if shutil.which("taskset") is None or shutil.which("nice") is None:
            self.skipTest("taskset or nice missing (util-linux, coreutils)")
        args = [*FIG8A[:4], 400, *FIG8A[5:], "--threads", 1]  # 400 chaotic values
        with tempfile.TemporaryDirectory() as d:
            one, two = os.path.join(d, "one"), os.path.join(d, "two")
            rc, _, err = run("sweep", *args, "--out", one)
            self.assertEqual(rc, 0, err)
            command = [CLATTER, "sweep", *args, "--out", two]
            p = mpirun(["taskset", "-c", 0, *command],
                       ["taskset", "-c", 0, "nice", "-n", 19, *command])
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(digest(one, DATA), digest(two, DATA))
            ran = ran_by_rank(p.stderr)
            self.assertIsNotNone(ran, p.stderr)
            self.assertEqual(sum(ran), 400, ran)
            self.assertLess(ran[1], 400 // 4, ran)

    def test_resume_on_two_ranks_and_on_one(self):
        # the ball resting by Runge-Kutta steps (slow values, as Resume), independent runs dealt
        # to 2 ranks, stopped by the wall-clock limit; resumed on 2 ranks, and on 1 process from
        # a 2-rank journal: each chain goes on wherever it is dealt, from any rank's journal
        base = tempfile.TemporaryDirectory()
        self.addCleanup(base.cleanup)
        ball = os.path.join(base.name, "ball.toml")
        with open(BALL) as f, open(ball, "w") as g:
            g.write(f.read() + SLOW_RIDE)  # [simulation] is its last table
        args = [ball, "--omega", 2.9, 3.4, 11, "--transient-periods", 300, "--record-periods",
                20, "--threads", 1, "--no-plot", "--no-progress", "--no-periodic-shortcut"]
        rc, _, err = run("sweep", *args, "--out", os.path.join(base.name, "ref"))
        self.assertEqual(rc, 0, err)
        ref = digest(os.path.join(base.name, "ref"), DATA)
        for last in ("two ranks", "one process"):
            with self.subTest(last), tempfile.TemporaryDirectory() as d:
                command = [CLATTER, "sweep", *args, "--out", d]
                p = mpirun(command + ["--max-wall-time", 0.3], command + ["--max-wall-time", 0.3])
                self.assertEqual(p.returncode, 4, p.stderr)
                journals = sorted(f for f in os.listdir(d) if "partial" in f)
                self.assertEqual(journals, ["sweep-checkpoint.r0.partial",
                                            "sweep-checkpoint.r1.partial"])
                for k in range(30):  # as many rounds as it takes, longer each time
                    limit = ["--resume", "--max-wall-time", 0.4 * 1.3 ** k]
                    if last == "one process":
                        rc, _, err = run(*command[1:], *limit)
                    else:
                        p = mpirun(command + limit, command + limit)
                        rc, err = p.returncode, p.stderr
                    if rc != 4:
                        break
                self.assertEqual(rc, 0, err)
                self.assertEqual(digest(d, DATA), ref)
                self.assertFalse([f for f in os.listdir(d) if "partial" in f])

    def test_a_crashed_rank_then_resume_gives_the_bytes_of_one_process(self):
        # rank 1 killed by SIGKILL mid-sweep (`timeout -s KILL`, its parent, exits 137): mpirun
        # ends the job, rank 0 included; --resume on 2 ranks finishes it from both journals
        if shutil.which("timeout") is None:
            self.skipTest("timeout missing (coreutils)")
        base = tempfile.TemporaryDirectory()
        self.addCleanup(base.cleanup)
        ball = os.path.join(base.name, "ball.toml")
        with open(BALL) as f, open(ball, "w") as g:
            g.write(f.read() + SLOW_RIDE)  # slow values, as Resume
        args = [ball, "--omega", 2.9, 3.4, 11, "--transient-periods", 300, "--record-periods",
                20, "--threads", 1, "--no-plot", "--no-progress", "--no-periodic-shortcut"]
        rc, _, err = run("sweep", *args, "--out", os.path.join(base.name, "ref"))
        self.assertEqual(rc, 0, err)
        with tempfile.TemporaryDirectory() as d:
            command = [CLATTER, "sweep", *args, "--out", d]
            p = mpirun(command, ["timeout", "-s", "KILL", 0.4, *command])
            self.assertNotEqual(p.returncode, 0, p.stderr)
            self.assertFalse([f for f in os.listdir(d) if not f.endswith(".partial")],
                             os.listdir(d))  # nothing that looks complete
            p = mpirun(command + ["--resume"], command + ["--resume"])
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(digest(d, DATA), digest(os.path.join(base.name, "ref"), DATA))
            self.assertEqual(sorted(os.listdir(d)), ["bifurcation.csv", "summary.csv",
                                                     "summary.json"])

    def test_two_ranks_give_the_bytes_of_one_process(self):
        env = MPI_ENV
        names = DATA + (["sweep.h5"] if hdf5_built() else [])
        extra = ["--hdf5"] if "sweep.h5" in names else []
        # values stopped by max_events carry their messages (text) from rank 1 to rank 0
        base = tempfile.TemporaryDirectory()
        self.addCleanup(base.cleanup)
        stopped = os.path.join(base.name, "ball_max_events.toml")
        with open(BALL) as f, open(stopped, "w") as g:
            g.write(f.read() + "max_events = 30\n")  # [simulation] is its last table
        short = [stopped, "--omega", 3, 4, 5, "--transient-periods", 40, "--record-periods", 10,
                 "--no-plot", "--no-progress"]
        for args in ([BALL, *GRID, *extra], FIG8A, short):
            with tempfile.TemporaryDirectory() as d:
                one = os.path.join(d, "one")
                rc, _, err = run("sweep", *args, "--threads", 1, "--out", one)
                self.assertEqual(rc, 0, err)
                two = os.path.join(d, "two")
                p = subprocess.run([MPIEXEC, "-np", "2", "--oversubscribe", CLATTER, "sweep",
                                    *map(str, args), "--threads", "1", "--out", two],
                                   capture_output=True, text=True, timeout=300, env=env)
                self.assertEqual(p.returncode, 0, p.stderr)
                self.assertIn("2 MPI ranks", p.stderr)  # not two separate one-process sweeps
                files = names if "--hdf5" in args else DATA
                self.assertEqual(digest(one, files), digest(two, files))
                self.assertEqual(json.loads(p.stdout)["failed"], 0)  # one JSON: rank 0's
                if args is short:
                    with open(os.path.join(two, "summary.csv")) as f:
                        self.assertIn('"stopped after max_events = 30 events at t = ', f.read())
        # the transport between machines (TCP), messages above 4 KB sent by rendezvous: rank 0
        # receives them without blocking while rank 1 computes (MPI_Imrecv)
        with tempfile.TemporaryDirectory() as d:
            one, two = os.path.join(d, "one"), os.path.join(d, "two")
            rc, _, err = run("sweep", *FIG8A, "--threads", 1, "--out", one)
            self.assertEqual(rc, 0, err)
            p = subprocess.run([MPIEXEC, "-np", "2", "--oversubscribe", "--mca", "btl", "tcp,self",
                                "--mca", "btl_tcp_eager_limit", "4096", CLATTER, "sweep",
                                *map(str, FIG8A), "--threads", "1", "--out", two],
                               capture_output=True, text=True, timeout=300, env=env)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(digest(one, DATA), digest(two, DATA))
        # --progress draws the bar on a pipe too: rank 0 counts every rank's values
        with tempfile.TemporaryDirectory() as d:
            args = [a if a != "--no-progress" else "--progress" for a in short]
            p = subprocess.run([MPIEXEC, "-np", "2", "--oversubscribe", CLATTER, "sweep",
                                *map(str, args), "--threads", "1", "--out", d],
                               capture_output=True, text=True, timeout=300, env=env)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("] 5/5 values", p.stderr)


if __name__ == "__main__":
    CLATTER = os.path.abspath(sys.argv[1])
    argv = [sys.argv[0]] + sys.argv[2:]
    if "--mpi" in argv:
        i = argv.index("--mpi")
        MPIEXEC = argv[i + 1]
        del argv[i:i + 2]
        argv += ["Mpi"]
    elif "--skip" in argv:
        print("SKIPPED: sweep_mpi_tests: " + argv[argv.index("--skip") + 1])
        sys.exit(77)
    else:
        if "--sanitized" in argv:  # ASan's quarantine keeps freed memory: no peak to compare
            argv.remove("--sanitized")
            SANITIZED = True
        # every class but Mpi (a list written out once left PeriodicShortcut out for a while)
        argv += [name for name, c in list(globals().items())
                 if isinstance(c, type) and issubclass(c, unittest.TestCase) and name != "Mpi"]
    unittest.main(argv=argv, verbosity=2)
