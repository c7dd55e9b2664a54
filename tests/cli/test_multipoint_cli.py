#!/usr/bin/python3
"""Command-line tests of `clatter multipoint` (run by ctest as multipoint_cli_tests).

    /usr/bin/python3 tests/cli/test_multipoint_cli.py path/to/clatter

Checks: exit status 2 and a message naming the option for bad input; the JSON summary (status,
events with e* per event, impulses, post velocities, energies, slip changes) for the Table 6.1 ball
and the five-ball cradle; the CSV columns; the PNG of one run; nothing half-written in OUT.
"""

import csv
import json
import os
import subprocess
import sys
import tempfile

FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print(f"FAIL: {what}", file=sys.stderr)


def run(exe, *args):
    return subprocess.run([exe, "multipoint", *args], capture_output=True, text=True)


def main():
    exe = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        # bad input: exit 2, the field named
        for args, field in ((["--preset", "nope"], "preset"),
                            (["--preset", "ball-corner", "--e-star", "1.5"], "--e-star"),
                            (["--preset", "ball-corner", "--work-def", "x"], "work-def"),
                            (["--preset", "ball-corner", "--mu-s", "0.1", "--mu-d", "0.3"], "--mu-s"),
                            (["--preset", "cradle3", "--qdot", "1", "2"], "qdot")):
            r = run(exe, *args, "--no-plot", "--out", os.path.join(tmp, "bad"))
            check(r.returncode == 2, f"{args}: exit 2, got {r.returncode}")
            check(field in r.stderr, f"{args}: message names {field}: {r.stderr!r}")
        check(not os.path.exists(os.path.join(tmp, "bad", "summary.json")), "no output on error")

        # Table 6.1 ball: JSON, CSV and PNG
        out = os.path.join(tmp, "ball")
        r = run(exe, "--preset", "ball-corner", "--out", out)
        check(r.returncode == 0, f"ball-corner exit 0: {r.stderr}")
        j = json.loads(r.stdout)
        with open(os.path.join(out, "summary.json")) as f:
            check(json.load(f) == j, "summary.json equals stdout")
        check(j["status"] == "ok" and j["n_events"] == 1, "ball: one event, ok")
        check(abs(j["qdot_post"][0] + 5.504) < 0.01 * 5.504, "ball: Table 6.1 qdot1+")
        ev = j["events"][0]
        check(ev["e_star"] == 0.715, "ball: e* of the event")
        check([c["kind"] for c in ev["slip_changes"]] == ["stick", "reversal"], "ball: ST kinds")
        check(ev["kinetic_energy_post"] < ev["kinetic_energy_pre"], "ball: energy lost")
        check(ev["Lambda"]["ground"]["N"] > 0 and ev["Lambda"]["wall"]["N"] > 0, "ball: impulses")
        with open(os.path.join(out, "trace.csv"), newline="") as f:
            rows = list(csv.DictReader(f))
        for col in ("event", "P", "work_N", "Lambda_N_ground", "v_T_ground", "v_N_wall"):
            check(col in rows[0], f"trace.csv has {col}")
        check(abs(float(rows[-1]["work_N"]) - ev["work_N_end"]) < 1e-9, "trace ends at W_N end")
        png = os.path.join(out, "multipoint.png")
        check(os.path.isfile(png) and os.path.getsize(png) > 1000, "PNG written")
        check(not [n for n in os.listdir(out) if ".tmp" in n], "no temporary files left")

        # the integral work, selectable
        r = run(exe, "--preset", "ball-corner", "--work-def", "integral", "--no-plot", "--out", out)
        j = json.loads(r.stdout)
        check(abs(j["qdot_post"][0] + 2.53) < 0.01, "ball with integral work: qdot1+ = -2.53")

        # five-ball cradle, case 2: four events, e* each
        r = run(exe, "--preset", "cradle5-case2", "--no-plot", "--out", os.path.join(tmp, "c5"))
        j = json.loads(r.stdout)
        check(j["n_events"] == 4, "cradle5-case2: four events")
        check(j["derived"]["event_contacts"] == ["AB,BC,CD,DE", "AB,BC,CD", "AB,BC", "AB"],
              "cradle5-case2: A-E, A-D, A-C, A-B")
        check([e["e_star"] for e in j["events"]] == [0.8] * 4, "cradle5-case2: e* per event")

        # 3-D sphere: spatial columns
        out3 = os.path.join(tmp, "sphere")
        r = run(exe, "--preset", "sphere-corner", "--no-plot", "--out", out3)
        check(r.returncode == 0, "sphere-corner exit 0")
        with open(os.path.join(out3, "trace.csv"), newline="") as f:
            header = next(csv.reader(f))
        check("s_B_ground" in header and "phi_C_wall_x" in header, f"3-D columns: {header[:8]}")
    if FAILURES:
        print(f"{len(FAILURES)} failure(s)", file=sys.stderr)
        return 1
    print("multipoint CLI: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
