#!/usr/bin/env python3
"""The workflow of Pozzi et al. 2022, "Modeling and Simulation of Robotic Grasping in Simulink Through Simscape Multibody", in Python: a robotic hand built from its DH description, in code.

Pozzi et al. 2022 (section 2.2.1) build a Simscape hand from a SynGrasp hand
structure with Simulink's programmatic editing: a palm, then per finger a chain of phalanx
modules, one per row of its DH table, each with its joint, body, contact, contact detector and
hand-closure logic. This script does the same with twinblocks' editing API, block by block,
for the four-fingered gripper of docs/grasp.md:

  palm      box 0.12 x 0.08 x 0.01 m, top face centred on the hand's base frame
  fingers   bases at (+-0.045, +-0.025, 0) m; 1 and 3 close towards -x, 2 and 4 towards +x
  DH rows   per finger, three standard rows (alpha, a, d, offset) = (0, L, 0, 0),
            L = 0.040, 0.030, 0.025 m; DH frame 0 has x0 = +z (the finger points up at
            q = 0) and z0 = the joint axis (-y or +y: a positive angle closes the finger)
  phalanges cylinders of radius 0.008 m, density 1000 kg/m^3

Each phalanx is an instance of the grasp library's Phalanx define (models/lib/grasp.xml:
RevoluteJoint, cylinder Solid, SpatialContactForce with the object, ContactDetector, and the
JointClosure logic that holds a joint while its own or a more distal phalanx touches); the
palm is a Palm (box, contact, detector). The hand becomes a define, Gripper4, with the
hand-wide settings (closure rate, contact law, detection) as its parameters, and the power
grasp experiment G2 instantiates it with Pozzi et al. 2022's Table 2, a free sphere and a
ContactTimes block.

Output (in --out, default out/gripper4_from_dh/ in the repository):
  gripper4_hand.xml  the Gripper4 define; it includes the grasp library by a path relative to
                     the output folder
  g2_power.xml       the G2 experiment (includes gripper4_hand.xml)
Both are compared with the hand-written models/gripper4/ files as Models (what they say, not
how the text is laid out): g2_power.xml is equal to the hand-written one; gripper4_hand.xml
differs only in its include's path ("../lib/grasp.xml" there), because it is written to
another folder; its Gripper4 define is equal. Then G2 is simulated (ode3, fixed step 1e-5 s,
to 0.5 s as the model says, or to --t-end) and the time each contact signal first sets is
printed.

Usage (build first: scripts/build.sh):
  PYTHONPATH=build/python /usr/bin/python3 examples/gripper4_from_dh.py [--out DIR] [--t-end T]
"""

import argparse
import os
import pathlib
import sys

import numpy as np

import twinblocks as tb

REPO = pathlib.Path(__file__).resolve().parent.parent
GRASP_LIBRARY = REPO / "models" / "lib" / "grasp.xml"

# ---- The DH description (docs/grasp.md) --------------------------------------

PALM = {"length": 0.12, "width": 0.08, "thickness": 0.01}  # m
# Finger k's base on the palm's top face (m), and the direction along x it closes towards.
FINGERS = [
    {"base": (0.045, 0.025, 0.0), "closes_towards_x": -1},
    {"base": (-0.045, 0.025, 0.0), "closes_towards_x": +1},
    {"base": (0.045, -0.025, 0.0), "closes_towards_x": -1},
    {"base": (-0.045, -0.025, 0.0), "closes_towards_x": +1},
]
# Standard DH rows of every finger, proximal first: T(i-1 -> i) = Rz(offset + q) Dz(d) Dx(a) Rx(alpha).
DH_ROWS = [
    {"alpha": 0.0, "a": 0.040, "d": 0.0, "offset": 0.0},
    {"alpha": 0.0, "a": 0.030, "d": 0.0, "offset": 0.0},
    {"alpha": 0.0, "a": 0.025, "d": 0.0, "offset": 0.0},
]
RADIUS = 0.008  # m, the phalanges' cylinders
DENSITY = 1000.0  # kg/m^3
Q0 = 0.0  # rad, open hand

