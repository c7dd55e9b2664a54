"""One field list per record (include/clatter/io/schema.hpp; [issue 24] item 3): the files the
commands write follow their record's list (header, and every row as many cells as the header),
the JSON reports hold the keys their list names, Python's tables come in the same order with
units, and docs/columns.md is generated from the lists (scripts/columns.py)."""
import csv
import json
import os
import subprocess
import sys

import pytest

import clatter

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def rows(path):
    with open(path, newline="") as f:
        return list(csv.reader(f))


def columns(record, **names):
    return [c for c, _, _ in clatter._clatter._csv_columns(record, names)]


def check_file(path, record, **names):
    table = rows(path)
    assert table[0] == columns(record, **names), path
    assert all(len(r) == len(table[0]) for r in table[1:]), path
    return table


def test_docs_columns_is_generated_from_the_lists():
    with open(os.path.join(ROOT, "docs", "columns.md")) as f:
        text = f.read()
    p = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "columns.py")],
                       capture_output=True, text=True, check=True)
    assert text == p.stdout, "docs/columns.md is stale: regenerate it with scripts/columns.py"


def test_every_record_has_documented_fields():
    records = clatter.schema()
    assert [r["name"] for r in records] == [
        "sample", "event", "run_summary", "sweep_value", "sweep_point", "sweep_timing",
        "branch_point", "bifurcation", "dib_branch_point", "section_point", "impact"]
    for r in records:
        names = [f["name"] for f in r["fields"]]
        assert len(names) == len(set(names)), r["name"]
        for f in r["fields"]:
            assert f["doc"], (r["name"], f["name"])
    with pytest.raises(ValueError, match="^record: unknown"):
        clatter.schema("nope")


@pytest.mark.parametrize("scenario", ["rod_fig5.toml", "cradle3.toml", "ndc_case_5_9.toml"])
def test_simulate_files_follow_the_sample_and_event_lists(cli, examples, tmp_path, scenario):
    sc = clatter.load_scenario(os.path.join(examples, scenario))
    out = tmp_path / "s"
    cli("simulate", os.path.join(examples, scenario), "--out", out, "--no-plot", "--t-end",
        min(sc.options["t_end"], 2.0))
    m = sc.model
    planar = m.kind in ("rod", "rigid_body", "planar_body", "ball", "body")
    names = dict(coordinates=m.coordinate_names, aux=m.aux_names, contacts=m.contact_names)
    header = rows(out / "timeseries.csv")[0]
    planar = "surface_h" in header  # the planar body's extra columns
    check_file(out / "timeseries.csv", "sample", planar_body=planar, **names)
    events = check_file(out / "events.csv", "event", **names)
    assert len(events) > 1
    with open(out / "summary.json") as f:
        summary = json.load(f)
    # (the JSON objects keep their keys sorted)
    assert set(summary) == {f["name"] for f in clatter.schema("run_summary")["fields"]}
    # Python's tables: the same columns in the same order, with units
    r = clatter.simulate(sc, t_end=min(sc.options["t_end"], 2.0), progress=False)
    assert list(r.events) == events[0]
    assert list(r.timeseries) == header
    assert r.events.units["Lambda_N"] == "N s" and r.events.units["t"] == "s"
    assert r.timeseries.units[m.coordinate_names[0] + "dot"] == "[q]/s"


def test_analysis_files_follow_their_lists(cli, examples, tmp_path):
    ball = os.path.join(examples, "ball_table_period1.toml")
    cli("sweep", ball, "--omega", 3, 3.2, 3, "--transient-periods", 20, "--record-periods", 5,
        "--initial", "y=1", "--initial", "y=2", "--carry-over", "both", "--out", tmp_path / "w",
        "--no-plot", "--no-progress", "--timings", tmp_path / "t.csv")
    sweep = dict(parameters=["surface.omega"], several_initials=True, both_directions=True)
    check_file(tmp_path / "w" / "bifurcation.csv", "sweep_value", observable="y_apex", **sweep)
    check_file(tmp_path / "w" / "summary.csv", "sweep_point", **sweep)
    check_file(tmp_path / "t.csv", "sweep_timing", **sweep)
    with open(tmp_path / "w" / "summary.json") as f:
        points = json.load(f)["points"]
    keys = set(columns("sweep_point", summary_json=True, periodic_shortcut=True, **sweep))
    assert points and all(set(p) == keys for p in points)
    cli("continue", os.path.join(examples, "bp_fig9a.toml"), "--solve", "y,ydot", "--periods", 3,
        "--param", "surface.omega", "--range", 2.9, 3.1, "--out", tmp_path / "k", "--no-plot")
    check_file(tmp_path / "k" / "branch.csv", "branch_point", solved=["y", "ydot"],
               multipliers=2)
    check_file(tmp_path / "k" / "bifurcations.csv", "bifurcation", solved=["y", "ydot"])
    cli("section", ball, "--count", 5, "--out", tmp_path / "x", "--no-plot")
    sc = clatter.load_scenario(ball)
    check_file(tmp_path / "x" / "section.csv", "section_point",
               state=clatter.state_names(sc.model))


def test_impact_report_keys_are_the_lists():
    known = {f["name"] for f in clatter.schema("impact")["fields"]}
    for keywords in (dict(law="stronge", W=[1, 0.5, 2], v_pre=[1, -1], mu=0.3, e=0.7),
                     dict(law="brach", mass=1, inertia=0.3, offset=1, angle=0.5,
                          qdot=[1, -2, 0.3], mu=0.4, e=0.5)):
        r = clatter.impact_report(**keywords)
        assert set(r) <= known, set(r) - known


def test_analysis_tables_carry_the_units(examples):
    sc = clatter.load_scenario(os.path.join(examples, "ball_table_period1.toml"))
    sec = clatter.poincare(sc, section="impact", count=3)
    assert sec.units["t"] == "s" and sec.units["ydot"] == "[x]" and sec.units["k"] == ""
    b = clatter.continue_orbit(sc, "y,ydot", "surface.omega", (2.9, 3.1), direction="up",
                               max_points=3, progress=False)
    assert b.units["p"] == "[p]" and b.units["period"] == "s" and b.units["y"] == "[x]"
    assert "stable" in b.docs
    sw = clatter.sweep_parameters(sc, [("surface.omega", 3.0, 3.2, 2)], transient_periods=20,
                                  record_periods=5, progress=False)
    assert sw.units["surface.omega"] == "[p]" and sw.units["impacts_per_period"] == "1"
    assert "distinct" in sw.docs and "cycle" in sw.docs
