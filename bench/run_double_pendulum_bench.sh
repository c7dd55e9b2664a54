#!/usr/bin/env bash
# Issue 26 ("fast for any model"): clatter against a SciPy peer on the double pendulum on a belt
# (examples/double_pendulum_stick_slip.toml, model kind double_pendulum_belt), per simulated time
# unit.
#
# The peer (bench/peers/double_pendulum_belt_scipy.py) integrates the same motion with solve_ivp
# DOP853, rtol = atol = 1e-12, no max_step: the contact DAE reduced to an ODE per phase (slide,
# stick, flight), terminal direction-aware events for every transition (stick, slip onset,
# lift-off, impact; Painleve stops it) and Stronge's law in closed form at an impact. The motion:
# slide+ from rest, stick at t = 0.090, slip (slide-) at 0.186, lift-off at 0.686, flight, a first
# impact at 3.70 (region 6), flight. Both programs run the same problem over the same horizons:
#   0.6  contact phases only (slide+, stick, slide-)
#   5    every phase: the contact phases, the lift-off, 4.3 s of flight and one impact
# The motion is chaotic after the impacts (the events of clatter at rtol 1e-12 and 1e-14 differ by
# 1e-8 s at the second impact, t = 7.87, and by 1e-3 s at the fifth): a longer horizon would no
# longer be the same motion in the two programs, so the horizons stop before the second impact.
#
# The two programs are run alternately on the same machine, REPEATS times each per horizon; the
# figures are medians. Wall times are the in-process ones: clatter's summary.json wall_time_s
# (the simulation, without process start-up) and the peer's timed loop (without the Python and
# SciPy import). clatter runs with --output-dt equal to the horizon (2 samples: the peer keeps only
# its events and final state); --output-dt 0 means 2000 samples in the CLI, and writing them costs
# ~3.5 ms, more than the whole 5 s simulation (OUTPUT_DT=0 to include them). "rhs" are
# right-hand-side evaluations (clatter's rhs_evaluations, solve_ivp's nfev), "us/rhs" the wall
# time per right-hand side (everything else included: events, phases, impacts). The last line of
# each horizon compares the events (kind, mode after, region, time, state before and after) and
# the final state of the last repetition.
#
#   bench/run_double_pendulum_bench.sh                      # from the repository root
#   CLATTER=path/to/clatter HORIZONS="0.6 5" REPEATS=3 bench/run_double_pendulum_bench.sh
#   INTEGRATOR=dopri5 bench/run_double_pendulum_bench.sh    # clatter's [simulation] integrator
#   MAX_DT=1e9 bench/run_double_pendulum_bench.sh           # clatter's max_dt (default 0.05)
#   OUTPUT_DT=0 bench/run_double_pendulum_bench.sh          # clatter's --output-dt (default: t_end)
set -euo pipefail

cd "$(dirname "$0")/.."
CLATTER=${CLATTER:-build/apps/clatter/clatter}
PY=${PY:-/usr/bin/python3}
HORIZONS=${HORIZONS:-0.6 5}
REPEATS=${REPEATS:-3}
INTEGRATOR=${INTEGRATOR:-}
MAX_DT=${MAX_DT:-}
OUTPUT_DT=${OUTPUT_DT:-}

