#!/usr/bin/env bash
# Sets up and runs the whole test suite: a Release build with warnings as errors, then the same
# tests under AddressSanitizer + UndefinedBehaviorSanitizer, and a clang-format check.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh all

echo "== format check"
git ls-files '*.hpp' '*.cpp' | xargs clang-format --dry-run --Werror

echo "== release build and tests"
scripts/build.sh release
ctest --test-dir build --output-on-failure -j "$(nproc)"

echo "== ASan+UBSan build and tests"
scripts/build.sh asan
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan --output-on-failure -j "$(nproc)"
