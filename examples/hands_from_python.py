#!/usr/bin/env python3
"""The model libraries of the adaptive-synergy hands (models/hands/), written by tb.hands.

Rocchi & Hauser (2016), "A Generic Simulator for Underactuated Compliant Hands", simulate two
underactuated hands: the Pisa/IIT SoftHand (one tendon on 19 joints, 14 matched rolling-contact
joints) and the RightHand Reflex SF (three tendons, one per finger, swivels for the preshape).
This script builds both with tb.hands, block by block, as defines:

  soft_hand.xml  SoftHand         port base (H); input sigma; outputs q (33), tips (15)
                 SoftHandContact  the same with ports object and ground, and a Kelvin-Voigt
                                  contact between every link (and the palm) and each; params
                                  stiffness damping mu_object mu_other v_crit
  reflex.xml     Reflex           port base (B); inputs preshape, command (3); outputs q (8),
                                  tips (9)
                 ReflexContact    the same with ports object, ground and the contacts,
                                  and elastic tendons; params stiffness damping mu_object
                                  mu_other v_crit tendon_stiffness tendon_damping

and writes them to --out (default out/hands_from_python/), with a header comment saying what
they hold; the checked-in files in models/hands/ are these (python/tests/test_hands.py
compares them as Models). --check compares without writing the repository's files.

Usage (build first):
  PYTHONPATH=build/python /usr/bin/python3 examples/hands_from_python.py [--out DIR]
  PYTHONPATH=build/python /usr/bin/python3 examples/hands_from_python.py --out models/hands
"""

import argparse
import pathlib
import sys

import twinblocks as tb

REPO = pathlib.Path(__file__).resolve().parent.parent
CHECKED_IN = REPO / "models" / "hands"
CONTACT_PARAMS = ["stiffness", "damping", "mu_object", "mu_other", "v_crit"]

SOFT_HAND_HEADER = """\
<!-- The Pisa/IIT SoftHand as Rocchi & Hauser (2016), "A Generic Simulator for Underactuated
     Compliant Hands", model it (Sec. V; geometry, moment arms and limits from the emulator
     released with the paper), written by examples/hands_from_python.py (tb.hands): do not
     edit by hand, run the script.

     Frame H (port base): z from the wrist to the fingers, x palmar (the fingers close towards
     +x), y towards the thumb. Palm: box x in +-0.015, y in +-0.045, z in [0, 0.095], 0.33 kg.
     A finger abducts about +x_H at p; its direction d lies in the y-z plane, +z tilted towards
     +y by the splay; along d: 0.009 to flexion joint j1, 0.013 to its matched joint j1' (j1m
     here), 0.009 j2, 0.013 j2', 0.009 j3, 0.013 j3', the tip 0.020 further; flexion axes
     d x x_H. Thumb: abduction axis (0, 0.375, -0.927), d = (0, 0.927, 0.375), j1 at p +
     0.0225 d + 0.0033 x_H with axis (0.910, 0.155, -0.384), then j1' +0.013, j2 +0.009, j2'
     +0.013, the tip +0.020.

       finger  p in H (m)                 splay  R of abduction
       thumb   (0.0057, 0.0296, 0.0553)          1.3
       index   (-0.0033, 0.0195, 0.0937)  +5 deg -0.2
       middle  (-0.0033, 0, 0.1007)        0     0.001
       ring    (-0.0033, -0.0195, 0.0937) -3 deg  0.2
       little  (-0.0033, -0.039, 0.0837)  -5 deg  0.4

     One tendon on the 19 joints (abduction, j1..j3), R = 1 on the flexion joints, rigid,
     s = 7 sigma (sigma 0 open, 1 closed); springs E = 1 N m/rad about q_rest = 0 on those 19;
     each matched joint j' turns with its j (JointCoupler ratio 1, rigid). Ranges: abduction
     +-pi/6 (thumb [0, pi/2]), flexion [0, pi/4] (j and j'). Damping 0.05 N m s/rad on every
     joint. Links: capsules of radius 0.009 on the segments (the contact shapes) with the mass
     and inertia of cylinders: p-j1 0.005 kg, each j-j' 0.003, j'-j 0.007, distal 0.008 (0.5 kg
     in all with the palm).

     Outputs: q (33) per finger thumb, index, middle, ring, little: abd, j1, j1', j2, j2'[, j3,
     j3']; tips (15): the fingertips' positions in H (m), in the same order. -->
"""

