"""Periodic orbits, Poincare maps and boundary crossings of any model from Python
(clatter.periodic_orbit, continue_orbit, poincare, boundary_crossing; issue 12 with issue 10/11).

Expected values: the command line on the same scenario (`clatter orbits SCENARIO`, `section`,
`dib`: the same library calls, so bit for bit), spec/003_dib.md 5.7 for [NDC]'s row 5-9 (mu* =
0.544805, the region-9 multipliers -0.7208, 0.6100, 0.1008 +- 0.6007i, 0), and the closed form of
the ball's period-1 orbit ([B] 6.3: SN at 1.2735988, PD at 3.1575320 for e* = 0.9).
"""
import csv
import json
import math
import os

import numpy as np
import pytest

import clatter

SOLVE = "y,theta,xdot,ydot,thetadot"


@pytest.fixture(scope="module")
def ndc(examples):
    return clatter.load_scenario(os.path.join(examples, "ndc_case_5_9.toml"))


def test_orbit_equals_the_command_line(ndc, examples, cli, tmp_path):
    o = clatter.periodic_orbit(ndc, SOLVE, anchor="x", drift="v_dr", period=5.92187)
    assert o["converged"]
    p = cli("orbits", os.path.join(examples, "ndc_case_5_9.toml"), "--anchor", "x", "--drift",
            "v_dr", "--period", "5.92187", "--solve", SOLVE, "--no-plot", "--out",
            tmp_path / "o")
    j = json.loads(p.stdout)
    assert o["period"] == j["period"]
    assert [complex(m["re"], m["im"]) for m in j["multipliers"]] == list(o["multipliers"])
    # spec 5.7, region 9 (the file's mu = 0.5448 is below mu*): to 1e-3 (mu is 5e-6 from mu*)
    expected = [-0.7208, 0.6100, 0.1008 + 0.6007j, 0.1008 - 0.6007j, 0.0]
    got = list(o["multipliers"])
    for e in expected:
        best = min(got, key=lambda g: abs(g - e))
        assert abs(best - e) < 1e-3
        got.remove(best)
    assert [e["region"] for e in o["events"] if e["kind"] == "impact"] == [9]


def test_variational_monodromy_equals_differences(ndc):
    a = clatter.periodic_orbit(ndc, SOLVE, anchor="x", drift="v_dr", period=5.92187)
    b = clatter.periodic_orbit(ndc, SOLVE, anchor="x", drift="v_dr", period=5.92187,
                               monodromy="variational")
    assert np.max(np.abs(a["monodromy"] - b["monodromy"])) < 1e-6


def test_poincare_equals_the_command_line(ndc, examples, cli, tmp_path):
    py = clatter.poincare(ndc, "impact", count=8, t_max=100.0, contact=0)
    out = tmp_path / "s"
    cli("section", os.path.join(examples, "ndc_case_5_9.toml"), "--section", "impact:P1",
        "--count", "8", "--t-max", "100", "--no-plot", "--out", out)
    with open(out / "section.csv") as f:
        rows = list(csv.DictReader(f))
    names = clatter.state_names(ndc.model)
    assert len(rows) == len(py["t"]) == 8
    for k, r in enumerate(rows):
        assert float(r["t"]) == py["t"][k]
        for i, n in enumerate(names):
            assert float(r[n]) == py.x[k, i] == py[n][k]


def test_boundary_crossing_equals_the_command_line_and_spec(ndc, examples, cli, tmp_path):
    b = clatter.boundary_crossing(ndc, SOLVE, "mu", (5, 9), anchor="x", drift="v_dr",
                                  period=5.92187)
    assert b["converged"]
    assert abs(b["critical_value"] - 0.544805) < 1e-6
    assert b["verdict"] == "persistence"
    p = cli("dib", os.path.join(examples, "ndc_case_5_9.toml"), "--anchor", "x", "--drift",
            "v_dr", "--period", "5.92187", "--solve", SOLVE, "--param", "mu", "--regions", "5,9",
            "--no-plot", "--out", tmp_path / "d")
    j = json.loads(p.stdout)
    assert j["critical_value"] == b["critical_value"]
    assert j["classification"]["one_minus_sigma"] == b["one_minus_sigma"]
    # the explicit normal form (spec/003_dib.md 5.4: 1 - sigma = 0.9402, D = 2.7448), the same
    # in both interfaces
    nf = b["normal_form"]
    assert abs(nf["one_minus_sigma"] - 0.9402) < 1e-4
    assert abs(nf["D"] - 2.7448) < 1e-4
    assert j["normal_form"]["one_minus_sigma"] == nf["one_minus_sigma"]
    assert j["normal_form"]["D"] == nf["D"]
    assert np.allclose(np.array(j["normal_form"]["dQ_dz"]), nf["dQ_dz"], rtol=0, atol=0)


def test_continuation_of_the_flat_rod_finds_the_closed_form_fold_and_flip(examples):
    # the rod of [BP] started flat on the closed-form period-1 orbit at omega = 2.2 (e* = 0.9)
    sc = clatter.load_scenario(os.path.join(examples, "bp_fig8a.toml"))
    model = sc.model.with_parameter("surface.omega", 2.2)
    g, w, e = 9.81, 2.2, 0.9
    phi = math.acos(math.pi * (1 - e) / (1 + e) / (w * w / g))
    v = g * math.pi / w
    tau = math.pi / w  # half a period after the impact
    q = [0.0, math.sin(phi) + v * tau - 0.5 * g * tau * tau, 0.0]
    qd = [0.0, v - g * tau, 0.0]
    found = {}
    for direction in (-1, 1):
        b = clatter.continue_orbit(model, "y,ydot", "surface.omega", (0.5, 3.3),
                                   direction=direction, ds=0.05, ds_max=0.2, q=q, qd=qd,
                                   t0=(phi + math.pi) / w)
        for kind, p in zip(b.bifurcations["kind"], b.bifurcations["p"]):
            found.setdefault(kind, p)
    assert abs(found["SN"] - 1.2735988) < 1e-6
    assert abs(found["PD"] - 3.1575320) < 1e-6


def test_bad_arguments_raise_value_error(ndc):
    with pytest.raises(ValueError, match="solve"):
        clatter.periodic_orbit(ndc, "y,zdot", anchor="x", drift="v_dr", period=5.9)
    with pytest.raises(ValueError, match="period"):
        clatter.periodic_orbit(ndc, SOLVE, anchor="x")
    with pytest.raises(ValueError, match="regions"):
        clatter.boundary_crossing(ndc, SOLVE, "mu", (1, 2), anchor="x", drift="v_dr",
                                  period=5.92187)
    # a keyword the orbit does not take is refused, not ignored (a misspelt `transients=` would
    # silently drop the transient, and the branch follow another orbit)
    with pytest.raises(TypeError, match="transients"):
        clatter.continue_orbit(ndc, SOLVE, "mu", (0.5, 0.6), anchor="x", drift="v_dr",
                               period=5.92187, transients=100)
    with pytest.raises(TypeError, match="componnet"):  # a misspelt section key
        clatter.poincare(ndc, section="crossing", count=2, componnet="ydot")
    with pytest.raises(TypeError, match="monodromy"):
        clatter.boundary_crossing(ndc, SOLVE, "mu", (5, 9), anchor="x", drift="v_dr",
                                  period=5.92187, monodromy="variational")
