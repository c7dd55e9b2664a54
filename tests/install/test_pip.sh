#!/usr/bin/env bash
# `pip install .` as docs/python.md gives it (issue 25 item 3), offline with Debian 12's pip:
#   1. a virtual environment of /usr/bin/python3 (--system-site-packages: numpy from Debian);
#   2. pip install --no-build-isolation --no-index SOURCE (CMake builds the module for it);
#   3. from / (nothing of the tree on the path) the venv's clatter is the one imported, has
#      __version__, computes an impact, and loads the example plugin built by the tree's build
#      (examples/user_model), whose first impact is the closed form t1 = asin(w L/u0)/w;
#   4. with BUILD_DIR: docs/tutorial.md runs with the venv's Python (its command-line steps with
#      BUILD_DIR installed into a temporary prefix), tests/tutorial/run_tutorial.py.
# Usage: tests/install/test_pip.sh SOURCE_DIR EXAMPLE_PLUGIN [BUILD_DIR]
set -euo pipefail
src=$(realpath "$1")
plugin=$(realpath "$2")
build=${3:+$(realpath "$3")}
work=$(mktemp -d /tmp/clatter-pip-test.XXXXXX)
trap 'rm -rf "$work"' EXIT

/usr/bin/python3 -m venv --system-site-packages "$work/venv"
# the CMake build of the module is kept beside the tree's own (a second run reuses it)
CLATTER_PIP_BUILD_DIR="${CLATTER_PIP_BUILD_DIR:-$src/build/pip-test}" \
  "$work/venv/bin/pip" install --no-build-isolation --no-index -q "$src"
cd /
"$work/venv/bin/python" - "$work/venv" "$plugin" <<'PY'
import math, os, re, sys
import clatter
venv, plugin = sys.argv[1], sys.argv[2]
assert clatter.__file__.startswith(venv), clatter.__file__
assert re.fullmatch(r"\d+\.\d+\.\d+", clatter.__version__), clatter.__version__
assert clatter.impact("stronge", [0.1, -1.0], [[1.0, 0.0], [0.0, 1.0]], e=0.5)["status"] == "ok"
p = clatter.load_plugin(plugin)
m = clatter.Model("spring_box", e=0.8, mass=2.0, k_x=8.0, k_y=3.0, half_width=0.5)
r = clatter.simulate(m, q=[0.0, 0.2], qd=[3.0, -0.4], t_end=1.0, events_only=True)
t = r.events["t"][list(r.events["kind"]).index("impact")]
w = math.sqrt(8.0 / 2.0)
assert abs(t - math.asin(w * 0.5 / 3.0) / w) < 1e-10, t
print("pip: clatter", clatter.__version__, "from", os.path.dirname(clatter.__file__),
      "- plugin", p["kinds"], "first impact", t)
PY
if [ -n "$build" ]; then
  echo "== docs/tutorial.md with the pip-installed module"
  /usr/bin/python3 "$src/tests/tutorial/run_tutorial.py" "$src" --build "$build" \
    --python "$work/venv/bin/python"
fi
echo PASS
