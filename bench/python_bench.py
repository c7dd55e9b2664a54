#!/usr/bin/python3
"""Benchmark of the Python module (not a timed test; docs/performance.md, "Python module").

Usage:  PYTHONPATH=build/python /usr/bin/python3 bench/python_bench.py [--n N] [--repeats R]

1. Vectorised Stronge impacts per second: clatter.impacts on random contact-space impacts (rod
   contact matrices W(theta), one per impact, the distribution of bench/impact_bench.cpp), 4096 of
   them cycled (in cache, as the kernel's) and N streamed, interleaved with the C++ kernel
   BM_Law_StrongeClosedForm (build/bench/impact_bench, median of 3 per round), and a pure-numpy
   implementation of the same closed form (numpy_stronge below, masks over the regions; its
   largest difference to clatter is printed). CPU times (the machine is shared).
2. Per-call overhead of clatter.simulate: a ball in free flight for 1 ms (no event, two samples),
   the whole Python call against the engine's own time (SimulationResult.wall_time_s).
3. Slowdown of a model written in Python (examples/python_model/planar_body.py) against the same
   built-in rod (Runge-Kutta flow on both; and against the built-in's exact flight).
Medians of R repeats of CPU times (time.process_time; the machine is shared, wall time counts
preemption); prints one JSON line and a summary.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

import clatter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "examples", "python_model"))
from planar_body import PlanarBody  # noqa: E402


def median_time(f, repeats, clock=time.perf_counter):
    times = []
    for _ in range(repeats):
        t0 = clock()
        f()
        times.append(clock() - t0)
    return statistics.median(times)


def cpu_time(f, repeats):
    """Median CPU time of the process (the machine is shared: wall time counts preemption)."""
    return median_time(f, repeats, time.process_time)


def rod_inputs(n, seed=1):
    """Contact-space inputs of rod impacts at end 1: theta in (1e-3, 3.14), qdot in
    [-3, 3] x [-3, 0] x [-3, 3] keeping approaching contacts, mu in [0, 3], e in [0, 1]."""
    rng = np.random.default_rng(seed)
    m = 3 * n
    th = rng.uniform(1e-3, 3.14, m)
    VT, VN, w = rng.uniform(-3, 3, m), rng.uniform(-3, 0, m), rng.uniform(-3, 3, m)
    s, c = np.sin(th), np.cos(th)
    I = 1.0 / 3.0
    vT, vN = VT + s * w, VN - c * w
    keep = np.flatnonzero(vN < 0)[:n]
    A, B, C = 1 + s * s / I, -s * c / I, 1 + c * c / I
    W = np.stack([np.stack([A, B], -1), np.stack([B, C], -1)], -2)
    v = np.column_stack([vT, vN])
    return v[keep], W[keep], rng.uniform(0, 1, m)[keep], rng.uniform(0, 3, m)[keep]


def numpy_stronge(v, W, e, mu):
    """Stronge's energetic law in closed form ([NDC]; bench/peers/stronge_map.py's classifier)
    over arrays with masks: returns v_post (N, 2). Regions as the C++ library (0-10)."""
    vT, vN = v[:, 0], v[:, 1]
    A, B, C = W[:, 0, 0], W[:, 0, 1], W[:, 1, 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        kTp_pos, kNp_pos, kTp_neg, kNp_neg = B - mu * A, C - mu * B, B + mu * A, C + mu * B
        kN0 = (A * C - B * B) / A
        stick = np.abs(B) <= mu * A
        pos = vT > 0
        s = np.where(pos, 1.0, -1.0)
        kT, kN = np.where(pos, kTp_pos, kTp_neg), np.where(pos, kNp_pos, kNp_neg)
        kT2 = np.where(stick, 0.0, np.where(pos, kTp_neg, kTp_pos))
        kN2 = np.where(stick, kN0, np.where(pos, kNp_neg, kNp_pos))
        # Map I: one mode throughout
        I_T, I_N = vT - (1 + e) * (kT / kN) * vN, -e * vN
        # Map II: slip stops in restitution
        a = (kN / kT) * vT - vN
        rho = kN2 / kN
        S2 = np.sqrt(np.maximum(0.0, (1 - rho) * a * a + e * e * rho * vN * vN))
        II_T, II_N = (kT2 / kN2) * (a + S2), S2
        # Map III: slip stops in compression (polynomial in kN)
        S3 = np.sqrt(np.maximum(0.0, vN * vN + 2 * (kN2 - kN) * vT * vN / kT
                                + kN * (kN - kN2) * (vT / kT) ** 2))
        III_T, III_N = (kT2 / kN2) * (a + e * S3), e * S3
        case1 = (s * kT >= 0) | ((s * (kN * vT - kT * vN) > 0) & (kN > 0)
                                 & (s * (kN * vT - (1 + e) * kT * vN) > 0))
        case3 = ~(s * kT >= 0) & ((kN <= 0) | (s * (kN * vT - kT * vN) <= 0))
        out_T = np.where(case1, I_T, np.where(case3, III_T, II_T))
        out_N = np.where(case1, I_N, np.where(case3, III_N, II_N))
    return np.column_stack([out_T, out_N])


def cpp_kernel_ns():
    exe = os.path.join(ROOT, "build", "bench", "impact_bench")
    if not os.path.exists(exe):
        return None
    p = subprocess.run([exe, "--benchmark_filter=BM_Law_StrongeClosedForm$",
                        "--benchmark_repetitions=3", "--benchmark_report_aggregates_only=true",
                        "--benchmark_format=json"], capture_output=True, text=True, check=True)
    for b in json.loads(p.stdout)["benchmarks"]:
        if b.get("aggregate_name") == "median":
            return b["cpu_time"]
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--repeats", type=int, default=7)
    args = ap.parse_args()
    R = args.repeats
    report = {}

    # 1. vectorised impacts. The machine is shared and its load changes within seconds, so the
    #    C++ kernel and the Python calls are interleaved, round by round, and the ratio is the
    #    median of the rounds' ratios; CPU times on both sides (Google Benchmark's cpu_time,
    #    time.process_time), since wall time counts the preemptions. N = 4096 cycled (in cache, as the kernel's inputs) and
    #    N = args.n streamed from memory.
    v, W, e, mu = rod_inputs(args.n)
    n = len(v)
    small = tuple(a[:4096] for a in (v, W, e, mu))
    reps = 250

    def cached():
        for _ in range(reps):
            clatter.impacts("stronge", *small[:2], e=small[2], mu=small[3])

    rounds = []
    for _ in range(R):
        cpp = cpp_kernel_ns()
        t_small = 1e9 * cpu_time(cached, 3) / (reps * 4096)
        t_big = 1e9 * cpu_time(lambda: clatter.impacts("stronge", v, W, e=e, mu=mu), 3) / n
        t_np = 1e9 * cpu_time(lambda: numpy_stronge(v, W, e, mu), 3) / n
        rounds.append((cpp, t_small, t_big, t_np))
    ref = clatter.impacts("stronge", v, W, e=e, mu=mu)["v_post"]
    diff = np.nanmax(np.abs(numpy_stronge(v, W, e, mu) - ref) / (1 + np.abs(ref)))
    med = [statistics.median(r[k] for r in rounds) if rounds[0][k] is not None else None
           for k in range(4)]
    cpp = med[0]
    report["impacts"] = {
        "n": n, "cpp_kernel_ns": cpp, "clatter_python_cached_ns": med[1],
        "clatter_python_ns": med[2], "numpy_ns": med[3], "numpy_max_rel_diff": float(diff),
        "throughput_ratio_cached": (statistics.median(r[0] / r[1] for r in rounds)
                                    if cpp else None),
        "throughput_ratio_streamed": (statistics.median(r[0] / r[2] for r in rounds)
                                      if cpp else None),
        "numpy_over_clatter": statistics.median(r[3] / r[2] for r in rounds)}

    # 2. per-call overhead of simulate (1 ms of free flight, no event)
    ball = clatter.Model("ball", mass=1.0, law="newton", e=0.5)
    walls = []

    def one_call():
        r = clatter.simulate(ball, [0.0, 1.0, 0.0], [0.0, 0.0, 0.0], t_end=1e-3, output_dt=1e-3)
        walls.append(r.wall_time_s)

    calls = 2000
    t_call = cpu_time(lambda: [one_call() for _ in range(calls)], R) / calls
    report["simulate_call"] = {"python_us": 1e6 * t_call,
                               "engine_us": 1e6 * statistics.median(walls)}

    # 3. a model written in Python against the built-in rod
    surface = dict(amplitude=0.3, omega=4.405)
    builtin = clatter.Model("rod", mass=1.0, half_length=1.0, surface=surface, e=0.8, mu=0.3)
    mine = clatter.python_model(PlanarBody.rod(1.0, 1.0, **surface), law="stronge", e=0.8, mu=0.3)
    q, qd = [0.0, 2.0, 0.4], [0.2, 0.0, 1.0]
    opts = dict(t_end=4.0, events_only=True, two_contact="sequential")
    t_mine = cpu_time(lambda: clatter.simulate(mine, q, qd, exact_flight=False, **opts), R)
    t_rk = cpu_time(lambda: clatter.simulate(builtin, q, qd, exact_flight=False, **opts), R)
    t_exact = cpu_time(lambda: clatter.simulate(builtin, q, qd, **opts), R)
    report["python_model"] = {"python_ms": 1e3 * t_mine, "builtin_rk_ms": 1e3 * t_rk,
                              "builtin_exact_ms": 1e3 * t_exact,
                              "events": int(clatter.simulate(builtin, q, qd, **opts)
                                            .counts["events"])}

    print(json.dumps(report))
    i = report["impacts"]
    print(f"vectorised Stronge ({R} interleaved rounds, medians): C++ kernel {cpp} ns/impact; "
          f"clatter.impacts {i['clatter_python_cached_ns']:.1f} ns/impact on 4096 inputs in cache "
          f"(ratio of throughputs {i['throughput_ratio_cached']}), "
          f"{i['clatter_python_ns']:.1f} ns/impact on {n} from memory "
          f"(ratio {i['throughput_ratio_streamed']}); numpy {i['numpy_ns']:.1f} ns/impact "
          f"({i['numpy_over_clatter']:.1f}x clatter's time)")
    s = report["simulate_call"]
    print(f"simulate() per call: {s['python_us']:.1f} us, of which the engine {s['engine_us']:.1f} us")
    p = report["python_model"]
    print(f"Python rod: {p['python_ms']:.1f} ms, built-in RK {p['builtin_rk_ms']:.2f} ms "
          f"({p['python_ms'] / p['builtin_rk_ms']:.0f}x), built-in exact flight "
          f"{p['builtin_exact_ms']:.2f} ms ({p['python_ms'] / p['builtin_exact_ms']:.0f}x)")


if __name__ == "__main__":
    main()
