#!/bin/sh
# G3 of docs/grasp.md as one sweep of G2 (g2_power.xml): the sphere's density
# takes the five values of Pozzi et al. 2022, "Modeling and Simulation of Robotic Grasping in Simulink Through Simscape Multibody" (balsa 160, fir 700, chalk 2300, steel 7860, gold 19250
# kg/m^3), one run each, at the paper's setting (ode3, step 1e-5 s, 0.5 s). Writes
# OUT/summary.csv (one row per density: G2's summaries and the mean height), OUT/run_000N.csv
# and the overlay plots of z(t), x(t) and the rotation about y (paper Fig. 12A, B).
#
#   models/gripper4/g3_sweep.sh [OUT] [twinblocks sweep options, e.g. -j2]
#   mpirun -np 2 twinblocks sweep ...   (the same command under MPI, see docs/sweep.md)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-g3_sweep}
[ $# -gt 0 ] && shift
exec "${TWINBLOCKS:-twinblocks}" sweep "$here/g2_power.xml" \
  --set object.density=160,700,2300,7860,19250 \
  --plot 'object.position[2]' --plot 'object.position[0]' --plot 'object.euler_zyx[1]' \
  --mean 'object.position[2]' \
  -o "$out" "$@"
