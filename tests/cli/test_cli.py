#!/usr/bin/python3
"""Command-line tests of `clatter impact` and `clatter impact-sweep`.

Usage: /usr/bin/python3 tests/cli/test_cli.py PATH/TO/clatter

What is checked
- the JSON keys the foundation issue names, for every law;
- the rigid-body form against an independent pure-Python implementation of the closed-form
  Stronge map (bench/peers/stronge_map.py), on random rod impacts, to 1e-9;
- bad input (mu < 0, e outside [0, 1], W not SPD, v_N >= 0, NaN, unknown law, unknown preset)
  exits with code 2 and a message naming the field, and writes no output file;
- impact-sweep writes its CSV, markers and PNG, and the CSV is complete (thesis Fig 3.8 stick
  boundaries V_TC- = -0.12344 and +0.00989 appear in the markers to 1e-4);
- simulate writes timeseries.csv, events.csv, summary.json and plot.png; the ball on a fixed floor
  (examples/ball_zeno.toml) ends its chatter at t = sqrt(2 h0/g)(1 + e)/(1 - e) to 1e-9;
  a bad scenario exits with 2, names the key, and writes nothing;
- painleve (double pendulum on a belt) gives the impact-without-collision release velocities of
  [B] Fig 6.7 to 1e-6 and refuses bad input;
- orbits (continuation) locates SN and PD at the thesis's printed omegas to 5e-5, the grazing of
  the unstable branch and two doublings of the cascade, writes its files, and refuses bad input.
"""
import csv
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "bench", "peers"))
import stronge_map  # noqa: E402  (the independent Python peer)

CLATTER = None


