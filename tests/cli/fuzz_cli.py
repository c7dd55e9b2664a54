#!/usr/bin/python3
"""A fuzzer of the `clatter` commands ([issue 27]: "the fuzz counts of silent accepts, NaN with
exit 0, hangs and crashes are zero on a re-run").

    /usr/bin/python3 tests/cli/fuzz_cli.py path/to/clatter [--n N] [--seed S] [--timeout T]
                                           [--jobs J] [--report FILE]

Each input is a working invocation of one command (BASES below) with one change: an option of
that command (read from its --help) given a bad or extreme value, an option repeated, the
scenario replaced by a bad file, or an unknown option. Outcomes:
  crash        killed by a signal, or an exit status other than 0 (done), 1 (a failed write),
               2 (bad input), 3 (stopped early, said why), 4 (a sweep's wall-time limit)
  hang         still running after --timeout seconds (killed)
  silent       exit 0 with a value no option accepts: nan, garbage text, an empty string
  nan_exit_0   exit 0 and an output file (CSV field, JSON) or stdout holding NaN (an infinity
               can be a value: `orbits`' grazing margin of a branch that never grazes is inf)
  ok           anything else (a refusal with exit 2, a run that finished or said why)
Exit status 1 when any input is a crash, hang, silent accept or NaN with exit 0; the report
(--report) lists each of them with its command line. The ctest `cli_fuzz_tests` runs a fixed
sample; the issue's re-run is `--n 3001`.
"""
import argparse
import concurrent.futures
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(HERE)), "examples")


def ex(name):
    return os.path.join(EXAMPLES, name)


# a working invocation per command; OUT is replaced by a fresh folder, SCENARIO marks the
# positional scenario (mutated by the scenario changes)
BASES = {
    "impact": ["--law", "stronge", "--W", "2.75", "1.479", "2.25", "--mu", "0.5", "--e", "0.8",
               "--v", "0.3", "-1.0"],
    "impact-sweep": ["--preset", "fig3.8", "--n", "21", "--no-plot", "--out", "OUT"],
    "simulate": ["SCENARIO:ball_zeno.toml", "--t-end", "1", "--no-plot", "--out", "OUT"],
    "compliant": ["--body", "pendulum", "--theta-deg", "20", "--mu", "0.45", "--eta", "0.3"],
    "compliant-sweep": ["--preset", "rigid-limit", "--n", "10", "--no-plot", "--out", "OUT"],
    "multipoint": ["--preset", "cradle3", "--no-plot", "--out", "OUT"],
    "sweep": ["SCENARIO:ball_table_period1.toml", "--param", "surface.omega", "3", "3.5", "3",
              "--transient-periods", "20", "--record-periods", "5", "--no-plot", "--out", "OUT"],
    "orbits": ["--e", "0.5", "--no-plot", "--out", "OUT"],
    "continue": ["SCENARIO:ball_table_period1.toml", "--solve", "y,ydot", "--param",
                 "surface.omega", "--range", "2.9", "3.2", "--ds", "0.1", "--no-plot", "--out",
                 "OUT"],
    "section": ["SCENARIO:ball_table_period1.toml", "--section", "impact", "--count", "5",
                "--t-max", "50", "--no-plot", "--out", "OUT"],
    "dib": ["SCENARIO:ndc_case_5_9.toml", "--anchor", "x", "--drift", "v_dr", "--period",
            "5.92187", "--solve", "y,theta,xdot,ydot,thetadot", "--param", "mu", "--regions",
            "5,9", "--kink-step", "0", "--no-plot", "--out", "OUT"],
    "regions": ["--fix", "B", "0.5", "--n", "41", "--no-plot", "--out", "OUT"],
    "painleve": ["--preset", "fig6.7b", "--no-plot", "--out", "OUT"],
    "models": [],
    "reproduce": ["ball-zeno", "--out", "OUT"],
}

# values no numeric option accepts, then extreme ones that some accept
GARBAGE = ["nan", "-nan", "NaN", "abc", "1.2.3", "", "0x", "1e", "--", "1,5"]
EXTREME = ["inf", "-inf", "1e308", "-1e308", "1e-320", "0", "-1", "-0", "2147483648",
           "9223372036854775808", "1e400", "0.0000001", "100000000"]
BAD_FILES = ["/nonexistent.toml", "/dev/null", "/", "EMPTY", "BINARY", "NOT_TOML", "HUGE_T_END"]

# "  --name TYPE  description" (CLI11: FLOAT, INT, UINT, TEXT, TEXT:{...}); flags have no TYPE
OPTION_LINE = re.compile(r"^\s+(?:-\w,)?(--[\w-]+)(?:,--[\w-]+)*(?:\{\w+\})?(?: ([A-Z][A-Z]+))?")
# options whose value is any file name (a text no option refuses)
FILE_NAMES = {"--timings", "--history"}


