"""Models, scenarios and simulations from Python.

Expected values: the CLI `clatter simulate` on the same scenario file (events.csv always has 17
significant digits; timeseries.csv with --precision 17; Python's float() reads those back to the
same double), compared exactly (bit for bit); the energy ledger's own balance; the closed-form
rest time of the ball on a fixed floor.
"""
import math
import os
import pathlib

import numpy as np
import pytest

import clatter
from conftest import number, read_csv, read_json


def cli_run(cli, tmp_path, scenario, *extra):
    out = tmp_path / "cli"
    cli("simulate", scenario, "--out", out, "--precision", 17, "--no-plot", *extra)
    return (read_csv(out / "timeseries.csv"), read_csv(out / "events.csv"),
            read_json(out / "summary.json"))


def assert_same_as_cli(res, ts, ev, summary):
    # timeseries.csv: every column, as the CLI writes it
    assert len(res.t) == len(ts) > 10
    for name, column in res.timeseries.items():
        if column.dtype == object:
            assert list(column) == [row[name] for row in ts], name
        else:
            expected = np.array([float(row[name]) for row in ts])
            np.testing.assert_array_equal(column, expected, err_msg=name)
    # events.csv: every column; empty fields are -1 (region, case) or NaN (t_accumulation)
    assert len(res.events["t"]) == len(ev) > 0
    for name, column in res.events.items():
        if column.dtype == object:
            assert list(column) == [row[name] for row in ev], name
        elif name in ("region", "brach_case"):
            assert list(column) == [int(row[name]) if row[name] else -1 for row in ev], name
        else:
            expected = np.array([number(row[name]) for row in ev])
            np.testing.assert_array_equal(column, expected, err_msg=name)
    # summary.json: the stop, the counts and the energy ledger
    assert res.reason == summary["reason"] and res.message == summary["message"]
    assert res.t_final == summary["t_final"]
    assert list(res.q_final) == summary["q"] and list(res.qd_final) == summary["qdot"]
    for key in ("events", "impacts", "chatter_sequences", "rk_steps", "rk_steps_dop853",
                "rhs_evaluations"):
        assert res.counts[key] == summary["counts"][key], key
    assert res.integrator == summary["integrator"]
    for key, value in summary["energy"].items():
        assert res.energy_ledger[key] == value, key


def test_ball_zeno_scenario_equals_cli(cli, examples, tmp_path):
    path = os.path.join(examples, "ball_zeno.toml")
    res = clatter.simulate(clatter.load_scenario(path))
    assert_same_as_cli(res, *cli_run(cli, tmp_path, path))
    # and the closed form: rest at sqrt(2 h0 / g)(1 + e)/(1 - e) ([B] 4.2.6), to 1e-9
    t_rest = math.sqrt(2.0 / 9.81) * 1.7 / 0.3
    closure = res.events["t"][res.events["kind"] == "chatter_end"]
    assert abs(closure[0] - t_rest) < 1e-9


def test_rod_fig5_scenario_equals_cli(cli, examples, tmp_path):
    # [BP] Fig. 5's scenario, shortened to 30 s (symmetric reduction, chaotic transient)
    path = os.path.join(examples, "rod_fig5.toml")
    res = clatter.simulate(clatter.load_scenario(path), t_end=30.0)
    assert_same_as_cli(res, *cli_run(cli, tmp_path, path, "--t-end", 30))


def test_model_by_kind_equals_scenario(examples):
    # Model(kind, **params) builds the same model as the scenario's [model]/[law] tables: exact
    sc = clatter.load_scenario(pathlib.Path(examples) / "ball_zeno.toml")  # str or path-like
    m = clatter.Model("ball", mass=1.0, law="newton", e=0.7)
    assert m.parameters == sc.model.parameters
    a = clatter.simulate(sc)
    b = clatter.simulate(m, q=[0.0, 1.0, 0.0], qd=[0.0, 0.0, 0.0], t_end=4.0, output_dt=0.001)
    np.testing.assert_array_equal(a.q, b.q)
    np.testing.assert_array_equal(a.events["t"], b.events["t"])


def test_recording_options_and_ledger(examples):
    # expected: 20 s / 5 ms + 1 samples; the same events with and without samples (exact); apex
    # crossings with |ydot| < 1e-9 (the section's definition); the ledger's balance below 1e-9 of
    # the energies involved
    sc = clatter.load_scenario(os.path.join(examples, "rod_fig5.toml"))
    full = clatter.simulate(sc, t_end=20.0)
    events = clatter.simulate(sc, t_end=20.0, events_only=True)
    assert len(events.t) == 0 and len(full.t) == 4001
    # same events with or without samples: exact
    np.testing.assert_array_equal(events.events["t"], full.events["t"])
    quiet = clatter.simulate(sc, t_end=20.0, record_events=False, events_only=True)
    assert len(quiet.events["t"]) == 0 and quiet.counts["events"] == full.counts["events"]
    apex = clatter.simulate(sc, t_end=20.0, events_only=True, sections="apex")
    assert len(apex.sections["t"]) > 0 and np.all(np.abs(apex.sections["qd"][:, 1]) < 1e-9)
    # the ledger balances to round-off (1e-9 of the energies involved)
    L = full.energy_ledger
    assert abs(L["balance"]) < 1e-9 * (abs(L["initial"]) + abs(L["surface_work"]) + 1.0)


