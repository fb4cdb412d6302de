#!/usr/bin/env bash
# Runs every test: sets up, builds, runs CTest; then builds the command line under
# AddressSanitizer + UndefinedBehaviorSanitizer and runs the bad-input cases, the multibody
# tests and every model of models/ with it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/setup.sh" --tests
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}"
jobs="$(nproc)"

"$root/scripts/build.sh"
(cd "$root/build" && ctest --output-on-failure -j "$jobs" --timeout 600)

asan="$root/build-asan"
# -O1 -g1: a third of -O2 -g's compile time on the Eigen-heavy multibody code, and still line
# numbers in the sanitizers' reports.
cmake -S "$root" -B "$asan" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
      -DTWINBLOCKS_SANITIZE=ON -DTWINBLOCKS_BUILD_BENCH=OFF >/dev/null
cmake --build "$asan" -j "$jobs" --target twinblocks_cli cli_tests multibody_tests
(cd "$asan" && ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS="suppressions=$root/scripts/lsan.supp:print_suppressions=0" UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    ctest --output-on-failure -j "$jobs" -L 'cli|multibody|models')
