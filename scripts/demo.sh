#!/usr/bin/env bash
# The flagship demo: sets up, builds, and runs the digital twin of the 6-DOF arm of Boschetti & Sinico 2024, "Designing Digital Twins of Robots Using Simscape Multibody"
# (models/robot6dof/twin.xml, experiment E4: friction, gears, PMSMs and computed-torque
# control), then the ideal-arm experiments E1, E2, E3, and says where the results and the
# per-joint tracking-error plots are.
# Usage: scripts/demo.sh [MODEL.xml ...] to run other models instead.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/setup.sh"
"$root/scripts/build.sh" >/dev/null
if [ $# -eq 0 ]; then
  set -- "$root"/models/robot6dof/twin.xml \
         "$root"/models/robot6dof/e1_forward_dynamics.xml \
         "$root"/models/robot6dof/e2_inverse_dynamics.xml \
         "$root"/models/robot6dof/e3_kinematic_control.xml
fi
mkdir -p "$root/out"
for model in "$@"; do
  out="$root/out/$(basename "${model%.xml}").csv"
  echo "== $(basename "$model")"
  # Each run also writes an offline HTML report: charts and a 3D playback (docs/report.md).
  "$root/build/bin/twinblocks" run "$model" -o "$out" --report "${out%.csv}.html"
done
echo
if [ -f "$root/out/twin.csv" ]; then
  echo "digital twin (E4): $root/out/twin.csv; tracking error per joint:" \
       "$root/out/e4_error_joint1.svg ... e4_error_joint6.svg"
fi
echo "open $root/out/ (HTML: charts and 3D playback, e.g. $root/out/twin.html;" \
     "CSV: time and one column per logged signal; SVG: the plots)"
