#!/usr/bin/python3
"""Tests of the sweep's plot (python/clatter_plots/sweep.py, sweep_data.py, pixel_raster.py).

Usage: /usr/bin/python3 tests/cli/test_sweep_plot.py PATH/TO/clatter [--sanitized]

Asserted:
- every section value is drawn where matplotlib puts that point: on a synthetic diagram of 600
  random points, the drawn figure's pixel at ax.transData.transform((x, y)) (matplotlib's own
  transform, independent of the raster's arithmetic) is black to within one pixel, and the black
  pixels inside the axes are those points' pixels and no others: their count equals the number
  of distinct pixels the points fall in to 2 % + 2 (the axes' box is rounded to whole pixels);
- PixelRaster against a point-by-point loop with exact rational arithmetic (fractions), random
  points over and beyond the limits, the view's corners and NaN included (at most 2 of 97 x 61
  pixels may differ: a point within round-off of a pixel edge);
- the CSV and HDF5 outputs of one sweep (the ball, carry-over both ways, two initial states) give
  the same PNG bytes: 1-D (four runs) and a 2-D grid;
- memory: the peak resident memory of sweep.py on 200 points x 10 000 section values (2e6 rows)
  stays within 16 MB of that on 200 x 1 000 (the earlier reader held every row as Python lists:
  +500 MB);
- bad input (a malformed row, the data file's columns not those of the summary, no --summary)
  exits 2 with one line (naming the file, or the missing option), and writes no PNG.
"""
import fractions
import math
import os
import random
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PLOTS = os.path.join(ROOT, "python", "clatter_plots")
SCRIPT = os.path.join(PLOTS, "sweep.py")
BALL = os.path.join(ROOT, "examples", "ball_table_period1.toml")
sys.path.insert(0, PLOTS)

import numpy as np  # noqa: E402

import sweep  # noqa: E402
from pixel_raster import PixelRaster  # noqa: E402
from sweep_data import read_csv  # noqa: E402

CLATTER = None
SANITIZED = False


def write_sweep_csv(folder, omegas, samples_per_point, seed=1):
    """A 1-D diagram: `samples_per_point` section values y at each omega; returns the two paths."""
    rng = np.random.default_rng(seed)
    data = os.path.join(folder, "bifurcation.csv")
    summary = os.path.join(folder, "summary.csv")
    with open(data, "w") as fh:
        fh.write("omega,y_apex\n")
        for w in omegas:
            y = rng.uniform(-1.0, 40.0, samples_per_point)
            np.savetxt(fh, np.column_stack([np.full(len(y), w), y]), fmt="%.12g",
                       delimiter=",")
    with open(summary, "w") as fh:
        fh.write("omega,distinct,samples,impacts_per_period,reason,message\n")
        for w in omegas:
            fh.write(f"{w:.12g},-1,{samples_per_point},1.5,end_time,\n")
    return data, summary


def run_script(*args):
    p = subprocess.run(["/usr/bin/python3", SCRIPT, *map(str, args)], capture_output=True,
                       text=True, timeout=300)
    return p.returncode, p.stderr


