#!/usr/bin/python3
"""`clatter orbits SCENARIO`, `clatter continue SCENARIO`, `clatter section SCENARIO` (issue 10).

Usage: /usr/bin/python3 tests/cli/test_orbits_cli.py PATH/TO/clatter

- the rod on a belt of [NDC] row 5-9 (examples/ndc_case_5_9.toml, mu = 0.5448 < mu* = 0.544805:
  its impact in region 9): the orbit's period and multipliers against spec/003_dib.md 5.7
  (T = 5.92187, multipliers -0.7208, 0.6100, 0.1008 +- 0.6007i, 0; 1e-3 since the file's mu is
  5e-6 from mu*), the same JSON by both monodromy routes to 1e-6;
- the ball's e* = 0.9 period-1 branch continued in surface.omega from the rod of [BP] started
  flat: SN and PD at the closed form 1.2735988 / 3.1575320 (docs/analysis.md) to 1e-6;
- `clatter dib` on the five cases of [NDC]: Table 5's scaled variables at the critical impact and
  the explicit normal form's 1 - sigma, D (spec/003_dib.md 5.3-5.4);
- McGeer's rimless wheel (examples/rimless_wheel, a plugin) with --modulo-symmetry: the gait's
  mid-stance angular velocity and step multiplier against McGeer's closed form (rimless_wheel.cpp:
  w0 = 0.9646634853, eta^2 = 0.2975206612) to 1e-7 / 1e-5, and continued in the slope;
- Garcia et al.'s compass-gait walker (examples/compass_gait, a plugin whose swing foot is
  guarded): `simulate` walks ten steps, heel strikes alternating, one per step time 3.88; its gait
  on the impact section of foot B modulo the leg swap has multipliers of modulus 0.589, Garcia's
  stride map's |-0.1901 +- 0.5576i| = 0.5891 (tests/python/test_compass_gait.py computes it; 2e-3
  for the feet of mass 1e-4); with the leg angles left out the orbit is refused, not "converged";
- bad input exits 2 naming the option and writes nothing.
"""
import csv
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
EXAMPLES = os.path.join(ROOT, "examples")
CLATTER = None

NDC = ["orbits", os.path.join(EXAMPLES, "ndc_case_5_9.toml"), "--anchor", "x", "--drift", "v_dr",
       "--period", "5.92187", "--solve", "y,theta,xdot,ydot,thetadot"]