REFLEX_HEADER = """\
<!-- The RightHand Reflex SF as Rocchi & Hauser (2016), "A Generic Simulator for Underactuated
     Compliant Hands", model it (Sec. V; the rest from the emulator released with the paper),
     written by examples/hands_from_python.py (tb.hands): do not edit by hand, run the script.

     Frame B (port base): the palm's normal is +z. Swivels of F1, F2 at (0.0504, -+0.026,
     0.063), axes -z; F3's proximal frame at (-0.030, 0, 0.0816), turned 180 deg about z. A
     finger's proximal axis is -y at (0.010, 0, 0.0186) from its swivel; its distal axis -y at
     (0.066, 0, -0.005) in the proximal frame; distal link 0.048 long. At q = 0 the fingers
     point radially out; q > 0 lifts them over the palm.

     Each finger has a tendon (rigid) on (q_p, q_d) with the row [1, -R1(q_d)/r0], R1 of the
     Da Vinci linkage (r0 = 0.015, r1 = 0.002, r2 = 0, l1 = 0.05, a1 = 0.04, b1 = 0.01, a2 =
     0.02, b2 = 0), q_rest = (-0.34, 0), s = 3.6 (sigma + 0.1), sigma = 1 - 0.1 - c for the
     command c in [0, 1] (1 open); springs E = (1, 2) N m/rad about q_rest. Proximal range
     [-0.34, 2.83]; the proximal joints start at -0.34. Swivels: F1 = pi p / 2, F2 = -pi p / 2
     for the preshape p (0 power, 1 pinch) under a PD of 5 N m/rad, 0.5 N m s/rad.

     Fixed here (the reference has none of these): distal range [0, 2.0] rad; damping 0.05
     N m s/rad on the proximal and distal joints; palm a box x in [-0.04, 0.06], |y| <= 0.045,
     z in [0, 0.07], 0.6 kg; knuckles (the swivels' bodies) 0.02 x 0.02 x 0.0186 boxes of
     0.01 kg; proximal links capsules of radius 0.010, 0.06 kg; distal links capsules of radius
     0.009, 0.03 kg, each on its segment with a cylinder's inertia (0.91 kg in all).

     Outputs: q (8): F1 swivel, proximal, distal; F2 the same; F3 proximal, distal; tips (9):
     the fingertips' positions in B (m), F1, F2, F3.

     ReflexContact adds the contacts and makes each tendon elastic, f = tendon_stiffness
     (s - l) - tendon_damping dl/dt (N m/rad, N m s/rad): the servo that pulls it, a position
     gain through the spool. A rigid tendon driven by displacement has no force limit: a
     closing finger that meets an object crushes it instead of stalling. -->
"""


def drive():
    """The tendons need the Tendon block; without it the tendon joints' shafts are ports."""
    return "tendon" if tb.hands.tendon_available() else "ports"


def contact_settings():
    """The contact law as the Contact defines' parameters, by name."""
    return {"stiffness": "stiffness", "damping": "damping", "mu_object": "mu_object",
            "mu_other": "mu_other", "v_crit": "v_crit"}


def build_soft_hand_library():
    lib = tb.Model("soft_hand_lib")
    tb.hands.build_soft_hand(lib, lib.add_define("SoftHand", []), drive=drive())
    hand = tb.hands.build_soft_hand(lib, lib.add_define("SoftHandContact", CONTACT_PARAMS),
                                    drive=drive())
    tb.hands.add_contacts(lib, hand, **contact_settings())
    return lib


def build_reflex_library():
    lib = tb.Model("reflex_lib")
    tb.hands.build_reflex(lib, lib.add_define("Reflex", []), drive=drive())
    hand = tb.hands.build_reflex(
        lib, lib.add_define("ReflexContact", CONTACT_PARAMS + ["tendon_stiffness", "tendon_damping"]),
        drive=drive(), tendon_stiffness="tendon_stiffness", tendon_damping="tendon_damping")
    tb.hands.add_contacts(lib, hand, **contact_settings())
    return lib


def write_with_header(model, path, header):
    """tb.to_xml's text with the header comment after the XML declaration."""
    text = tb.to_xml(model)
    declaration, _, rest = text.partition("\n")
    pathlib.Path(path).write_text(f"{declaration}\n{header}{rest}")