def peak_memory_kb(args):
    p = subprocess.Popen(["/usr/bin/python3", SCRIPT, *map(str, args)],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    return p.returncode, usage.ru_maxrss


class Pixels(unittest.TestCase):
    def drawn_against_points(self, omegas, per_point, dot):
        """Draws a diagram; checks each value is black at matplotlib's own pixel for it and the
        black pixels inside the axes are the points' (2 dot + 1)² squares and nothing else."""
        with tempfile.TemporaryDirectory() as d:
            data, summary = write_sweep_csv(d, omegas, per_point)
            fig = sweep.one_parameter(read_csv(data, summary), "")
            ax = fig.axes[0]
            fig.canvas.draw()
            rgba = np.asarray(fig.canvas.buffer_rgba())[..., :3].astype(int)
            height = rgba.shape[0]
            black = (rgba.sum(axis=2) == 0)
            pts = np.loadtxt(data, delimiter=",", skiprows=1)
            disp = ax.transData.transform(pts)
            cols = np.floor(disp[:, 0]).astype(int)
            rows = height - 1 - np.floor(disp[:, 1]).astype(int)
            for c, r in zip(cols, rows):
                self.assertTrue(black[r - 1:r + 2, c - 1:c + 2].any(), (c, r))
            # black pixels inside the axes (spines excluded): the points' squares only
            box = ax.get_window_extent()
            c0, c1 = int(math.ceil(box.x0)) + 2, int(math.floor(box.x1)) - 2
            r0, r1 = height - int(math.floor(box.y1)) + 2, height - int(math.ceil(box.y0)) - 2
            inside = black[r0:r1, c0:c1].sum()
            squares = {(c + i, r + j) for c, r in zip(cols, rows)
                       for i in range(-dot, dot + 1) for j in range(-dot, dot + 1)}
            expected = len({(c, r) for c, r in squares if c0 <= c < c1 and r0 <= r < r1})
            # the axes' box is rounded to whole pixels: a square may shift by one at an edge
            self.assertLessEqual(abs(int(inside) - expected), 0.04 * expected + 2,
                                 (inside, expected))
            print(f"\n  {len(pts)} points, {expected} pixels expected; {inside} black pixels "
                  "drawn", file=sys.stderr)
            return expected

    def test_each_value_is_drawn_at_matplotlibs_pixel_and_nothing_else(self):
        # a dense sweep (more values than a quarter of the ~1000 pixel columns): one pixel each
        self.assertGreater(self.drawn_against_points(np.linspace(3.0, 5.0, 400), 3, 0), 500)

    def test_a_sparse_sweep_draws_visible_dots(self):
        # [issue 27]: 40 values drawn as single pixels were invisible; fewer values than a
        # quarter of the columns are 3 x 3 dots
        self.assertGreater(self.drawn_against_points(np.linspace(3.0, 5.0, 40), 15, 1), 4000)

    def test_raster_against_exact_arithmetic(self):
        rnd = random.Random(7)
        xlim, ylim, w, h = (2.9, 5.1), (-3.0, 41.5), 97, 61
        r = PixelRaster(xlim, ylim, w, h)
        xs = [rnd.uniform(2.5, 5.5) for _ in range(3000)] + [2.9, 5.1, 2.9, 5.1, float("nan")]
        ys = [rnd.uniform(-5.0, 45.0) for _ in range(3000)] + [-3.0, 41.5, 41.5, -3.0, 1.0]
        r.add(np.array(xs), np.array(ys))
        want = np.zeros((h, w), dtype=bool)
        F = fractions.Fraction
        for x, y in zip(xs, ys):
            if math.isnan(x) or not (xlim[0] <= x <= xlim[1] and ylim[0] <= y <= ylim[1]):
                continue
            i = min(math.floor((F(x) - F(xlim[0])) / (F(xlim[1]) - F(xlim[0])) * w), w - 1)
            j = min(math.floor((F(y) - F(ylim[0])) / (F(ylim[1]) - F(ylim[0])) * h), h - 1)
            want[j, i] = True
        # floating point may put a point within 1e-12 of a pixel edge on the other side
        differ = np.argwhere(r.mask != want)
        self.assertLessEqual(len(differ), 2, differ)
        self.assertTrue(r.mask[0, 0] and r.mask[h - 1, w - 1])
        self.assertGreater(want.sum(), 1000)

    def test_raster_refuses_an_empty_view(self):
        with self.assertRaises(ValueError):
            PixelRaster((1.0, 1.0), (0.0, 1.0), 10, 10)
        with self.assertRaises(ValueError):
            PixelRaster((0.0, 1.0), (0.0, 1.0), 0, 10)


class Sources(unittest.TestCase):
    def hdf5_sweep(self, folder, grid):
        args = ["sweep", BALL, *grid, "--transient-periods", 40, "--record-periods", 10,
                "--carry-over", "both", "--initial", "y=3", "--initial", "y=4.5,ydot=1",
                "--hdf5", "--no-plot", "--no-progress", "--out", folder]
        p = subprocess.run([CLATTER, *map(str, args)], capture_output=True, text=True,
                           timeout=300)
        if p.returncode != 0 and "HDF5" in p.stderr:
            self.skipTest("clatter was built without HDF5")
        self.assertEqual(p.returncode, 0, p.stderr)
        try:
            import h5py  # noqa: F401
        except ImportError:
            self.skipTest("h5py is not installed (python3-h5py)")

    def test_csv_and_hdf5_give_the_same_png(self):
        grids = {"1-D": ["--param", "surface.omega", 3.0, 3.6, 7],
                 "2-D": ["--param", "surface.omega", 3.0, 3.6, 7,
                         "--param", "surface.amplitude", 0.9, 1.0, 2]}
        for name, grid in grids.items():
            with self.subTest(name), tempfile.TemporaryDirectory() as d:
                self.hdf5_sweep(d, grid)
                a, b = os.path.join(d, "csv.png"), os.path.join(d, "h5.png")
                rc, err = run_script("--data", os.path.join(d, "bifurcation.csv"), "--summary",
                                     os.path.join(d, "summary.csv"), "--out", a)
                self.assertEqual(rc, 0, err)
                rc, err = run_script("--hdf5", os.path.join(d, "sweep.h5"), "--out", b)
                self.assertEqual(rc, 0, err)
                with open(a, "rb") as fa, open(b, "rb") as fb:
                    self.assertTrue(fa.read() == fb.read(), name)


class Memory(unittest.TestCase):
    def test_peak_does_not_grow_with_the_section_values(self):
        if SANITIZED:
            self.skipTest("sanitizer build (the Release build runs this test)")
        peaks = {}
        for n in (1000, 10000):
            with tempfile.TemporaryDirectory() as d:
                data, summary = write_sweep_csv(d, np.linspace(3.0, 5.0, 200), n)
                out = os.path.join(d, "p.png")
                rc, peaks[n] = peak_memory_kb(["--data", data, "--summary", summary,
                                               "--out", out])
                self.assertEqual(rc, 0)
                self.assertTrue(os.path.getsize(out) > 10000)
        # 1.8e6 more rows: held as two float arrays alone they would add 28 MB
        print(f"\n  peak resident memory (KB) by section values per point: {peaks}",
              file=sys.stderr)
        self.assertLess(peaks[10000] - peaks[1000], 16 * 1024, peaks)


class BadInput(unittest.TestCase):
    def assert_refused(self, args, word):
        """Exit 2, one line on stderr holding `word`, and no PNG."""
        out = os.path.join(os.path.dirname(args[1]), "p.png")
        rc, err = run_script(*args, "--out", out)
        self.assertEqual(rc, 2, err)
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        self.assertIn(word, err)
        self.assertFalse(os.path.exists(out))

    def test_refused_with_the_file_named(self):
        with tempfile.TemporaryDirectory() as d:
            data, summary = write_sweep_csv(d, [3.0, 3.5], 4)
            other = os.path.join(d, "other.csv")
            with open(other, "w") as fh:
                fh.write("amplitude,y_apex\n1,2\n")
            self.assert_refused(["--data", other, "--summary", summary], "other.csv")
            self.assert_refused(["--data", data], "--summary")
            with open(data, "a") as fh:
                fh.write("3.5,1.0,7\n")  # three fields under a header of two
            self.assert_refused(["--data", data, "--summary", summary], "bifurcation.csv")


def main():
    global CLATTER, SANITIZED
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    CLATTER = args.pop(0)
    SANITIZED = "--sanitized" in args
    unittest.main(argv=[sys.argv[0]], verbosity=2)


if __name__ == "__main__":
    main()
