#!/usr/bin/env bash
# Configures and builds twinblocks into build/ (Release, Ninja, ccache when present).
# Usage: scripts/build.sh [--pgo] [extra cmake args...]
#   --pgo: a profile-guided build into build-pgo/ (twice the build time, about 10 % faster
#   simulations): an instrumented command line runs scripts/pgo_train.sh, then everything is
#   compiled again with the profile it wrote.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
pgo=0
if [ "${1:-}" = "--pgo" ]; then
  pgo=1
  shift
fi
default_build="$root/build"
[ "$pgo" = 1 ] && default_build="$root/build-pgo"
build="${TWINBLOCKS_BUILD_DIR:-$default_build}"
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}"
jobs="$(nproc)"
# The Python module is built for Debian's interpreter, which has pybind11 and numpy (the first
# python3 on PATH may be another, e.g. pyenv's).
configure() {
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DPython3_EXECUTABLE=/usr/bin/python3 "$@" >/dev/null
}
if [ "$pgo" = 1 ]; then
  configure -DTWINBLOCKS_PGO=GENERATE "$@"
  cmake --build "$build" -j "$jobs" --target twinblocks_cli
  # A fresh profile: counts would add up over trainings of older code.
  rm -rf "$build/pgo-profile"
  "$root/scripts/pgo_train.sh" "$build/bin/twinblocks"
  configure -DTWINBLOCKS_PGO=USE "$@"
else
  configure -DTWINBLOCKS_PGO=OFF "$@"
fi
cmake --build "$build" -j "$jobs"
