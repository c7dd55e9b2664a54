#!/usr/bin/python3
"""Runs docs/tutorial.md as a user would (issue 25 item 8): every fenced block whose info string
is `sh` or `python` (not `sh no-run`, `python no-run`), in order, in one fresh folder, with
CLATTER_SRC = the source tree and CLATTER_PREFIX = an installed clatter (made here by
`cmake --install BUILD` unless --prefix is given), its bin/ first on PATH. The Python blocks run
with --python (default /usr/bin/python3) and --pythonpath (the folder holding `clatter`; empty
for an interpreter that has it installed, e.g. a pip venv). The tutorial's own asserts (closed
forms) are the test: the first block that fails ends the run with its text and output.

Usage: run_tutorial.py SOURCE_DIR (--build BUILD_DIR | --prefix PREFIX) [--python EXE]
                       [--pythonpath DIR] [--keep]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time


def blocks(text):
    """(language, code, first line number) of the runnable fenced blocks."""
    out = []
    fence = re.compile(r"^```(\S*)(.*)$")
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = fence.match(lines[i])
        if m and m.group(1):
            lang, rest, start = m.group(1), m.group(2), i + 1
            body = []
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                body.append(lines[i])
                i += 1
            if lang in ("sh", "python") and "no-run" not in rest:
                out.append((lang, "\n".join(body) + "\n", start))
        i += 1
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("source")
    ap.add_argument("--build")
    ap.add_argument("--prefix")
    ap.add_argument("--python", default="/usr/bin/python3")
    ap.add_argument("--pythonpath", default="")
    ap.add_argument("--keep", action="store_true")
    a = ap.parse_args()
    src = os.path.realpath(a.source)
    work = tempfile.mkdtemp(prefix="clatter-tutorial.")
    try:
        prefix = a.prefix
        if prefix is None:
            if a.build is None:
                sys.exit("give --build BUILD_DIR or --prefix PREFIX")
            prefix = os.path.join(work, "prefix")
            subprocess.run(["cmake", "--install", a.build, "--prefix", prefix], check=True,
                           stdout=subprocess.DEVNULL)
        env = dict(os.environ, CLATTER_SRC=src, CLATTER_PREFIX=os.path.realpath(prefix),
                   PATH=os.path.join(os.path.realpath(prefix), "bin") + os.pathsep +
                   os.environ.get("PATH", ""), MPLBACKEND="Agg")
        env.pop("CLATTER_PLOT_DIR", None)
        env.pop("CLATTER_PLUGIN_PATH", None)
        if a.pythonpath:
            env["PYTHONPATH"] = os.path.realpath(a.pythonpath)
        else:
            env.pop("PYTHONPATH", None)
        home = os.path.join(work, "home")
        os.makedirs(home)
        with open(os.path.join(src, "docs", "tutorial.md")) as fh:
            todo = blocks(fh.read())
        if not todo:
            sys.exit("docs/tutorial.md has no runnable block")
        for k, (lang, code, line) in enumerate(todo, 1):
            t0 = time.time()
            cmd = (["bash", "-euo", "pipefail", "-c", code] if lang == "sh"
                   else [a.python, "-c", code])
            p = subprocess.run(cmd, cwd=home, env=env, capture_output=True, text=True,
                               timeout=1200)
            print(f"block {k}/{len(todo)} ({lang}, docs/tutorial.md:{line}): "
                  f"{'ok' if p.returncode == 0 else 'FAILED'} in {time.time() - t0:.1f} s")
            if p.stdout.strip():
                print("  " + p.stdout.strip().replace("\n", "\n  "))
            if p.returncode != 0:
                print(code, file=sys.stderr)
                print(p.stderr, file=sys.stderr)
                return 1
        print("PASS: every block of docs/tutorial.md ran")
        return 0
    finally:
        if a.keep:
            print("kept", work)
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
