"""Shared fixtures of the Python tests (run by ctest as python_tests, tests/python).

The environment ctest sets: PYTHONPATH=<build>/python (the module under test), CLATTER_CLI (the
command-line binary, for side-by-side runs) and CLATTER_EXAMPLES_DIR. Run by hand:
  PYTHONPATH=build/python CLATTER_CLI=build/apps/clatter/clatter /usr/bin/python3 -m pytest tests/python
"""
import csv
import json
import math
import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(scope="session")
def examples():
    return os.environ.get("CLATTER_EXAMPLES_DIR", os.path.join(ROOT, "examples"))


@pytest.fixture(scope="session")
def python_wheel(examples):
    """McGeer's rimless wheel written in Python (examples/rimless_wheel/rimless_wheel.py), as a
    Model with plastic, sticking impacts (Stronge e* = 0, mu = 3)."""
    import sys
    import clatter
    sys.path.insert(0, os.path.join(examples, "rimless_wheel"))
    try:
        from rimless_wheel import RimlessWheel
    finally:
        sys.path.pop(0)
    return clatter.python_model(RimlessWheel(), law="stronge", e=0.0, mu=3.0)


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("CLATTER_CLI", os.path.join(ROOT, "build", "apps", "clatter", "clatter"))
    if not os.path.exists(path):
        pytest.fail(f"the clatter binary is needed for the side-by-side tests: {path}")

    def run(*args, check=True):
        p = subprocess.run([path, *map(str, args)], capture_output=True, text=True, timeout=600)
        if check and p.returncode != 0:
            raise AssertionError(f"clatter {' '.join(map(str, args))}: exit {p.returncode}\n"
                                 f"{p.stderr}")
        return p

    return run


def read_csv(path):
    """The rows of a CSV file as dicts of strings."""
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def read_json(path):
    with open(path) as f:
        return json.load(f)


def number(text):
    """A CSV field as the CLI wrote it: empty means 'not applicable' (NaN here)."""
    return math.nan if text == "" else float(text)
