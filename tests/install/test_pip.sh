#!/usr/bin/env bash
# `pip install .` as docs/python.md gives it (issue 25 item 3), offline with Debian 12's pip:
#   1. a virtual environment of /usr/bin/python3 (--system-site-packages: numpy from Debian);
#   2. pip install --no-build-isolation --no-index SOURCE (CMake builds the module for it);
#   3. from / (nothing of the tree on the path) the venv's clatter is the one imported, has
#      __version__, computes an impact, and loads the example plugin built by the tree's build
#      (examples/user_model), whose first impact is the closed form t1 = asin(w L/u0)/w, and
#      the same box written as a Python class compiled with numba (compile=True);
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
# a user's own model in Python, compiled with numba from the installed package (the same
# spring box: x, y of a point mass between walls at +-half_width, springs to the origin)
class Box:
    nq, contacts = 2, ["left", "right"]

    def __init__(self):
        self.m, self.k_x, self.k_y, self.h = 2.0, 8.0, 3.0, 0.5

    def mass_matrix(self, t, q):
        return ((self.m, 0.0), (0.0, self.m))

    def applied_forces(self, t, q, qd):
        return (-self.k_x * q[0], -self.k_y * q[1])

    def contact(self, c, t, q, qd):
        s = 1.0 if c == 1 else -1.0  # the wall at x = s h, its normal pointing back
        return self.h - s * q[0], ((0.0, 1.0), (-s, 0.0)), (0.0, 0.0), (0.0, 0.0)

    def potential_energy(self, t, q):
        return 0.5 * (self.k_x * q[0] * q[0] + self.k_y * q[1] * q[1])

    def force_scale(self):
        return self.k_x + self.k_y

box = clatter.python_model(Box(), law="newton", e=0.8, compile=True)
rb = clatter.simulate(box, q=[0.0, 0.2], qd=[3.0, -0.4], t_end=1.0, events_only=True)
tb = rb.events["t"][list(rb.events["kind"]).index("impact")]
assert abs(tb - math.asin(w * 0.5 / 3.0) / w) < 1e-10, tb
# the command's figures come with the package (clatter/plots/), nothing of the source tree
os.environ.pop("CLATTER_PLOT_DIR", None)
assert clatter.plot.scripts_dir().startswith(venv), clatter.plot.scripts_dir()
png = os.path.join(venv, "box.png")
clatter.simulate(m, q=[0.0, 0.2], qd=[3.0, -0.4], t_end=1.0).plot(png)
assert os.path.getsize(png) > 10000
print("pip: clatter", clatter.__version__, "from", os.path.dirname(clatter.__file__),
      "- plugin", p["kinds"], "first impact", t, "- compiled Python model", tb)
PY
echo "== a plugin built against the pip-installed package (its headers and CMake package)"
prefix=$("$work/venv/bin/python" -c "import clatter; print(clatter.cmake_prefix())")
case "$prefix" in "$work/venv"/*) ;; *) echo "cmake_prefix() is not in the venv: $prefix"; exit 1 ;; esac
cmake -S "$src/examples/user_model" -B "$work/model" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" > "$work/model.log" 2>&1 || { cat "$work/model.log"; exit 1; }
cmake --build "$work/model" -j 2 >> "$work/model.log" 2>&1 || { cat "$work/model.log"; exit 1; }
cd /
"$work/venv/bin/python" - "$work/model/libspring_box.so" <<'PY'
import math, sys
import clatter
p = clatter.load_plugin(sys.argv[1])
assert "spring_box" in p["kinds"], p
m = clatter.Model("spring_box", e=0.8, mass=2.0, k_x=8.0, k_y=3.0, half_width=0.5)
r = clatter.simulate(m, q=[0.0, 0.2], qd=[3.0, -0.4], t_end=1.0, events_only=True)
t = r.events["t"][list(r.events["kind"]).index("impact")]
w = math.sqrt(8.0 / 2.0)
assert abs(t - math.asin(w * 0.5 / 3.0) / w) < 1e-10, t  # the closed form t1 = asin(w L/u0)/w
print("pip: a plugin built against", clatter.cmake_prefix(), "- first impact", t)
PY
if [ -n "$build" ]; then
  echo "== docs/tutorial.md with the pip-installed module"
  /usr/bin/python3 "$src/tests/tutorial/run_tutorial.py" "$src" --build "$build" \
    --python "$work/venv/bin/python"
fi
echo PASS
