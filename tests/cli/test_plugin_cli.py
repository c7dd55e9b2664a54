#!/usr/bin/python3
"""A user's model as a plugin, through the command line (model/plugin.hpp, issue 25 item 1).

Usage: /usr/bin/python3 tests/cli/test_plugin_cli.py PATH/TO/clatter TEST_PLUGIN_DIR EXAMPLE_PLUGIN

- `clatter simulate examples/user_model/user_model.toml` (its [model] names plugin "spring_box")
  gives the closed form of the spring box: the impact times and speeds of the file's comment,
  x(t) = (u0/w) sin(w t) to t1 = asin(w L/u0)/w, speed u1 = sqrt(u0^2 - w^2 L^2), each impact
  multiplying it by e, a crossing with speed u taking (pi - 2 atan(u/(w L)))/w; to 1e-9;
- `clatter models --plugin PATH` lists the plugin's kinds with their source, before or after the
  command's name;
- a missing plugin, a file that is not one, one built against another clatter, a factory that
  throws: one line on stderr naming the file, exit 2, nothing written.
"""
import csv
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCENARIO = os.path.join(ROOT, "examples", "user_model", "user_model.toml")
CLATTER = PLUGINS = EXAMPLE = None


def run(*args, timeout=120):
    p = subprocess.run([CLATTER, *map(str, args)], capture_output=True, text=True,
                       timeout=timeout)
    return p.returncode, p.stdout, p.stderr


