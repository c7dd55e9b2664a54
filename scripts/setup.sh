#!/usr/bin/env bash
# Installs the Debian 12 packages clatter needs to build, test, plot and benchmark. Idempotent:
# installs only what is missing, and runs `apt-get update` only when something must be installed.
set -euo pipefail

packages=(
  build-essential cmake ninja-build
  libeigen3-dev libboost-dev libcli11-dev nlohmann-json3-dev libtomlplusplus-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  python3-numpy python3-matplotlib python3-scipy pybind11-dev python3-pytest python3-dev
  python3-pip python3-venv python3-setuptools python3-wheel python3-tqdm
  hyperfine clang-format python3-siconos
  libopenmpi-dev openmpi-bin libhdf5-dev python3-h5py python3-xarray python3-h5netcdf
)

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
