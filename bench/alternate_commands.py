#!/usr/bin/python3
"""Runs whole commands of several clatter binaries (old against new) alternately, ROUNDS times
each, and prints the median and smallest CPU time (user + system, of the child alone) of each,
and its ratio to the first binary's median. Alternating spreads a shared machine's load over all
of them; CPU time is less disturbed by other jobs than wall time.

Usage: /usr/bin/python3 bench/alternate_commands.py ROUNDS OLD,NEW[,...] ARGS...
  (in ARGS, OUT becomes /tmp/alt_out<i> for binary i, so that the outputs can be compared)
e.g.   /usr/bin/python3 bench/alternate_commands.py 5 /tmp/old/clatter,build/apps/clatter/clatter \
         sweep examples/bp_fig8a.toml --omega 3.5 5 2001 --transient-periods 1000 \
         --record-periods 100 --threads 1 --no-plot --no-progress --out OUT
"""
import os
import statistics
import subprocess
import sys

rounds = int(sys.argv[1]); bins = sys.argv[2].split(','); args = sys.argv[3:]
res = {b: [] for b in bins}
for r in range(rounds):
    for i, b in enumerate(bins):
        a = [x.replace('OUT', f'/tmp/alt_out{i}') for x in args]
        p = subprocess.Popen([b] + a, stdout=subprocess.DEVNULL)
        _, st, ru = os.wait4(p.pid, 0)
        res[b].append(ru.ru_utime + ru.ru_stime)
base = statistics.median(res[bins[0]])
for b in bins:
    m = statistics.median(res[b]); print(f"{b:20s} cpu median {m:.3f} s  min {min(res[b]):.3f}  ratio to first {base/m:.3f}")
