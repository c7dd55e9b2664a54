#!/usr/bin/python3
"""Runs two engine_bench binaries (old, new) alternately, ROUNDS times each, and prints the
median of each benchmark's time for each binary (machines here are shared: alternating spreads
the load over both).

Usage: /usr/bin/python3 bench/alternate_old_new.py OLD NEW ROUNDS [FILTER [real_time|cpu_time]]
"""
import json
import statistics
import subprocess
import sys

old, new, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
pattern = sys.argv[4] if len(sys.argv) > 4 else "BM_"
key = sys.argv[5] if len(sys.argv) > 5 else "real_time"
times = {"old": {}, "new": {}}
for _ in range(rounds):
    for label, binary in (("old", old), ("new", new)):
        out = subprocess.run([binary, "--benchmark_filter=" + pattern, "--benchmark_format=json",
                              "--benchmark_min_time=0.3"], capture_output=True, text=True,
                             check=True).stdout
        for b in json.loads(out)["benchmarks"]:
            times[label].setdefault(b["name"], []).append((b[key], b["time_unit"]))
for name in times["old"]:
    o = [t for t, _ in times["old"][name]]
    n = [t for t, _ in times["new"][name]]
    unit = times["old"][name][0][1]
    print(f"{name:22s} median old {statistics.median(o):9.3f} new {statistics.median(n):9.3f} "
          f"{unit} (new/old {statistics.median(n) / statistics.median(o):.3f}); "
          f"min old {min(o):9.3f} new {min(n):9.3f}")