[[ -x "$CLATTER" ]] || { echo "no clatter executable at $CLATTER (set CLATTER)" >&2; exit 2; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# the scenario, or a copy whose [simulation] table (the last one) sets the integrator / max_dt
scenario=examples/double_pendulum_stick_slip.toml
if [[ -n "$INTEGRATOR$MAX_DT" ]]; then
  cp "$scenario" "$WORK/scenario.toml"
  if [[ -n "$INTEGRATOR" ]]; then echo "integrator = \"$INTEGRATOR\"" >> "$WORK/scenario.toml"; fi
  if [[ -n "$MAX_DT" ]]; then echo "max_dt = $MAX_DT" >> "$WORK/scenario.toml"; fi
  scenario=$WORK/scenario.toml
fi

echo "clatter: $CLATTER, integrator ${INTEGRATOR:-auto (DOP853 at rel_tol 1e-12)}," \
     "max_dt ${MAX_DT:-0.05}, --output-dt ${OUTPUT_DT:-t_end};" \
     "peer: SciPy DOP853 rtol=atol=1e-12, no max_step; medians of $REPEATS, alternating"
printf '%-5s %-8s %6s %7s %9s %9s %10s %10s %8s\n' t_end tool events impacts wall_s ms/unit \
       steps/unit rhs/unit us/rhs

for T in $HORIZONS; do
  for ((i = 1; i <= REPEATS; i++)); do
    "$CLATTER" simulate "$scenario" --t-end "$T" --output-dt "${OUTPUT_DT:-$T}" --no-plot \
        --out "$WORK/clatter_${T}_$i" > "$WORK/clatter_${T}_$i.log" 2>&1
    "$PY" bench/peers/double_pendulum_belt_scipy.py --t-end "$T" --repeats 1 \
        --events "$WORK/peer_${T}_$i.csv" > "$WORK/peer_${T}_$i.json"
  done
  "$PY" - "$WORK" "$T" "$REPEATS" <<'EOF'
import csv, json, statistics, sys
work, T, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
t = float(T)
cl = [json.load(open(f"{work}/clatter_{T}_{i}/summary.json")) for i in range(1, n + 1)]
pe = [json.loads(open(f"{work}/peer_{T}_{i}.json").read()) for i in range(1, n + 1)]
for s in cl:
    if s["reason"] != "end_time":
        sys.exit(f"clatter stopped early at t_end = {T}: {s['message']}")
cw = statistics.median(s["wall_time_s"] for s in cl)
pw = statistics.median(p["wall_s_median"] for p in pe)
c, p = cl[-1]["counts"], pe[-1]
row = "%-5s %-8s %6d %7d %9.5f %9.4f %10.2f %10.1f %8.3f"
print(row % (T, "clatter", c["events"], c["impacts"], cw, 1e3 * cw / t, c["rk_steps"] / t,
             c["rhs_evaluations"] / t, 1e6 * cw / c["rhs_evaluations"]))
print(row % (T, "scipy", p["events"], p["impacts"], pw, 1e3 * pw / t, p["steps"] / t,
             p["nfev"] / t, 1e6 * pw / p["nfev"]))
print("%-5s ratio peer/clatter per time unit: wall %.1f, steps %.2f, rhs %.2f, us/rhs %.1f" % (
    T, pw / cw, p["steps"] / c["rk_steps"], p["nfev"] / c["rhs_evaluations"],
    (pw / p["nfev"]) / (cw / c["rhs_evaluations"])))
# accuracy: the events of the last repetition, one by one, and the final state
ce = list(csv.DictReader(open(cl[-1]["files"]["events"])))
px = list(csv.DictReader(open(f"{work}/peer_{T}_{n}.csv")))
same = len(ce) == len(px) and all(
    a["kind"] == b["kind"] and a["mode_after"] == b["mode_after"] and a["region"] == b["region"]
    for a, b in zip(ce, px))
cols = ["theta", "phi", "thetadot_pre", "phidot_pre", "thetadot_post", "phidot_post"]
dt = max((abs(float(a["t"]) - float(b["t"])) for a, b in zip(ce, px)), default=0.0)
ds = max((abs(float(a[k]) - float(b[k])) for a, b in zip(ce, px) for k in cols), default=0.0)
dq = max(abs(a - b) for a, b in zip(cl[-1]["q"], p["q_final"]))
dv = max(abs(a - b) for a, b in zip(cl[-1]["qdot"], p["qdot_final"]))
print("%-5s events %s (%d/%d: %s); max |dt| %.1e s, max |dstate| %.1e; final |dq| %.1e, "
      "|dqdot| %.1e" % (T, "agree" if same else "DIFFER", len(ce), len(px),
                         " ".join(r["kind"] for r in ce), dt, ds, dq, dv))
EOF
done