class PluginCli(unittest.TestCase):
    def test_simulate_the_example_plugin_against_the_closed_form(self):
        with tempfile.TemporaryDirectory() as d:
            rc, out, err = run("simulate", SCENARIO, "--out", d, "--no-plot")
            self.assertEqual(rc, 0, err)
            self.assertEqual(json.loads(out)["reason"], "end_time")
            with open(os.path.join(d, "events.csv")) as f:
                impacts = [r for r in csv.DictReader(f) if r["kind"] == "impact"]
        m, k_x, L, e, u0, t_end = 2.0, 8.0, 0.5, 0.8, 3.0, 6.0  # user_model.toml
        w = math.sqrt(k_x / m)
        t, u, expected = math.asin(w * L / u0) / w, math.sqrt(u0 * u0 - w * w * L * L), []
        while t <= t_end:
            expected.append((t, u))
            u *= e
            t += (math.pi - 2.0 * math.atan(u / (w * L))) / w
        self.assertEqual(len(impacts), len(expected))
        for k, (row, (t, u)) in enumerate(zip(impacts, expected)):
            self.assertEqual(row["contact"], "right" if k % 2 == 0 else "left")
            self.assertAlmostEqual(float(row["t"]), t, delta=1e-9)
            self.assertAlmostEqual(-float(row["v_N_pre"]), u, delta=1e-9)
            self.assertAlmostEqual(float(row["v_N_post"]), e * u, delta=1e-9)

    def test_models_lists_a_plugin_given_before_or_after_the_command(self):
        for args in (("--plugin", EXAMPLE, "models"), ("models", "--plugin", EXAMPLE)):
            rc, out, err = run(*args)
            self.assertEqual(rc, 0, err)
            j = json.loads(out)
            self.assertEqual([p["kinds"] for p in j["plugins"]], [["spring_box"]])
            self.assertEqual(j["plugins"][0]["path"], os.path.realpath(EXAMPLE))
            kinds = {k["kind"]: k["source"] for k in j["kinds"]}
            self.assertEqual(kinds["spring_box"], "plugin " + os.path.realpath(EXAMPLE))
            self.assertEqual(kinds["ball"], "built-in")
        # without the plugin the kind is unknown
        rc, out, _ = run("models")
        self.assertNotIn("spring_box", [k["kind"] for k in json.loads(out)["kinds"]])

    def test_plugin_between_the_command_and_the_scenario(self):
        # `simulate --plugin P SCENARIO`: P alone is the option's value (a new user's report:
        # the scenario was taken as a second plugin path, then "scenario is required")
        with tempfile.TemporaryDirectory() as d:
            scenario = os.path.join(d, "box.toml")
            with open(SCENARIO) as f, open(scenario, "w") as g:
                g.writelines(line for line in f if not line.startswith("plugin"))
            rc, _, err = run("simulate", "--plugin", EXAMPLE, scenario, "--out", d, "--no-plot")
            self.assertEqual(rc, 0, err)
            with open(os.path.join(d, "events.csv")) as f:
                first = next(r for r in csv.DictReader(f) if r["kind"] == "impact")
        w, L, u0 = math.sqrt(8.0 / 2.0), 0.5, 3.0  # user_model.toml: t1 = asin(w L/u0)/w
        self.assertAlmostEqual(float(first["t"]), math.asin(w * L / u0) / w, delta=1e-9)

    def test_a_kind_loaded_by_plugin_is_used_by_a_scenario_naming_its_plugin(self):
        # the scenario's `plugin = "spring_box"` was looked up by name even though --plugin had
        # loaded it: "no plugin 'spring_box'" where it is not installed, "registered already"
        # where it is
        with tempfile.TemporaryDirectory() as d:
            # the scenario names a copy of the library beside it (an installed one, say)
            shutil.copy(EXAMPLE, os.path.join(d, "libspring_box.so"))
            scenario = os.path.join(d, "box.toml")
            with open(SCENARIO) as f, open(scenario, "w") as g:
                g.write(f.read().replace('plugin = "spring_box"', 'plugin = "libspring_box.so"'))
            env = {k: v for k, v in os.environ.items() if k != "CLATTER_PLUGIN_PATH"}
            p = subprocess.run([CLATTER, "simulate", "--plugin", EXAMPLE, scenario, "--out", d,
                                "--no-plot", "--t-end", "1"], capture_output=True, text=True,
                               timeout=120, env=env)
            self.assertEqual(p.returncode, 0, p.stderr)

    def test_bad_plugins_are_one_line_and_exit_2(self):
        cases = [
            (os.path.join(PLUGINS, "missing.so"), "missing.so: no such file"),
            (SCENARIO, "cannot be loaded as a shared library"),
            (os.path.join(PLUGINS, "wrong_version.so"), "was built against clatter 0.0.0"),
            (os.path.join(PLUGINS, "wrong_abi.so"), "plugin ABI 999"),
            (os.path.join(PLUGINS, "duplicate_kind.so"), "kind 'ball' is registered already"),
        ]
        for path, message in cases:
            with tempfile.TemporaryDirectory() as d:
                out = os.path.join(d, "out")
                rc, _, err = run("simulate", SCENARIO, "--out", out, "--plugin", path)
                self.assertEqual(rc, 2, err)
                self.assertEqual(err.count("\n"), 1, err)
                self.assertTrue(err.startswith("clatter: error: --plugin: "), err)
                self.assertIn(os.path.basename(path), err)
                self.assertIn(message, err)
                self.assertFalse(os.path.exists(out), "nothing is written")

    def test_a_factory_that_throws_is_exit_2_naming_kind_and_plugin(self):
        with tempfile.TemporaryDirectory() as d:
            scenario = os.path.join(d, "s.toml")
            with open(scenario, "w") as f:
                f.write('[model]\nplugin = "%s"\nkind = "throwing_model"\n'
                        '[initial]\nq = [0.0]\nqdot = [0.0]\n[simulation]\nt_end = 1.0\n'
                        % os.path.join(PLUGINS, "throwing_factory.so"))
            out = os.path.join(d, "out")
            rc, _, err = run("simulate", scenario, "--out", out)
            self.assertEqual(rc, 2, err)
            self.assertIn("model.kind: the factory of kind 'throwing_model' (plugin ", err)
            self.assertIn("failed: the test factory always fails", err)
            self.assertFalse(os.path.exists(out))

    def test_a_model_failing_conformance_is_a_warning_or_with_strict_an_error(self):
        # tests/plugins/bad_plugins.cpp case 6: J_N has the wrong sign (the gap's gradient check)
        with tempfile.TemporaryDirectory() as d:
            scenario = os.path.join(d, "s.toml")
            with open(scenario, "w") as f:
                f.write('[model]\nplugin = "%s"\nkind = "broken_model"\n[law]\nkind = "newton"\n'
                        'e = 0.5\n[initial]\nq = [0.0, 1.0]\nqdot = [0.0, 0.0]\n'
                        '[simulation]\nt_end = 0.5\n' % os.path.join(PLUGINS, "broken_model.so"))
            rc, _, err = run("simulate", scenario, "--out", os.path.join(d, "warned"), "--no-plot")
            self.assertEqual(rc, 0, err)
            self.assertEqual(err.count("\n"), 1, err)
            self.assertIn("clatter: warning: the model of kind 'broken_model' (plugin ", err)
            self.assertIn("fails its conformance check at the initial state: "
                          "contact.floor.gap_gradient", err)
            out = os.path.join(d, "refused")
            rc, _, err = run("--strict", "simulate", scenario, "--out", out)
            self.assertEqual(rc, 2, err)
            self.assertTrue(err.startswith("clatter: error: model: the model of kind"), err)
            self.assertIn("(--strict)", err)
            self.assertFalse(os.path.exists(out))
            # a plugin model that passes (the example) gives no warning
            rc, _, err = run("simulate", SCENARIO, "--out", os.path.join(d, "ok"), "--no-plot")
            self.assertEqual((rc, err), (0, ""))

    def test_a_scenario_plugin_path_is_relative_to_the_scenario(self):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "lib"))
            os.symlink(EXAMPLE, os.path.join(d, "lib", "libspring_box.so"))
            with open(SCENARIO) as f:
                text = f.read().replace('plugin = "spring_box"', 'plugin = "lib/libspring_box.so"')
            scenario = os.path.join(d, "s.toml")
            with open(scenario, "w") as f:
                f.write(text)
            rc, out, err = run("simulate", scenario, "--out", os.path.join(d, "o"), "--no-plot",
                               "--t-end", "1")
            self.assertEqual(rc, 0, err)
            # and a name that is nowhere: the places looked in are listed
            with open(scenario, "w") as f:
                f.write(text.replace('"lib/libspring_box.so"', '"nowhere"'))
            rc, _, err = run("simulate", scenario, "--out", os.path.join(d, "o2"))
            self.assertEqual(rc, 2, err)
            self.assertIn("model.plugin: no plugin 'nowhere' (libnowhere.so or nowhere.so) in "
                          + d, err)


if __name__ == "__main__":
    CLATTER, PLUGINS, EXAMPLE = map(os.path.abspath, sys.argv[1:4])
    del sys.argv[1:4]
    unittest.main(verbosity=2)
