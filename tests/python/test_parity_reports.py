"""The operations whose result is a report (app/impact.hpp, impact_sweep.hpp, compliant.hpp,
compliant_sweep.hpp, multipoint.hpp; [issue 24] item 4): the CLI and Python, given the same
options, write the same files byte for byte and report the same JSON. Each case runs the command
into a path, keeps its bytes and its printed report, removes the files and lets Python write into
the same path (the reports name their own paths).

Independent values checked on the way:
- [Bi] Fig 4.6 ([D] spec 002 Sec. 4.4): the pendulum at 30 deg, mu = 0.5, eta = 1.21 rebounds with
  V_f = 0.7432 after t_f = 4.9018 in 1/sqrt(K k3);
- the rigid-body impact's post-impact velocities from the impulse by Newton-Euler
  (m dV = Lambda, I d(theta_dot) = r x Lambda), written out here, not by the library;
- the three-ball cradle of [R] Fig 6.12 (case 1, e* = 1): one event, ball C leaves with ball A's
  1.304 m/s and the others stop, the kinetic energy kept;
- every impact of the reports dissipates (delta_energy <= 0) and keeps |Lambda_T| <= mu Lambda_N.
"""
import json
import math
import os
import shutil

import pytest

import clatter


def cli_then_python(cli, tmp_path, args, call, names, exit_code=0):
    """Runs `clatter ARGS --out D` (exit `exit_code`), keeps the files `names` and the printed
    report, removes D and runs call(D): the files must be equal byte for byte and the report
    equal to the printed one. Returns Python's report."""
    out = tmp_path / "out"
    p = cli(*args, "--out", out, check=False)
    assert p.returncode == exit_code, p.stderr
    want = {n: (out / n).read_bytes() for n in names}
    printed = json.loads(p.stdout)
    shutil.rmtree(out)
    report = call(str(out))
    for n in names:
        assert (out / n).read_bytes() == want[n], f"{n} differs between the CLI and Python"
    assert sorted(os.listdir(out)) == sorted(names)  # no picture asked for: none drawn
    assert dict(report) == printed
    return report


@pytest.mark.parametrize("cli_args,keywords", [
    (["--law", "stronge", "--W", 1, 0.5, 2, "--v", 1, -1, "--mu", 0.3, "--e", 0.7],
     dict(law="stronge", W=[1, 0.5, 2], v_pre=[1, -1], mu=0.3, e=0.7)),
    (["--law", "poisson", "--W", 1, -0.4, 1.5, "--v", -0.2, -1, "--mu", 0.6, "--e", 0.5],
     dict(law="poisson", W=[1, -0.4, 1.5], v_pre=[-0.2, -1], mu=0.6, e=0.5)),
    (["--law", "brach", "--mass", 1, "--inertia", 0.3, "--offset", 1, "--angle", 0.5,
      "--qdot", 1, -2, 0.3, "--mu", 0.4, "--e", 0.5],
     dict(law="brach", mass=1, inertia=0.3, offset=1, angle=0.5, qdot=[1, -2, 0.3], mu=0.4,
          e=0.5)),
    (["--law", "stronge", "--mass", 2, "--inertia", 0.5, "--offset", 0.8, "--angle", 2.3,
      "--qdot", -1, -1.5, 2, "--end", 2, "--mu", 0.2, "--e", 0.9],
     dict(law="stronge", mass=2, inertia=0.5, offset=0.8, angle=2.3, qdot=[-1, -1.5, 2], end=2,
          mu=0.2, e=0.9)),
])
def test_impact_report_is_the_commands(cli, tmp_path, cli_args, keywords):
    path = tmp_path / "impact.json"
    p = cli("impact", *cli_args, "--out", path)
    want = path.read_bytes()
    path.unlink()
    r = clatter.impact_report(**keywords, out=str(path))
    assert path.read_bytes() == want
    assert dict(r) == json.loads(p.stdout) and r.failure == ""
    lam_t, lam_n = r["Lambda"]
    assert r["delta_energy"] <= 1e-12
    if keywords["law"] != "brach":  # Brach's mu is a bound on the impulse ratio, not Coulomb's
        assert abs(lam_t) <= keywords["mu"] * lam_n * (1 + 1e-12)
    if "mass" in keywords:
        m, inertia, offset, theta = (keywords[k] for k in ("mass", "inertia", "offset", "angle"))
        sign = -1.0 if keywords.get("end", 1) == 1 else 1.0  # r = G -> contact, frame (T, N)
        r_t, r_n = sign * offset * math.cos(theta), sign * offset * math.sin(theta)
        v_t, v_n, w = keywords["qdot"]
        want_post = [v_t + lam_t / m, v_n + lam_n / m, w + (r_t * lam_n - r_n * lam_t) / inertia]
        assert r["qdot_post"] == pytest.approx(want_post, abs=1e-12)
        assert r["kinetic_energy_post"] <= r["kinetic_energy_pre"] * (1 + 1e-12)


