#!/usr/bin/env bash
# Configures and builds twinblocks into build/ (Release, Ninja, ccache when present).
# Usage: scripts/build.sh [extra cmake args...]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${TWINBLOCKS_BUILD_DIR:-$root/build}"
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}"
jobs="$(nproc)"
# The Python module is built for Debian's interpreter, which has pybind11 and numpy (the first
# python3 on PATH may be another, e.g. pyenv's).
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DPython3_EXECUTABLE=/usr/bin/python3 "$@" >/dev/null
cmake --build "$build" -j "$jobs"