def test_to_pandas(examples):
    # expected: events.csv's first columns (skipped without pandas, an optional dependency)
    pandas = pytest.importorskip("pandas")
    res = clatter.simulate(clatter.load_scenario(os.path.join(examples, "ball_zeno.toml")))
    df = res.events.to_pandas()
    assert isinstance(df, pandas.DataFrame) and list(df.columns)[:3] == ["t", "kind", "contact"]


def test_models_list_and_parameters():
    # expected: the registry's order (model/registry.hpp: built-in kinds first), the slender
    # rod's inertia m L^2 / 3 (model/planar_body.hpp), exact
    kinds = [m["kind"] for m in clatter.models()]
    assert kinds[:4] == ["ball", "rod", "block", "body"]
    rod = clatter.Model("rod", mass=2.0, half_length=0.5, surface={"omega": 3.0})
    assert rod.parameters["inertia"] == 2.0 * 0.25 / 3.0
    assert rod.with_parameter("surface.omega", 4.0).parameter("surface.omega") == 4.0
    assert rod.coordinate_names == ["x", "y", "theta"] and rod.contact_names == ["P1", "P2"]


@pytest.mark.parametrize("call,match", [
    (lambda: clatter.Model("rocket", mass=1.0), r"^model.kind: unknown kind 'rocket'"),
    (lambda: clatter.Model("ball", mass=-1.0), r"^model.mass: must be > 0"),
    (lambda: clatter.Model("ball", mass=1.0, masss=2.0), r"masss"),
    (lambda: clatter.Model("ball", mass=1.0, e=1.5), r"e"),
    (lambda: clatter.simulate(clatter.Model("ball", mass=1.0), [0, 1], [0, 0, 0], t_end=1.0),
     r"^q: must be a flat sequence of 3 numbers \(the model.s\), got \(2,\)"),
    (lambda: clatter.simulate(clatter.Model("ball", mass=1.0), [0, 1, 0], [0, 0, 0], t_end=1.0,
                              rtol=1e-9), r"^rtol: unknown simulation option"),
    (lambda: clatter.simulate(clatter.Model("ball", mass=1.0), [0, 1, 0], [0, 0, 0], t_end=1.0,
                              chatter="never"), r"^chatter: unknown value 'never'"),
    (lambda: clatter.simulate(clatter.Model("ball", mass=1.0), [0, 1, 0], [0, 0, 0], t_end=1.0,
                              max_events="many"), r"^max_events: has the wrong type"),
    (lambda: clatter.Model("ball", mass="heavy"), r"^model.mass: must be a number"),
    (lambda: clatter.simulate(clatter.Model("ball", mass=1.0), [0, -1, 0], [0, 0, 0], t_end=1.0),
     r"penetrat|gap"),
    (lambda: clatter.load_scenario("/nonexistent.toml"), r"^scenario: cannot read"),
])
def test_bad_input_is_value_error_naming_the_field(call, match):
    # expected: the library's InvalidArgument, its field first (core/error.hpp), as ValueError
    with pytest.raises(ValueError, match=match):
        call()


def test_runs_on_several_threads_give_the_sequential_numbers(examples):
    # the GIL is released while the engine runs and nothing is shared between runs: four runs on
    # four Python threads equal the same runs one after another (exact)
    from concurrent.futures import ThreadPoolExecutor
    sc = clatter.load_scenario(os.path.join(examples, "rod_fig5.toml"))
    ends = [10.0, 12.0, 14.0, 16.0]
    sequential = [clatter.simulate(sc, t_end=t) for t in ends]
    with ThreadPoolExecutor(4) as pool:
        threaded = list(pool.map(lambda t: clatter.simulate(sc, t_end=t), ends))
    for a, b in zip(sequential, threaded):
        np.testing.assert_array_equal(a.q, b.q)
        np.testing.assert_array_equal(a.events["t"], b.events["t"])


def test_early_stop_is_a_result_and_check_raises(examples):
    # expected: the engine's bound on events (StopReason kMaxEvents) after exactly 5 events
    sc = clatter.load_scenario(os.path.join(examples, "ball_zeno.toml"))
    r = clatter.simulate(sc, max_events=5)
    assert r.reason == "max_events" and r.counts["events"] == 5 and r.t_final < 4.0
    with pytest.raises(RuntimeError, match=r"^simulation stopped before t_end \(max_events\)"):
        r.check()
    assert clatter.simulate(sc).check().reason == "end_time"


