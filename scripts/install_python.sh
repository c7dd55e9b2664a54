#!/usr/bin/env bash
# Makes `import clatter` work for /usr/bin/python3 (Debian's interpreter, with numpy): writes
# clatter.pth, naming this checkout's build/python, into the interpreter's first site-packages
# directory (/usr/local/lib/python3.11/dist-packages on Debian 12). Called by scripts/build.sh
# after a release build; the last checkout built is the one imported (PYTHONPATH=<build>/python
# overrides it). Needs write access there (root, or sudo without a password); otherwise it says
# what to do instead and succeeds anyway.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${CLATTER_PYTHON:-/usr/bin/python3}
dir="$(pwd)/build/python"
[ -d "$dir/clatter" ] || { echo "install_python.sh: $dir/clatter not built" >&2; exit 0; }
site=$("$python" -c 'import site; print(site.getsitepackages()[0])')
pth="$site/clatter.pth"
if [ -f "$pth" ] && [ "$(cat "$pth")" = "$dir" ]; then exit 0; fi
if mkdir -p "$site" 2>/dev/null && [ -w "$site" ]; then
  echo "$dir" > "$pth"
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
  sudo mkdir -p "$site" && echo "$dir" | sudo tee "$pth" >/dev/null
else
  echo "install_python.sh: cannot write $pth; use PYTHONPATH=$dir $python" >&2
  exit 0
fi
echo "install_python.sh: $python imports clatter from $dir ($pth)" >&2
