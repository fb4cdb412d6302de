#!/bin/sh
# G2: GNU Octave loads a .mat file twinblocks wrote (check_results.m). Skipped, with exit status
# 77 (ctest's SKIP_RETURN_CODE), when `octave` is not on PATH.
# usage: octave_load.sh TWINBLOCKS WORK_DIR
set -eu
twinblocks=$1
work=$2
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v octave >/dev/null 2>&1; then
  echo "skipped: GNU Octave is not installed (apt-get install octave to run this check)"
  exit 77
fi
rm -rf "$work"
mkdir -p "$work"
"$twinblocks" run "$here/oscillator.xml" --quiet -o "$work/oscillator.mat"
"$twinblocks" run "$here/oscillator.xml" --quiet -o "$work/oscillator.csv"
octave --no-gui --no-window-system --norc --quiet --eval \
  "matfile = '$work/oscillator.mat'; csvfile = '$work/oscillator.csv'; source('$here/check_results.m');"
