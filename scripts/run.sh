#!/usr/bin/env bash
# The main job: set up, build, and run the default scenario, the slender rod on the oscillating
# floor of [BP] Fig. 5 (examples/rod_fig5.toml). Writes out/rod_fig5/{timeseries.csv,events.csv,
# summary.json,plot.png}. Any `clatter` command line may be given instead, e.g.
#   scripts/run.sh simulate examples/ball_zeno.toml
#   scripts/run.sh impact-sweep --preset fig3.8 --out out/fig3.8
set -euo pipefail
cd "$(dirname "$0")/.."
# only what the main job needs: the tests' packages and targets belong to scripts/test.sh
scripts/setup.sh run
scripts/build.sh app >/dev/null
if [ $# -eq 0 ]; then set -- simulate examples/rod_fig5.toml --out out/rod_fig5; fi
./build/apps/clatter/clatter "$@"