# ---- Experiments ----------------------------------------------------------------------------

# RH1 (reference "Experiment RH1"): H palm down, x_H = -z, y_H = y, z_H = x (columns: H's axes
# in the world), origin 2 mm of palm above the sphere's top. The reference's origin
# (-0.075, 0, 0.087) puts the sphere under the palm's distal end, where the closing fingers hook
# its far side at the equator and roll it out toward the wrist (0.19 m/s, never lifted); moved
# 20 mm toward the wrist and 20 mm toward the little finger (the sphere nearer the thumb), the
# thumb opposes the fingers and the grasp holds (see the header below).
RH1_H_ROTATION = [[0, 0, 1], [0, 1, 0], [-1, 0, 0]]
RH1_H_ORIGIN = [-0.095, -0.02, 0.087]
RH1_CONTACT = {"stiffness": "1e5", "damping": "100", "mu_object": "1", "mu_other": "0.5",
               "v_crit": "1e-3"}
# The Reflex experiment's tendons (fixed here): 5 N m/rad of tendon and 0.05 N m s/rad, five
# times the proximal joint's spring: the tendon, not the springs, sets how far a free finger
# closes.
REFLEX_SERVO = {"tendon_stiffness": "5", "tendon_damping": "0.05"}

RH1_HEADER = """\
<!-- Experiment RH1 of the reference (Rocchi & Hauser (2016), "A Generic Simulator for
     Underactuated Compliant Hands", Sec. V, Fig. 6; the rest fixed by the reference): the
     SoftHand (soft_hand.xml) grasps a sphere on the ground and lifts it. Written by
     examples/hands_from_python.py.

     Ground z = 0, gravity on. Sphere r = 0.035, 0.100 kg, centre (0, 0, 0.035), at rest.
     Hand frame H prescribed: x_H = -z, y_H = y, z_H = x (palm down), origin (-0.095, -0.02,
     0.087): the palm's face 2 mm above the sphere. The reference fixes the origin at (-0.075, 0,
     0.087); there the sphere lies under the palm's distal end, the closing fingers hook its far
     side at the equator and it rolls out toward the wrist at 0.19 m/s, never lifted (so it does
     at every origin from x = -0.115 to -0.065 with y = 0, and with radii 0.03 and 0.025). Moved
     20 mm toward the wrist and 20 mm in -y (the sphere 20 mm toward the thumb in H), the thumb
     opposes the fingers and the sphere is lifted 0.1 m; it is for 8 of the 9 origins
     x in {-0.105, -0.095, -0.085}, y in {-0.04, -0.03, -0.02} (not at (-0.085, -0.03)). sigma = t/0.5 on [0, 0.5] s, then 1; H rises
     0.1 m along +z linearly on [0.5, 2.0] s (a prismatic joint following q through its 10 ms
     filter); end 2.5 s. Contact: Kelvin-Voigt k = 1e5 N/m, c = 100 N s/m; mu = 1.0 hand-sphere,
     0.5 hand-ground and sphere-ground (smooth stick-slip, v_crit 1 mm/s).

     Logs: the sphere's position in the world (sphere_position) and in H (sphere_in_hand: its
     change after the grasp is the slip relative to the palm), the hand's joint angles and
     fingertips, the lift. -->
"""

REFLEX_CYLINDER_HEADER = """\
<!-- The Reflex (reflex.xml) grasps an upright cylinder on the ground from above and lifts it,
     as RH1 does with the SoftHand. Written by examples/hands_from_python.py.

     Ground z = 0, gravity on. Cylinder (chosen here so that the closing fingers reach it):
     radius 0.03 m, height 0.10 m, 0.2 kg, upright, centre (0.015, 0, 0.05), at rest: in the hand's
     frame it sits between F1, F2 (proximal joints at x_B = 0.0604) and F3 (x_B = -0.030), with
     5 mm (F1, F2) and 10 mm (F3) between its side and the proximal links' capsules when they
     stand at pi/2. Hand base B palm down (x_B = x, y_B = -y, z_B = -z), origin (0, 0, 0.172):
     the palm's face (z_B = 0.07) 2 mm above the cylinder's top. Power preshape (p = 0); the
     command c goes from 1 (open) to 0 (closed) on [0, 0.5] s, then holds; B rises 0.1 m along
     +z linearly on [1.0, 2.0] s; end 2.5 s. Tendons elastic, 5 N m/rad and 0.05 N m s/rad
     (ReflexContact: the servos stall on the cylinder; rigid tendons would crush it). Contact:
     Kelvin-Voigt k = 1e5 N/m, c = 100 N s/m; mu = 1.0 hand-cylinder, 0.5 hand-ground and
     cylinder-ground (smooth stick-slip).

     What happens: the hand sits low, and the closing fingers stop on the ground at a proximal
     angle of 0.86 rad. As the hand rises they close on the cylinder's side (proximal 1.8 rad,
     F3 1.64) and lift it: it rises with the hand from about 1.3 s on.

     Logs: the cylinder's position in the world and in B (the slip), the hand's joint angles,
     the lift. -->
"""