def test_impact_report_refuses_bad_input_before_writing(tmp_path):
    path = tmp_path / "impact.json"
    for keywords, field in ((dict(W=[1, 0, 1]), "v_pre"), (dict(W=[1, 0, 1], v_pre=[0, -1],
                                                                  mass=1), "W"),
                            (dict(law="nope", W=[1, 0, 1], v_pre=[0, -1]), "law"),
                            (dict(mass=1, inertia=1, offset=1, angle=0, qdot=[0, -1, 0], end=3),
                             "end"),
                            (dict(W=[1, 0, 0, 1], v_pre=[0, -1]), "W"),
                            (dict(W=[[1, 0.2], [0.3, 1]], v_pre=[0, -1]), "W"),
                            (dict(W=[1, 0, 1], v_pre=[0, -1, 0]), "v_pre"),
                            (dict(mass=1, inertia=1, offset=1, angle=0, qdot=[0, -1]), "qdot")):
        with pytest.raises(ValueError, match=f"^{field}: "):
            clatter.impact_report(**keywords, out=str(path))
        assert not path.exists()
    # W as the 2x2 matrix impact() takes is the same request as its entries (A, B, C)
    a = clatter.impact_report("stronge", [0.3, -1], [[2.75, 1.479], [1.479, 2.25]], 0.8, 0.5)
    assert dict(a) == dict(clatter.impact_report("stronge", [0.3, -1], [2.75, 1.479, 2.25], 0.8,
                                                 0.5))


def test_compliant_report_and_history_are_the_commands(cli, tmp_path):
    path = tmp_path / "history.csv"
    args = ["--body", "pendulum", "--theta-deg", 30, "--mu", 0.5, "--eta", 1.21, "--samples", 200]
    p = cli("compliant", *args, "--history", path)
    want = path.read_bytes()
    path.unlink()
    r = clatter.compliant("pendulum", theta_deg=30, mu=0.5, eta=1.21, samples=200,
                          history=str(path))
    assert path.read_bytes() == want
    assert dict(r) == json.loads(p.stdout) and r.failure == ""
    # [Bi] Fig 4.6 ([D]): t_f = 4.9018, V_f = 0.7432 (4 digits printed)
    assert r["times"]["t_f_norm"] == pytest.approx(4.9018, abs=1e-4)
    assert r["v_post_over_v_pre"] == pytest.approx(0.7432, abs=1e-4)
    h = r.tables["history.csv"]
    assert len(h["t"]) > 200 and set(h["mode"]) <= {"slip", "stick"}
    # the defaults are the CLI's: the pendulum at mu = 0.5, eta = 1.21 (no keyword given)
    d = clatter.compliant(theta_deg=30)
    assert d == json.loads(cli("compliant", "--theta-deg", 30).stdout)


def test_compliant_wedge_and_numeric_method(cli):
    w = clatter.compliant("pendulum", theta_deg=13)  # mu 0.5: wedges ([Bi] Sec. 4.6)
    assert w["outcome"] == "wedge" and w["times"]["t_f"] is None and w.failure == ""
    n = clatter.compliant("pendulum", theta_deg=30, method="numeric")
    c = clatter.compliant("pendulum", theta_deg=30)
    assert n["times"]["t_f_norm"] == pytest.approx(c["times"]["t_f_norm"], abs=1e-7)
    with pytest.raises(ValueError, match="^t_max: "):
        clatter.compliant("pendulum", theta_deg=30, t_max=1.0)  # closed method
    with pytest.raises(ValueError, match="^theta: "):
        clatter.compliant("pendulum")


