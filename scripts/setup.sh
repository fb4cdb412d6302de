#!/usr/bin/env bash
# Installs what twinblocks needs from Debian (bookworm) packages, only what is missing.
# Idempotent: a second run installs nothing. Needs root (or sudo) when something is missing.
# Usage: setup.sh [--tests]   (--tests: also the tools only the tests use, scripts/test.sh)
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config git
  libeigen3-dev libboost-graph-dev libsundials-dev libpugixml-dev libmuparser-dev
  libcli11-dev libgtest-dev libgmock-dev libbenchmark-dev libassimp-dev libfcl-dev libccd-dev
  libmujoco-dev  # benchmarks only: bench/ compares with MuJoCo when it is installed
  liborocos-kdl-dev  # benchmarks only: bench/ik_bench compares with KDL's IK solver
  pybind11-dev python3-dev python3-numpy python3-pytest  # the Python module and its tests
  libmatio-dev  # results as MATLAB .mat files (`twinblocks run -o results.mat`)
  liburdfdom-dev  # `twinblocks import robot.urdf` (docs/urdf.md)
  libgraphviz-dev graphviz  # diagram pictures (`twinblocks graph MODEL --svg`)
  librsvg2-dev  # PNG plots (`twinblocks plot RESULTS x -o x.png`)
  libglpk-dev libqhull-dev  # grasp analysis: its linear programs (GLPK) and wrench hulls (qhull)
  libsuitesparse-dev  # the implicit solvers' sparse factorization of large blocks (KLU)
  libgmsh-dev  # deformable bodies: tetrahedral meshes of primitives and closed surfaces (Gmsh)
  libopenmpi-dev openmpi-bin  # `twinblocks sweep` over MPI ranks, and its mpirun test
)
# The HTML report's page is bundled from npm packages at build time (web/): node and npm, from
# Debian unless the machine already has them (a Node.js of its own brings its own npm, which
# Debian's npm package would conflict with).
command -v node >/dev/null || packages+=(nodejs)
command -v npm >/dev/null || packages+=(npm)
# Tools the tests drive but twinblocks itself never needs.
test_packages=(
  chromium  # the HTML report's browser test (tests/report/check_report.mjs)
  octave  # G2 of issue 8: GNU Octave loads a .mat file twinblocks wrote (tests/data/mat)
)
if [ "${1:-}" = "--tests" ]; then
  packages+=("${test_packages[@]}")
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "twinblocks setup: installing ${missing[*]}" >&2
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
