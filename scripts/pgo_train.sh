#!/usr/bin/env bash
# The training run of a profile-guided build (scripts/build.sh --pgo): runs typical models with
# an instrumented command line, which writes the profile the second build reads. The runs cover
# what users run most: the grasps (contact, the Rosenbrock solvers, the detectors' discrete
# blocks), the arm's digital twin (drivetrains, CVODE), closed loops, and signal diagrams with
# the explicit solvers. Code the runs do not reach is compiled as without a profile.
# Usage: scripts/pgo_train.sh TWINBLOCKS_BINARY
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="$1"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
run() {
  local model="$1"
  shift
  "$bin" run "$root/$model" -q --no-plots -o "$out/run.csv" "$@" >/dev/null
}
# G2 at the best setting of docs/contact.md, and at the paper's (ode3, 1e-5 s); G1 stepping
# over quiet samples.
run models/gripper4/g2_power.xml --solver ode23s --rtol 2e-3 --atol 1e-5 --jacobian-steps 2
run models/gripper4/g2_power.xml
run models/gripper4/g1_precision.xml --solver ode23s --rtol 1e-3 --atol 1e-5 --jacobian-steps 2 \
    --sample-hits step_over
run models/robot6dof/twin.xml
run models/robot6dof/e1_forward_dynamics.xml
run models/mechanisms/four_bar.xml
run examples/van_der_pol.xml --solver ode45 --t-end 10
run examples/multirate_pid.xml
run examples/bouncing_ball.xml