# The hand-wide settings, parameters of the Gripper4 define. The friction law is a word, which
# passes through one level of define but not two, so it is written in the blocks.
HAND_PARAMS = ["rate", "filter_tc", "stiffness", "damping", "transition_width",
               "mu_s", "mu_d", "v_crit", "threshold", "Ts"]
FRICTION = "smooth_stick_slip"

# Pozzi et al. 2022 Table 2 and section 2.2.3, as G2 sets them (text, as a model file holds it).
G2_HAND_SETTINGS = {"rate": "1.25", "filter_tc": "1e-3", "stiffness": "1e6", "damping": "1e3",
                    "transition_width": "1e-4", "mu_s": "0.5", "mu_d": "0.3",
                    "v_crit": "1e-3", "threshold": "0.1", "Ts": "1e-4"}


def mount_rotation(closes_towards_x):
    """Axes of a finger's DH frame 0 in the hand's base frame, as columns x0, y0, z0.

    x0 = +z: the first phalanx points up at q = 0. z0 = the joint axis, chosen so that a
    positive angle turns +z towards the palm centre: about -y for a finger closing towards -x
    (rotating +z about -y moves it to -x), about +y for one closing towards +x.
    """
    x0 = np.array([0.0, 0.0, 1.0])
    z0 = np.array([0.0, float(closes_towards_x), 0.0])
    y0 = np.cross(z0, x0)
    return np.column_stack([x0, y0, z0]) + 0.0  # + 0.0 turns any -0.0 into 0.0


def settings_as_params():
    """The hand-wide settings passed on by name, as the define's body writes them."""
    return {
        "stiffness": "stiffness", "damping": "damping", "transition_width": "transition_width",
        "friction": FRICTION, "mu_s": "mu_s", "mu_d": "mu_d", "v_crit": "v_crit",
        "threshold": "threshold", "Ts": "Ts",
    }


def add_finger(model, hand, k, finger):
    """Finger k: a mount to its DH frame 0, one Phalanx per DH row chained frame to frame, a
    fingertip sensor, and its contact signals, joint angles and contacts' point, normal and
    force gathered in Muxes."""
    f = model.add_subsystem(hand, f"finger{k}")
    model.add_port(f, "base", "frame")
    model.add_port(f, "object", "frame")
    model.add_outport(f, "contacts")
    model.add_outport(f, "q")
    model.add_outport(f, "tip")
    model.add_outport(f, "touches")
    model.add_block(f, "RigidTransform", "mount", translation=list(finger["base"]),
                    rotation="matrix", matrix=mount_rotation(finger["closes_towards_x"]))
    n = len(DH_ROWS)
    for j, row in enumerate(DH_ROWS, start=1):
        params = dict(alpha=row["alpha"], a=row["a"], d=row["d"], offset=row["offset"],
                      radius=RADIUS, density=DENSITY, q0=Q0, rate="rate", filter_tc="filter_tc")
        params.update(settings_as_params())
        model.add_block(f, "Phalanx", f"phalanx{j}", **params)
    model.add_block(f, "TransformSensor", "fingertip")
    model.add_block(f, "Constant", "beyond_tip", value=0)  # nothing is distal to the tip
    model.add_block(f, "Mux", "contacts", inputs=n)
    model.add_block(f, "Mux", "angles", inputs=n)
    model.add_block(f, "Mux", "touches", inputs=n)

    # The kinematic chain: palm -> DH frame 0 -> frame 1 -> ... -> frame n.
    model.connect(f, ".base", "mount.B")
    model.connect(f, "mount.F", "phalanx1.B")
    for j in range(1, n):
        model.connect(f, f"phalanx{j}.F", f"phalanx{j + 1}.B")
    model.connect(f, ".base", "fingertip.B")
    model.connect(f, f"phalanx{n}.F", "fingertip.F")
    # Every phalanx touches the object.
    for j in range(1, n + 1):
        model.connect(f, ".object", f"phalanx{j}.object")
    # Closure logic: a joint holds while its phalanx or any more distal one is in contact;
    # `hold` passes that on towards the base.
    for j in range(1, n):
        model.connect(f, f"phalanx{j + 1}.hold", f"phalanx{j}.distal")
    model.connect(f, "beyond_tip.y", f"phalanx{n}.distal")
    for j in range(1, n + 1):
        model.connect(f, f"phalanx{j}.contact", f"contacts.u{j}")
    for j in range(1, n + 1):
        model.connect(f, f"phalanx{j}.q", f"angles.u{j}")
    for j in range(1, n + 1):
        model.connect(f, f"phalanx{j}.touch", f"touches.u{j}")
    model.connect(f, "contacts.y", ".contacts")
    model.connect(f, "angles.y", ".q")
    model.connect(f, "fingertip.position", ".tip")
    model.connect(f, "touches.y", ".touches")