def test_riding_in_closed_form_lifts_off_at_the_closed_form_phase():
    # the ball on A sin(wt), A = 1, w = 3.2, e = 0.9, riding from t = 0: every lift-off where
    # h'' = -g, w t = asin(g/(A w^2)) mod 2 pi (spec/001 Sec. 6.4), in closed form (no Runge-Kutta
    # step while on the table) and, as the independent route, by Runge-Kutta steps
    # (exact_contact=False): the same lift-offs to 1e-9 s
    w, g = 3.2, 9.81
    ball = clatter.Model("ball", mass=1.0, surface=dict(amplitude=1.0, omega=w), law="newton",
                         e=0.9)
    runs = {flag: clatter.simulate(ball, [0, 0, 0], [0, w, 0], t_end=30.0, events_only=True,
                                   exact_contact=flag) for flag in (True, False)}
    lift = {flag: r.events["t"][r.events["kind"] == "lift_off"] for flag, r in runs.items()}
    assert len(lift[True]) >= 14 and len(lift[True]) == len(lift[False])
    phase = np.mod(w * lift[True], 2 * math.pi)
    np.testing.assert_allclose(phase / w, math.asin(g / w**2) / w, atol=1e-9)
    np.testing.assert_allclose(lift[True], lift[False], atol=1e-9)
    assert runs[True].counts["carried_phases"] >= len(lift[True])
    # Runge-Kutta steps only just after each lift-off (the released contact), none on the table
    assert runs[True].counts["rk_steps"] <= 3 * len(lift[True])


def test_a_long_run_keeps_its_lift_offs_at_the_closed_form_phase():
    # the rod on A sin(wt) (A = 1, w = 4.405, e* = 0.8), symmetric, to t = 1e6 s: at t ~ 5e5 s a
    # double resolves 6e-11 s and the phase wt carries ~5e-10 m of round-off into h(t); a released
    # end once took that noise for a fall back onto the table, and the run stopped on a Zeno
    # guard at t = 4.8e5 s (engine.md Sec. 8). Now it reaches t_end, and every lift-off of the
    # riding rod (h'' = -g, wt = asin(g/(A w^2)) mod 2 pi, spec/001 Sec. 6.4) is at the closed
    # form's time to 8 eps t (8-16 ulp of t; measured <= 2.3e-10 s)
    w, g = 4.405, 9.81
    rod = clatter.Model("rod", mass=1.0, half_length=1.0, surface=dict(amplitude=1.0, omega=w),
                        e=0.8, mu=0.05)
    r = clatter.simulate(rod, [0, 3, 0.2], [0, 0, 1], t_end=1e6, events_only=True,
                         two_contact="symmetric")
    assert r.reason == "end_time", r.message
    lift = r.events["t"][r.events["kind"] == "lift_off"]
    assert np.sum(lift > 5e5) > 100
    phi = math.asin(g / w**2)
    k = np.round((w * lift - phi) / (2 * math.pi))
    closed_form = (phi + 2 * math.pi * k) / w
    assert np.all(np.abs(lift - closed_form) <= 8 * np.finfo(float).eps * lift)


def test_the_methods_a_run_used_are_reported(examples):
    # [issue 26] summary.json and the result say which Runge-Kutta method `auto` took. Checked
    # against what the options force: closed forms only (the bouncing ball's exact flights) use
    # none; integrator = dop853 / dopri5 count all / none of their steps as DOP853; `auto` at the
    # default rel_tol 1e-12 < 1e-7 is DOP853 on the rod on a belt (docs/engine.md).
    ball = clatter.simulate(clatter.load_scenario(os.path.join(examples, "ball_zeno.toml")))
    assert ball.counts["rk_steps"] == 0 and ball.counts["rk_steps_dop853"] == 0
    assert ball.integrator == {"requested": "auto", "used": "none"}
    rod = clatter.load_scenario(os.path.join(examples, "ndc_case_1_3.toml"))
    runs = {k: clatter.simulate(rod, t_end=2.0, integrator=k, progress=False)
            for k in ("auto", "dop853", "dopri5")}
    for k, r in runs.items():
        assert r.integrator["requested"] == k
        assert r.counts["rk_steps"] > 0
    assert runs["dop853"].integrator["used"] == "dop853"
    assert runs["dop853"].counts["rk_steps_dop853"] == runs["dop853"].counts["rk_steps"]
    assert runs["dopri5"].integrator["used"] == "dopri5"
    assert runs["dopri5"].counts["rk_steps_dop853"] == 0
    assert runs["auto"].integrator["used"] == "dop853"
    assert runs["auto"].counts["rk_steps"] == runs["dop853"].counts["rk_steps"]
    # above the threshold, auto is DOPRI5
    loose = clatter.simulate(rod, t_end=2.0, rel_tol=1e-6, abs_tol=1e-6, progress=False)
    assert loose.integrator["used"] == "dopri5"
    # a cradle (max_dt = 0.001 caps every DOP853 step): auto falls back to DOPRI5 after its first
    # capped DOP853 phase (docs/engine.md), so the run reports both and counts each
    cradle = clatter.load_scenario(os.path.join(examples, "cradle3.toml"))
    both = clatter.simulate(cradle, progress=False)
    assert both.integrator == {"requested": "auto", "used": "dop853+dopri5"}
    assert 0 < both.counts["rk_steps_dop853"] < both.counts["rk_steps"]
    forced = clatter.simulate(cradle, integrator="dop853", progress=False)
    assert forced.integrator["used"] == "dop853"
