#!/usr/bin/env bash
# Configures and builds twinblocks into build/ (Release, Ninja, ccache when present).
# Usage: scripts/build.sh [extra cmake args...]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${TWINBLOCKS_BUILD_DIR:-$root/build}"
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}"
jobs="$(nproc)"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build "$build" -j "$jobs"