def build_rh1(out_dir):
    """rh1_grasp_lift.xml's model (includes soft_hand.xml, in the same folder)."""
    m = tb.Model("rh1_grasp_lift", file=str(pathlib.Path(out_dir) / "rh1_grasp_lift.xml"))
    m.add_include("soft_hand.xml")
    m.set_simulation(solver="ode23s", t_end="2.5", rtol="1e-3", atol="1e-5",
                     output_interval="1e-3")
    m.add_block("", "World", "world")
    m.add_block("", "Solid", "ground", shape="plane", color=[0.6, 0.6, 0.6])
    m.add_block("", "FreeJoint", "sphere_joint", position0=[0, 0, 0.035])
    m.add_block("", "Solid", "sphere", shape="sphere", radius=0.035, mass=0.1,
                color=[0.8, 0.2, 0.2])
    m.add_block("", "SpatialContactForce", "sphere_ground", model="kelvin_voigt",
                stiffness="1e5", damping="100", friction="smooth_stick_slip", mu_s="0.5",
                mu_d="0.5", v_crit="1e-3")
    # The wrist: a lift along z, then H's pose.
    m.add_block("", "Clock", "clock")
    m.add_block("", "Expression", "lift_profile", expr="0.1*min(max((u1 - 0.5)/1.5, 0), 1)")
    m.add_block("", "PrismaticJoint", "lift", axis=[0, 0, 1], actuation="motion")
    m.add_block("", "RigidTransform", "wrist", translation=RH1_H_ORIGIN, rotation="matrix",
                matrix=RH1_H_ROTATION)
    m.add_block("", "SoftHandContact", "hand", **RH1_CONTACT)
    m.add_block("", "TransformSensor", "sphere_in_hand")
    m.connect("", "world.W", "ground.R")
    m.connect("", "world.W", "sphere_joint.B")
    m.connect("", "sphere_joint.F", "sphere.R")
    m.connect("", "ground.R", "sphere_ground.B")
    m.connect("", "sphere.R", "sphere_ground.F")
    m.connect("", "clock.t", "lift_profile.u1")
    m.connect("", "lift_profile.y", "lift.motion")
    m.connect("", "world.W", "lift.B")
    m.connect("", "lift.F", "wrist.B")
    m.connect("", "wrist.F", "hand.base")
    m.connect("", "sphere.R", "hand.object")
    m.connect("", "ground.R", "hand.ground")
    m.connect("", "wrist.F", "sphere_in_hand.B")
    m.connect("", "sphere.R", "sphere_in_hand.F")
    if drive() == "tendon":
        m.add_block("", "Expression", "sigma", expr="min(u1/0.5, 1)")
        m.connect("", "clock.t", "sigma.u1")
        m.connect("", "sigma.y", "hand.sigma")
        m.add_log("sigma.y", "sigma")
        m.add_log("hand.tension", "tension")
        m.add_log("hand.q_predicted", "q_predicted")
        m.add_log("hand.f_predicted", "f_predicted")
    m.add_log("sphere_joint.position", "sphere_position")
    m.add_log("sphere_in_hand.position", "sphere_in_hand")
    m.add_log("lift.q", "lift")
    m.add_log("hand.q", "q")
    m.add_log("hand.tips", "tips")
    # The normal forces on the sphere: each fingertip's (the distal links') and the palm's, N.
    tip_contacts = [f"hand/{f}/{link}_link_object.fn" for f, link in
                    (("thumb", "j2m"), ("index", "j3m"), ("middle", "j3m"), ("ring", "j3m"),
                     ("little", "j3m"))] + ["hand/palm_object.fn"]
    for signal, name in zip(tip_contacts, ("thumb", "index", "middle", "ring", "little", "palm")):
        m.add_log(signal, f"{name}_fn")
    m.add_plot("rh1_contacts.svg", tip_contacts,
               title="RH1: normal forces on the sphere, distal links and palm", ylabel="N")
    m.add_plot("rh1_sphere.svg", ["sphere_joint.position", "lift.q"],
               title="RH1: sphere position (x, y, z) and the hand's lift", ylabel="m")
    m.add_plot("rh1_slip.svg", ["sphere_in_hand.position"],
               title="RH1: sphere centre in the hand frame H (slip relative to the palm)",
               ylabel="m")
    m.add_summary(["sphere_joint.position"], "final", "sphere position at t_end, m (x, y, z)")
    m.add_summary(["sphere_in_hand.position"], "final", "sphere centre in H at t_end, m")
    m.add_summary(["sphere_in_hand.position"], "max", "sphere centre in H, largest, m")
    m.add_summary(["sphere_in_hand.position"], "min", "sphere centre in H, smallest, m")
    return m


