"""Sweeps and periodic orbits from Python, side by side with the CLI.

Expected values: `clatter sweep` (bifurcation.csv, summary.csv) and `clatter orbits` (branches.csv,
bifurcations.csv, summary.json) on the same inputs. The CSV files hold 12 significant digits, so
the Python numbers are printed the way the CLI prints them (%.12g, "inf") and the texts must be
identical; the orbits' summary.json holds the bifurcation points at full precision and is
compared bit for bit; counts, stop reasons and kinds are compared exactly. The sweep is also run twice from Python
(threads 1 and 2: bit for bit, as the library promises identical rows).
"""
import os

import numpy as np
import pytest

import clatter
from conftest import read_csv, read_json


def cli_text(x):
    """A number as the CLI writes it (ostream precision 12, default format)."""
    if np.isinf(x):
        return "inf" if x > 0 else "-inf"
    return "%.12g" % x


@pytest.mark.parametrize("continuation", [False, True])
def test_sweep_equals_cli(cli, examples, tmp_path, continuation):
    path = os.path.join(examples, "bp_fig8a.toml")
    cli("sweep", path, "--omega", 4.0, 4.4, 3, "--transient-periods", 20, "--record-periods", 10,
        "--no-plot", "--out", tmp_path, *(["--continuation"] if continuation else []))
    sc = clatter.load_scenario(path)
    bif, summary = clatter.sweep(sc, (4.0, 4.4, 3), transient_periods=20, record_periods=10,
                                 continuation=continuation)
    rows = read_csv(tmp_path / "bifurcation.csv")
    assert len(rows) == len(bif["omega"]) > 3
    assert [(r["omega"], r["y_apex"]) for r in rows] == \
        [(cli_text(w), cli_text(y)) for w, y in zip(bif["omega"], bif["y_apex"])]
    table = read_csv(tmp_path / "summary.csv")
    assert [r["omega"] for r in table] == [cli_text(w) for w in summary["omega"]]
    assert [int(r["distinct"]) for r in table] == list(summary["distinct"])
    assert [int(r["samples"]) for r in table] == list(summary["samples"])
    assert [r["reason"] for r in table] == list(summary["reason"])
    assert [r["message"] for r in table] == list(summary["message"])
    if continuation:
        return
    # the same sweep on one thread, and by the older analysis::sweep_omega (an independent
    # implementation without the periodic shortcut, which finds no cycle in these chaotic values
    # after 20 periods): identical (bit for bit)
    bif1, _ = clatter.sweep(sc, (4.0, 4.4, 3), transient_periods=20, record_periods=10, threads=1)
    np.testing.assert_array_equal(bif1["y_apex"], bif["y_apex"])
    init = sc.initial
    raw = clatter._clatter._sweep_omega(sc.model, init["t"], init["q"], init["qd"], sc.options,
                                        4.0, 4.4, 3, 20.0, 10.0, False, 2)
    np.testing.assert_array_equal(raw["bifurcation"]["y_apex"], bif["y_apex"])
    np.testing.assert_array_equal(raw["bifurcation"]["omega"], bif["omega"])


def assert_orbit_csvs_equal(r, tmp_path):
    """branches.csv and bifurcations.csv against the Python columns, as the CLI prints them."""
    rows = read_csv(tmp_path / "branches.csv")
    b = r["branches"]
    assert len(rows) == len(b["omega"]) > 10
    for name in rows[0]:
        assert [row[name] for row in rows] == \
            [cli_text(x) if b[name].dtype.kind == "f" else str(x) for x in b[name]], name
    bifs = read_csv(tmp_path / "bifurcations.csv")
    f = r["bifurcations"]
    assert len(bifs) == len(f["omega"])
    for name in bifs[0]:
        expected = [("" if np.isnan(x) else cli_text(x)) if isinstance(x, float) else str(x)
                    for x in f[name]]
        assert [row[name] for row in bifs] == expected, name


