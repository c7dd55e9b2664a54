#!/usr/bin/env bash
# The installed package, as a user outside the tree meets it (issue 25 item 2):
#   1. `cmake --install BUILD --prefix P` into a temporary prefix;
#   2. examples/user_model configured on its own with only find_package(clatter CONFIG) and
#      -DCMAKE_PREFIX_PATH=P, built, and its plugin installed into P (P/lib/clatter/plugins);
#   3. its demo (loads the plugin through the scenario, compares with the closed form) passes;
#   4. the installed P/bin/clatter runs the example scenario (plugin found by name in the
#      installed plugin folder, plot drawn with the installed scripts) to t_end, and lists the
#      plugin from P, not from the build tree.
# Usage: tests/install/test_install.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(realpath "$1")
src=$(realpath "$2")
prefix=$(mktemp -d /tmp/clatter-install-test.XXXXXX)
trap 'rm -rf "$prefix"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" >/dev/null
for f in include/clatter/model/plugin.hpp include/clatter/version.hpp \
         lib/cmake/clatter/clatterConfig.cmake lib/cmake/clatter/clatterConfigVersion.cmake \
         bin/clatter share/clatter/plots/simulate.py share/clatter/examples/rod_fig5.toml; do
  [ -e "$prefix/$f" ] || fail "not installed: $f"
done
ls "$prefix"/lib/libclatter.so* >/dev/null || fail "libclatter.so not installed"

generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
# a model is a user's own project: nothing of the build tree is visible to it
cmake -S "$src/examples/user_model" -B "$prefix/model-build" "${generator[@]}" \
      -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$prefix/model-build" >/dev/null
cmake --install "$prefix/model-build" --prefix "$prefix" >/dev/null
[ -f "$prefix/lib/clatter/plugins/libspring_box.so" ] || fail "the plugin was not installed"

echo "== the demo built out of tree"
"$prefix/model-build/user_model_demo" "$src/examples/user_model/user_model.toml" | tail -1

echo "== the installed clatter"
out="$prefix/out"
(cd / && env -u CLATTER_PLOT_DIR "$prefix/bin/clatter" simulate \
   "$src/examples/user_model/user_model.toml" --out "$out" >"$prefix/summary.json")
/usr/bin/python3 - "$prefix" <<'PY'
import json, os, sys
prefix = sys.argv[1]
s = json.load(open(os.path.join(prefix, "summary.json")))
assert s["reason"] == "end_time", s["reason"]
assert s["counts"]["impacts"] > 3, s["counts"]
assert os.path.getsize(os.path.join(prefix, "out", "plot.png")) > 10000
print("simulate: reason", s["reason"], "impacts", s["counts"]["impacts"])
PY
"$prefix/bin/clatter" --plugin spring_box models | /usr/bin/python3 -c '
import json, sys
j = json.load(sys.stdin); prefix = sys.argv[1]
paths = [p["path"] for p in j["plugins"]]
assert paths == [prefix + "/lib/clatter/plugins/libspring_box.so"], paths
print("models: plugin", paths[0])' "$(realpath "$prefix")"
# the installed tool uses the installed library
loaded=$(ldd "$prefix/bin/clatter" | awk '/libclatter/ {print $3}')
[ "$(realpath "$loaded")" = "$(realpath "$prefix"/lib/libclatter.so)" ] ||
  fail "bin/clatter loads $loaded, not $prefix/lib/libclatter.so"
echo "PASS"