def build_reflex_cylinder(out_dir):
    """reflex_cylinder.xml's model (includes reflex.xml, in the same folder)."""
    m = tb.Model("reflex_cylinder", file=str(pathlib.Path(out_dir) / "reflex_cylinder.xml"))
    m.add_include("reflex.xml")
    m.set_simulation(solver="ode23s", t_end="2.5", rtol="1e-3", atol="1e-5",
                     output_interval="1e-3")
    m.add_block("", "World", "world")
    m.add_block("", "Solid", "ground", shape="plane", color=[0.6, 0.6, 0.6])
    m.add_block("", "FreeJoint", "cylinder_joint", position0=[0.015, 0, 0.05])
    m.add_block("", "Solid", "cylinder", shape="cylinder", radius=0.03, length=0.1, mass=0.2,
                color=[0.8, 0.2, 0.2])
    m.add_block("", "SpatialContactForce", "cylinder_ground", model="kelvin_voigt",
                stiffness="1e5", damping="100", friction="smooth_stick_slip", mu_s="0.5",
                mu_d="0.5", v_crit="1e-3")
    m.add_block("", "Clock", "clock")
    m.add_block("", "Expression", "lift_profile", expr="0.1*min(max((u1 - 1)/1, 0), 1)")
    m.add_block("", "PrismaticJoint", "lift", axis=[0, 0, 1], actuation="motion")
    m.add_block("", "RigidTransform", "wrist", translation=[0, 0, 0.172], rotation="matrix",
                matrix=[[1, 0, 0], [0, -1, 0], [0, 0, -1]])
    m.add_block("", "ReflexContact", "hand", **RH1_CONTACT, **REFLEX_SERVO)
    m.add_block("", "TransformSensor", "cylinder_in_hand")
    m.add_block("", "Constant", "preshape", value=0)
    m.connect("", "world.W", "ground.R")
    m.connect("", "world.W", "cylinder_joint.B")
    m.connect("", "cylinder_joint.F", "cylinder.R")
    m.connect("", "ground.R", "cylinder_ground.B")
    m.connect("", "cylinder.R", "cylinder_ground.F")
    m.connect("", "clock.t", "lift_profile.u1")
    m.connect("", "lift_profile.y", "lift.motion")
    m.connect("", "world.W", "lift.B")
    m.connect("", "lift.F", "wrist.B")
    m.connect("", "wrist.F", "hand.base")
    m.connect("", "cylinder.R", "hand.object")
    m.connect("", "ground.R", "hand.ground")
    m.connect("", "preshape.y", "hand.preshape")
    m.connect("", "wrist.F", "cylinder_in_hand.B")
    m.connect("", "cylinder.R", "cylinder_in_hand.F")
    if drive() == "tendon":
        m.add_block("", "Expression", "command", expr="max(1 - u1/0.5, 0)")
        m.add_block("", "Mux", "commands", inputs=3)
        m.connect("", "clock.t", "command.u1")
        for k in (1, 2, 3):
            m.connect("", "command.y", f"commands.u{k}")
        m.connect("", "commands.y", "hand.command")
        m.add_log("command.y", "command")
        tendons = [f"hand/{f}/tendon.f" for f in ("f1", "f2", "f3")]
        for signal in tendons:
            m.add_log(signal, signal.split("/")[1] + "_tension")
        m.add_plot("reflex_tendons.svg", tendons, title="Reflex: tendon forces (f1, f2, f3)",
                   ylabel="N m")
    # The normal forces on the cylinder, each finger's two links, N.
    links = [(f, link) for f in ("f1", "f2", "f3") for link in ("proximal", "distal")]
    contacts = [f"hand/{f}/{link}_link_object.fn" for f, link in links]
    for (f, link), signal in zip(links, contacts):
        m.add_log(signal, f"{f}_{link}_fn")
    m.add_plot("reflex_contacts.svg", contacts, title="Reflex: normal forces on the cylinder",
               ylabel="N")
    m.add_log("cylinder_joint.position", "cylinder_position")
    m.add_log("cylinder_in_hand.position", "cylinder_in_hand")
    m.add_log("lift.q", "lift")
    m.add_log("hand.q", "q")
    m.add_log("hand.tips", "tips")
    m.add_plot("reflex_cylinder.svg", ["cylinder_joint.position", "lift.q"],
               title="Reflex: cylinder position (x, y, z) and the hand's lift", ylabel="m")
    m.add_summary(["cylinder_joint.position"], "final", "cylinder centre at t_end, m (x, y, z)")
    m.add_summary(["cylinder_in_hand.position"], "final", "cylinder centre in B at t_end, m")
    m.add_summary(["cylinder_in_hand.position"], "max", "cylinder centre in B, largest, m")
    m.add_summary(["cylinder_in_hand.position"], "min", "cylinder centre in B, smallest, m")
    return m


