#!/usr/bin/python3
"""Benchmark of models written in Python against the same models in C++ (issue 26 item 2; not a
timed test; docs/performance.md, "Models written in Python, compiled").

Usage:  PYTHONPATH=build/python /usr/bin/python3 bench/compiled_model_bench.py [--rounds R]

Two systems, each run four ways side by side on the same start, rounds alternated, CPU time of
clatter.simulate (time.process_time: the machine is shared), medians:
  walker       McGeer's rimless wheel, 6 spokes, 40 s down the slope (~43 impacts, 15 932
               right-hand sides): the C++ plugin examples/rimless_wheel/rimless_wheel.cpp, the
               Python class examples/rimless_wheel/rimless_wheel.py compiled (tuples), the same
               written with numpy arrays compiled (examples/rimless_wheel/rimless_wheel_arrays.py), and the
               Python class uncompiled;
  rod on belt  [NDC]'s rod on a belt, case 1-3 for 100 time units: the built-in C++ model
               rod_on_belt, examples/python_model/ndc_rod.py compiled and uncompiled.
Every run of a system must end with the same events (count) and a final state equal to the C++
one to 1e-9 (printed); the compile time of each class is printed beside (once per class and data
layout, then cached in the process). Prints one JSON line and a table.
"""
import argparse
import json
import os
import statistics
import sys
import time

import numpy as np

import clatter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "examples", "rimless_wheel"))
sys.path.insert(0, os.path.join(ROOT, "examples", "python_model"))
from rimless_wheel import RimlessWheel  # noqa: E402
from rimless_wheel_arrays import ArrayWheel  # noqa: E402
from ndc_rod import NdcRod  # noqa: E402


def compiled(obj, **law):
    t0 = time.process_time()
    model = clatter.python_model(obj, compile=True, **law)
    return model, time.process_time() - t0


def systems():
    wheel_law = dict(law="stronge", e=0.0, mu=3.0)
    clatter.load_plugin("rimless_wheel")
    wheel_tuples, ct_tuples = compiled(RimlessWheel(), **wheel_law)
    wheel_arrays, ct_arrays = compiled(ArrayWheel(), **wheel_law)
    walker = dict(
        name="walker", start=dict(q=[0.0, 1.0, 0.0], qd=[1.5, 0.0, -1.5], t_end=40.0,
                                  two_contact="sequential"),
        runs={"C++ plugin": (clatter.Model("rimless_wheel", spokes=6, **wheel_law), None),
              "Python compiled (tuples)": (wheel_tuples, ct_tuples),
              "Python compiled (arrays)": (wheel_arrays, ct_arrays),
              "Python uncompiled": (clatter.python_model(RimlessWheel(), **wheel_law), None)})
    sc = clatter.load_scenario(os.path.join(ROOT, "examples", "ndc_case_1_3.toml"))
    P = sc.model.parameters
    rod_law = dict(law="stronge", e=P["r"], mu=P["mu"])
    belt_compiled, ct_belt = compiled(NdcRod.from_parameters(P), **rod_law)
    init = sc.initial
    belt = dict(
        name="rod on belt", start=dict(q=init["q"], qd=init["qd"], t0=init["t"],
                                       t_end=init["t"] + 100.0),
        runs={"C++ built-in": (sc.model, None),
              "Python compiled": (belt_compiled, ct_belt),
              "Python uncompiled": (clatter.python_model(NdcRod.from_parameters(P), **rod_law),
                                    None)})
    return [walker, belt]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    out = []
    for system in systems():
        times = {k: [] for k in system["runs"]}
        finals = {}
        for _ in range(args.rounds):
            for name, (model, _) in system["runs"].items():
                t0 = time.process_time()
                r = clatter.simulate(model, events_only=True, **system["start"])
                times[name].append(time.process_time() - t0)
                finals[name] = (r.reason, r.counts["events"], r.counts["rhs_evaluations"],
                                np.concatenate([r.q_final, r.qd_final]))
        ref_name = next(iter(system["runs"]))
        ref = statistics.median(times[ref_name])
        print(f"\n{system['name']}: CPU medians of {args.rounds} alternated rounds")
        print(f"{'run':28s} {'time':>10s} {'ratio':>7s} {'events':>7s} {'rhs':>7s} "
              f"{'|x - x_C++|':>12s} {'compile':>8s}")
        for name, (_, compile_s) in system["runs"].items():
            reason, events, rhs, x = finals[name]
            med = statistics.median(times[name])
            diff = float(np.abs(x - finals[ref_name][3]).max())
            print(f"{name:28s} {med * 1e3:8.2f}ms {med / ref:7.2f} {events:7d} {rhs:7d} "
                  f"{diff:12.1e} {'' if compile_s is None else f'{compile_s:.2f}s':>8s}")
            out.append(dict(system=system["name"], run=name, cpu_s=med, ratio=med / ref,
                            events=events, rhs=rhs, reason=reason, max_state_diff=diff,
                            compile_s=compile_s))
    print(json.dumps(out))


if __name__ == "__main__":
    main()
