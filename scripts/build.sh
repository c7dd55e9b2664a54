#!/usr/bin/env bash
# Configures and builds clatter. Usage: scripts/build.sh [release|app|asan]  (default release)
#   release  everything: library, CLI, Python module, example plugins, tests, benchmarks
#   app      what the main job needs: the same Release build without the tests and benchmarks
#   asan     the tests under AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/)
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:-release}
jobs=${CLATTER_JOBS:-$(nproc)}
case "$kind" in
  release) dir=build; flags=(-DCMAKE_BUILD_TYPE=Release -DCLATTER_BUILD_TESTS=ON -DCLATTER_BUILD_BENCH=ON) ;;
  app) dir=build; flags=(-DCMAKE_BUILD_TYPE=Release -DCLATTER_BUILD_TESTS=OFF -DCLATTER_BUILD_BENCH=OFF) ;;
  asan) dir=build-asan; flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DCLATTER_SANITIZE=ON -DCLATTER_BUILD_BENCH=OFF) ;;
  *) echo "build.sh: unknown build kind '$kind' (allowed: release, app, asan)" >&2; exit 2 ;;
esac
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S . -B "$dir" "${generator[@]}" -DCLATTER_WERROR=ON "${flags[@]}" >/dev/null
cmake --build "$dir" -j "$jobs"
# `import clatter` for /usr/bin/python3 (the module is built in the release configuration only)
if [ "$kind" != asan ]; then scripts/install_python.sh; fi