def build_hand_body(model, hand):
    """The Gripper4 hand, built in place in the body of the define at diagram path `hand`
    ("define:Gripper4"): the grasp library's Phalanx and Palm defines must be known (included)."""
    model.add_port(hand, "base", "frame")
    model.add_port(hand, "object", "frame")
    model.add_outport(hand, "contacts")
    model.add_outport(hand, "q")
    model.add_outport(hand, "tips")
    model.add_outport(hand, "touches")
    model.add_block(hand, "Palm", "palm", **PALM, **settings_as_params())
    for k, finger in enumerate(FINGERS, start=1):
        add_finger(model, hand, k, finger)
    nf = len(FINGERS)
    model.add_block(hand, "Mux", "contacts", inputs=nf + 1)  # the fingers', then the palm's
    model.add_block(hand, "Mux", "angles", inputs=nf)
    model.add_block(hand, "Mux", "tips", inputs=nf)
    model.add_block(hand, "Mux", "touches", inputs=nf + 1)  # the fingers', then the palm's
    model.connect(hand, ".base", "palm.base")
    model.connect(hand, ".object", "palm.object")
    for k in range(1, nf + 1):
        model.connect(hand, ".base", f"finger{k}.base")
        model.connect(hand, ".object", f"finger{k}.object")
    for k in range(1, nf + 1):
        model.connect(hand, f"finger{k}.contacts", f"contacts.u{k}")
    model.connect(hand, "palm.contact", f"contacts.u{nf + 1}")
    for k in range(1, nf + 1):
        model.connect(hand, f"finger{k}.q", f"angles.u{k}")
    for k in range(1, nf + 1):
        model.connect(hand, f"finger{k}.tip", f"tips.u{k}")
    for k in range(1, nf + 1):
        model.connect(hand, f"finger{k}.touches", f"touches.u{k}")
    model.connect(hand, "palm.touch", f"touches.u{nf + 1}")
    model.connect(hand, "contacts.y", ".contacts")
    model.connect(hand, "angles.y", ".q")
    model.connect(hand, "tips.y", ".tips")
    model.connect(hand, "touches.y", ".touches")


def build_hand_library(out_dir):
    """gripper4_hand.xml's model: the grasp library included, the Gripper4 define."""
    out_dir = pathlib.Path(out_dir)
    lib = tb.Model("gripper4_hand", file=str(out_dir / "gripper4_hand.xml"))
    lib.add_include(os.path.relpath(GRASP_LIBRARY, out_dir))
    hand = lib.add_define("Gripper4", HAND_PARAMS)  # "define:Gripper4", its body's path
    build_hand_body(lib, hand)
    return lib


def contact_names():
    """The paper's names of the contact signals: F{k}P{j}, then the palm."""
    return [f"F{k}P{j}" for k in range(1, len(FINGERS) + 1)
            for j in range(1, len(DH_ROWS) + 1)] + ["palm"]