def test_orbit_branch_equals_cli(cli, tmp_path):
    cli("orbits", "--e", 0.7, "--no-plot", "--out", tmp_path)
    r = clatter.orbit_branch(0.7)
    assert_orbit_csvs_equal(r, tmp_path)
    b = r["branches"]
    # summary.json has the bifurcations at full precision: bit for bit there
    entry = read_json(tmp_path / "summary.json")["restitutions"][0]
    assert entry["start_omega"] == r["start_omega"]
    assert (entry["end_high"], entry["end_low"]) == (r["end_high"], r["end_low"])
    assert entry["points"] == len(b["omega"])
    found = r["bifurcations"]
    assert len(entry["bifurcations"]) == len(found["omega"]) == 3  # grazing, SN, PD for e = 0.7
    for i, j in enumerate(entry["bifurcations"]):
        assert j["kind"] == found["kind"][i]
        for key in ("omega", "phase", "velocity", "apex_max"):
            assert j[key] == found[key][i], key
        assert j["multipliers"] == [found["lambda1"][i], found["lambda2"][i]]


def test_closed_form_orbit_and_bad_input():
    # expected: Gamma_SN = n pi (1 - e)/(1 + e) (impact_oscillator.hpp), so omega_SN =
    # sqrt(g Gamma_SN / A); to 1e-12 relative
    c = clatter.closed_form_orbit(1.0, 3.0, 9.81, 0.7, 1)
    assert abs(c["omega_sn"] - np.sqrt(9.81 * np.pi * 0.3 / 1.7)) < 1e-12 * c["omega_sn"]
    with pytest.raises(ValueError, match="^e: each restitution must lie in"):  # as `orbits --e`
        clatter.orbit_branch(1.5)
    fig8a = clatter.load_scenario(os.path.join(os.path.dirname(__file__), "..", "..",
                                               "examples", "bp_fig8a.toml"))
    with pytest.raises(ValueError, match="^n: must lie in"):
        clatter.sweep(fig8a, (4.0, 4.4, 0))
    # a bad simulation option is one error before any value runs, not a row of errors per value
    with pytest.raises(ValueError, match="^bogus: unknown simulation option"):
        clatter.sweep(fig8a, (4.0, 4.4, 3), transient_periods=2, record_periods=2, bogus=1)
    with pytest.raises(ValueError, match="^rel_tol: must be > 0"):
        clatter.sweep(fig8a, (4.0, 4.4, 3), transient_periods=2, record_periods=2, rel_tol=-1.0)


def test_cascade_and_shooting_equal_cli(cli, tmp_path):
    # expected: `clatter orbits --e 0.7 --cascade 2`'s summary.json cascade levels (full
    # precision): bit for bit
    cli("orbits", "--e", 0.7, "--cascade", 2, "--no-plot", "--out", tmp_path)
    levels = read_json(tmp_path / "summary.json")["restitutions"][0]["cascade"]["levels"]
    r = clatter.orbit_branch(0.7, cascade=2)
    assert_orbit_csvs_equal(r, tmp_path)  # with the doubled branches and their PD points
    c = r["cascade"]
    assert len(levels) == len(c["omega_pd"]) == 3
    assert [lv["omega_pd"] for lv in levels] == list(c["omega_pd"])
    assert [lv["impacts"] for lv in levels] == list(c["impacts"])
    # shooting from the closed form lands on the closed form (Newton law, impact_oscillator.hpp):
    # phase and velocity to 1e-8, det DP = e^2 to 1e-6 (finite differences)
    cf = clatter.closed_form_orbit(1.0, 3.0, 9.81, 0.7, 1)
    o = clatter.find_orbit(1.0, 3.0, 9.81, 0.7)
    assert o["converged"]
    assert abs(o["phase"] - cf["stable_phase"]) < 1e-8
    assert abs(o["velocity"] - cf["stable_velocity"]) < 1e-8
    assert abs(np.linalg.det(o["DP"]) - 0.49) < 1e-6


