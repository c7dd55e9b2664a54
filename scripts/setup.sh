#!/usr/bin/env bash
# Installs the Debian 12 packages clatter needs. Usage: scripts/setup.sh [run|all] (default all)
#   run  what the main job needs: build the library, the CLI and the Python module, and plot
#   all  also what the tests, the benchmarks and their peers need (GoogleTest, Google Benchmark,
#        SciPy, Siconos, MPI, HDF5, pip and venv for the install tests, clang-format, hyperfine,
#        numba for compiled Python models)
# Idempotent: installs only what is missing, and runs `apt-get update` only when something must be
# installed.
set -euo pipefail
what=${1:-all}

packages=(
  build-essential cmake ninja-build
  libeigen3-dev libboost-dev libcli11-dev nlohmann-json3-dev libtomlplusplus-dev
  python3-numpy python3-matplotlib pybind11-dev python3-dev python3-tqdm
)
case "$what" in
  run) ;;
  all)
    packages+=(
      libgtest-dev libgmock-dev libbenchmark-dev
      python3-scipy python3-pytest python3-pip python3-venv python3-setuptools python3-wheel
      hyperfine clang-format python3-siconos python3-numba
      libopenmpi-dev openmpi-bin libhdf5-dev python3-h5py python3-xarray python3-h5netcdf
    ) ;;
  *) echo "setup.sh: unknown set '$what' (allowed: run, all)" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
echo "setup: installing ${missing[*]}" >&2
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