@pytest.mark.parametrize("preset,extra,names", [
    ("pendulum-fig4.16", dict(n=40), ["markers.csv", "sweep.csv"]),
    ("sphere-fig3.4", dict(n=100), ["history.csv"]),
    ("flow", dict(n=8, mu=0.5, B=[2, 0.3, -1, 1, 0.2, 2]),
     ["flow_field.csv", "flow_lines.csv", "flow_trajectories.csv"]),
])
def test_compliant_sweep_is_the_commands(cli, tmp_path, preset, extra, names):
    args = ["compliant-sweep", "--preset", preset, "--no-plot"]
    for k, v in extra.items():
        args += [f"--{k}", *(v if isinstance(v, list) else [v])]
    r = cli_then_python(cli, tmp_path, args,
                        lambda out: clatter.compliant_sweep(preset, **extra, out=out, plot=False),
                        names)
    assert sorted(r.tables) == names


def test_compliant_sweep_wedge_windows():
    # [Bi] Fig 4.16: at theta = 13 deg, eta = 1.21 the pendulum wedges in windows of mu; the
    # sweep marks the rows it computed as wedges inside the windows it reports
    r = clatter.compliant_sweep("pendulum-fig4.16", n=60)
    windows = r["wedge_mu_windows"]
    rows = r.tables["sweep.csv"]
    assert windows
    step = 1.2 / 60  # the preset's mu in (0, 1.2]
    for mu, outcome in zip(rows["x"], rows["outcome"]):
        inside = any(a <= mu <= b for a, b in windows)
        near_edge = any(min(abs(mu - a), abs(mu - b)) < step for a, b in windows)
        assert (outcome == "wedge") == inside or near_edge, (mu, outcome)
    assert sum(o == "wedge" for o in rows["outcome"]) >= 10


@pytest.mark.parametrize("preset,extra", [("fig3.3", dict(n=200)), ("fig3.8", dict(n=150)),
                                          (None, dict(kind="map", angle=0.4, qdot=[0, -1, 0.5],
                                                      e=0.7, mu=0.3, from_=-1, to=1, n=100))])
def test_impact_sweep_is_the_commands(cli, tmp_path, preset, extra):
    args = ["impact-sweep", "--no-plot"] + (["--preset", preset] if preset else [])
    for k, v in extra.items():
        args += [f"--{k.rstrip('_')}", *(v if isinstance(v, list) else [v])]
    kind = extra.get("kind") or ("energy-loss" if preset == "fig3.3" else "map")
    cli_then_python(cli, tmp_path, args,
                    lambda out: clatter.impact_sweep(preset, **extra, out=out, plot=False),
                    [f"{kind}.csv", "markers.csv"])


@pytest.mark.parametrize("preset,extra,exit_code", [
    ("cradle3", {}, 0), ("rocking-block-friction", {}, 0), ("block3d-4", {}, 0),
    ("cradle", dict(masses=[1, 2, 3, 1], v_pre=0.5), 3),
])
def test_multipoint_is_the_commands(cli, tmp_path, preset, extra, exit_code):
    args = ["multipoint", "--preset", preset, "--no-plot"]
    for k, v in extra.items():
        args += [f"--{k.replace('_', '-')}", *(v if isinstance(v, list) else [v])]
    r = cli_then_python(cli, tmp_path, args,
                        lambda out: clatter.multipoint(preset, **extra, out=out, plot=False),
                        ["summary.json", "trace.csv"], exit_code)
    assert (r.failure != "") == (exit_code == 3)
    if preset == "cradle3":  # [R] Fig 6.12, case 1: A's 1.304 m/s passes to C
        speeds = r["derived"]["ball_centre_speeds_post"]
        assert speeds == pytest.approx([0.0, 0.0, 1.304], abs=1e-12)
        assert r["kinetic_energy_post"] == pytest.approx(r["kinetic_energy_pre"], rel=1e-12)
        assert r["n_events"] == 1


def test_multipoint_refuses_bad_input_before_writing(tmp_path):
    out = tmp_path / "mp"
    for keywords, field in ((dict(masses=[1]), "masses"), (dict(v_pre=0.0), "v_pre"),
                            (dict(radius=1.0, length=0.5), "radius")):
        with pytest.raises(ValueError, match=f"^{field}: "):
            clatter.multipoint("cradle", **keywords, out=str(out))
        assert not out.exists()
    with pytest.raises(ValueError, match="^masses: .*preset cradle only"):
        clatter.multipoint("cradle3", masses=[1, 1, 1])


