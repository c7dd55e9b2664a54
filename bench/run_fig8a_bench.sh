#!/usr/bin/env bash
# [BP] Fig. 8(a) / [B] Fig. 5.7(a) sweep (issue 13 performance; not a timed test), side by side:
#   1. riding the table in closed form (default) against Runge–Kutta riding (exact_contact = false,
#      the engine's previous route), 21 values of omega in [3, 3.5] with carry-over: the values
#      where the rod rests on the table or chatters onto it and rides it every period;
#   2. the whole diagram, 1001 values in [3, 5] with carry-over: clatter against the Python
#      exact-flight peer (bench/peers/fig8a_exact_flight.py);
#   3. the time of every value alone, clatter against the peer (bench/fig8a_per_value.py), with
#      and without the periodic shortcut;
#   4. the issue's job, 10 001 values in [3, 5] with carry-over, with the periodic shortcut
#      (--periodic-tol 1e-10), with every value's time (--timings) against the peer's
#      (bench/fig8a_chain_times.py; the peer's 10 001 values take over a minute).
#   bench/run_fig8a_bench.sh [RUNS]     (default 3; needs the Release build in build/)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
C=$PWD/build/apps/clatter/clatter
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# the scenario with Runge–Kutta riding ([simulation] is its last table)
tail -n 3 examples/bp_fig8a.toml | grep -q '^\[simulation\]'
{ cat examples/bp_fig8a.toml; echo "exact_contact = false"; } > "$out/bp_fig8a_rk.toml"
args="--transient-periods 1000 --record-periods 100 --continuation --threads 1 --no-plot --no-progress"
hyperfine --runs 1 --export-json "$out/riding.json" \
  -n "riding by Runge-Kutta steps" "$C sweep $out/bp_fig8a_rk.toml --omega 3 3.5 21 $args --out $out/rk > /dev/null" \
  -n "riding in closed form" "$C sweep examples/bp_fig8a.toml --omega 3 3.5 21 $args --out $out/cf > /dev/null"
hyperfine --runs "$runs" --warmup 1 --export-json "$out/full.json" \
  -n "clatter, 1001 values" "$C sweep examples/bp_fig8a.toml --omega 3 5 1001 $args --out $out/c1001 > /dev/null" \
  -n "clatter, 1001 values, periodic shortcut" "$C sweep examples/bp_fig8a.toml --omega 3 5 1001 $args --periodic-tol 1e-10 --out $out/s1001 > /dev/null" \
  -n "python exact flight, 1001 values" "/usr/bin/python3 bench/peers/fig8a_exact_flight.py --omega 3 5 1001 > /dev/null"
/usr/bin/python3 - "$out/rk/summary.csv" "$out/cf/summary.csv" <<'PY'
import csv, sys
a, b = (list(csv.DictReader(open(p))) for p in sys.argv[1:])
same = sum(x["distinct"] == y["distinct"] for x, y in zip(a, b))
print(f"riding routes: {same} of {len(a)} values with the same number of distinct apex heights")
PY
PYTHONPATH=build/python /usr/bin/python3 bench/fig8a_per_value.py --omega 3 5 81 2> /dev/null
PYTHONPATH=build/python /usr/bin/python3 bench/fig8a_per_value.py --omega 3 5 81 --periodic-tol 1e-10 2> /dev/null
hyperfine --runs "$runs" --export-json "$out/chain.json" \
  -n "clatter, 10001 values, periodic shortcut" "$C sweep examples/bp_fig8a.toml --omega 3 5 10001 $args --periodic-tol 1e-10 --timings $out/t10001.csv --out $out/s10001 > /dev/null"
/usr/bin/python3 bench/peers/fig8a_exact_flight.py --omega 3 5 10001 --out "$out/peer10001.csv"
/usr/bin/python3 bench/fig8a_chain_times.py "$out/t10001.csv" "$out/peer10001.times.csv"