@pytest.mark.parametrize("continuation", [False, True])
def test_sweep_equals_cli_bit_for_bit_through_hdf5(cli, examples, tmp_path, continuation):
    # `clatter sweep --hdf5` stores the apex heights as doubles (sweep.h5, issue 13's layout):
    # the Python sweep equals them bit for bit, value by value
    h5py = pytest.importorskip("h5py")
    path = os.path.join(examples, "bp_fig8a.toml")
    cli("sweep", path, "--omega", 4.0, 4.4, 3, "--transient-periods", 20, "--record-periods", 10,
        "--hdf5", "--no-plot", "--no-progress", "--out", tmp_path,
        *(["--continuation"] if continuation else []))
    sc = clatter.load_scenario(path)
    bif, summary = clatter.sweep(sc, (4.0, 4.4, 3), transient_periods=20, record_periods=10,
                                 continuation=continuation)
    with h5py.File(tmp_path / "sweep.h5", "r") as f:
        omega = f["surface.omega"][:]
        samples = f["samples"][:, 0]
        y = f["y_apex"][:]
    assert list(omega) == list(summary["omega"])
    assert list(samples) == list(summary["samples"])
    for i, w in enumerate(omega):
        mine = [v for ww, v in zip(bif["omega"], bif["y_apex"]) if ww == w]
        assert list(y[i, 0, :samples[i]]) == mine


def test_parameter_sweep_equals_cli_bit_for_bit(cli, examples, tmp_path):
    # clatter.sweep_parameters on a 2-D grid with carry-over = `clatter sweep --param ... --hdf5`
    # (analysis::run_sweep both), every record's apex heights bit for bit, at 1 and 2 threads
    h5py = pytest.importorskip("h5py")
    path = os.path.join(examples, "ball_table_period1.toml")
    cli("sweep", path, "--param", "surface.omega", 3.2, 3.3, 3, "--param", "surface.amplitude",
        1.0, 1.1, 2, "--carry-over", "up", "--transient-periods", 50, "--record-periods", 10,
        "--hdf5", "--no-plot", "--no-progress", "--out", tmp_path)
    sc = clatter.load_scenario(path)
    with h5py.File(tmp_path / "sweep.h5", "r") as f:
        y = f["y_apex"][:]
        samples = f["samples"][:]
        distinct = f["distinct"][:]
    for threads in (1, 2):
        r = clatter.sweep_parameters(sc, [("surface.omega", 3.2, 3.3, 3),
                                          ("surface.amplitude", 1.0, 1.1, 2)],
                                     carry_over="up", transient_periods=50, record_periods=10,
                                     threads=threads)
        assert len(r["point"]) == 6
        for k, p in enumerate(r["point"]):
            i0, i1, run = p // 2, p % 2, r["run"][k]
            assert r["distinct"][k] == distinct[i0, i1, run]
            assert list(y[i0, i1, run, :samples[i0, i1, run]]) == list(r["values"][k])
    with pytest.raises(ValueError, match="carry_over"):
        clatter.sweep_parameters(sc, [("surface.omega", 3.2, 3.3, 3)], carry_over="sideways")