def options_of(exe, command):
    """The options of a command with a value (name, type) from its --help."""
    p = subprocess.run([exe, command, "--help"], capture_output=True, text=True, timeout=30)
    out = []
    for line in p.stdout.splitlines():
        m = OPTION_LINE.match(line)
        if not m or m.group(1) in ("--help", "--out") or m.group(2) is None:
            continue  # a flag, or the output folder
        out.append((m.group(1), m.group(2)))
    return out


def bad_file(kind, folder):
    path = os.path.join(folder, kind.lower() + ".toml")
    if kind == "EMPTY":
        open(path, "w").close()
    elif kind == "BINARY":
        with open(path, "wb") as f:
            f.write(bytes(range(256)) * 4)
    elif kind == "NOT_TOML":
        with open(path, "w") as f:
            f.write("[model\nkind = ball\n")
    elif kind == "HUGE_T_END":
        with open(ex("ball_zeno.toml")) as f:
            text = f.read()
        with open(path, "w") as f:
            f.write(re.sub(r"t_end\s*=.*", "t_end = 1e300", text))
    else:
        return kind
    return path


def make_input(rng, exe, options):
    """(command, args, label, is_garbage) of one mutation."""
    command = rng.choice(sorted(BASES))
    base = list(BASES[command])
    kind = rng.random()
    opts = options[command]
    if any(a.startswith("SCENARIO:") for a in base) and kind < 0.1:
        bad = rng.choice(BAD_FILES)
        args = ["BADFILE:" + bad if a.startswith("SCENARIO:") else a for a in base]
        return command, args, f"scenario {bad}", False
    if kind < 0.15 or not opts:
        return command, base + ["--no-such-option", "1"], "unknown option", True
    name, _type = rng.choice(opts)
    value = rng.choice(GARBAGE) if rng.random() < 0.5 else rng.choice(EXTREME)
    garbage = value in GARBAGE and name not in FILE_NAMES
    if name in base:  # replace the option's (first) value
        i = base.index(name)
        args = base[:i + 1] + [value] + base[i + 2:]
    else:
        args = base + [name, value]
    return command, args, f"{name} {value!r}", garbage


def nan_in_outputs(folder):
    for root, _, files in os.walk(folder):
        for fname in files:
            if not fname.endswith((".csv", ".json")):
                continue
            with open(os.path.join(root, fname), errors="replace") as f:
                text = f.read(50_000_000)
            if fname.endswith(".json"):
                if re.search(r"\bNaN\b", text):
                    return fname
            elif re.search(r"(^|,)-?nan(,|$)", text, re.IGNORECASE | re.MULTILINE):
                return fname
    return None


def run_one(exe, item, timeout):
    command, args, label, garbage = item
    work = tempfile.mkdtemp(prefix="clatter-fuzz-")
    try:
        out = os.path.join(work, "out")
        real = []
        for a in args:
            if a == "OUT":
                real.append(out)
            elif a.startswith("SCENARIO:"):
                real.append(ex(a.split(":", 1)[1]))
            elif a.startswith("BADFILE:"):
                real.append(bad_file(a.split(":", 1)[1], work))
            else:
                real.append(a)
        cmd = [exe, command, *real]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=work,
                               stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            return "hang", cmd, label, ""
        rc = p.returncode
        if rc < 0 or rc not in (0, 1, 2, 3, 4):
            return "crash", cmd, label, f"exit {rc}: {p.stderr[-300:]}"
        if rc == 0 and garbage:
            return "silent", cmd, label, p.stderr[-200:]
        if rc == 0:
            where = nan_in_outputs(work)
            if where is None and re.search(r"\b(NaN|-?nan)\b", p.stdout):
                where = "stdout"
            if where is not None:
                return "nan_exit_0", cmd, label, where
        return "ok", cmd, label, f"exit {rc}"
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("exe")
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--seed", type=int, default=27)
    ap.add_argument("--timeout", type=float, default=180.0)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--report")
    a = ap.parse_args()
    exe = os.path.abspath(a.exe)
    options = {c: options_of(exe, c) for c in BASES}
    rng = random.Random(a.seed)
    items = [make_input(rng, exe, options) for _ in range(a.n)]
    counts = {}
    bad = []
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        for outcome, cmd, label, detail in pool.map(lambda it: run_one(exe, it, a.timeout), items):
            counts[outcome] = counts.get(outcome, 0) + 1
            if outcome != "ok":
                bad.append({"outcome": outcome, "input": label, "command": cmd,
                            "detail": detail})
    summary = {"inputs": a.n, "seed": a.seed, "counts": counts, "findings": bad}
    if a.report:
        with open(a.report, "w") as f:
            json.dump(summary, f, indent=1)
    for b in bad:
        print(f"{b['outcome']}: {b['input']}: {' '.join(b['command'])} ({b['detail']})",
              file=sys.stderr)
    print(json.dumps({"inputs": a.n, "counts": counts}))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
