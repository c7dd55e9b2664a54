#!/usr/bin/env bash
# MPI dealing with one slow rank (issue 13, not a timed test): the 10 001-value [BP] Fig. 8(a)
# job (independent runs, --periodic-tol 1e-10) on 2 ranks, rank 0 alone on core 0, rank 1 on core
# 1 beside a busy loop (half its speed), against one process on core 0; each binary given, side
# by side in one hyperfine run. Then the values each rank ran (the binaries that print them) and
# a check that every configuration wrote the same bytes.
#   bench/run_mpi_dealing_bench.sh [RUNS] [OLD_BINARY]   (default 3 runs; needs build/ Release
#   and 2 cores; OLD_BINARY e.g. a build of 75849da, which dealt chain c to rank c mod ranks)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
new=$PWD/build/apps/clatter/clatter
old=${2:-}
out=$(mktemp -d)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
args="sweep examples/bp_fig8a.toml --omega 3 5 10001 --transient-periods 1000 --record-periods 100 --periodic-tol 1e-10 --threads 1 --no-plot --no-progress"
two() {  # binary, output folder
  echo "mpirun --oversubscribe --bind-to none -np 1 taskset -c 0 $1 $args --out $2 : -np 1 taskset -c 1 $1 $args --out $2"
}
taskset -c 1 sh -c 'while :; do :; done' &
hog=$!
trap 'kill $hog; rm -rf "$out"' EXIT
cmds=(-n "new, 2 ranks, rank 1 at half speed" "$(two "$new" "$out/new") > /dev/null 2>&1"
      -n "new, 1 process on its own core" "taskset -c 0 $new $args --out $out/one > /dev/null")
if [ -n "$old" ]; then
  cmds+=(-n "old, 2 ranks, rank 1 at half speed" "$(two "$old" "$out/old") > /dev/null 2>&1")
fi
hyperfine --runs "$runs" "${cmds[@]}"
eval "$(two "$new" "$out/new")" 2>&1 >/dev/null | grep "values run by rank" || true
for d in new ${old:+old}; do
  cmp "$out/one/bifurcation.csv" "$out/$d/bifurcation.csv"
  cmp "$out/one/summary.csv" "$out/$d/summary.csv"
done
echo "outputs: identical bytes in every configuration"
