"""The CLI and Python are two front ends of one application layer (app/orbit_setup.hpp,
app/continuation.hpp; [issue 24] item 4): given the same options they pose the same orbit problem
with the same defaults and write the same files, byte for byte. Each case runs the command into a
folder, keeps its bytes, removes the folder and lets Python write into the same path (the JSON
files name their own paths).

The independent values checked on the way: the ball's period-1 orbit on a table oscillating at
omega has |multipliers| = e (both, a focus of the impact map) and its period doubling lies at the
closed form's Gamma_PD = 3.15753 for e* = 0.9 (tests/regression of the ball's closed forms; the
CLI's test_orbits_cli.py checks the same numbers); [BP] Fig. 9(a)'s three-impact orbit is stable
with |lambda| = e*^3 = 0.729 at omega = 3 (examples/bp_fig9a.toml)."""
import csv
import io
import json
import math
import os
import shutil

import numpy as np
import pytest

import clatter

FILES_ORBIT = ("orbit.json", "timeseries.csv")
FILES_CONTINUE = ("branch.csv", "bifurcations.csv", "summary.json")


def same_bytes(cli, tmp_path, args, call, names, exit_code=0):
    """Runs `clatter ARGS --out D --no-plot` (it must exit with `exit_code`), then call(D) into
    the same D after removing it; the files `names` must be equal byte for byte. Returns the
    CLI's bytes by name."""
    out = tmp_path / "out"
    p = cli(*args, "--out", out, "--no-plot", check=False)
    assert p.returncode == exit_code, p.stderr
    want = {n: (out / n).read_bytes() for n in names}
    shutil.rmtree(out)
    call(str(out))
    for n in names:
        got = (out / n).read_bytes()
        assert got == want[n], f"{n} differs between the CLI and Python"
    assert sorted(os.listdir(out)) == sorted(names)  # plot=False: no picture either
    return want


def test_default_forced_orbit_is_the_clis(cli, examples, tmp_path):
    # no option at all: the section mid-way between events, every component solved
    path = os.path.join(examples, "ball_table_period1.toml")
    sc = clatter.load_scenario(path)
    same_bytes(cli, tmp_path, ["orbits", path],
               lambda out: clatter.periodic_orbit(sc, out=out, plot=False), FILES_ORBIT)
    o = clatter.periodic_orbit(sc)
    assert o["converged"], o["message"]
    assert o["solved"] == clatter.state_names(sc.model)
    assert o["section"]["kind"] == "forced"


def test_three_impact_orbit_and_its_continuation(cli, examples, tmp_path):
    path = os.path.join(examples, "bp_fig9a.toml")
    sc = clatter.load_scenario(path)
    same_bytes(cli, tmp_path, ["orbits", path, "--solve", "y,ydot", "--periods", "3"],
               lambda out: clatter.periodic_orbit(sc, "y,ydot", periods=3, out=out, plot=False),
               FILES_ORBIT)
    o = clatter.periodic_orbit(sc, "y,ydot", periods=3)
    assert o["converged"] and o["stable"]
    assert abs(o["multipliers"][0]) == pytest.approx(0.9 ** 3, abs=1e-6)
    args = ["continue", path, "--solve", "y,ydot", "--periods", "3", "--param", "surface.omega",
            "--range", "2.3", "3.4"]
    same_bytes(cli, tmp_path, args,
               lambda out: clatter.continue_orbit(sc, "y,ydot", "surface.omega", (2.3, 3.4),
                                                  periods=3, out=out, plot=False),
               FILES_CONTINUE)
    b = clatter.continue_orbit(sc, "y,ydot", "surface.omega", (2.3, 3.4), periods=3)
    assert [x["direction"] for x in b.directions] == ["up", "down"]  # the CLI's default: both
    kinds = set(zip(b.bifurcations["branch"], b.bifurcations["kind"]))
    assert ("up", "PD") in kinds and ("down", "SN") in kinds