def test_figures_are_drawn_when_asked(tmp_path):
    r = clatter.multipoint("cradle3", out=str(tmp_path / "mp"))
    assert os.path.getsize(r.files["plot"]) > 1000
    s = clatter.impact_sweep("fig3.8", n=100, out=str(tmp_path / "is"))
    assert s.files["plot"].endswith("map.png") and os.path.getsize(s.files["plot"]) > 1000


SWEEP_FILES = ["bifurcation.csv", "summary.csv", "summary.json"]


def sweep_same_bytes(cli, tmp_path, args, call):
    """`clatter sweep ARGS --out D --no-plot` then call(D) into the same D: the three files equal
    byte for byte (summary.json names them by path)."""
    out = tmp_path / "sweep"
    p = cli("sweep", *args, "--out", out, "--no-plot", "--no-progress")
    want = {n: (out / n).read_bytes() for n in SWEEP_FILES}
    assert json.loads(p.stdout) == json.loads(want["summary.json"])
    shutil.rmtree(out)
    r = call(str(out))
    for n in SWEEP_FILES:
        assert (out / n).read_bytes() == want[n], f"{n} differs between the CLI and Python"
    assert sorted(os.listdir(out)) == SWEEP_FILES
    return r


def test_omega_sweep_is_the_commands(cli, examples, tmp_path):
    # [BP]'s ball on the oscillating table with the command's defaults (apex section, periodic
    # shortcut), a short transient
    path = os.path.join(examples, "ball_table_period1.toml")
    sc = clatter.load_scenario(path)
    r = sweep_same_bytes(
        cli, tmp_path, [path, "--omega", 3, 3.5, 6, "--transient-periods", 200,
                        "--record-periods", 20],
        lambda out: clatter.sweep_parameters(sc, [("surface.omega", 3, 3.5, 6)],
                                             transient_periods=200, record_periods=20, out=out,
                                             plot=False, progress=False))
    assert set(r.files) == {"data", "summary", "json"}
    # one apex height below the closed form's flip (A = 1, g = 9.81, e = 0.9: omega = 3.15753),
    # at least two above it
    pd = clatter.closed_form_orbit(1.0, 3.0, 9.81, 0.9)["omega_pd"]
    assert pd == pytest.approx(3.15753, abs=1e-5)
    for omega, distinct in zip(r["surface.omega"], r["distinct"]):
        assert (distinct == 1) == (omega < pd), (omega, distinct)


def test_two_starts_carried_both_ways_are_the_commands(cli, examples, tmp_path):
    path = os.path.join(examples, "ball_table_period1.toml")
    sc = clatter.load_scenario(path)
    starts = ["y=0.5,ydot=0", "y=1.5,ydot=-1,t=0.1"]
    args = [path, "--param", "surface.omega", 2.8, 3.3, 4, "--carry-over", "both",
            "--transient-periods", 100, "--record-periods", 10, "--section", "impact"]
    for s in starts:
        args += ["--initial", s]
    sweep_same_bytes(
        cli, tmp_path, args,
        lambda out: clatter.sweep_parameters(sc, [("surface.omega", 2.8, 3.3, 4)],
                                             carry_over="both", initial=starts,
                                             transient_periods=100, record_periods=10,
                                             section="impact", out=out, plot=False,
                                             progress=False))


def test_autonomous_sweep_by_impacts_is_the_commands(cli, examples, tmp_path):
    # McGeer's rimless wheel: no forcing, the transient and the record counted in impacts of
    # spoke1; every slope's gait hits with the closed form's thetadot (test_sweep_cli.py)
    path = os.path.join(examples, "rimless_wheel", "rimless_wheel.toml")
    sc = clatter.load_scenario(path)
    r = sweep_same_bytes(
        cli, tmp_path, [path, "--param", "slope", 0.18, 0.24, 4, "--section", "impact",
                        "--observe", "thetadot", "--clock", "impacts:spoke1", "--transient", 5,
                        "--record", 2, "--max-time", 100],
        lambda out: clatter.sweep_parameters(sc, [("slope", 0.18, 0.24, 4)], section="impact",
                                             observe="thetadot", clock="impacts:spoke1",
                                             transient_periods=5, record_periods=2,
                                             max_time=100, out=out, plot=False, progress=False))
    assert list(r["distinct"]) == [1] * 4


