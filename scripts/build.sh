#!/usr/bin/env bash
# Configures and builds clatter. Usage: scripts/build.sh [release|asan]  (default release)
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:-release}
jobs=${CLATTER_JOBS:-$(nproc)}
case "$kind" in
  release) dir=build; flags=(-DCMAKE_BUILD_TYPE=Release) ;;
  asan) dir=build-asan; flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DCLATTER_SANITIZE=ON -DCLATTER_BUILD_BENCH=OFF) ;;
  *) echo "build.sh: unknown build kind '$kind' (allowed: release, asan)" >&2; exit 2 ;;
esac
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S . -B "$dir" "${generator[@]}" -DCLATTER_WERROR=ON "${flags[@]}" >/dev/null
cmake --build "$dir" -j "$jobs"
# `import clatter` for /usr/bin/python3 (the module is built in the release configuration only)
if [ "$kind" = release ]; then scripts/install_python.sh; fi