def test_periodic_shortcut_from_python(examples):
    # sweep_parameters(periodic_tol=1e-10) on the ball's stable period-1 orbit ([B] §6.3, closed
    # form in analysis/impact_oscillator.hpp): the apex heights equal the full run's to 1e-9
    # relative, each value stops early (cycle >= 1, closed_at < the transient), and the
    # stroboscopic section gives one height per period, both ends of the record included
    sc = clatter.load_scenario(os.path.join(examples, "ball_table_period1.toml"))
    axis = [("surface.omega", 3.0, 3.1, 3)]
    full = clatter.sweep_parameters(sc, axis, carry_over="up", transient_periods=600,
                                    record_periods=10, periodic_tol=0)
    cut = clatter.sweep_parameters(sc, axis, carry_over="up", transient_periods=600,
                                   record_periods=10, periodic_tol=1e-10)
    assert list(full["cycle"]) == [0, 0, 0]
    # the default (issue 26 item 3): 1e-10 under the periods clock, as `clatter sweep`; off under
    # the time clock (no value takes a cycle)
    default = clatter.sweep_parameters(sc, axis, carry_over="up", transient_periods=600,
                                       record_periods=10)
    assert all(np.array_equal(a, b) for a, b in zip(default["values"], cut["values"]))
    assert np.array_equal(default["cycle"], cut["cycle"])
    T = 2 * np.pi / 3.0
    timed = clatter.sweep_parameters(sc, [("surface.omega", 3.0, 3.0, 1)], clock="time",
                                     transient_periods=600 * T, record_periods=10 * T)
    assert list(timed["cycle"]) == [0]
    for k in range(3):
        assert 1 <= cut["cycle"][k] and cut["closed_at"][k] < 600
        assert cut["refused"][k] == 0  # a stable orbit: its first cycle is shown stable
        a, b = np.array(full["values"][k]), np.array(cut["values"][k])
        assert a.shape == b.shape
        assert np.max(np.abs(a - b) / np.abs(a)) <= 1e-9
    strobe = clatter.sweep_parameters(sc, axis, carry_over="up", transient_periods=600,
                                      record_periods=10, section="strobe")
    assert [len(v) for v in strobe["values"]] == [11, 11, 11]
    with pytest.raises(ValueError, match="periodic_tol"):
        clatter.sweep_parameters(sc, axis, periodic_tol=1.0)
    with pytest.raises(ValueError, match="^periodic_check: "):  # the shortcut is off
        clatter.sweep_parameters(sc, axis, periodic_check=False, periodic_tol=0)


def test_periodic_check_from_python():
    # the ball started exactly on the closed form's period-1 orbit past its period doubling
    # (omega = 3.3 > omega_PD = 3.158, e = 0.9: a multiplier below -1, tr DP < -(1 + det DP)),
    # on its flight 0.1 s after the apex: without the check the shortcut takes that unstable cycle
    # at once; with it (the default) the values are the brute-force run's, to 1e-8 relative
    w, e, g = 3.3, 0.9, 9.81
    c = clatter.closed_form_orbit(1.0, w, g, e, 1)
    assert c["trace_stable"] < -1.0 - c["determinant"] and w > c["omega_pd"]
    phi = c["stable_phase"]
    apex = np.sin(phi) + g * np.pi ** 2 / (2 * w * w)
    ball = clatter.Model("ball", mass=1.0, surface=dict(amplitude=1.0, omega=w), law="newton",
                         e=e)
    s0 = 0.1  # after the apex, so that the apexes do not fall on the stroboscopic times
    kw = dict(initial=[((phi + np.pi) / w + s0, [0.0, apex - 0.5 * g * s0 ** 2, 0.0],
                        [0.0, -g * s0, 0.0])],
              transient_periods=300, record_periods=40)
    axis = [("surface.omega", w, w, 1)]
    full = clatter.sweep_parameters(ball, axis, **kw)
    checked = clatter.sweep_parameters(ball, axis, periodic_tol=1e-10, **kw)
    unchecked = clatter.sweep_parameters(ball, axis, periodic_tol=1e-10, periodic_check=False,
                                         **kw)
    assert unchecked["cycle"][0] == 1 and unchecked["closed_at"][0] <= 5
    assert len(unchecked["values"][0]) == 40  # one apex a period
    assert np.max(np.abs(np.array(unchecked["values"][0]) - apex)) < 1e-9
    assert checked["refused"][0] >= 1
    a, b = np.array(full["values"][0]), np.array(checked["values"][0])
    assert a.shape == b.shape and np.max(np.abs(a - apex)) > 1e-3  # the full run left the orbit
    assert np.max(np.abs(a - b) / np.abs(a)) <= 1e-8