def test_sweep_figure_and_refusals(examples, tmp_path):
    sc = clatter.load_scenario(os.path.join(examples, "ball_table_period1.toml"))
    r = clatter.sweep_parameters(sc, [("surface.omega", 3, 3.2, 3)], transient_periods=50,
                                 record_periods=10, out=str(tmp_path / "s"), progress=False)
    assert os.path.getsize(r.files["plot"]) > 1000
    with pytest.raises(ValueError, match="^initial: unknown name 'z'"):
        clatter.sweep_parameters(sc, [("surface.omega", 3, 3.2, 3)], initial=["z=1"],
                                 out=str(tmp_path / "bad"))
    assert not (tmp_path / "bad").exists()


def _a_pid_that_does_not_run():
    pid = 4_000_000
    while os.path.exists(f"/proc/{pid}"):
        pid -= 1
    return pid


def test_one_run_per_folder_and_no_stale_temporaries(tmp_path):
    # io/folder_lock.hpp: a folder another process writes into is refused, naming out, with
    # nothing written; the temporaries a killed run left are removed by the next run, those of
    # a process that runs (pid 1) are kept
    import subprocess
    import sys
    folder = tmp_path / "locked"
    folder.mkdir()
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import fcntl, os, sys, time\n"
         f"fd = os.open({str(folder)!r}, os.O_RDONLY)\n"
         "fcntl.flock(fd, fcntl.LOCK_EX)\nprint('locked', flush=True)\ntime.sleep(60)"],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        with pytest.raises(ValueError, match="^out: another clatter run is writing into"):
            clatter.regions(fix=("mu", 0.5), n=11, out=str(folder), plot=False)
        with pytest.raises(ValueError, match="^out: another clatter run"):
            clatter.multipoint("cradle3", out=str(folder), plot=False)
        assert os.listdir(folder) == []
    finally:
        holder.kill()
        holder.wait()
    out = tmp_path / "stale"
    out.mkdir()
    dead = out / f"regions.csv.tmp-{_a_pid_that_does_not_run()}"
    alive = out / "regions.csv.tmp-1"
    dead.write_text("half")
    alive.write_text("another process's")
    clatter.regions(fix=("mu", 0.5), n=11, out=str(out), plot=False)
    assert not dead.exists() and alive.exists()
    # the lock is the call's: the same folder can be written again at once
    clatter.regions(fix=("mu", 0.5), n=11, out=str(out), plot=False)


@pytest.mark.parametrize("cli_args,keywords,option,field", [
    # an unforced model under the periods clock (app/sweep.hpp checks both front ends' requests)
    (["--param", "e", 0.5, 0.8, 4], dict(params=[("e", 0.5, 0.8, 4)]), "--clock", "clock"),
    (["--param", "nope", 0, 1, 3, "--clock", "time"], dict(params=[("nope", 0, 1, 3)],
                                                           clock="time"), "--param", "params"),
    (["--param", "e", 0.5, 0.8, 4, "--clock", "time", "--max-time", 5],
     dict(params=[("e", 0.5, 0.8, 4)], clock="time", max_time=5), "--max-time", "max_time"),
    (["--param", "e", 0.5, 0.8, 4, "--clock", "impacts", "--record-periods", 0],
     dict(params=[("e", 0.5, 0.8, 4)], clock="impacts", record_periods=0), "--record-periods",
     "record_periods"),
])
def test_a_bad_sweep_is_refused_alike(cli, examples, tmp_path, cli_args, keywords, option, field):
    path = os.path.join(examples, "ball_zeno.toml")
    p = cli("sweep", path, *cli_args, "--out", tmp_path / "s", "--no-plot", check=False)
    assert p.returncode == 2
    line = p.stderr.strip().splitlines()[-1]
    assert line.startswith(f"clatter: error: {option}: "), line
    sc = clatter.load_scenario(path)
    params = keywords.pop("params")
    with pytest.raises(ValueError) as e:
        clatter.sweep_parameters(sc, params, out=str(tmp_path / "p"), progress=False, **keywords)
    assert str(e.value).startswith(f"{field}: ")
    # the same check, the same words after the field's name
    assert str(e.value)[len(field) + 2:] == line[len(f"clatter: error: {option}: "):]
    assert not (tmp_path / "s").exists() and not (tmp_path / "p").exists()