def run(*args):
    p = subprocess.run([CLATTER, *map(str, args)], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


class ImpactCommand(unittest.TestCase):
    def test_keys_for_every_law(self):
        for law in ["stronge", "stronge-marcher", "newton", "whittaker", "poisson", "brach"]:
            rc, out, err = run("impact", "--law", law, "--W", 2.75, 1.479, 2.25, "--mu", 0.5,
                               "--e", 0.8, "--v", 0.3, -1.0)
            self.assertEqual(rc, 0, err)
            j = json.loads(out)
            for key in ["v_post", "Lambda", "region", "case", "delta_energy", "status"]:
                self.assertIn(key, j, law)
            self.assertEqual(len(j["v_post"]), 2)
            self.assertEqual(len(j["Lambda"]), 2)
            if law.startswith("stronge"):
                self.assertIn(j["region"], range(0, 11))
            else:
                self.assertIsNone(j["region"])
            if law == "brach":
                self.assertIn(j["case"], range(1, 9))
            else:
                self.assertIsNone(j["case"])
            # Coulomb cone and v_N+ >= 0 (every law here) — |Λ_T| ≤ μΛ_N
            self.assertLessEqual(abs(j["Lambda"][0]), 0.5 * j["Lambda"][1] * (1 + 1e-12))
            self.assertGreaterEqual(j["v_post"][1], 0.0)

    def test_rigid_body_form_matches_independent_python_peer(self):
        # spec/000_thesis.md §3.2 rod (m = 1, I = 1/3, L = 1, contact at P1 = G - L(cos, sin));
        # the peer shares no code with the library
        rng = random.Random(5)
        checked = 0
        while checked < 25:
            theta = rng.uniform(0.01, 3.13)
            qdot = [rng.uniform(-3, 3), rng.uniform(-3, 0), rng.uniform(-3, 3)]
            v_N = qdot[1] - math.cos(theta) * qdot[2]
            if v_N > -1e-3:
                continue
            mu, e = rng.uniform(0, 2), rng.uniform(0, 1)
            rc, out, err = run("impact", "--law", "stronge", "--mass", 1, "--inertia",
                               repr(1 / 3), "--offset", 1, "--angle", repr(theta), "--qdot",
                               *map(repr, qdot), "--mu", repr(mu), "--e", repr(e))
            self.assertEqual(rc, 0, err)
            j = json.loads(out)
            expected, region = stronge_map.impact(theta, qdot, mu, e)
            for a, b in zip(j["qdot_post"], expected):
                self.assertAlmostEqual(a, b, delta=1e-9 * max(1.0, abs(b)))
            self.assertEqual(j["region"], region)
            self.assertLessEqual(j["kinetic_energy_post"], j["kinetic_energy_pre"] * (1 + 1e-12))
            checked += 1

    def test_energy_gain_is_reported_not_hidden(self):
        # Whittaker gains energy when the slip would reverse within the impact: the
        # outcome says so (status energy_gain) with ΔE > 0
        found = False
        rng = random.Random(3)
        for _ in range(400):
            th = rng.uniform(0.05, 3.1)
            s, c = math.sin(th), math.cos(th)
            W = (1 + 3 * s * s, 3 * s * c, 1 + 3 * c * c)
            v = (rng.uniform(-2, 2), -rng.uniform(0.1, 2))
            mu, e = rng.uniform(0, 3), rng.uniform(0, 1)
            rc, out, err = run("impact", "--law", "whittaker", "--W", *map(repr, W), "--mu",
                               repr(mu), "--e", repr(e), "--v", *map(repr, v))
            self.assertEqual(rc, 0, err)
            j = json.loads(out)
            if j["status"] == "energy_gain":
                self.assertGreater(j["delta_energy"], 0.0)
                found = True
                break
        self.assertTrue(found, "no Whittaker energy gain found in 400 random rod impacts")

    def test_bad_input_names_the_field(self):
        base = ["impact", "--law", "stronge", "--W", 2, 0.5, 1, "--mu", 0.5, "--e", 0.5,
                "--v", 0.1, -1]

        def with_(opt, *vals):
            args = list(base)
            i = args.index(opt)
            n = {"--W": 3, "--v": 2}.get(opt, 1)
            args[i + 1:i + 1 + n] = list(vals)
            return args

        cases = [
            (with_("--mu", -0.1), "mu"),
            (with_("--e", 1.5), "e"),
            (with_("--e", -0.5), "e"),
            (with_("--W", 1, 2, 1), "W"),
            (with_("--W", -1, 0, 1), "W"),
            (with_("--v", 0.1, 0.0), "v_N"),
            (with_("--v", 0.1, 0.5), "v_N"),
            (with_("--v", "nan", -1), "--v: NaN"),  # NaN is no option's value (main.cpp)
            (with_("--mu", "nan"), "mu"),
            (with_("--law", "hertz"), "law"),
        ]
        with tempfile.TemporaryDirectory() as d:
            for args, field in cases:
                target = os.path.join(d, "out.json")
                rc, out, err = run(*args, "--out", target)
                self.assertEqual(rc, 2, f"{args}: {err}")
                self.assertIn(field, err, f"{args}: {err}")
                self.assertEqual(out, "")
                self.assertFalse(os.path.exists(target), "no output on bad input")

    def test_rigid_body_bad_input(self):
        rc, _, err = run("impact", "--mass", -1, "--inertia", 0.3, "--offset", 1, "--angle", 1,
                         "--qdot", 0, -1, 0, "--mu", 0.5, "--e", 0.5)
        self.assertEqual(rc, 2)
        self.assertIn("mass", err)


class ImpactSweepCommand(unittest.TestCase):
    def test_fig38_preset_writes_complete_outputs(self):
        with tempfile.TemporaryDirectory() as d:
            out_dir = os.path.join(d, "fig3.8")
            rc, out, err = run("impact-sweep", "--preset", "fig3.8", "--n", 401, "--out", out_dir)
            self.assertEqual(rc, 0, err)
            summary = json.loads(out)
            for f in ["map.csv", "markers.csv", "map.png"]:
                path = os.path.join(out_dir, f)
                self.assertTrue(os.path.getsize(path) > 0, f)
            with open(os.path.join(out_dir, "map.csv")) as fh:
                rows = list(csv.DictReader(fh))
            self.assertEqual(len(rows), 401)
            with open(os.path.join(out_dir, "map.png"), "rb") as fh:
                self.assertEqual(fh.read(8), b"\x89PNG\r\n\x1a\n")
            # [B] Fig 3.8 stick boundaries ([DERIVED] in spec/000_thesis.md §6.1)
            marks = {t["name"]: t["v_TC_pre"] for t in summary["transitions"]}
            self.assertAlmostEqual(marks["region 2->4"], -0.12344, delta=1e-4)
            self.assertAlmostEqual(marks["region 3->1"], 0.00989, delta=1e-4)

    def test_bad_preset_and_range_leave_no_output(self):
        with tempfile.TemporaryDirectory() as d:
            out_dir = os.path.join(d, "x")
            rc, _, err = run("impact-sweep", "--preset", "fig9.9", "--out", out_dir)
            self.assertEqual(rc, 2)
            self.assertIn("preset", err)
            self.assertFalse(os.path.exists(os.path.join(out_dir, "map.csv")))
            rc, _, err = run("impact-sweep", "--preset", "fig3.8", "--e", 2, "--out", out_dir)
            self.assertEqual(rc, 2)
            self.assertIn("e", err)
            self.assertFalse(os.path.exists(os.path.join(out_dir, "map.csv")))


class SimulateCommand(unittest.TestCase):
    def test_ball_zeno_example_writes_everything(self):
        with tempfile.TemporaryDirectory() as d:
            out_dir = os.path.join(d, "zeno")
            rc, out, err = run("simulate", os.path.join(ROOT, "examples", "ball_zeno.toml"),
                               "--out", out_dir)
            self.assertEqual(rc, 0, err)
            summary = json.loads(out)
            self.assertEqual(summary["reason"], "end_time")
            for f in ["timeseries.csv", "events.csv", "summary.json", "plot.png"]:
                self.assertTrue(os.path.getsize(os.path.join(out_dir, f)) > 0, f)
            with open(os.path.join(out_dir, "summary.json")) as fh:
                self.assertEqual(json.load(fh)["counts"], summary["counts"])
            with open(os.path.join(out_dir, "events.csv")) as fh:
                events = list(csv.DictReader(fh))
            ends = [float(e["t"]) for e in events if e["kind"] == "chatter_end"]
            self.assertEqual(len(ends), 1)
            g, e, h0 = 9.81, 0.7, 1.0
            self.assertAlmostEqual(ends[0], math.sqrt(2 * h0 / g) * (1 + e) / (1 - e), delta=1e-9)
            self.assertLess(abs(summary["energy"]["balance"]), 1e-9)
            with open(os.path.join(out_dir, "timeseries.csv")) as fh:
                rows = list(csv.DictReader(fh))
            self.assertGreater(len(rows), 3000)
            self.assertIn("ball_gap", rows[0])

    def test_bad_scenario_names_the_key_and_writes_nothing(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(ROOT, "examples", "ball_zeno.toml")) as fh:
                text = fh.read()
            # the TOML key the user wrote (issue 9 item 10), not the model's field name
            for bad, key in [(text.replace("e = 0.7", "e = 1.7"), "error: law.e"),
                             (text.replace("mass = 1.0", "mas = 1.0"), "model.mas"),
                             (text.replace("t_end = 4.0", "t_end = -4.0"), "simulation.t_end"),
                             (text.replace("[law]", "[law"), "line")]:
                path = os.path.join(d, "bad.toml")
                with open(path, "w") as fh:
                    fh.write(bad)
                out_dir = os.path.join(d, "out")
                rc, out, err = run("simulate", path, "--out", out_dir)
                self.assertEqual(rc, 2, err)
                self.assertIn(key, err)
                self.assertEqual(out, "")
                self.assertFalse(os.path.exists(out_dir))
            rc, _, err = run("simulate", os.path.join(d, "missing.toml"))
            self.assertEqual(rc, 2)
            self.assertIn("cannot read", err)


class OrbitsCommand(unittest.TestCase):
    def test_fig10_bifurcations_and_outputs(self):
        # [BP] Fig. 10 / [B] Fig 5.10 and the closed form of spec/000_thesis.md §6.3 (4 decimals)
        with tempfile.TemporaryDirectory() as d:
            out_dir = os.path.join(d, "orbits")
            rc, out, err = run("orbits", "--e", 0.9, 0.5, "--cascade", 2, "--out", out_dir)
            self.assertEqual(rc, 0, err)
            summary = json.loads(out)
            for f in ["branches.csv", "bifurcations.csv", "summary.json", "orbits.png"]:
                self.assertTrue(os.path.getsize(os.path.join(out_dir, f)) > 0, f)
            with open(os.path.join(out_dir, "bifurcations.csv")) as fh:
                rows = list(csv.DictReader(fh))
            table = {"0.9": (1.2736, 3.1575), "0.5": (3.2052, 3.8702)}
            for e, (sn, pd) in table.items():
                first = [r for r in rows if r["e"] == e and r["impacts"] == "1"]
                kinds = {r["kind"]: float(r["omega"]) for r in first}
                self.assertEqual(sorted(kinds), ["PD", "SN", "grazing"])
                self.assertAlmostEqual(kinds["SN"], sn, delta=5e-5)
                self.assertAlmostEqual(kinds["PD"], pd, delta=5e-5)
                # the cascade: the PD of the 2- and 4-impact orbits, in increasing omega
                doubled = [float(r["omega"]) for r in rows if r["e"] == e and r["impacts"] != "1"]
                self.assertEqual(len(doubled), 2)
                self.assertTrue(kinds["PD"] < doubled[0] < doubled[1])
            ends = {r["e"]: (r["end_low"], r["end_high"]) for r in summary["restitutions"]}
            self.assertEqual(ends[0.9], ("grazing", "parameter_range"))
            with open(os.path.join(out_dir, "branches.csv")) as fh:
                points = list(csv.DictReader(fh))
            self.assertGreater(len(points), 100)

    def test_bad_input_names_the_field_and_writes_nothing(self):
        with tempfile.TemporaryDirectory() as d:
            out_dir = os.path.join(d, "orbits")
            for args, field in [(["--e", 1.5], "e"), (["--periods", 0], "periods"),
                                (["--omega-range", 5, 1], "omega_max"),
                                (["--cascade", 9], "cascade"),
                                (["--omega-range", 4, 7], "omega-range")]:
                rc, out, err = run("orbits", *args, "--out", out_dir)
                self.assertEqual(rc, 2, err)
                self.assertIn(field, err)
                self.assertEqual(out, "")
                self.assertFalse(os.path.exists(out_dir))


class PainleveCommand(unittest.TestCase):
    def test_fig67b_release_velocities_and_outputs(self):
        # [B] Fig 6.7(b), spec/000_thesis.md §7 [DERIVED]: c2_dot+ = 0.005738 (mu_p = 0.82),
        # 0.350531 (1.3); mu_c = 0.819962
        with tempfile.TemporaryDirectory() as d:
            out_dir = os.path.join(d, "p")
            rc, out, err = run("painleve", "--preset", "fig6.7b", "--out", out_dir)
            self.assertEqual(rc, 0, err)
            summary = json.loads(out)
            self.assertAlmostEqual(summary["contact"]["mu_critical"], 0.819962, delta=1e-6)
            got = {r["mu_p"]: [e for e in r["events"] if e["kind"] == "impact_without_collision"]
                   for r in summary["runs"]}
            self.assertAlmostEqual(got[0.82][0]["v_post"][1], 0.005738, delta=1e-6)
            self.assertAlmostEqual(got[1.3][0]["v_post"][1], 0.350531, delta=1e-6)
            for f in ["timeseries.csv", "events.csv", "summary.json", "plot.png"]:
                self.assertTrue(os.path.getsize(os.path.join(out_dir, f)) > 0, f)

    def test_bad_input_names_the_field_and_writes_nothing(self):
        with tempfile.TemporaryDirectory() as d:
            out_dir = os.path.join(d, "p")
            # the message names the option as the user typed it (issue 9 item 10)
            for args, field in [(["--preset", "fig9"], "--preset"), (["--e", 2], "--e"),
                                (["--mu-p", -1], "--mu-p"), (["--t-end", 1.0], "--t-end"),
                                (["--torque", "nan"], "--torque"), (["--theta", "nan"], "--theta")]:
                rc, out, err = run("painleve", *args, "--out", out_dir)
                self.assertEqual(rc, 2, err)
                self.assertTrue(err.startswith(f"clatter: error: {field}: "), err)
                self.assertEqual(len(err.splitlines()), 1, err)
                self.assertEqual(out, "")
                self.assertFalse(os.path.exists(out_dir))


class ReproduceCommand(unittest.TestCase):
    def test_list_and_one_reproduction(self):
        rc, out, err = run("reproduce", "--list")
        self.assertEqual(rc, 0, err)
        names = [line.split("\t")[0] for line in out.splitlines()]
        for name in ["fig3.8", "bp-fig5", "ball-zeno", "pendulum-fig4.14", "cradle3",
                     "cradle3-engine", "rocking-block-engine", "ball-corner-engine"]:
            self.assertIn(name, names)
        with tempfile.TemporaryDirectory() as d:
            rc, out, err = run("reproduce", "ball-zeno", "--out", d)
            self.assertEqual(rc, 0, err)
            folder = os.path.join(d, "ball-zeno")
            # what the files say, not only that they exist: [B] §4.2.6, h0 = 1, e = 0.7, the
            # complete chatter ends at t = sqrt(2 h0/g)(1 + e)/(1 - e) = 2.5586 (printed to 4
            # decimals; the closed form is exact, so 1e-9 against it and 5e-5 against the print)
            with open(os.path.join(folder, "events.csv"), newline="") as fh:
                ends = [float(r["t"]) for r in csv.DictReader(fh) if r["kind"] == "chatter_end"]
            self.assertEqual(len(ends), 1)
            self.assertAlmostEqual(ends[0], math.sqrt(2 / 9.81) * 1.7 / 0.3, delta=1e-9)
            self.assertAlmostEqual(ends[0], 2.5586, delta=5e-5)
            with open(os.path.join(folder, "summary.json")) as fh:
                summary = json.load(fh)
            self.assertEqual(summary["reason"], "end_time")
            self.assertLess(abs(summary["energy"]["balance"]), 1e-9)
            with open(os.path.join(folder, "timeseries.csv"), newline="") as fh:
                rows = list(csv.DictReader(fh))
            self.assertAlmostEqual(float(rows[0]["y"]), 1.0, delta=1e-12)  # released from h0
            self.assertLess(abs(float(rows[-1]["ydot"])), 1e-12)  # at rest after the chatter
            with open(os.path.join(folder, "plot.png"), "rb") as fh:
                head = fh.read(24)
            self.assertEqual(head[:8], b"\x89PNG\r\n\x1a\n")  # a PNG, with a real size
            width, height = int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
            self.assertGreater(width, 300)
            self.assertGreater(height, 200)
            # a model other than a planar body: the generic plot style
            rc, out, err = run("reproduce", "cradle3-engine", "--out", d)
            self.assertEqual(rc, 0, err)
            for f in ["timeseries.csv", "events.csv", "summary.json", "plot.png"]:
                self.assertTrue(os.path.getsize(os.path.join(d, "cradle3-engine", f)) > 0, f)
            rc, _, err = run("reproduce", "fig9.99", "--out", d)
            self.assertEqual(rc, 2)
            self.assertIn("name", err)


class ModelsCommand(unittest.TestCase):
    def test_lists_kinds_and_a_scenarios_parameters_by_name(self):
        rc, out, err = run("models")
        self.assertEqual(rc, 0, err)
        kinds = [k["kind"] for k in json.loads(out)["kinds"]]
        for k in ("ball", "rod", "block", "body", "double_pendulum_belt"):
            self.assertIn(k, kinds)
        rc, out, err = run("models", "--scenario", os.path.join(ROOT, "examples", "rod_fig5.toml"))
        self.assertEqual(rc, 0, err)
        d = json.loads(out)
        self.assertEqual(d["coordinates"], ["x", "y", "theta"])
        params = {p["name"]: p["value"] for p in d["parameters"]}
        self.assertAlmostEqual(params["surface.omega"], 4.4050)  # [BP] Fig. 5 caption
        self.assertAlmostEqual(params["contact.P1.e"], 0.8)
        self.assertTrue(d["capabilities"]["exact_flight"])

    def test_scenario_of_a_non_planar_kind_runs(self):
        with tempfile.TemporaryDirectory() as d:
            rc, out, err = run("simulate", os.path.join(ROOT, "examples", "double_pendulum_stick_slip.toml"),
                               "--out", d, "--no-plot")
            self.assertEqual(rc, 0, err)
            summary = json.loads(out)
            self.assertEqual(summary["kind"], "double_pendulum_belt")
            with open(os.path.join(d, "timeseries.csv")) as fh:
                header = fh.readline().strip().split(",")
            self.assertEqual(header[:5], ["t", "theta", "phi", "thetadot", "phidot"])
            self.assertIn("end_gap", header)


if __name__ == "__main__":
    CLATTER = sys.argv.pop(1)
    unittest.main(verbosity=2)
