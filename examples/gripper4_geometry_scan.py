#!/usr/bin/env python3
"""Does the power grasp G2 come back up, and does G3 order by density, for other geometries?

docs/grasp.md fixes the gripper and the sphere, and quotes Pozzi et al. 2022,
"Modeling and Simulation of Robotic Grasping in Simulink Through Simscape Multibody" (Fig. 11 and 12): in the power grasp the sphere first moves down, then back up, and
in the density sweep the denser sphere ends less far down. With the first reference set-up (the
sphere at (-0.005, 0, 0.060) m) it did neither: the fingers stand at y = +-0.025 m, inside the
sphere's radius, their middle and distal phalanges touched the sphere's upper flanks first and
pressed it onto the palm, where every density ended (docs/grasp.md, "The earlier set-up"). The
reference now starts the sphere 1 mm above the palm at (-0.010, 0, 0.031) m.

This script asks whether that is a property of the one geometry or of the hand. It edits
models/gripper4/g2_power.xml with the Python API (the hand's define expanded into a plain
subsystem, then the four finger mounts moved in y, the sphere resized and moved) and runs G2
for each geometry of a grid and each density of G3. Per geometry it reports:

  first     the phalanges whose contact sets first, and when (s)
  dx        how far the sphere moved along x by the end (m; D4: towards +x)
  down      how far below its start it went at its lowest (m; D4: "first down")
  rise      how far it rose after its lowest point (m; D4: "then back up", 1 mm in
            tests/acceptance/gripper_grasps_test.cc)
  |y|       the largest |y| (m; D4: below 1e-6 m)
  G3 down   the final downward displacement for 160, 700, 2300, 7860, 19250 kg/m^3 (m;
            D5: strictly decreasing)

and whether D4's G2 criteria and D5 hold. The reference geometry is the first row. Results go
to a CSV table (--out). The runs use ode23s at rtol 2e-3, atol 1e-5, jacobian_steps 2, which
agrees with the paper's ode3 at 1e-5 s on G2 to 0.1 ms in contact times and 0.02 mm in the
sphere's position (docs/contact.md); --paper-setting runs ode3 at 1e-5 s instead (ten times
slower).

Usage (build first: scripts/build.sh):
  PYTHONPATH=build/python /usr/bin/python3 examples/gripper4_geometry_scan.py [--out FILE]
      [--quick] [--paper-setting]
"""

import argparse
import csv
import itertools
import math
import pathlib
import sys

import numpy as np

import twinblocks as tb

REPO = pathlib.Path(__file__).resolve().parent.parent
G2_MODEL = REPO / "models" / "gripper4" / "g2_power.xml"

# The reference geometry (docs/grasp.md).
FINGER_X = 0.045  # m, |x| of every finger base
FINGER_Y = 0.025  # m, |y| of every finger base
FINGER_RADIUS = 0.008  # m
FINGER_LENGTH = 0.040 + 0.030 + 0.025  # m, straight up at q = 0
SPHERE = {"radius": 0.030, "x": -0.010, "z": 0.031}  # m
DENSITIES = [160, 700, 2300, 7860, 19250]  # kg/m^3, G3

# The grid around it: finger bases from the mid-plane (y = 0, the fingers of a side coincide:
# phalanges do not touch each other) to outside the sphere, smaller and larger spheres, lower
# and higher, nearer to fingers 2 and 4.
GRID = {
    "finger_y": [0.0, 0.015, 0.025, 0.030, 0.035],
    "radius": [0.020, 0.025, 0.030, 0.035],
    "z": [0.035, 0.040, 0.045, 0.050, 0.060],
    "x": [-0.005, -0.015],
}
QUICK_GRID = {
    "finger_y": [0.0, 0.025, 0.035],
    "radius": [0.025, 0.030],
    "z": [0.040, 0.060],
    "x": [-0.005, -0.015],
}

CONTACTS = [f"F{k}P{j}" for k in range(1, 5) for j in range(1, 4)] + ["palm"]
# D4's thresholds, as tests/acceptance/gripper_grasps_test.cc has them.
MOVES = 1e-3  # m
Y_BOUND = 1e-6  # m


def fits(finger_y, radius, x, z):
    """Whether the sphere starts clear of the palm and of the straight fingers."""
    if z - radius <= 0.0:
        return False
    for bx in (FINGER_X, -FINGER_X):
        for by in (finger_y, -finger_y):
            # Distance from the centre to the finger's axis segment, (bx, by, 0 .. length).
            dz = min(max(z, 0.0), FINGER_LENGTH) - z
            if math.sqrt((x - bx) ** 2 + by**2 + dz**2) <= radius + FINGER_RADIUS:
                return False
    return True


