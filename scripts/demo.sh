#!/usr/bin/env bash
# The flagship demo: sets up, builds, and runs the digital twin of the 6-DOF arm of seed 003
# (experiments E1, E2, E3 of models/robot6dof/), then says where the results and plots are.
# Usage: scripts/demo.sh [MODEL.xml ...] to run other models instead.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/setup.sh"
"$root/scripts/build.sh" >/dev/null
if [ $# -eq 0 ]; then
  set -- "$root"/models/robot6dof/e1_forward_dynamics.xml \
         "$root"/models/robot6dof/e2_inverse_dynamics.xml \
         "$root"/models/robot6dof/e3_kinematic_control.xml
fi
mkdir -p "$root/out"
for model in "$@"; do
  out="$root/out/$(basename "${model%.xml}").csv"
  "$root/build/bin/twinblocks" run "$model" -o "$out"
done
echo "open $root/out/ (CSV: time and one column per logged signal; SVG: the plots)"
