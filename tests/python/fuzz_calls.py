"""The calls of the Python fuzz test (test_fuzz.py): every public function of clatter with valid
arguments, then each argument replaced in turn by a bad value. Run as a child process
(`fuzz_calls.py FIRST`): it prints "call I" before the I-th call and "done I <outcome>" after it,
so that the parent can name a call that crashed the interpreter or never returned, and go on
from the next one."""
import math
import os
import sys
import time

import numpy as np

import clatter

EXAMPLES = os.environ.get("CLATTER_EXAMPLES_DIR",
                          os.path.join(os.path.dirname(__file__), "..", "..", "examples"))

# values a careless or hostile caller passes: nothing, non-numbers, non-finite numbers, extremes,
# wrong shapes and types
BAD = [None, math.nan, math.inf, -math.inf, -1, 0, 1e308, -1e308, 10**30, "x", "", [],
       [[1.0, 2.0], [3.0, 4.0]], np.zeros((3, 3)), np.array([math.nan] * 3), object(), {}]


def base_calls():
    """(name, function, positional arguments, keyword arguments): each a valid, cheap call."""
    rod = clatter.load_scenario(os.path.join(EXAMPLES, "rod_fig5.toml"))
    orbit = clatter.load_scenario(os.path.join(EXAMPLES, "ball_table_period1.toml"))
    ball = orbit.model
    return [
        ("impact", clatter.impact, ("stronge", [0.3, -1.0], [[2.75, 1.479], [1.479, 2.25]]),
         {"e": 0.8, "mu": 0.5}),
        ("impacts", clatter.impacts,
         ("stronge", np.array([[0.3, -1.0], [0.1, -2.0]]), [[2.75, 1.479], [1.479, 2.25]]),
         {"e": 0.8, "mu": 0.5}),
        ("Model", clatter.Model, ("rod_on_belt",), {"law": "newton", "e": 0.8}),
        ("models", clatter.models, (), {}),
        ("state_names", clatter.state_names, (ball,), {}),
        ("load_scenario", clatter.load_scenario,
         (os.path.join(EXAMPLES, "rod_fig5.toml"),), {}),
        ("closed_form_orbit", clatter.closed_form_orbit, (1.0, 3.0, 9.81, 0.9), {}),
        ("with_parameter", ball.with_parameter, ("e", 0.5), {}),
        ("simulate", clatter.simulate, (ball,),
         {"q": [0.0, 3.0, 0.0], "qd": [0.0, 0.0, 0.0], "t_end": 0.5, "progress": False,
          "max_wall_time": 5.0}),
        ("simulate_scenario", clatter.simulate, (rod,), {"t_end": 0.2, "progress": False, "max_wall_time": 5.0}),
        ("poincare", clatter.poincare, (orbit,), {"section": "impact", "count": 3}),
        ("periodic_orbit", clatter.periodic_orbit, (orbit,), {"solve": "y,ydot"}),
        ("sweep_parameters", clatter.sweep_parameters,
         (orbit, [("surface.omega", 3.0, 3.2, 2)]),
         {"transient_periods": 3, "record_periods": 2, "progress": False, "threads": 1,
          "max_events": 100000}),
        ("sweep", clatter.sweep, (orbit, (3.0, 3.2, 2)),
         {"transient_periods": 3, "record_periods": 2, "progress": False, "threads": 1,
          "max_events": 100000}),
        ("orbit_branch", clatter.orbit_branch, (0.8,), {"omega_range": (2.5, 3.0)}),
        ("continue_orbit", clatter.continue_orbit, (orbit, "y,ydot", "surface.omega", (2.9, 3.1)),
         {"direction": "up", "max_points": 3, "progress": False}),
        ("regions", clatter.regions, (), {"fix": ("mu", 0.5), "n": 11, "r": 0.9}),
        ("painleve", clatter.painleve, (), {"preset": "fig6.7b", "mu_p": [0.82], "t_end": 1.3}),
        ("impact_report", clatter.impact_report, ("stronge", [0.3, -1.0], [2.75, 1.479, 2.25]),
         {"e": 0.8, "mu": 0.5}),
        ("impact_report_rigid", clatter.impact_report, ("brach",),
         {"mass": 1.0, "inertia": 0.3, "offset": 1.0, "angle": 0.5, "qdot": [1.0, -2.0, 0.3],
          "mu": 0.4, "e": 0.5}),
        ("impact_sweep", clatter.impact_sweep, ("fig3.8",), {"n": 20}),
        ("compliant", clatter.compliant, ("pendulum",), {"theta_deg": 30.0, "mu": 0.5}),
        ("compliant_sweep", clatter.compliant_sweep, ("pendulum-fig4.16",), {"n": 5}),
        ("multipoint", clatter.multipoint, ("cradle",), {"masses": [1.0, 2.0], "v_pre": 0.5}),
    ]


def _short(value):
    """A one-line name of a bad value."""
    return " ".join(repr(value).split())[:40]


def calls():
    """The base calls, then each argument of each replaced by each bad value."""
    out = []
    for name, fn, args, kwargs in base_calls():
        out.append((name, fn, args, kwargs))
        for i in range(len(args)):
            for bad in BAD:
                a = list(args)
                a[i] = bad
                out.append((f"{name} arg {i} = {_short(bad)}", fn, tuple(a), kwargs))
        for key in kwargs:
            for bad in BAD:
                k = dict(kwargs)
                k[key] = bad
                out.append((f"{name} {key} = {_short(bad)}", fn, args, k))
    return out


def main():
    first = int(sys.argv[1])
    todo = calls()
    print(f"count {len(todo)}", flush=True)
    for i in range(first, len(todo)):
        name, fn, args, kwargs = todo[i]
        print(f"call {i} {name}", flush=True)
        start = time.monotonic()
        try:
            fn(*args, **kwargs)
            outcome = "returned"
        except (TypeError, ValueError, RuntimeError, OverflowError, KeyError, IndexError) as e:
            outcome = "raised " + type(e).__name__
        except Exception as e:  # noqa: BLE001 - reported, the parent decides
            outcome = "raised-other " + type(e).__name__ + ": " + str(e)[:80]
        print(f"done {i} {time.monotonic() - start:.3f} {outcome}", flush=True)


if __name__ == "__main__":
    main()
