#!/usr/bin/env bash
# The flagship demo: sets up, builds, and simulates a model (default: the bouncing ball), then
# says where the results are. Usage: scripts/demo.sh [MODEL.xml]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/setup.sh"
"$root/scripts/build.sh" >/dev/null
model="${1:-$root/examples/bouncing_ball.xml}"
mkdir -p "$root/out"
out="$root/out/$(basename "${model%.xml}").csv"
"$root/build/bin/twinblocks" run "$model" -o "$out"
echo "open $out (CSV: time and one column per logged signal)"
