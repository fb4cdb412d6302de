#!/usr/bin/env bash
# Runs every test: sets up, builds, runs CTest; then builds the command line under
# AddressSanitizer + UndefinedBehaviorSanitizer and runs the command-line tests (bad input,
# results, plots, URDF) and every model of models/ with it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/setup.sh" --tests
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}"
jobs="$(nproc)"

"$root/scripts/build.sh"
(cd "$root/build" && ctest --output-on-failure -j "$jobs" --timeout 600)

asan="$root/build-asan"
# -O1 -g1: a third of -O2 -g's compile time on the Eigen-heavy multibody code, and still line
# numbers in the sanitizers' reports. (Unity batches, CMakeLists.txt, take it from 8.4 to 3.7 min
# cold.)
cmake -S "$root" -B "$asan" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
      -DTWINBLOCKS_SANITIZE=ON -DTWINBLOCKS_BUILD_BENCH=OFF >/dev/null
# The command line and its tests only: the models exercise the multibody, contact and drivetrain
# code end to end, and sanitizing the multibody unit tests as well was more than a quarter of the
# sanitized build's CPU time (their Eigen-heavy files take a minute or more each under ASan).
cmake --build "$asan" -j "$jobs" --target twinblocks_cli cli_tests
(cd "$asan" && ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS="suppressions=$root/scripts/lsan.supp:print_suppressions=0" UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    ctest --output-on-failure -j "$jobs" -L 'cli|models|robustness' -E '^model_g3_density_sweep$')
# (G3 is G2's model five times over: a minute under ASan for no code G2 does not run.)
# The robustness label runs tests/robustness's command-line cases that read files (model, URDF
# and data readers) under the sanitizers, each still under its 2 s and 256 MiB limit.