EGRASP_H1_HEADER = """\
<!-- Scenario H1 of the e_GRASP hand (Mattar 2013, "e_GRASP: Robotic Hand Modeling and
     Simulation Environment", Fig. 8 and eq. 39-44; values of the reference), written by
     examples/hands_from_python.py (tb.egrasp.build_h1): do not edit by hand, run the script.

     A solid sphere, r = 0.040 m, 0.100 kg, on a FreeJoint at the world origin, gravity on.
     Fingers f1-f3 (the fourth is unused) touch it at c_i = r (cos phi_i, sin phi_i, 0), phi_i =
     0, 120, 240 deg, through non-slipping hard-finger contacts: ball joints contact1-3 (cut, so
     they close the loops). Finger i's base is turned Rz(phi_i + 180 deg), at c_i - R_i p_tip
     (p_tip: the fingertip at q_H = (0, 30, 60) deg in the base frame), and starts at q_H at
     rest; its distal range is [-45, 90] deg. Links: aluminium cylinders of radius 8 mm.

     Command: the sphere's centre u_d = (0, 0, A (1 - cos 2 pi f t)), A = 2.5 mm, f = 1 Hz, its
     orientation fixed, 3 s. Controllers ctrl1-3, every T_s = 1 ms (eq. 42-43 reduced):
       tau_i = J_i^T (f_d,i + K_P e_i + K_D e_i' + K_I int e_i) + g_i(q_i),
       e_i = c_i + u_d - tip_i,
       f_d = G^+ w_d + f_int N,  w_d = [m (u_d'' + g e_z); 0],  G_i = [I; S(c_i)]   (eq. 40, 44)
     with N the inward normals and f_int = 2 N; K_P = 2000 N/m, K_D = 20 N s/m, K_I = 1e4
     N/(m s); J_i from FingerKinematics, g_i from GravityTorque, both on the sampled q_i; the
     integral backward Euler. Each controller works in its finger's base frame.

     GraspAnalysis (hard finger, mu = 0.5) reads the ball joints' forces on the sphere (in the
     sphere's axes, about its centre): internal_force is the squeeze's magnitude, 2 sqrt(3) =
     3.46 N when each contact presses 2 N along its normal; slip = max |f_t| / (mu f_n).
     tests/acceptance/egrasp_test.cc checks K5 of issue 44 on this model. -->
"""


