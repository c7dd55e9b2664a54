#!/usr/bin/env bash
# Sweep scaling (issue 13, not a timed test): the same sweep of independent runs on 1 and 2
# threads, and on 1 and 2 MPI ranks (one thread each), side by side in one hyperfine run; then the
# medians and the ratios. Every configuration writes the same bytes (checked at the end).
#   bench/run_sweep_bench.sh [RUNS]     (default 5 runs each after 1 warm-up; needs build/ Release)
# Workloads: [BP] Fig. 8(a) (bp_fig8a.toml) at omega in [3.62, 5], where no value rides the table
# (each costs a few ms: exact flights), and the ball on A sin(wt) on a 2-D grid (omega, A) with
# carry-over up: 16 independent chains of 40 values; and the issue's scale, [BP] Fig. 8(a) on
# 10 001 values in [3, 5], independent runs with the periodic shortcut (--periodic-tol 1e-10).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
C=$PWD/build/apps/clatter/clatter
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpi=(mpirun --oversubscribe --bind-to none)
fig8a="$C sweep examples/bp_fig8a.toml --omega 3.62 5 801 --transient-periods 1000 --record-periods 100 --no-plot --no-progress"
ball="$C sweep examples/ball_table_period1.toml --param surface.omega 3.2 3.6 40 --param surface.amplitude 1.0 1.3 16 --carry-over up --transient-periods 2000 --record-periods 100 --no-plot --no-progress"
hyperfine --runs "$runs" --warmup 1 --export-json "$out/fig8a.json" \
  -n "fig8a 1 thread" "$fig8a --threads 1 --out $out/a1 > /dev/null" \
  -n "fig8a 2 threads" "$fig8a --threads 2 --out $out/a2 > /dev/null" \
  -n "fig8a 1 MPI rank" "${mpi[*]} -np 1 $fig8a --threads 1 --out $out/am1 > /dev/null" \
  -n "fig8a 2 MPI ranks" "${mpi[*]} -np 2 $fig8a --threads 1 --out $out/am2 > /dev/null 2>&1"
big="$C sweep examples/bp_fig8a.toml --omega 3 5 10001 --transient-periods 1000 --record-periods 100 --periodic-tol 1e-10 --no-plot --no-progress"
hyperfine --runs "$runs" --warmup 1 --export-json "$out/big.json" \
  -n "10k 1 thread" "$big --threads 1 --out $out/c1 > /dev/null" \
  -n "10k 2 threads" "$big --threads 2 --out $out/c2 > /dev/null" \
  -n "10k 1 MPI rank" "${mpi[*]} -np 1 $big --threads 1 --out $out/cm1 > /dev/null" \
  -n "10k 2 MPI ranks" "${mpi[*]} -np 2 $big --threads 1 --out $out/cm2 > /dev/null 2>&1"
hyperfine --runs "$runs" --warmup 1 --export-json "$out/ball.json" \
  -n "ball 1 thread" "$ball --threads 1 --out $out/b1 > /dev/null" \
  -n "ball 2 threads" "$ball --threads 2 --out $out/b2 > /dev/null" \
  -n "ball 2 MPI ranks" "${mpi[*]} -np 2 $ball --threads 1 --out $out/bm2 > /dev/null 2>&1"
for d in a2 am1 am2; do cmp "$out/a1/bifurcation.csv" "$out/$d/bifurcation.csv"; cmp "$out/a1/summary.csv" "$out/$d/summary.csv"; done
for d in c2 cm1 cm2; do cmp "$out/c1/bifurcation.csv" "$out/$d/bifurcation.csv"; cmp "$out/c1/summary.csv" "$out/$d/summary.csv"; done
for d in b2 bm2; do cmp "$out/b1/bifurcation.csv" "$out/$d/bifurcation.csv"; cmp "$out/b1/summary.csv" "$out/$d/summary.csv"; done
echo "outputs: identical bytes in every configuration"
/usr/bin/python3 - "$out/fig8a.json" "$out/big.json" "$out/ball.json" <<'PY'
import json, statistics, sys
for path in sys.argv[1:]:
    res = json.load(open(path))["results"]
    med = {r["command"]: statistics.median(r["times"]) for r in res}
    user = {r["command"]: r["user"] for r in res}  # hyperfine gives the mean
    base = next(iter(med.values()))
    for name, t in med.items():
        print(f"{name:20s} median {t:7.3f} s  (mean user {user[name]:7.3f} s)  speed-up vs first {base / t:5.2f}x")
    for w in ("fig8a", "10k"):
        if f"{w} 1 MPI rank" in med:
            print(f"{'':20s} 2 ranks vs 1 rank: {med[w + ' 1 MPI rank'] / med[w + ' 2 MPI ranks']:.2f}x")
PY