def test_continuation_after_a_transient_finds_the_closed_form_flip(cli, examples, tmp_path):
    # from rest Newton lands on the saddle; after 100 periods on the stable orbit, whose
    # multipliers have modulus e = 0.9 and whose flip is the closed form's 3.15753
    path = os.path.join(examples, "ball_table_period1.toml")
    sc = clatter.load_scenario(path)
    args = ["continue", path, "--solve", "y,ydot", "--param", "surface.omega", "--range", "2.9",
            "3.2", "--ds", "0.05", "--direction", "up", "--transient", "100"]
    same_bytes(cli, tmp_path, args,
               lambda out: clatter.continue_orbit(sc, "y,ydot", "surface.omega", (2.9, 3.2),
                                                  direction="up", ds=0.05, transient=100,
                                                  out=out, plot=False),
               FILES_CONTINUE)
    b = clatter.continue_orbit(sc, "y,ydot", "surface.omega", (2.9, 3.2), direction=1, ds=0.05,
                               transient=100)
    assert abs(b.start["multipliers"][0]) == pytest.approx(0.9, abs=1e-6)
    pd = b.bifurcation("PD")
    assert len(pd) and pd[0] == pytest.approx(3.15753, abs=1e-5)


def test_autonomous_orbit_of_ndc(cli, examples, tmp_path):
    path = os.path.join(examples, "ndc_case_5_9.toml")
    sc = clatter.load_scenario(path)
    solve = "y,theta,xdot,ydot,thetadot"
    same_bytes(cli, tmp_path, ["orbits", path, "--anchor", "x", "--drift", "v_dr", "--period",
                               "5.92187", "--solve", solve],
               lambda out: clatter.periodic_orbit(sc, solve, anchor="x", drift="v_dr",
                                                  period=5.92187, out=out, plot=False),
               FILES_ORBIT)


def test_gait_on_an_impact_section_modulo_the_symmetry(cli, examples, tmp_path):
    path = os.path.join(examples, "rimless_wheel", "rimless_wheel.toml")
    sc = clatter.load_scenario(path)
    same_bytes(cli, tmp_path, ["orbits", path, "--impact-section", "spoke0", "--modulo-symmetry",
                               "--transient", "2"],
               lambda out: clatter.periodic_orbit(sc, impact="spoke0", modulo_symmetry=True,
                                                  transient=2, out=out, plot=False),
               FILES_ORBIT)


def test_multiple_shooting_is_used_by_both(cli, examples, tmp_path):
    # --segments was parsed and then ignored by `clatter orbits` before the shared request
    path = os.path.join(examples, "bp_fig9a.toml")
    sc = clatter.load_scenario(path)
    want = same_bytes(cli, tmp_path,
                      ["orbits", path, "--solve", "y,ydot", "--periods", "3", "--segments", "3"],
                      lambda out: clatter.periodic_orbit(sc, "y,ydot", periods=3, segments=3,
                                                         out=out, plot=False), FILES_ORBIT)
    single = clatter.periodic_orbit(sc, "y,ydot", periods=3)
    multiple = clatter.periodic_orbit(sc, "y,ydot", periods=3, segments=3)
    assert multiple["converged"]
    assert multiple["u"] == pytest.approx(single["u"], abs=1e-8)  # one orbit, two methods
    assert b'"converged": true' in want["orbit.json"]


def test_a_start_on_the_section(cli, examples, tmp_path):
    # --start-on-section: the section passes through the scenario's initial time (phase omega t0)
    path = os.path.join(examples, "bp_fig9a.toml")
    sc = clatter.load_scenario(path)
    same_bytes(cli, tmp_path, ["orbits", path, "--solve", "y,ydot", "--periods", "3",
                               "--start-on-section"],
               lambda out: clatter.periodic_orbit(sc, "y,ydot", periods=3, start_on_section=True,
                                                  out=out, plot=False), FILES_ORBIT)
    o = clatter.periodic_orbit(sc, "y,ydot", periods=3, start_on_section=True)
    assert o["t0"] == pytest.approx(sc.initial["t"], abs=1e-12)
    # a user's start state puts the section through it by default
    i = sc.initial
    u = clatter.periodic_orbit(sc, "y,ydot", periods=3, q=i["q"], qd=i["qd"], t0=i["t"])
    assert u["section"] == o["section"]