EGRASP_HAND_STEP_HEADER = """\
<!-- The e_GRASP hand (Mattar 2013, "e_GRASP: Robotic Hand Modeling and Simulation Environment",
     eq. 3-5 and 24-29; values of the reference), written by examples/hands_from_python.py
     (tb.egrasp.add_hand, build_hand_step): do not edit by hand, run the script.

     Palm frame P = finger 1's base; fingers 2-4 at (-0.005, 0, -0.025), (-0.010, 0, -0.050)
     and (-0.040, 0, 0) m, the thumb (f4) turned Ry(40 deg). Each finger: standard DH (90, 0,
     0 deg; 10, 45, 30 mm), joints within +-45 deg, links aluminium cylinders of radius 8 mm.
     Each of the 12 joints: an EGraspActuator (eq. 26-27, egrasp_lib.xml) in the
     position loop v = k_PD (r - q), k_PD = 324 V/rad (eq. 28), under the discrete PID of eq.
     25 on the joint's error, K_p = 2, K_ip = 0.1, K_d = 0.5 (per sample), backward-Euler
     accumulation; both sampled every 1 ms, the voltage held. Gravity off; every finger's
     joints step from 0 to (0.2, 0.5, 0.6) rad at t = 0 (the loop overshoots by 21 %: the
     distal joint peaks at 0.72 rad, inside its 45 deg stop). tests/acceptance/egrasp_test.cc
     compares each joint with the loop's discrete closed form. -->
"""


EXPERIMENTS = {"rh1_grasp_lift.xml": (build_rh1, RH1_HEADER),
               "egrasp_hand_step.xml": (
                   lambda out_dir: tb.egrasp.build_hand_step(
                       str(pathlib.Path(out_dir) / "egrasp_hand_step.xml")),
                   EGRASP_HAND_STEP_HEADER),
               "reflex_cylinder.xml": (build_reflex_cylinder, REFLEX_CYLINDER_HEADER),
               "egrasp_h1.xml": (lambda out_dir: tb.egrasp.build_h1(), EGRASP_H1_HEADER)}


EGRASP_LIB_HEADER = """\
<!-- The joint actuator of the e_GRASP hand (Mattar 2013, "e_GRASP: Robotic Hand Modeling and
     Simulation Environment", eq. 26-27), written by examples/hands_from_python.py
     (tb.egrasp.build_library): do not edit by hand, run the script.

     EGraspActuator (params R k_i k_b J_a J_m B_a B_m n; input v; rotational port joint): a DC
     motor whose inductance is neglected, its rotor and gearbox, driving the joint through a
     gear of ratio n (joint angle = n theta):
       J_T theta'' + (B_T + k_b k_i / R) theta' = (k_i / R) v - n d,
       J_T = J_a + J_m + n^2 J_L,  B_T = B_a + B_m
     (the paper's eq. 26 groups (B_a + B_m + k_b k_i) / R; repaired). theta is the motor angle,
     d the load torque, J_L the link's inertia, which the joint's side brings: connect `joint`
     to a RevoluteJoint's shaft (actuation="port") or to an Inertia. With L = 0 the current is
     algebraic, i = (v - k_b theta') / R: the motor is a torque source (k_i / R) v with the
     back-emf as viscous damping k_b k_i / R on the rotor. -->
"""


LIBRARIES = {"soft_hand.xml": (build_soft_hand_library, SOFT_HAND_HEADER),
             "reflex.xml": (build_reflex_library, REFLEX_HEADER),
             "egrasp_lib.xml": (tb.egrasp.build_library, EGRASP_LIB_HEADER)}


def write_models(out_dir):
    """Builds and writes the libraries to out_dir; returns {file name: Model as built}."""
    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    built = {}
    for name, (build, header) in LIBRARIES.items():
        built[name] = build()
        write_with_header(built[name], out_dir / name, header)
    for name, (build, header) in EXPERIMENTS.items():  # after the libraries they include
        built[name] = build(out_dir)
        write_with_header(built[name], out_dir / name, header)
    return built


def compare_with_checked_in(out_dir):
    """The files of out_dir that differ from models/hands/'s, read back as Models."""
    out_dir = pathlib.Path(out_dir)
    return [name for name in list(LIBRARIES) + list(EXPERIMENTS)
            if tb.load(out_dir / name) != tb.load(CHECKED_IN / name)]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(REPO / "out" / "hands_from_python"))
    args = parser.parse_args(argv)
    if drive() != "tendon":
        print("this build has no Tendon block: the tendon joints' shafts are ports J1..Jn")
    write_models(args.out)
    print(f"wrote {', '.join(list(LIBRARIES) + list(EXPERIMENTS))} to {args.out}")
    differences = compare_with_checked_in(args.out)
    if differences:
        print("differs from models/hands/: " + ", ".join(differences))
        return 1
    print("equal to models/hands/ (as Models)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
