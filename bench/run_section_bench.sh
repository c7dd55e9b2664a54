#!/usr/bin/env bash
# The cost of a Poincaré section per crossing, two clatter binaries side by side (hyperfine,
# alternating, medians): a velocity section (ẏ = 0 falling: the apex, found before on samples
# and up to 80 re-runs of the engine from the last sample, now once on the step's segment), a
# coordinate crossing and an impact section, on the ball on its table (period-1 orbit) and on
# [NDC]'s rod on a belt (Runge–Kutta phases).
# Usage: bench/run_section_bench.sh OLD_CLATTER NEW_CLATTER [COUNT]
set -euo pipefail
cd "$(dirname "$0")/.."
old=$1
new=$2
count=${3:-2000}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run() {  # name scenario section
  hyperfine -N --warmup 1 --runs 7 --export-json "$out/$1.json" \
    -n old "$old section $2 --section $3 --count $count --t-max 1e6 --no-plot --out $out/o" \
    -n new "$new section $2 --section $3 --count $count --t-max 1e6 --no-plot --out $out/n" \
    >/dev/null
  /usr/bin/python3 - "$out/$1.json" "$1" "$count" <<'PY'
import json, statistics, sys
r = {x["command"]: statistics.median(x["times"]) for x in json.load(open(sys.argv[1]))["results"]}
n = int(sys.argv[3])
print(f"{sys.argv[2]:22s} old {r['old']:.3f} s ({1e6 * r['old'] / n:8.1f} us/crossing)  "
      f"new {r['new']:.3f} s ({1e6 * r['new'] / n:8.1f} us/crossing)  new/old {r['new'] / r['old']:.3f}")
PY
  cmp "$out/o/section.csv" "$out/n/section.csv" >/dev/null && echo "  same section.csv bytes" ||
    echo "  section.csv differs"
}
run ball_apex_velocity examples/ball_table_period1.toml crossing:ydot:0:down
run ball_height examples/ball_table_period1.toml crossing:y:5:up
run ball_impact examples/ball_table_period1.toml impact
run rod_belt_velocity examples/ndc_case_1_3.toml crossing:ydot:0:down
run rod_belt_impact examples/ndc_case_1_3.toml impact
