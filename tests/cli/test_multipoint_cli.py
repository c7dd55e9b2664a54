#!/usr/bin/python3
"""Command-line tests of `clatter multipoint` (run by ctest as multipoint_cli_tests).

    /usr/bin/python3 tests/cli/test_multipoint_cli.py path/to/clatter

Checks: exit status 2 and a message naming the option for bad input; the JSON summary (status,
events with e* per event, impulses, post velocities, energies, slip changes) for the Table 6.1 ball
and the five-ball cradle; the CSV columns; the PNG of one run; nothing half-written in OUT.
"""

import csv
import json
import math
import os
import subprocess
import sys
import tempfile

FAILURES = []
EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                        "examples")


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print(f"FAIL: {what}", file=sys.stderr)


def thesis_work_binary(masses, L, R, e, a0, b0):
    """Ball A (q-dot a0) on ball B (b0) of [R]'s cradle, frictionless, with the thesis's normal
    work (4.7) W_N = f(theta) - f(theta-), f = vT J_T+^T M J_N+ vN + 1/2 vN J_N+^T M J_N+ vN
    (J+ the pseudo-inverse of the contact's rows), ended at W_N = (1 - e^2) W_Nc (4.11).
    Independent of the solver: the impulse P on the contact gives I_A a = I_A a0 - L P,
    I_B b = I_B b0 + L P; W_N(P) is then a parabola in P. Returns (a, b) after."""
    i_a, i_b = (m * (L * L + 0.4 * R * R) for m in masses[:2])
    jn, jt = (-L, L), (-R, -R)  # rows of v_N = L(b - a), v_T = -R(a + b)
    def pinv(row):
        n2 = row[0] ** 2 + row[1] ** 2
        return (row[0] / n2, row[1] / n2)
    pn, pt = pinv(jn), pinv(jt)
    c_tn = pt[0] * i_a * pn[0] + pt[1] * i_b * pn[1]
    c_nn = pn[0] * i_a * pn[0] + pn[1] * i_b * pn[1]
    def state(P):
        return a0 - L * P / i_a, b0 + L * P / i_b
    def f(P):
        a, b = state(P)
        vn, vt = jn[0] * a + jn[1] * b, jt[0] * a + jt[1] * b
        return c_tn * vt * vn + 0.5 * c_nn * vn * vn
    # W(P) = alpha P + beta P^2 from three exact samples of the quadratic
    w1, w2 = f(1.0) - f(0.0), f(2.0) - f(0.0)
    beta = (w2 - 2.0 * w1) / 2.0
    alpha = w1 - beta
    p_c = -alpha / (2.0 * beta)
    w_c = alpha * p_c + beta * p_c * p_c
    w_f = (1.0 - e * e) * w_c
    # the event ends at the later root of W(P) = W_Nf, after the compression end
    root = math.sqrt(alpha * alpha + 4.0 * beta * w_f)
    p_f = max((-alpha - root) / (2.0 * beta), (-alpha + root) / (2.0 * beta))
    assert p_f > p_c
    return state(p_f)


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

        # the engine's collision law is the command's with --work-def integral --compression
        # first-minimum ([issue 27] item 8): `simulate` of a cradle with the middle ball doubled
        # writes a row per contact and event (docs/engine.md); each event's q-dot before and
        # after equal the command's events to round-off. The command's default (thesis work)
        # gives A-B a different second event, with effective restitution 0.32 instead of e* = 0.85.
        masses = [0.166, 0.332, 0.166]
        with open(os.path.join(EXAMPLES, "cradle3.toml")) as f:
            text = f.read().replace("n = 3\n", f"masses = {masses}\n").replace("mass = 0.166\n", "")
        scenario = os.path.join(tmp, "cradle_unequal.toml")
        with open(scenario, "w") as f:
            f.write(text)
        sim = os.path.join(tmp, "sim")
        r = subprocess.run([exe, "simulate", scenario, "--t-end", "0.3", "--no-plot", "--out", sim],
                           capture_output=True, text=True)
        check(r.returncode == 0, f"simulate unequal cradle: {r.stderr}")
        with open(os.path.join(sim, "events.csv"), newline="") as f:
            rows = [row for row in csv.DictReader(f) if row["kind"] == "impact"]
        first = [row for row in rows if row["t"] == rows[0]["t"]]
        engine = []  # (q-dot before, q-dot after) per event, from its rows
        for row in first:
            pre = [float(row[f"theta_{b}dot_pre"]) for b in "ABC"]
            post = [float(row[f"theta_{b}dot_post"]) for b in "ABC"]
            if not engine or engine[-1][0] != pre:
                engine.append((pre, post))
        L = 0.30
        speed = engine[0][0][0] * L
        common = ["--preset", "cradle", "--masses", *map(str, masses), "--v-pre", repr(speed),
                  "--e-star", "0.85", "--no-plot"]
        r = run(exe, *common, "--work-def", "integral", "--compression", "first-minimum",
                "--out", os.path.join(tmp, "mp_engine"))
        check(r.returncode == 0, f"multipoint integral: {r.stderr}")
        j = json.loads(r.stdout)
        check(j["params"]["compression"] == "first-minimum", "compression reported")
        check(len(j["events"]) == len(engine) == 2,
              f"two events in both: {len(j['events'])}, {len(engine)}")
        for (pre, post), e in zip(engine, j["events"]):
            for a, b in zip(pre + post, e["qdot_pre"] + e["qdot_post"]):
                check(abs(a - b) <= 1e-12 * (1.0 + abs(b)), f"engine event {pre}->{post} vs {e}")
        r = run(exe, *common, "--out", os.path.join(tmp, "mp_thesis"))
        j = json.loads(r.stdout)
        check(j["params"]["work_def"] == "thesis", "the command's default work is the thesis's")
        pre = j["events"][1]["qdot_pre"]
        expected = thesis_work_binary(masses, L, 0.05, 0.85, pre[0], pre[1])
        got = j["events"][1]["qdot_post"][:2]
        check(all(abs(a - b) <= 1e-9 * (1.0 + abs(b)) for a, b in zip(got, expected)),
              f"thesis work, A on B: {got} against the (4.7) closed form {expected}")
        restitution = (got[1] - got[0]) / pre[0]
        check(abs(restitution - 0.85) > 0.3,
              f"the thesis work's effective restitution differs from e*: {restitution}")

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
