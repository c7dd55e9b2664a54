#!/usr/bin/env bash
# Issue 26 ("fast for any model"): clatter against a SciPy peer on [NDC]'s rod on a belt, long
# horizon with impacts (examples/ndc_case_1_3.toml, examples/ndc_case_5_9.toml).
#
# The peer (bench/peers/ndc_rod_scipy.py) integrates the same flight with solve_ivp DOP853,
# rtol = atol = 1e-12, a terminal event on y = 0 and Stronge's law in closed form at each impact.
# Both motions are impacts and free flight only (no sustained contact, no chatter).
#
# The two programs are run alternately on the same machine, REPEATS times each per case; the
# figures are medians. Wall times are the in-process ones: clatter's summary.json wall_time_s
# (the simulation, without process start-up) and the peer's timed loop (without the Python and
# SciPy import). Per-unit figures divide by the simulated horizon, so the two horizons may differ.
#
#   bench/run_ndc_bench.sh                      # from the repository root
#   CLATTER=path/to/clatter T_CLATTER=2000 T_PEER=500 REPEATS=3 bench/run_ndc_bench.sh
set -euo pipefail

cd "$(dirname "$0")/.."
CLATTER=${CLATTER:-build/apps/clatter/clatter}
PY=${PY:-/usr/bin/python3}
T_CLATTER=${T_CLATTER:-2000}
T_PEER=${T_PEER:-2000}
REPEATS=${REPEATS:-3}

[[ -x "$CLATTER" ]] || { echo "no clatter executable at $CLATTER (set CLATTER)" >&2; exit 2; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

echo "clatter: $CLATTER  horizon $T_CLATTER;  peer: SciPy DOP853 rtol=atol=1e-12  horizon $T_PEER;" \
     "medians of $REPEATS, alternating"
printf '%-5s %-8s %7s %8s %9s %10s %10s %10s\n' case tool t_end impacts wall_s ms/unit \
       steps/unit rhs/unit

for case in 1-3 5-9; do
  scenario=examples/ndc_case_${case/-/_}.toml
  for ((i = 1; i <= REPEATS; i++)); do
    "$CLATTER" simulate "$scenario" --t-end "$T_CLATTER" --output-dt 0 --no-plot \
        --out "$WORK/clatter_${case}_$i" > "$WORK/clatter_${case}_$i.log" 2>&1
    "$PY" bench/peers/ndc_rod_scipy.py --case "$case" --t-end "$T_PEER" --repeats 1 \
        > "$WORK/peer_${case}_$i.json"
  done
  "$PY" - "$WORK" "$case" "$REPEATS" "$T_CLATTER" "$T_PEER" <<'EOF'
import json, statistics, sys
work, case, n, tc, tp = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
cl = [json.load(open(f"{work}/clatter_{case}_{i}/summary.json")) for i in range(1, n + 1)]
pe = [json.loads(open(f"{work}/peer_{case}_{i}.json").read()) for i in range(1, n + 1)]
for s in cl:
    if s["reason"] != "end_time":
        sys.exit(f"clatter stopped early on {case}: {s['message']}")
cw = statistics.median(s["wall_time_s"] for s in cl)
pw = statistics.median(p["wall_s_median"] for p in pe)
c, p = cl[0]["counts"], pe[0]
row = "%-5s %-8s %7g %8d %9.4f %10.4f %10.2f %10.2f"
print(row % (case, "clatter", tc, c["impacts"], cw, 1e3 * cw / tc, c["rk_steps"] / tc,
             c["rhs_evaluations"] / tc))
print(row % (case, "scipy", tp, p["impacts"], pw, 1e3 * pw / tp, p["steps"] / tp, p["nfev"] / tp))
print("%-5s ratio peer/clatter per time unit: wall %.1f, steps %.2f, rhs evaluations %.2f" % (
    case, (pw / tp) / (cw / tc), (p["steps"] / tp) / (c["rk_steps"] / tc),
    (p["nfev"] / tp) / (c["rhs_evaluations"] / tc)))
EOF
done
