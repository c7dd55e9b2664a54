"""The branches of [NDC] Figs 6-7 asserted, not only plotted ([issue 27], fidelity): each case's
orbit continued on both sides of the critical value (boundary_crossing(span=...), as `clatter dib
--span`), and the branch structure the paper states (spec/003_dib.md §5.3-5.5):
  1-3 (Fig. 6a,b): a nonsmooth fold, both branches for mu > mu*; region 3 asymptotically stable
      with one multiplier 0 (the final stick), region 1 unstable;
  5-9 (Fig. 6c,d): persistence, region 5 for mu > mu*, region 9 for mu < mu*, both stable;
  1-10 (Fig. 7d): persistence, region 1 for mu > mu*, region 10 for mu < mu*, both stable;
  4-6 (Fig. 7a,b) and 5-6 (Fig. 7c, parameter v_dr): persistence, one stable branch on each side.
Every point is admissible (H has its side's sign). The critical values are §5.7's to 1e-4."""
import csv
import os

import pytest

import clatter

SOLVE = "y,theta,xdot,ydot,thetadot"
# case: (file, parameter, period guess, regions, critical value (§5.7),
#        {region: (side of p*: +1 above, -1 below, stable)})
CASES = {
    "1-3": ("ndc_case_1_3.toml", "mu", 3.8598, (1, 3), 0.850684, {1: (1, False), 3: (1, True)}),
    "5-9": ("ndc_case_5_9.toml", "mu", 5.92187, (5, 9), 0.544805, {5: (1, True), 9: (-1, True)}),
    "1-10": ("ndc_case_1_10.toml", "mu", 5.54703, (1, 10), 0.349487,
             {1: (1, True), 10: (-1, True)}),
    "4-6": ("ndc_case_4_6.toml", "mu", 5.73246, (4, 6), 0.935476, {4: (-1, True), 6: (1, True)}),
    "5-6": ("ndc_case_5_6.toml", "v_dr", 5.53726, (5, 6), -0.205365,
            {5: (1, True), 6: (-1, True)}),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_branches_on_both_sides_of_the_boundary(case, examples, tmp_path):
    name, param, period, regions, critical, expected = CASES[case]
    sc = clatter.load_scenario(os.path.join(examples, name))
    span = 0.01
    b = clatter.boundary_crossing(sc, SOLVE, param, regions, anchor="x", drift="v_dr",
                                  period=period, span=span, kink_step=0.0, out=str(tmp_path),
                                  plot=False)
    assert b["converged"], b["message"]
    p_star = b["critical_value"]
    assert p_star == pytest.approx(critical, abs=1e-4)
    with open(tmp_path / "branches.csv") as f:
        rows = list(csv.DictReader(f))
    assert rows
    near = {}  # per region: the points within span of p*, before any later region change
    for r in rows:
        p = float(r["p"])
        assert r["admissible"] == "1", r
        assert abs(p - p_star) <= span + 1e-9
        near.setdefault(int(r["region"]), []).append(r)
    for region, (side, stable) in expected.items():
        points = near.get(region, [])
        assert len(points) >= 3, (case, region, sorted(near))
        for r in points:
            assert (float(r["p"]) - p_star) * side > 0, (case, region, r["p"])
            assert (r["stable"] == "1") == stable, (case, region, r["p"], r["max_abs_multiplier"])
    if case == "1-3":  # the region 3 orbit ends its impact in stick: a zero multiplier
        for r in near[3]:
            lam = [float(v) for k, v in r.items() if k.startswith("abs_lambda")]
            assert min(lam) < 1e-6