def build_g2(out_dir):
    """g2_power.xml's model: the power grasp of a free sphere (reference G2)."""
    out_dir = pathlib.Path(out_dir)
    g2 = tb.Model("g2_power", file=str(out_dir / "g2_power.xml"))
    g2.add_include("gripper4_hand.xml")  # read now: the file must be written first
    g2.set_simulation(solver="ode3", step="1e-5", t_end="0.5", output_interval="1e-4")
    g2.add_block("", "World", "world", gravity=[0, 0, 0])
    g2.add_block("", "Gripper4", "hand", **G2_HAND_SETTINGS)
    g2.add_block("", "FreeSphere", "object", position=[-0.01, 0, 0.031], radius=0.03,
                 density=1000)
    n_contacts = len(contact_names())
    g2.add_block("", "ContactTimes", "set_times", Ts="1e-4", unset=[-1] * n_contacts)
    # The grasp's measures along the run: the hand's 13 contacts about the sphere's centre.
    g2.add_block("", "GraspAnalysis", "grasp", mu="0.5", edges="8", torque_length="0.03",
                 Ts="1e-2")
    g2.connect("", "world.W", "hand.base")
    g2.connect("", "world.W", "object.world")
    g2.connect("", "object.body", "hand.object")
    g2.connect("", "hand.contacts", "set_times.contact")
    g2.connect("", "hand.touches", "grasp.contacts")
    g2.connect("", "object.position", "grasp.center")

    fingers = range(1, len(FINGERS) + 1)
    phalanges = range(1, len(DH_ROWS) + 1)
    contact = {name: f"hand/finger{name[1]}/phalanx{name[3]}.contact" for name in contact_names()
               if name != "palm"}
    contact["palm"] = "hand/palm.contact"
    for name, signal in contact.items():
        g2.add_log(signal, name)
    for k in fingers:
        for j in phalanges:
            g2.add_log(f"hand/finger{k}/phalanx{j}.q", f"q{k}{j}")
    g2.add_log("object.position", "object_position")
    for measure in ("n_active", "closure", "epsilon", "sigma_min", "internal_force", "slip"):
        g2.add_log(f"grasp.{measure}")
    g2.add_log("object.euler_zyx", "object_euler_zyx")

    for k in fingers:
        names = " ".join(f"F{k}P{j}" for j in phalanges)
        g2.add_plot(f"g2_contacts_finger{k}.svg",
                    [f"hand/finger{k}/phalanx{j}.contact" for j in phalanges],
                    title=f"G2: contact signals of finger {k}, {names} (paper Fig. 9)",
                    ylabel="contact (0/1)")
    g2.add_plot("g2_contact_palm.svg", ["hand/palm.contact"],
                title="G2: contact signal of the palm (paper Fig. 10B)", ylabel="contact (0/1)")
    for k in fingers:
        names = " ".join(f"q{k}{j}" for j in phalanges)
        g2.add_plot(f"g2_joints_finger{k}.svg", [f"hand/finger{k}/phalanx{j}.q" for j in phalanges],
                    title=f"G2: joint angles of finger {k}, {names} (paper Fig. 8)", ylabel="rad")
    g2.add_plot("g2_object_position.svg", ["object.position"],
                title="G2: sphere position x, y, z (paper Fig. 11A)", ylabel="m")
    g2.add_plot("g2_object_euler.svg", ["object.euler_zyx"],
                title="G2: sphere ZYX Euler angles phi (about z), theta (about y), psi (about x) "
                      "(paper Fig. 11B)",
                ylabel="rad")
    g2.add_plot("g2_grasp_quality.svg", ["grasp.closure", "grasp.epsilon"],
                title="G2: force closure (0/1) and epsilon quality of the grasp (GraspAnalysis)",
                ylabel="1, N/N")
    g2.add_plot("g2_grasp_contacts.svg", ["grasp.n_active"],
                title="G2: active contacts (GraspAnalysis)", ylabel="contacts")
    g2.add_plot("g2_grasp_forces.svg", ["grasp.internal_force"],
                title="G2: internal force of the grasp (GraspAnalysis)", ylabel="N")
    g2.add_plot("g2_grasp_slip.svg", ["grasp.slip"],
                title="G2: slip margin max |f_t| / (mu f_n) (GraspAnalysis; 1: on the cone)",
                ylabel="1")

    order = "F1P1 ... F4P3, palm; -1: never"
    g2.add_summary(["set_times.first"], "final",
                   f"time the contact signal first set, s ({order})")
    g2.add_summary(["set_times.last"], "final", f"time the contact signal last set, s ({order})")
    g2.add_summary(["object.position"], "min", "sphere position, smallest, m (x, y, z)")
    g2.add_summary(["object.position"], "max", "sphere position, largest, m (x, y, z)")
    g2.add_summary(["object.position"], "final", "sphere position at t_end, m (x, y, z)")
    g2.add_summary(["object.euler_zyx"], "max_abs",
                   "sphere Euler angle, largest |value|, rad (about z, y, x)")
    g2.add_summary(list(contact.values()), "final", "contact signal at t_end (1: in contact)")
    g2.add_summary(["grasp.closure", "grasp.epsilon", "grasp.n_active"], "final",
                   "grasp at t_end: force closure (1), epsilon (N/N), active contacts")
    return g2