def g2_model(finger_y, radius, x, z, density):
    model = tb.load(str(G2_MODEL))
    model.expand_define("hand")
    for k, (sx, sy) in enumerate([(1, 1), (-1, 1), (1, -1), (-1, -1)], start=1):
        model.set_param(f"hand/finger{k}/mount", "translation",
                        [sx * FINGER_X, sy * finger_y, 0.0])
    model.set_param("object", "position", [x, 0.0, z])
    model.set_param("object", "radius", radius)
    model.set_param("object", "density", density)
    return model


def run(model, paper_setting, **more_settings):
    settings = ({"solver": "ode3", "step": 1e-5} if paper_setting else
                {"solver": "ode23s", "rtol": 2e-3, "atol": 1e-5, "jacobian_steps": 2})
    results = tb.simulate(model, **settings, **more_settings)
    if not results.ok:
        raise RuntimeError(results.error)
    return results


def measure(results):
    t = results.time
    p = results["object_position"]
    lowest = int(np.argmin(p[:, 2]))
    first = {}
    for name in CONTACTS:
        on = np.nonzero(results[name][:, 0] == 1.0)[0]
        if on.size:
            first[name] = float(t[on[0]])
    return {
        "dx": float(p[-1, 0] - p[0, 0]),
        "down": float(p[0, 2] - p[lowest, 2]),
        "rise": float(np.max(p[lowest:, 2]) - p[lowest, 2]),
        "y_max": float(np.max(np.abs(p[:, 1]))),
        "final_down": float(p[0, 2] - p[-1, 2]),
        "first": first,
    }


def first_contacts(first):
    if not first:
        return "none"
    t0 = min(first.values())
    names = [n for n, t in first.items() if t <= t0 + 1e-9]
    return f"{'+'.join(names)}@{t0:.4f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(REPO / "out" / "gripper4_geometry_scan.csv"))
    parser.add_argument("--quick", action="store_true", help="a 3 x 2 x 2 x 2 grid")
    parser.add_argument("--paper-setting", action="store_true", help="ode3 at 1e-5 s")
    args = parser.parse_args()

    grid = QUICK_GRID if args.quick else GRID
    geometries = [(FINGER_Y, SPHERE["radius"], SPHERE["x"], SPHERE["z"])]
    for finger_y, radius, z, x in itertools.product(grid["finger_y"], grid["radius"], grid["z"],
                                                    grid["x"]):
        g = (finger_y, radius, x, z)
        if g != geometries[0] and fits(*g):
            geometries.append(g)

    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    header = ["finger_y", "radius", "x", "z", "first_contacts", "dx", "down", "rise", "y_max",
              "d4_g2"] + [f"g3_down_{rho}" for rho in DENSITIES] + ["d5"]
    print("finger_y radius  x       z      | first contacts               dx       down     "
          "rise    | G3 final down (160 ... 19250 kg/m^3)      | D4 G2 D5")
    g2_met = d5_met = 0
    with open(out, "w", newline="") as f:
        table = csv.writer(f)
        table.writerow(header)
        for g in geometries:
            finger_y, radius, x, z = g
            g2 = measure(run(g2_model(finger_y, radius, x, z, 1000.0), args.paper_setting))
            g3 = [measure(run(g2_model(finger_y, radius, x, z, rho), args.paper_setting))
                  ["final_down"] for rho in DENSITIES]
            d4 = (g2["dx"] > MOVES and g2["down"] > MOVES and g2["rise"] > MOVES and
                  g2["y_max"] <= Y_BOUND)
            d5 = all(a > b for a, b in zip(g3, g3[1:]))
            g2_met += d4
            d5_met += d5
            first = first_contacts(g2["first"])
            table.writerow([finger_y, radius, x, z, first, g2["dx"], g2["down"], g2["rise"],
                            g2["y_max"], int(d4)] + g3 + [int(d5)])
            print(f"{finger_y:<8.3f} {radius:<6.3f} {x:<7.3f} {z:<6.3f} | {first:<28s} "
                  f"{g2['dx']:+.5f} {g2['down']:.5f} {g2['rise']:.5f} | "
                  f"{' '.join(f'{d:.5f}' for d in g3)} | {'yes' if d4 else 'no':<5s} "
                  f"{'yes' if d5 else 'no'}", flush=True)
    print(f"{len(geometries)} geometries (the reference first): D4's G2 criteria hold for "
          f"{g2_met}, D5 for {d5_met}. Table: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