def run(*args, timeout=300):
    p = subprocess.run([CLATTER, *map(str, args)], capture_output=True, text=True,
                       timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def near_multiset(test, expected, got, tol):
    got = list(got)
    for e in expected:
        best = min(got, key=lambda g: abs(g - e))
        test.assertLess(abs(best - e), tol, f"expected {e}, nearest {best}")
        got.remove(best)


class OrbitsCli(unittest.TestCase):
    def test_ndc_row_5_9(self):
        with tempfile.TemporaryDirectory() as d:
            results = {}
            for method in ("differences", "variational"):
                out = os.path.join(d, method)
                rc, stdout, err = run(*NDC, "--monodromy", method, "--out", out)
                self.assertEqual(rc, 0, err)
                j = json.loads(stdout)
                self.assertTrue(j["converged"])
                self.assertAlmostEqual(j["period"], 5.92187, delta=2e-5)
                self.assertEqual([e["region"] for e in j["events"] if e["kind"] == "impact"], [9])
                lam = [complex(m["re"], m["im"]) for m in j["multipliers"]]
                near_multiset(self, [-0.7208, 0.6100, 0.1008 + 0.6007j, 0.1008 - 0.6007j, 0.0],
                              lam, 1e-3)
                results[method] = lam
                self.assertEqual(sorted(os.listdir(out)),
                                 ["orbit.json", "orbit.png", "timeseries.csv"])
                with open(os.path.join(out, "timeseries.csv")) as f:
                    rows = list(csv.DictReader(f))
                self.assertGreater(len(rows), 900)
            near_multiset(self, results["differences"], results["variational"], 1e-6)

    def test_continue_flat_rod(self):
        with tempfile.TemporaryDirectory() as d:
            # the rod at omega = 2.2 on the closed-form period-1 orbit, 0.01 s after its impact
            with open(os.path.join(EXAMPLES, "bp_fig8a.toml")) as f:
                src = f.read()
            src = src.replace("omega = 3.0", "omega = 2.2")
            src = src.split("[initial]")[0] + (
                "[initial]\nt = 0.5686580483700359\nq = [0.0, 1.0817660545988688, 0.0]\n"
                "qdot = [0.0, 13.91054724168903, 0.0]\n\n[simulation]\nt_end = 1.0\n"
                "two_contact = \"symmetric\"\n")
            path = os.path.join(d, "flat.toml")
            with open(path, "w") as f:
                f.write(src)
            out = os.path.join(d, "c")
            rc, stdout, err = run("continue", path, "--solve", "y,ydot", "--param",
                                  "surface.omega", "--range", "0.5", "3.3", "--ds", "0.05",
                                  "--ds-max", "0.2", "--out", out)
            self.assertEqual(rc, 0, err)
            j = json.loads(stdout)
            found = {b["kind"]: b["p"] for br in j["branches"] for b in br["bifurcations"]
                     if b["kind"] in ("SN", "PD")}
            self.assertAlmostEqual(found["SN"], 1.2735988, delta=1e-6)
            self.assertAlmostEqual(found["PD"], 3.1575320, delta=1e-6)
            self.assertEqual(sorted(os.listdir(out)),
                             ["bifurcations.csv", "branch.csv", "branch.png", "summary.json"])

    def test_continue_says_when_it_starts_on_an_unstable_orbit(self):
        # the ball on A sin(wt), e = 0.9, w = 3 (Gamma = 0.917): a stable 1-1 orbit and a saddle
        # coexist. Newton from the scenario's start (the ball at rest) lands on the saddle, which
        # the command now says; after a transient it starts on the stable orbit, whose multipliers
        # are a complex pair of modulus e (the impact map's determinant is e^2)
        path = os.path.join(EXAMPLES, "ball_table_period1.toml")
        with tempfile.TemporaryDirectory() as d:
            args = ["continue", path, "--solve", "y,ydot", "--param", "surface.omega", "--range",
                    "2.9", "3.1", "--ds", "0.05", "--no-plot"]
            rc, _, err = run(*args, "--out", os.path.join(d, "a"))
            self.assertEqual(rc, 0, err)
            self.assertIn("start orbit is unstable", err)
            self.assertIn("--transient", err)
            rc, out, err = run(*args, "--transient", "100", "--out", os.path.join(d, "b"))
            self.assertEqual(rc, 0, err)
            self.assertNotIn("unstable", err)
            with open(os.path.join(d, "b", "branch.csv")) as f:
                first = next(csv.DictReader(f))
            self.assertEqual(first["stable"], "1")
            self.assertAlmostEqual(float(first["max_abs_multiplier"]), 0.9, delta=1e-6)

    def test_orbits_says_when_only_a_neutral_multiplier_makes_it_unstable(self):
        # the same ball with its x and xdot solved for: x is cyclic and xdot conserved (Newton's
        # frictionless law), two multipliers 1 exactly beside the pair of modulus e = 0.9; the
        # orbit is reported "stable": false and the note says why
        path = os.path.join(EXAMPLES, "ball_table_period1.toml")
        with tempfile.TemporaryDirectory() as d:
            rc, out, err = run("orbits", path, "--solve", "x,y,xdot,ydot", "--transient", "100",
                               "--out", d, "--no-plot")
            self.assertEqual(rc, 0, err)
            moduli = sorted(m["abs"] for m in json.loads(out)["multipliers"])
            self.assertAlmostEqual(moduli[0], 0.9, delta=1e-6)
            self.assertAlmostEqual(moduli[-1], 1.0, delta=1e-9)
            self.assertIn("the only multiplier on or outside the unit circle is 1", err)
        # without them the orbit is stable and nothing is said
        with tempfile.TemporaryDirectory() as d:
            rc, out, err = run("orbits", path, "--solve", "y,ydot", "--transient", "100",
                               "--out", d, "--no-plot")
            self.assertEqual(rc, 0, err)
            self.assertTrue(json.loads(out)["stable"])
            self.assertNotIn("note", err)

    def test_section_impact_map_settles_on_the_ndc_orbit(self):
        # the impact map of [NDC] row 5-9 from Table 4's state: the orbit is stable (spec 5.7
        # multipliers below 1 in modulus), so the return times settle on T = 5.92187 and the
        # impacts on u*'s theta = 2.28167 (1e-4: the file's mu is 5e-6 from mu*)
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "s")
            rc, stdout, err = run("section", os.path.join(EXAMPLES, "ndc_case_5_9.toml"),
                                  "--section", "impact:P1", "--count", "12", "--t-max", "100",
                                  "--out", out)
            self.assertEqual(rc, 0, err)
            with open(os.path.join(out, "section.csv")) as f:
                rows = list(csv.DictReader(f))
            self.assertEqual(len(rows), 12)
            t = [float(r["t"]) for r in rows]
            self.assertAlmostEqual(t[-1] - t[-2], 5.92187, delta=1e-4)
            self.assertAlmostEqual(float(rows[-1]["theta"]), 2.28167, delta=1e-4)
            self.assertEqual(sorted(os.listdir(out)), ["section.csv", "section.png", "summary.json"])

    def test_region_maps_follow_the_parameter_panels(self):
        # spec/003_dib.md 3.3 (scaled, B = 0.5): panel (d) mu < B: v_T > 0 is region 1, v_T < 0
        # gives 2, 8, 10; panel (a) B < mu < 1/B: regions 1-6 only; panel (b) mu B > 1: every
        # v_T > 0 is region 5, v_T < 0 gives 2, 4, 6. Table 2: all ten regions appear in the
        # mu = 0.5 section (Fig. 4c).
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "b")
            rc, _, err = run("regions", "--fix", "B", "0.5", "--n", "121", "--out", out)
            self.assertEqual(rc, 0, err)
            with open(os.path.join(out, "regions.csv")) as f:
                rows = [(float(r["mu"]), float(r["v_T"]), int(r["region"]))
                        for r in csv.DictReader(f)]
            def regions(lo, hi, positive):
                return {g for m, v, g in rows if lo < m < hi and v != 0 and (v > 0) == positive}
            self.assertEqual(regions(0.0, 0.49, True), {1})
            self.assertLessEqual(regions(0.0, 0.49, False), {2, 8, 10})
            self.assertLessEqual(regions(0.51, 1.99, True) | regions(0.51, 1.99, False),
                                 {1, 2, 3, 4, 5, 6})
            self.assertEqual(regions(2.01, 3.1, True), {5})
            self.assertLessEqual(regions(2.01, 3.1, False), {2, 4, 6})
            out = os.path.join(d, "mu")
            rc, stdout, err = run("regions", "--fix", "mu", "0.5", "--n", "201", "--out", out)
            self.assertEqual(rc, 0, err)
            present = {int(k) for k in json.loads(stdout)["points"]}
            self.assertTrue(set(range(1, 11)) <= present, present)
            self.assertEqual(run("regions", "--fix", "B", "1.5")[0], 2)
            self.assertEqual(run("regions")[0], 2)

    def test_dib_table5_scaled_variables_and_normal_form(self):
        # [NDC] Table 5 (spec/003_dib.md 5.2): the scaled law variables (B, mu, v_T,0) at the
        # critical impact of each of the five cases, from Table 4's state and Table 3's
        # parameters, to 1e-4 (4 printed digits; measured at the digest's critical states: within
        # 6e-5); the explicit normal form's 1 - sigma and D of cases 1-3 and 5-9 (spec 5.3, 5.4:
        # -0.7594, 5.0087; 0.9402, 2.7448) to 1e-4
        cases = [
            ("ndc_case_1_3.toml", "mu", "3.8598", "1,3", (0.5946, 0.9405, 1.5692), (-0.7594, 5.0087)),
            ("ndc_case_5_9.toml", "mu", "5.92187", "5,9", (-0.5957, 0.5957, 0.8026), (0.9402, 2.7448)),
            ("ndc_case_4_6.toml", "mu", "5.73246", "4,6", (-0.5926, 0.8323, -0.4730), None),
            ("ndc_case_5_6.toml", "v_dr", "5.53726", "5,6", (0.5146, 1.1659, 0.0), None),
            ("ndc_case_1_10.toml", "mu", "5.54703", "1,10", (0.5165, 0.5075, 0.0), None),
        ]
        with tempfile.TemporaryDirectory() as d:
            for name, param, period, regions, table5, feigin in cases:
                with self.subTest(name):
                    out = os.path.join(d, name)
                    rc, stdout, err = run(
                        "dib", os.path.join(EXAMPLES, name), "--anchor", "x", "--drift", "v_dr",
                        "--period", period, "--solve", "y,theta,xdot,ydot,thetadot", "--param",
                        param, "--regions", regions, "--kink-step", "0", "--no-plot", "--out", out)
                    self.assertEqual(rc, 0, err)
                    j = json.loads(stdout)
                    s = j["impact"]["scaled"]
                    for key, want in zip(("B", "mu", "v_T"), table5):
                        self.assertAlmostEqual(s[key], want, delta=1e-4, msg=key)
                    nf = j["normal_form"]
                    if feigin:
                        self.assertAlmostEqual(nf["one_minus_sigma"], feigin[0], delta=1e-4)
                        self.assertAlmostEqual(nf["D"], feigin[1], delta=1e-4)
                    # the explicit and the two-sided estimates agree (O(offset))
                    self.assertAlmostEqual(nf["one_minus_sigma"],
                                           j["classification"]["one_minus_sigma"], delta=2e-3)
                    if name == "ndc_case_1_3.toml":
                        # the Newton with variational Jacobians: the same mu* (both to 1e-10)
                        rc, stdout, err = run(
                            "dib", os.path.join(EXAMPLES, name), "--anchor", "x", "--drift",
                            "v_dr", "--period", period, "--solve", "y,theta,xdot,ydot,thetadot",
                            "--param", param, "--regions", regions, "--newton", "variational",
                            "--kink-step", "0", "--no-plot", "--out", out + "_v")
                        self.assertEqual(rc, 0, err)
                        jv = json.loads(stdout)
                        self.assertAlmostEqual(jv["critical_value"], j["critical_value"],
                                               delta=1e-8)
                        self.assertLess(jv["flows"], j["flows"])
        # the same scaling from `clatter impact` at case 1-3's printed impact (spec 5.3: A, B, C,
        # v; Table 5 to 1e-4)
        rc, stdout, err = run("impact", "--law", "stronge", "--W", "2.75", "1.479", "2.25",
                              "--mu", "0.850684", "--e", "1", "--v", "3.2869", "-1.8947")
        self.assertEqual(rc, 0, err)
        s = json.loads(stdout)["scaled"]
        self.assertAlmostEqual(s["B"], 0.5946, delta=1e-4)
        self.assertAlmostEqual(s["mu"], 0.9405, delta=1e-4)
        self.assertAlmostEqual(s["v_T"], 1.5692, delta=1e-4)

    def test_rimless_wheel_gait_modulo_its_symmetry(self):
        wheel = os.path.join(EXAMPLES, "rimless_wheel", "rimless_wheel.toml")
        gait = [wheel, "--anchor", "theta", "--period", "1", "--solve", "xdot,ydot,thetadot",
                "--modulo-symmetry", "--closed", "spoke0"]
        with tempfile.TemporaryDirectory() as d:
            rc, stdout, err = run("orbits", *gait, "--out", os.path.join(d, "o"))
            self.assertEqual(rc, 0, err)
            j = json.loads(stdout)
            self.assertTrue(j["converged"], j["message"])
            self.assertIn("spoke k -> k + 1", j["section"]["symmetry"])
            self.assertAlmostEqual(j["state"]["thetadot"], -0.9646634853375121, delta=1e-7)
            self.assertAlmostEqual(j["multipliers"][0]["abs"], 0.29752066115702486, delta=1e-5)
            # the gait exists where it passes over the top of each step: slope > 0.1573
            rc, stdout, err = run("continue", *gait, "--param", "slope", "--range", "0.17",
                                  "0.25", "--out", os.path.join(d, "c"))
            self.assertEqual(rc, 0, err)
            with open(os.path.join(d, "c", "branch.csv")) as f:
                rows = list(csv.DictReader(f))
            self.assertGreaterEqual(len(rows), 3)
            for r in rows:
                self.assertAlmostEqual(float(r["max_abs_multiplier"]), 0.29752066115702486,
                                       delta=1e-5)
            # the same gait on the impact section of spoke 0 (from its 3rd impact in the
            # scenario's run): the post-impact angular velocity is -w* = -1.2250684657
            rc, stdout, err = run("orbits", wheel, "--impact-section", "spoke0",
                                  "--modulo-symmetry", "--transient", 2, "--out",
                                  os.path.join(d, "i"))
            self.assertEqual(rc, 0, err)
            j = json.loads(stdout)
            self.assertEqual(j["section"]["kind"], "impact")
            self.assertAlmostEqual(j["state"]["thetadot"], -1.2250684657377762, delta=1e-8)
            self.assertAlmostEqual(j["multipliers"][0]["abs"], 0.29752066115702486, delta=1e-5)
            # a model without a symmetry: refused, naming the option, nothing written
            rc, _, err = run("orbits", os.path.join(EXAMPLES, "rocking_block.toml"), "--anchor",
                             "theta", "--period", "1", "--modulo-symmetry", "--out",
                             os.path.join(d, "bad"))
            self.assertEqual(rc, 2, err)
            self.assertIn("symmetry", err)
            self.assertFalse(os.path.exists(os.path.join(d, "bad")))

    def test_compass_gait_walks_and_its_gait_is_garcias(self):
        walker = os.path.join(EXAMPLES, "compass_gait", "compass_gait.toml")
        with tempfile.TemporaryDirectory() as d:
            rc, _, err = run("simulate", walker, "--out", os.path.join(d, "s"), "--no-plot")
            self.assertEqual(rc, 0, err)
            with open(os.path.join(d, "s", "events.csv")) as f:
                hits = [r for r in csv.DictReader(f) if r["kind"] == "impact"]
            self.assertEqual([r["contact"] for r in hits], ["footA", "footB"] * 5)
            for k, r in enumerate(hits):
                self.assertAlmostEqual(float(r["t"]), 3.8825 * (k + 1), delta=0.01 * (k + 1))
            gait = ["orbits", walker, "--impact-section", "footB", "--modulo-symmetry",
                    "--start-on-section"]
            rc, stdout, err = run(*gait, "--solve", "y,thetaA,thetaB,xdot,ydot,thetaAdot,thetaBdot",
                                  "--out", os.path.join(d, "o"), "--no-plot")
            self.assertEqual(rc, 0, err)
            j = json.loads(stdout)
            self.assertTrue(j["converged"], j["message"])
            self.assertTrue(j["stable"])
            self.assertAlmostEqual(j["multipliers"][0]["abs"], 0.5891, delta=2e-3)
            self.assertAlmostEqual(j["state"]["thetaB"], 0.2003109, delta=1e-3)
            rc, stdout, err = run(*gait, "--solve", "xdot,ydot,thetaAdot,thetaBdot", "--out",
                                  os.path.join(d, "v"), "--no-plot")
            self.assertIn("is not solved for", stdout + err)
            self.assertNotIn('"converged": true', stdout)

    def test_bad_input(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "o")
            cases = [
                ([*NDC[:-1], "y,zdot"], "solve"),
                ([*NDC, "--monodromy", "exact"], "monodromy"),
                (["orbits", os.path.join(EXAMPLES, "ndc_case_5_9.toml"), "--solve", "y"],
                 "frequency"),
                (["continue", os.path.join(EXAMPLES, "bp_fig8a.toml"), "--param", "nope",
                  "--range", "1", "2", "--solve", "y,ydot"], "nope"),
                (["continue", os.path.join(EXAMPLES, "bp_fig8a.toml"), "--param",
                  "surface.omega", "--range", "4", "5", "--solve", "y,ydot"], "range"),
                (["section", os.path.join(EXAMPLES, "rod_fig5.toml"), "--section",
                  "crossing:zdot:0"], "section"),
                (["section", os.path.join(EXAMPLES, "rod_fig5.toml"), "--section",
                  "event:bounce"], "section"),
                (["section", os.path.join(EXAMPLES, "rod_fig5.toml"), "--count", "0"], "count"),
                (["dib", os.path.join(EXAMPLES, "ndc_case_1_3.toml"), "--anchor", "x",
                  "--period", "3.8598", "--solve", "y,theta,xdot,ydot,thetadot", "--param", "mu",
                  "--regions", "1,3", "--newton", "exact"], "newton"),
            ]
            for args, field in cases:
                rc, _, err = run(*args, "--out", out)
                self.assertEqual(rc, 2, f"{args}: {err}")
                self.assertIn(field, err)
                self.assertFalse(os.path.exists(out))


if __name__ == "__main__":
    CLATTER = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