def write_models(out_dir):
    """Builds both models and writes them to out_dir; returns (hand library, G2) as built."""
    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    lib = build_hand_library(out_dir)
    tb.save(lib, out_dir / "gripper4_hand.xml")
    g2 = build_g2(out_dir)
    tb.save(g2, out_dir / "g2_power.xml")
    return lib, g2


def compare_with_hand_written(out_dir):
    """What differs between the written files and models/gripper4/'s, read back by the C++
    reader; [] when they say the same (the include path of the hand's library aside)."""
    out_dir = pathlib.Path(out_dir)
    differences = []
    written_g2 = tb.load(out_dir / "g2_power.xml")
    hand_written_g2 = tb.load(REPO / "models" / "gripper4" / "g2_power.xml")
    if written_g2 != hand_written_g2:
        differences.append("g2_power.xml")
    written_hand = tb.load(out_dir / "gripper4_hand.xml")
    hand_written_hand = tb.load(REPO / "models" / "gripper4" / "gripper4_hand.xml")
    if written_hand.defines != hand_written_hand.defines:
        differences.append("gripper4_hand.xml: the Gripper4 define")
    return differences


def contact_set_times(results):
    """Per contact signal, the time it first set (s), or None when it never did."""
    times = {}
    t = results.time
    for name in contact_names():
        on = np.flatnonzero(results[name][:, 0] > 0.5)
        times[name] = float(t[on[0]]) if on.size else None
    return times


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(REPO / "out" / "gripper4_from_dh"),
                        help="folder for gripper4_hand.xml and g2_power.xml")
    parser.add_argument("--t-end", type=float, default=None,
                        help="simulate to this time (s) instead of the model's 0.5 s")
    args = parser.parse_args(argv)

    _, g2 = write_models(args.out)
    print(f"wrote {pathlib.Path(args.out) / 'gripper4_hand.xml'} and "
          f"{pathlib.Path(args.out) / 'g2_power.xml'}")
    differences = compare_with_hand_written(args.out)
    if differences:
        print("differs from models/gripper4/: " + ", ".join(differences))
    else:
        print("equal to models/gripper4/g2_power.xml and its Gripper4 define (as Models)")

    settings = {} if args.t_end is None else {"t_end": args.t_end}
    results = tb.simulate(g2, **settings)
    print(f"G2: {results.stats}")
    if not results.ok:
        print(f"G2 failed: {results.error}", file=sys.stderr)
    for name, t in contact_set_times(results).items():
        print(f"{name:5s} " + (f"{t:.4f} s" if t is not None else "never"))
    return 0 if results.ok and not differences else 1


if __name__ == "__main__":
    sys.exit(main())
