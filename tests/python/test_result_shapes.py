"""One shape per kind of result ([issue 27], "Python results come in four shapes"): a continued
branch is a Branch (a Table of its points that knows its bifurcations and where it is stable), a
sweep a Sweep (a Table of its records with to_xarray() over the grid). The values checked come
from the ball's closed forms (analysis/impact_oscillator.hpp, [B] §6.3): the period-1 orbit of a
ball on A sin(omega t) with restitution e = 0.9 is stable up to its period doubling at
omega_PD = 3.15753, and its apex lies sin(phi) + g pi^2 / (2 omega^2) above the table's rest
level."""
import math
import os

import numpy as np
import pytest

import clatter

G = 9.81


@pytest.fixture(scope="module")
def ball(examples):
    return clatter.load_scenario(os.path.join(examples, "ball_table_period1.toml"))


@pytest.fixture(scope="module")
def branch(ball):
    return clatter.continue_orbit(ball, "y,ydot", "surface.omega", (2.9, 3.3), direction="up",
                                  ds=0.05, transient=100)


def test_a_branch_is_a_table_of_its_points(branch):
    assert isinstance(branch, clatter.Branch) and isinstance(branch, clatter.Table)
    n = len(branch["p"])
    assert n >= 5
    for name in ("branch", "p", "period", "y", "ydot", "stable", "max_abs_multiplier", "tau_sn",
                 "tau_pd", "tau_ns", "margin", "sticks"):
        assert len(branch[name]) == n, name
    assert branch["u"].shape == (n, 2)
    assert np.array_equal(branch["u"][:, 0], branch["y"])  # the solved components by name
    frame = branch.to_pandas()
    assert list(frame.columns[:5]) == ["branch", "p", "period", "y", "ydot"]
    assert "u" not in frame.columns
    ds = branch.to_xarray()
    assert ds.sizes["point"] == n and np.array_equal(ds["p"].values, branch["p"])


def test_a_branch_knows_its_bifurcations_and_its_stability(branch):
    pd = branch.bifurcation("PD")
    assert len(pd) == 1 and pd[0] == pytest.approx(3.15753, abs=1e-5)
    bif = branch.bifurcations
    assert isinstance(bif, clatter.Table)
    k = list(bif["kind"]).index("PD")
    assert bif["branch"][k] == "up" and bif["u"][k].shape == (2,)
    assert len(bif["multipliers"][k]) == 2
    # stable from the start (omega = 3) up to the flip, unstable beyond it
    intervals = branch.stable_intervals()
    assert intervals[0][0] == "up"
    lo, hi = intervals[0][1], intervals[0][2]
    assert lo == pytest.approx(3.0, abs=1e-12)
    assert hi < 3.15753 and hi > 3.15753 - 0.1  # the last stable point within a step of the flip
    assert not branch["stable"][branch["p"] > 3.16].any()
    assert branch.directions[0]["direction"] == "up" and branch.end == branch.directions[0]["end"]
    assert branch.solved == ["y", "ydot"]


def test_a_sweep_is_a_table_with_its_grid(ball):
    r = clatter.sweep_parameters(ball, [("surface.omega", 3.0, 3.1, 2), ("e", 0.8, 0.9, 2)],
                                 transient_periods=300, record_periods=5)
    assert isinstance(r, clatter.Sweep) and r.parameters == ["surface.omega", "e"] and r.complete
    assert len(r["values"]) == 4 and all(isinstance(v, np.ndarray) for v in r["values"])
    assert list(r.to_pandas().columns)[:2] == ["surface.omega", "e"]
    ds = r.to_xarray()
    assert dict(ds.sizes) == {"surface.omega": 2, "e": 2, "run": 1, "record": 5}
    for w in (3.0, 3.1):
        c = clatter.closed_form_orbit(1.0, w, G, 0.9, 1)
        apex = math.sin(c["stable_phase"]) + G * math.pi ** 2 / (2 * w * w)
        got = ds["values"].sel({"surface.omega": w, "e": 0.9}).values[0]
        assert np.nanmax(np.abs(got - apex)) < 1e-9 and not np.isnan(got).any()
        # each record lands in its own cell
        k = np.flatnonzero((r["surface.omega"] == w) & (r["e"] == 0.9))[0]
        assert ds["reason"].sel({"surface.omega": w, "e": 0.9}).values[0] == r["reason"][k]
        assert ds["distinct"].sel({"surface.omega": w, "e": 0.9}).values[0] == r["distinct"][k]