def test_plots_are_drawn_when_asked(examples, tmp_path):
    sc = clatter.load_scenario(os.path.join(examples, "bp_fig9a.toml"))
    out = tmp_path / "c"
    clatter.continue_orbit(sc, "y,ydot", "surface.omega", (2.9, 3.1), periods=3, out=str(out))
    assert (out / "branch.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    out = tmp_path / "o"
    clatter.periodic_orbit(sc, "y,ydot", periods=3, out=str(out))
    assert (out / "orbit.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


FILES_SECTION = ("section.csv", "summary.json")


def test_impact_map_of_ndc(cli, examples, tmp_path):
    # [NDC] row 5-9's impact map settles on the orbit: return time T = 5.92187 (Table 4)
    path = os.path.join(examples, "ndc_case_5_9.toml")
    sc = clatter.load_scenario(path)
    same_bytes(cli, tmp_path, ["section", path, "--section", "impact:P1", "--count", "12",
                               "--t-max", "100"],
               lambda out: clatter.poincare(sc, "impact", contact="P1", count=12, t_max=100,
                                            out=out, plot=False), FILES_SECTION)
    s = clatter.poincare(sc, "impact", contact=0, count=12, t_max=100)
    assert s.stopped == "count reached" and s.message == ""
    assert isinstance(s, clatter.Section)
    assert list(s.to_pandas().columns) == ["k", "t", *clatter.state_names(sc.model), "events_passed"]
    assert s["t"][-1] - s["t"][-2] == pytest.approx(5.92187, abs=1e-4)


def test_crossing_map_with_a_transient_and_a_short_run(cli, examples, tmp_path):
    # a velocity's downward zero crossings after 1 s, and a run that ends before the count
    path = os.path.join(examples, "rod_fig5.toml")
    sc = clatter.load_scenario(path)
    want = same_bytes(cli, tmp_path, ["section", path, "--section", "crossing:ydot:0:down",
                                      "--count", "100000", "--transient", "1"],
                      lambda out: clatter.poincare(sc, "crossing", component="ydot", value=0.0,
                                                   direction=-1, count=100000, transient=1.0,
                                                   out=out, plot=False), FILES_SECTION,
                      exit_code=3)  # fewer points than asked: exit 3, files written
    s = clatter.poincare(sc, "crossing:ydot:0:down", count=100000, transient=1.0)
    assert 0 < len(s["t"]) < 100000 and s.message == s.stopped != ""
    assert min(s["t"]) >= sc.initial["t"] + 1.0
    ydot = s["ydot"]
    assert abs(ydot).max() < 1e-9  # on the section
    assert b'"points": %d' % len(s["t"]) in want["summary.json"]


FILES_SIMULATE = ("timeseries.csv", "events.csv", "summary.json")
SIMULATE_CASES = [
    ("rod_fig5.toml", []),                        # a planar body: surface and contact points
    ("cradle3.toml", []),                         # multi-point collisions, a row per event
    ("ball_zeno.toml", []),                       # chatter to its accumulation point
    ("double_pendulum_stick_slip.toml", ["--precision", "17"]),  # stick, slip, lift-off
    ("ndc_case_5_9.toml", ["--t-end", "20", "--output-dt", "0.01"]),
    (os.path.join("rimless_wheel", "rimless_wheel.toml"), []),  # a plugin's model
]


@pytest.mark.parametrize("name,args", SIMULATE_CASES)
def test_simulate_writes_the_commands_files(cli, examples, tmp_path, name, args):
    path = os.path.join(examples, name)
    sc = clatter.load_scenario(path)
    keywords = {}
    for flag, key, kind in (("--t-end", "t_end", float), ("--output-dt", "output_dt", float),
                            ("--precision", "precision", int)):
        if flag in args:
            keywords[key] = kind(args[args.index(flag) + 1])
    out = tmp_path / "out"
    p = cli("simulate", path, *args, "--out", out, "--no-plot", check=False)
    assert p.returncode in (0, 3), p.stderr
    want = {n: (out / n).read_bytes() for n in FILES_SIMULATE}
    shutil.rmtree(out)
    r = clatter.simulate(sc, out=str(out), plot=False, **keywords)
    for n in ("timeseries.csv", "events.csv"):
        assert (out / n).read_bytes() == want[n], f"{n} differs between the CLI and Python"
    a, b = json.loads(want["summary.json"]), json.loads((out / "summary.json").read_bytes())
    assert a.pop("wall_time_s") >= 0 and b.pop("wall_time_s") >= 0  # the only difference
    assert a == b
    # the returned result is the run the files describe: its event rows are events.csv's
    assert r.reason == a["reason"] and len(r.events["t"]) == sum(a["counts"]["by_kind"].values())


def test_simulate_refuses_bad_input_before_writing(tmp_path, examples):
    sc = clatter.load_scenario(os.path.join(examples, "rod_fig5.toml"))
    out = tmp_path / "never"
    with pytest.raises(ValueError, match="precision"):
        clatter.simulate(sc, out=str(out), precision=18)
    with pytest.raises(ValueError, match="output_dt"):
        clatter.simulate(sc, out=str(out), output_dt=-1.0)
    assert not out.exists()


def test_record_events_false_keeps_the_files_whole(tmp_path, examples):
    # the files are the command's whatever the result keeps in memory
    sc = clatter.load_scenario(os.path.join(examples, "rod_fig5.toml"))
    full = clatter.simulate(sc, out=str(tmp_path / "a"), plot=False)
    bare = clatter.simulate(sc, out=str(tmp_path / "b"), plot=False, record_events=False)
    assert len(bare.events["t"]) == 0 and len(full.events["t"]) > 0
    assert (tmp_path / "a" / "events.csv").read_bytes() == (tmp_path / "b" / "events.csv").read_bytes()


FILES_DIB = ("dib.json", "branches.csv")


def test_boundary_crossing_of_ndc_row_5_9(cli, examples, tmp_path):
    # [NDC] row 5-9: Table 5's scaled law variables (B, mu, v_T) = (-0.5957, 0.5957, 0.8026) and
    # the normal form's 1 - sigma = 0.9402, D = 2.7448 (spec/003_dib.md, as test_orbits_cli.py)
    path = os.path.join(examples, "ndc_case_5_9.toml")
    sc = clatter.load_scenario(path)
    solve = "y,theta,xdot,ydot,thetadot"
    same_bytes(cli, tmp_path, ["dib", path, "--anchor", "x", "--drift", "v_dr", "--period",
                               "5.92187", "--solve", solve, "--param", "mu", "--regions", "5,9",
                               "--span", "0.002"],
               lambda out: clatter.boundary_crossing(sc, solve, "mu", (5, 9), anchor="x",
                                                     drift="v_dr", period=5.92187, span=0.002,
                                                     out=out, plot=False), FILES_DIB)
    b = clatter.boundary_crossing(sc, solve, "mu", (5, 9), anchor="x", drift="v_dr",
                                  period=5.92187, kink_step=0.0)
    scaled = b["report"]["impact"]["scaled"]
    for key, want in zip(("B", "mu", "v_T"), (-0.5957, 0.5957, 0.8026)):
        assert scaled[key] == pytest.approx(want, abs=1e-4)
    assert b["normal_form"]["one_minus_sigma"] == pytest.approx(0.9402, abs=1e-4)
    assert b["normal_form"]["D"] == pytest.approx(2.7448, abs=1e-4)
    assert "multiplier_kink" not in b["report"]  # kink_step 0: skipped, as --kink-step 0


def test_ball_orbit_branches_are_the_commands(cli, tmp_path):
    # `clatter orbits --e 0.7 --cascade 2` and orbit_branch(0.7, cascade=2): one operation
    # (app/ball_orbits.hpp); every cell of branches.csv and bifurcations.csv is Python's number
    # as the command writes it (12 significant digits); the PD is the closed form's
    import csv

    def g12(x):
        return "inf" if x == float("inf") else "" if x != x else "%.12g" % x

    out = tmp_path / "o"
    cli("orbits", "--e", "0.7", "--cascade", "2", "--out", out, "--no-plot")
    r = clatter.orbit_branch(0.7, cascade=2)
    for name, table in (("branches.csv", r["branches"]), ("bifurcations.csv", r["bifurcations"])):
        with open(out / name) as f:
            rows = list(csv.DictReader(f))
        assert len(rows) == len(table["omega"]) > 0
        for k, row in enumerate(rows):
            for column, text in row.items():
                value = table[column][k]
                got = str(value) if isinstance(value, str) else (
                    str(int(value)) if column in ("impacts", "periods", "stable") else g12(value))
                assert got == text, (name, k, column)
    pd = [w for w, kind in zip(r["bifurcations"]["omega"], r["bifurcations"]["kind"])
          if kind == "PD"]
    assert pd[0] == pytest.approx(r["omega_pd_closed_form"], abs=1e-6)
    # out=: the command's three files, byte for byte; the PD at the closed form's
    # (spec/000_thesis.md §6.3: Γ_PD² = Γ_SN² + (2(1+e²)/(1+e)²)², A = 1, g = 9.81, n = 2)
    e, n = 0.8, 2
    want = same_bytes(cli, tmp_path, ["orbits", "--e", str(e), "--periods", str(n)],
                      lambda folder: clatter.orbit_branch(e, periods=n, out=folder, plot=False),
                      ["branches.csv", "bifurcations.csv", "summary.json"])
    gamma_sn = n * math.pi * (1 - e) / (1 + e)
    gamma_pd = math.sqrt(gamma_sn ** 2 + (2 * (1 + e * e) / (1 + e) ** 2) ** 2)
    rows = list(csv.DictReader(io.StringIO(want["bifurcations.csv"].decode())))
    got = [float(row["omega"]) for row in rows if row["kind"] == "PD"]
    assert got == [pytest.approx(math.sqrt(9.81 * gamma_pd), abs=1e-8)]


def test_events_only_still_writes_the_commands_files(cli, examples, tmp_path):
    # out= streams the samples to disk whatever the result keeps: events_only=True keeps none in
    # memory and writes the same timeseries.csv as the command
    path = os.path.join(examples, "rod_fig5.toml")
    cli("simulate", path, "--out", tmp_path / "cli", "--no-plot")
    r = clatter.simulate(clatter.load_scenario(path), out=str(tmp_path / "py"), plot=False,
                         events_only=True)
    assert len(r.t) == 0 and len(r.events["t"]) > 0
    for n in ("timeseries.csv", "events.csv"):
        assert (tmp_path / "py" / n).read_bytes() == (tmp_path / "cli" / n).read_bytes()
    assert sorted(os.listdir(tmp_path / "py")) == sorted(FILES_SIMULATE)  # no temporaries left


FILES_REGIONS = ("regions.csv", "summary.json")


@pytest.mark.parametrize("cli_args,keywords", [
    (["--fix", "mu", "0.5"], dict(fix=("mu", 0.5))),
    (["--fix", "B", "-0.25", "--r", "0.7", "--n", "41"], dict(fix=("B", -0.25), r=0.7, n=41)),
    (["--panels", "--n", "51"], dict(panels=True, n=51)),
])
def test_region_maps_are_the_commands(cli, tmp_path, cli_args, keywords):
    same_bytes(cli, tmp_path, ["regions", *cli_args],
               lambda out: clatter.regions(out=out, plot=False, **keywords), FILES_REGIONS)
    t = clatter.regions(**keywords)
    assert sum(t.counts.values()) == len(next(iter(t.values())))
    if "fix" in keywords and keywords["fix"][0] == "mu":
        # spec/003_dib.md §3.3, section mu = 0.5 (Fig. 4c): v_T > 0 large is region 1 (slip
        # throughout), v_T < 0 large region 2; regions 3-6 end in stick, 1 and 2 do not
        big = np.abs(t["v_T"]) > 2.9
        assert set(t["region"][big & (t["v_T"] > 0)]) == {1}
        assert set(t["region"][big & (t["v_T"] < 0)]) == {2}
        for region in (3, 4, 5, 6):
            assert t["ends_in_stick"][t["region"] == region].all()
        for region in (1, 2):
            assert not t["ends_in_stick"][t["region"] == region].any()


FILES_PAINLEVE = ("timeseries.csv", "events.csv", "summary.json")


@pytest.mark.parametrize("cli_args,keywords", [
    (["--preset", "fig6.7b"], dict(preset="fig6.7b")),
    (["--preset", "fig6.8a", "--mu-p", "0.5", "--t-end", "1.5"],
     dict(preset="fig6.8a", mu_p=[0.5], t_end=1.5)),   # a given value wins over the preset's
])
def test_painleve_is_the_commands(cli, tmp_path, cli_args, keywords):
    same_bytes(cli, tmp_path, ["painleve", *cli_args],
               lambda out: clatter.painleve(out=out, plot=False, **keywords), FILES_PAINLEVE)
    p = clatter.painleve(**keywords)
    if keywords["preset"] == "fig6.7b":
        # [B] Fig 6.7(b), spec/000_thesis.md §7 [DERIVED]: the release velocity of the impact
        # without collision, c2_dot+ = 0.005738 (mu_p = 0.82) and 0.350531 (1.3); mu_c = 0.819962
        assert p["runs"][0]["mu_critical"] == pytest.approx(0.819962, abs=1e-6)
        for run, want in zip(p["runs"], (0.005738, 0.350531)):
            ev = run["events"]
            k = list(ev["kind"]).index("impact_without_collision")
            assert ev["v_N_post"][k] == pytest.approx(want, abs=1e-6)
    else:
        assert p["mu_p"] == [0.5] and p["theta"] == 4.21 and p["t_end"] == 1.5


def test_phase_section_with_its_frequency_named(cli, examples, tmp_path):
    # `section --frequency` (Python's frequency=): the stroboscopic map of the ball's period-1
    # orbit at phase 1 returns every 2 pi / omega once on the attractor
    path = os.path.join(examples, "ball_table_period1.toml")
    sc = clatter.load_scenario(path)
    same_bytes(cli, tmp_path, ["section", path, "--section", "phase:1", "--frequency",
                               "surface.omega", "--count", "30"],
               lambda out: clatter.poincare(sc, "phase", phase=1.0, frequency="surface.omega",
                                            count=30, out=out, plot=False), FILES_SECTION)
    s = clatter.poincare(sc, "phase:1", count=30, frequency="surface.omega")
    w = sc.model.parameter("surface.omega")
    assert np.allclose(np.diff(s["t"]), 2 * np.pi / w, atol=1e-9)
    p = cli("section", path, "--section", "phase:1", "--frequency", "bogus", "--out",
            tmp_path / "bad", check=False)
    assert p.returncode == 2 and "--frequency" in p.stderr and not (tmp_path / "bad").exists()
    with pytest.raises(ValueError, match="^frequency"):
        clatter.poincare(sc, "phase:1", count=3, frequency="bogus")
