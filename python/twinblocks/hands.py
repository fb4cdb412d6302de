"""Underactuated compliant hands built with the editing API: the Pisa/IIT SoftHand and the
RightHand Reflex SF, as Rocchi & Hauser (2016), "A Generic Simulator for Underactuated Compliant
Hands" (IROS), model them: joints with springs E about a rest pose, one tendon per actuator whose
moment arms R map its displacement onto the joints (s = R (q - q_rest), tau = R^T f - E (q -
q_rest)), and the SoftHand's matched rolling-contact joints as rigid 1:1 couplings.

    import twinblocks as tb
    m = tb.Model("grasp")
    hand = tb.hands.add_soft_hand(m, "", "hand")       # a subsystem: port base, input sigma
    tb.hands.add_contacts(m, hand, object_port=True, ground_port=True)   # ports object, ground

Every function fills a diagram given by path (a subsystem, or a define's body "define:NAME"),
so the same code writes the model libraries models/hands/soft_hand.xml and reflex.xml
(examples/hands_from_python.py) and builds hands in place.

Frames (all at q = 0; the hands' dimensions are those of the reference, see the constants):
- SoftHand, frame H at the base port: z from the wrist to the fingers, x palmar (the fingers
  close towards +x), y towards the thumb. Every body frame is parallel to H at q = 0, so each
  joint's axis is written in H.
- Reflex, frame B at the base port: the palm's normal is +z. A finger's frames are its
  swivel's (F1, F2) or its mount's (F3, turned 180 deg about z): x radially out.

What drives the joints (`drive`):
- "tendon": a Tendon block (SoftHand: one, on the 19 joints; Reflex: one per finger) and the
  hand's inputs (SoftHand `sigma`, the synergy command; Reflex `command` (3), c in [0, 1],
  1 open).
- "ports": the tendon joints' shafts as rotational ports J1..Jn of the hand, in the tendon's
  order, for a transmission wired outside (a SynergyEquilibrium block, say).
- "none": passive joints (springs, dampers, stops, couplings only).
"""

import math

import numpy as np

from ._twinblocks import Model, ModelError

# ---- Pisa/IIT SoftHand ----------------------------------------------------------------------

# Along a finger's direction d from its abduction point p (m): to j1, j1', j2, j2', j3, j3',
# then the tip (0.020: fixed by the reference).
SOFT_HAND_STEPS = [0.009, 0.013, 0.009, 0.013, 0.009, 0.013, 0.020]
SOFT_HAND_THUMB_STEPS = [0.013, 0.009, 0.013, 0.020]  # after j1: to j1', j2, j2', the tip
SOFT_HAND_RADIUS = 0.009  # m, the links' cylinders and contact capsules
SOFT_HAND_E = 1.0  # N m/rad, every tendon joint's spring
SOFT_HAND_DAMPING = 0.05  # N m s/rad, every joint (fixed by the reference)
SOFT_HAND_SIGMA_SCALING = 7.0
# Each finger: abduction point p in H (m), splay of d (deg, +z tilted towards +y), the
# abduction joint's moment arm.
SOFT_HAND_FINGERS = [
    {"name": "index", "p": [-0.0033, 0.0195, 0.0937], "splay": 5, "R_abduction": -0.2},
    {"name": "middle", "p": [-0.0033, 0, 0.1007], "splay": 0, "R_abduction": 0.001},
    {"name": "ring", "p": [-0.0033, -0.0195, 0.0937], "splay": -3, "R_abduction": 0.2},
    {"name": "little", "p": [-0.0033, -0.039, 0.0837], "splay": -5, "R_abduction": 0.4},
]
SOFT_HAND_THUMB = {
    "name": "thumb", "p": [0.0057, 0.0296, 0.0553], "R_abduction": 1.3,
    "abduction_axis": ["0", "0.375", "-0.927"],
    "d": ["0", "0.927", "0.375"],
    "j1_offset": ["0.0033", "0.0225*0.927", "0.0225*0.375"],  # 0.0225 d + 0.0033 x_H
    "flexion_axis": ["0.910", "0.155", "-0.384"],
}
# Masses (kg) of the bodies after each joint, proximal first (fixed by the reference: 0.5 kg
# in all, like a human hand): p-j1, then j-j' 0.003, j'-j 0.007, the distal link 0.008.
SOFT_HAND_FINGER_MASSES = [0.005, 0.003, 0.007, 0.003, 0.007, 0.003, 0.008]
SOFT_HAND_THUMB_MASSES = [0.005, 0.003, 0.007, 0.003, 0.008]
SOFT_HAND_PALM = {"mass": 0.33, "size": [0.03, 0.09, 0.095], "centre": [0, 0, 0.0475]}
SOFT_HAND_FINGER_JOINTS = ["abd", "j1", "j1m", "j2", "j2m", "j3", "j3m"]  # jNm: matched j'
SOFT_HAND_THUMB_JOINTS = ["abd", "j1", "j1m", "j2", "j2m"]

# ---- RightHand Reflex SF --------------------------------------------------------------------

REFLEX_SWIVELS = {"f1": [0.0504, -0.026, 0.063], "f2": [0.0504, 0.026, 0.063]}
REFLEX_F3_PROXIMAL = [-0.030, 0, 0.0816]  # turned 180 deg about z
REFLEX_PROXIMAL_FROM_SWIVEL = [0.010, 0, 0.0186]
REFLEX_DISTAL_FROM_PROXIMAL = [0.066, 0, -0.005]
REFLEX_DISTAL_LENGTH = 0.048  # the code's mesh
REFLEX_E = (1.0, 2.0)  # N m/rad, proximal, distal
REFLEX_Q_REST = (-0.34, 0.0)
REFLEX_PROXIMAL_RANGE = (-0.34, 2.83)
# The distal flexure's range is not in the reference; fixed here to what the tendon reaches
# with the proximal joint at its stop and no contact (about 1.1 rad), with room to spare.
REFLEX_DISTAL_RANGE = (0.0, 2.0)
REFLEX_DAMPING = 0.05  # N m s/rad, proximal and distal (fixed here, the SoftHand's)
REFLEX_SIGMA_SCALING = 3.6
REFLEX_SIGMA_OFFSET = 0.1
REFLEX_SWIVEL_PD = (5.0, 0.5)  # N m/rad, N m s/rad
# The Da Vinci linkage of the distal joint (m): the tendon's moment arm there is -R1(q_d)/r0.
REFLEX_DA_VINCI = {"r0": 0.015, "r1": 0.002, "r2": 0.0, "l1": 0.05, "a1": 0.04, "b1": 0.01,
                   "a2": 0.02, "b2": 0.0}
# Bodies (fixed here; the reference has no masses for the Reflex: about 0.9 kg in all, as the
# real hand). Palm: a box under the finger mounts, x in [-0.04, 0.06], |y| <= 0.045, z in
# [0, 0.07]. Knuckles: the swivels' small boxes. Links: capsules on the segments.
REFLEX_PALM = {"mass": 0.6, "size": [0.10, 0.09, 0.07], "centre": [0.01, 0, 0.035]}
REFLEX_KNUCKLE = {"mass": 0.01, "size": [0.02, 0.02, 0.0186], "centre": [0.005, 0, 0.0093]}
REFLEX_PROXIMAL_LINK = {"mass": 0.06, "radius": 0.010}
REFLEX_DISTAL_LINK = {"mass": 0.03, "radius": 0.009}

# Colours ([r, g, b]) of the 3D view.
PALM_COLOR = [0.25, 0.25, 0.28]
LINK_COLORS = [[0.85, 0.55, 0.35], [0.95, 0.75, 0.55]]  # alternate along a finger
KNUCKLE_COLOR = [0.5, 0.5, 0.55]
REFLEX_LINK_COLORS = {"proximal": [0.15, 0.35, 0.75], "distal": [0.35, 0.6, 0.95]}

DRIVES = ("tendon", "ports", "none")


def _num(x):
    """A number as parameter text, in its shortest exact form (-0 written as 0)."""
    x = float(x) + 0.0
    return repr(int(x)) if x == int(x) and abs(x) < 1e15 else repr(x)


def _vec(components):
    """A vector of numbers or expression texts as parameter text."""
    return "[" + ", ".join(c if isinstance(c, str) else _num(c) for c in components) + "]"


def _scaled(length, direction):
    """length * direction as parameter text, direction given as expression texts."""
    return _vec(["0" if c == "0" else f"{_num(length)}*{c}" for c in direction])


def _splay_direction(splay_deg):
    """A finger's d in H as texts: +z tilted towards +y by the splay (deg)."""
    if splay_deg == 0:
        return ["0", "0", "1"]
    return ["0", f"sin(deg({_num(splay_deg)}))", f"cos(deg({_num(splay_deg)}))"]


def _flexion_axis(splay_deg):
    """d x x_H as texts."""
    if splay_deg == 0:
        return ["0", "1", "0"]
    s = _num(splay_deg)
    return ["0", f"cos(deg({s}))", f"-sin(deg({s}))"]


def _evaluate(texts):
    """Expression texts of a vector (as _splay_direction writes them) evaluated here."""
    names = {"sin": math.sin, "cos": math.cos, "deg": math.radians}
    return np.array([float(eval(t, {"__builtins__": {}}, names)) for t in texts])


def _segment_pose(vector):
    """Translation (the segment's midpoint) and axis-angle rotation turning z onto the segment
    from the body frame's origin along `vector` (m): where a cylinder Solid sits on it."""
    v = np.asarray(vector, dtype=float)
    u = v / np.linalg.norm(v)
    axis = np.cross([0.0, 0.0, 1.0], u)
    s = np.linalg.norm(axis)
    angle = math.atan2(s, u[2])
    axis = axis / s if s > 0 else np.array([1.0, 0.0, 0.0])
    return v / 2, axis, angle


def _round(x, digits=12):
    """x to `digits` significant digits: a shape's size or a placement computed here, where
    the last bits carry nothing and would only lengthen the text."""
    return float(f"{float(x):.{digits}g}")


def _cylinder_inertia(mass, radius, length):
    """3x3 inertia (kg m^2) of a solid cylinder about its centre, axis z (6 digits)."""
    side = _round(mass * (3 * radius**2 + length**2) / 12, 6)
    return [[side, 0, 0], [0, side, 0], [0, 0, _round(mass * radius**2 / 2, 6)]]


def _add_link(model, diagram, name, vector, mass, radius, color, pose=None):
    """A link on the segment `vector` (m, in its body frame) from the body frame's origin: a
    pose transform NAME_pose and a capsule Solid NAME of the segment's length (the contact
    shape), carrying the mass and inertia of a cylinder of that length. `pose`: the pose's
    (translation, axis, angle) as texts, when they read better than the numbers computed here.
    """
    length = _round(np.linalg.norm(vector))
    if pose is None:
        centre, axis, angle = _segment_pose(vector)
        pose = (_vec([_round(c) for c in centre]), _vec([_round(c) for c in axis]),
                _num(_round(angle)))
    translation, axis, angle = pose
    rotation = {} if axis is None else dict(rotation="axis_angle", axis=axis, angle=angle)
    model.add_block(diagram, "RigidTransform", f"{name}_pose", translation=translation,
                    **rotation)
    model.add_block(diagram, "Solid", name, shape="capsule", radius=radius, length=length,
                    mass=mass, inertia=_cylinder_inertia(mass, radius, length), color=color)
    return f"{name}_pose"


def _check_drive(drive):
    if drive not in DRIVES:
        raise ValueError(f"drive must be one of {', '.join(DRIVES)}, got {drive!r}")


class Hand:
    """What a builder made: the hand's diagram path and the names a caller wires to.

    - path: the hand's diagram.
    - fingers: finger subsystem names, in order.
    - joints: every joint as "finger/joint", in the order of the output `q`.
    - tendon_joints: the joints a tendon (or port Ji) drives, in its order, with their moment
      arms in `R` (SoftHand; the Reflex's are in `R_functions`, per finger).
    - links: every Solid a contact may touch, as "finger/solid" ("palm" for the palm).
    - tips: the fingertip sensors, "finger/tip", in the order of the output `tips`.
    """

    def __init__(self, path):
        self.path = path
        self.fingers = []
        self.joints = []
        self.tendon_joints = []
        self.R = []
        self.R_functions = {}
        self.links = []
        self.tips = []

    def __repr__(self):
        return (f"Hand({self.path!r}: {len(self.fingers)} fingers, {len(self.joints)} joints, "
                f"{len(self.links)} links)")


def _child(diagram, name):
    return name if diagram == "" else f"{diagram}/{name}"


# ---- SoftHand -------------------------------------------------------------------------------


def _soft_hand_finger(model, hand, spec, thumb, drive, hand_info):
    """One finger (or the thumb) as a subsystem of the hand: port base (H), output q (its
    joints), output tip (the fingertip's position in H), and with a drive the rotational ports
    of its tendon joints."""
    name = spec["name"]
    f = model.add_subsystem(hand, name)
    model.add_port(f, "base", "frame")
    model.add_outport(f, "q")
    model.add_outport(f, "tip")
    joints = SOFT_HAND_THUMB_JOINTS if thumb else SOFT_HAND_FINGER_JOINTS
    masses = SOFT_HAND_THUMB_MASSES if thumb else SOFT_HAND_FINGER_MASSES
    if thumb:
        d, abd_axis = spec["d"], spec["abduction_axis"]
        flex_axis = spec["flexion_axis"]
        # To j1, j1', j2, j2', the tip; the first off d by 0.0033 x_H.
        steps = [spec["j1_offset"]] + [_scaled(s, d) for s in SOFT_HAND_THUMB_STEPS]
        vectors = [np.array([0.0033, 0.0225 * 0.927, 0.0225 * 0.375])] + [
            s * np.array([0.0, 0.927, 0.375]) for s in SOFT_HAND_THUMB_STEPS]
        abd_range = ("0", "pi/2")
        # Rx(-atan2(0.927, 0.375)) turns z onto d; the first segment is off d.
        poses = [None] + [(_scaled(step / 2, d), "[1, 0, 0]", "-atan2(0.927, 0.375)")
                          for step in SOFT_HAND_THUMB_STEPS]
    else:
        d = _splay_direction(spec["splay"])
        abd_axis = ["1", "0", "0"]
        flex_axis = _flexion_axis(spec["splay"])
        steps = [_scaled(s, d) for s in SOFT_HAND_STEPS]
        vectors = [s * _evaluate(d) for s in SOFT_HAND_STEPS]
        abd_range = ("-pi/6", "pi/6")
        # Rx(-splay) turns z onto d.
        splay = spec["splay"]
        rotation = ("[1, 0, 0]", f"-deg({_num(splay)})") if splay else (None, None)
        poses = [(_scaled(step / 2, d),) + rotation for step in SOFT_HAND_STEPS]
    steps = [s if isinstance(s, str) else _vec(s) for s in steps]

    model.add_block(f, "RigidTransform", "mount", translation=_vec(spec["p"]))
    model.connect(f, ".base", "mount.B")
    tendon_ports = []
    previous = "mount.F"
    for k, joint in enumerate(joints):
        matched = joint.endswith("m")
        if joint == "abd":
            axis, lower, upper = abd_axis, abd_range[0], abd_range[1]
        else:
            axis, lower, upper = flex_axis, "0", "pi/4"
        params = dict(axis=_vec(axis), lower=lower, upper=upper, damping=SOFT_HAND_DAMPING)
        if not matched:  # the 19 tendon joints carry E about q_rest = 0
            params.update(stiffness=SOFT_HAND_E, q_eq=0)
        if joint != "abd" or drive != "none":  # flexion joints carry the couplers
            params["actuation"] = "port"
        model.add_block(f, "RevoluteJoint", joint, **params)
        model.connect(f, previous, f"{joint}.B")
        pose = _add_link(model, f, f"{joint}_link", vectors[k], masses[k], SOFT_HAND_RADIUS,
                         LINK_COLORS[k % 2], poses[k])
        model.connect(f, f"{joint}.F", f"{pose}.B")
        model.connect(f, f"{pose}.F", f"{joint}_link.R")
        hand_info.links.append(f"{name}/{joint}_link")
        hand_info.joints.append(f"{name}/{joint}")
        nxt = joints[k + 1] if k + 1 < len(joints) else "tip"
        model.add_block(f, "RigidTransform", f"to_{nxt}", translation=steps[k])
        model.connect(f, f"{joint}.F", f"to_{nxt}.B")
        previous = f"to_{nxt}.F"
        if matched:
            # Rolling contact: the matched joint turns with its joint, rigidly (A = j', B = j).
            coupler = f"couple_{joint[:-1]}"
            model.add_block(f, "JointCoupler", coupler, ratio=1)
            model.connect(f, f"{coupler}.A", f"{joint}.shaft")
            model.connect(f, f"{coupler}.B", f"{joint[:-1]}.shaft")
        elif drive != "none":
            model.add_port(f, joint, "rotational")
            model.connect(f, f"{joint}.shaft", f".{joint}")
            tendon_ports.append(joint)
            hand_info.tendon_joints.append(f"{name}/{joint}")
            hand_info.R.append(spec["R_abduction"] if joint == "abd" else 1.0)
        elif not matched:
            hand_info.tendon_joints.append(f"{name}/{joint}")
            hand_info.R.append(spec["R_abduction"] if joint == "abd" else 1.0)

    model.add_block(f, "TransformSensor", "tip")
    model.connect(f, ".base", "tip.B")
    model.connect(f, previous, "tip.F")
    model.connect(f, "tip.position", ".tip")
    model.add_block(f, "Mux", "angles", inputs=len(joints))
    for k, joint in enumerate(joints, start=1):
        model.connect(f, f"{joint}.q", f"angles.u{k}")
    model.connect(f, "angles.y", ".q")
    hand_info.fingers.append(name)
    hand_info.tips.append(f"{name}/tip")
    return tendon_ports


def build_soft_hand(model, hand, *, drive="tendon"):
    """Fills the diagram `hand` (an empty subsystem or define body) with the Pisa/IIT SoftHand.

    Ports: frame `base` (the hand frame H, to attach to a wrist); outputs `q` (33: per finger
    thumb, index, middle, ring, little its joints abd, j1, j1', j2, j2'[, j3, j3']) and `tips`
    (15: the fingertips' positions in H, m). With drive="tendon" an input `sigma` (the synergy
    command, 0 open, 1 closed; s = 7 sigma rad of tendon), the Tendon block `tendon` (rigid)
    and the outputs `tension` (N m), `q_predicted` (19, the tendon joints in the order of
    Hand.tendon_joints) and `f_predicted` of a SynergyEquilibrium `predicted`; with drive="ports", rotational ports J1..J19 (the tendon joints in the order of
    Hand.tendon_joints).
    @return a Hand describing what was built.
    """
    _check_drive(drive)
    info = Hand(hand)
    model.add_port(hand, "base", "frame")
    if drive == "tendon":
        model.add_inport(hand, "sigma")
    model.add_outport(hand, "q")
    model.add_outport(hand, "tips")
    if drive == "tendon":
        for port in ("tension", "q_predicted", "f_predicted"):
            model.add_outport(hand, port)
    model.add_block(hand, "RigidTransform", "palm_pose",
                    translation=_vec(SOFT_HAND_PALM["centre"]))
    model.add_block(hand, "Solid", "palm", shape="box", size=_vec(SOFT_HAND_PALM["size"]),
                    mass=SOFT_HAND_PALM["mass"], color=PALM_COLOR)
    model.connect(hand, ".base", "palm_pose.B")
    model.connect(hand, "palm_pose.F", "palm.R")
    info.links.append("palm")
    shafts = []
    for spec, thumb in [(SOFT_HAND_THUMB, True)] + [(s, False) for s in SOFT_HAND_FINGERS]:
        ports = _soft_hand_finger(model, hand, spec, thumb, drive, info)
        model.connect(hand, ".base", f"{spec['name']}.base")
        shafts += [f"{spec['name']}.{p}" for p in ports]
    fingers = info.fingers
    model.add_block(hand, "Mux", "angles", inputs=len(fingers))
    model.add_block(hand, "Mux", "tip_positions", inputs=len(fingers))
    for k, name in enumerate(fingers, start=1):
        model.connect(hand, f"{name}.q", f"angles.u{k}")
        model.connect(hand, f"{name}.tip", f"tip_positions.u{k}")
    model.connect(hand, "angles.y", ".q")
    model.connect(hand, "tip_positions.y", ".tips")
    if drive == "tendon":
        model.add_block(hand, "Tendon", "tendon", R=_vec(info.R),
                        sigma_scaling=SOFT_HAND_SIGMA_SCALING, sigma_offset=0)
        model.connect(hand, ".sigma", "tendon.s")
        for k, shaft in enumerate(shafts, start=1):
            model.connect(hand, f"tendon.J{k}", shaft)
        # The adaptive-synergy model's prediction (Rocchi & Hauser eq. 5) at the current
        # contact forces and weights, to compare the dynamics with.
        model.add_block(hand, "SynergyEquilibrium", "predicted")
        model.connect(hand, "tendon.T", "predicted.T")
        model.connect(hand, "tendon.f", ".tension")
        model.connect(hand, "predicted.q", ".q_predicted")
        model.connect(hand, "predicted.f", ".f_predicted")
    elif drive == "ports":
        for k, shaft in enumerate(shafts, start=1):
            model.add_port(hand, f"J{k}", "rotational")
            model.connect(hand, shaft, f".J{k}")
    return info


def add_soft_hand(model, diagram, name, *, drive="tendon"):
    """A SoftHand as a new subsystem NAME of `diagram`; see build_soft_hand.
    @return a Hand (its `path` is the subsystem's)."""
    return build_soft_hand(model, model.add_subsystem(diagram, name), drive=drive)


# ---- Reflex ---------------------------------------------------------------------------------


def da_vinci_R1_text(p=None, q="q"):
    """R1(q_d) of the Da Vinci linkage (Rocchi & Hauser 2016, Fig. 2, after the paper's ref.
    [24]) as expression text of the angle named `q`: r = r2 - r1, a = l1 - a1 + a2 cos q - b2 sin
    q, b = -b1 + a2 sin q + b2 cos q, l = sqrt(a^2 + b^2 - r^2),
    R1 = r1 + [b1 (r b - a l) - (l1 - a1)(a r + b l)] / (a^2 + b^2)  (m)."""
    p = dict(REFLEX_DA_VINCI if p is None else p)
    n = {k: _num(v) for k, v in p.items()}
    r = _num(p["r2"] - p["r1"])
    a = f"({_num(p['l1'] - p['a1'])} + {n['a2']}*cos({q}) - {n['b2']}*sin({q}))"
    b = f"(-{n['b1']} + {n['a2']}*sin({q}) + {n['b2']}*cos({q}))"
    l = f"sqrt({a}^2 + {b}^2 - ({r})^2)"
    return (f"{n['r1']} + ({n['b1']}*(({r})*{b} - {a}*{l}) - {_num(p['l1'] - p['a1'])}*({a}*({r})"
            f" + {b}*{l}))/({a}^2 + {b}^2)")


def da_vinci_R1(q_d, p=None):
    """R1(q_d) (m) computed here, as da_vinci_R1_text writes it."""
    p = REFLEX_DA_VINCI if p is None else p
    r = p["r2"] - p["r1"]
    a = p["l1"] - p["a1"] + p["a2"] * math.cos(q_d) - p["b2"] * math.sin(q_d)
    b = -p["b1"] + p["a2"] * math.sin(q_d) + p["b2"] * math.cos(q_d)
    l = math.sqrt(a * a + b * b - r * r)
    return p["r1"] + (p["b1"] * (r * b - a * l) - (p["l1"] - p["a1"]) * (a * r + b * l)) / (
        a * a + b * b)


def reflex_R_functions():
    """A Reflex finger's tendon row on (q_p, q_d), [1, -R1(q_d)/r0], as the Tendon's
    R_functions text."""
    return f"1; -({da_vinci_R1_text()})/{_num(REFLEX_DA_VINCI['r0'])}"


def _reflex_finger(model, hand, name, drive, info, tendon_stiffness=None, tendon_damping=None):
    """A Reflex finger as a subsystem: port base (B); inputs command (c, with the tendon) and
    swivel_angle (F1, F2: the PD's target, rad); outputs q (swivel, proximal, distal; F3
    proximal, distal) and tip (position in B)."""
    f = model.add_subsystem(hand, name)
    model.add_port(f, "base", "frame")
    model.add_outport(f, "q")
    model.add_outport(f, "tip")
    joints = []
    if name in REFLEX_SWIVELS:
        model.add_inport(f, "swivel_angle")
        model.add_block(f, "RigidTransform", "mount", translation=_vec(REFLEX_SWIVELS[name]))
        model.connect(f, ".base", "mount.B")
        # The preshape's PD: tau = kp (q* - q) - kd qd about the swivel's axis -z.
        model.add_block(f, "RevoluteJoint", "swivel", axis="[0, 0, -1]", actuation="torque")
        kp, kd = REFLEX_SWIVEL_PD
        model.add_block(f, "Expression", "swivel_pd", inputs=3,
                        expr=f"{_num(kp)}*(u1 - u2) - {_num(kd)}*u3")
        model.connect(f, "mount.F", "swivel.B")
        model.connect(f, ".swivel_angle", "swivel_pd.u1")
        model.connect(f, "swivel.q", "swivel_pd.u2")
        model.connect(f, "swivel.qd", "swivel_pd.u3")
        model.connect(f, "swivel_pd.y", "swivel.tau")
        model.add_block(f, "RigidTransform", "knuckle_pose",
                        translation=_vec(REFLEX_KNUCKLE["centre"]))
        model.add_block(f, "Solid", "knuckle", shape="box", size=_vec(REFLEX_KNUCKLE["size"]),
                        mass=REFLEX_KNUCKLE["mass"], color=KNUCKLE_COLOR)
        model.connect(f, "swivel.F", "knuckle_pose.B")
        model.connect(f, "knuckle_pose.F", "knuckle.R")
        model.add_block(f, "RigidTransform", "to_proximal",
                        translation=_vec(REFLEX_PROXIMAL_FROM_SWIVEL))
        model.connect(f, "swivel.F", "to_proximal.B")
        previous = "to_proximal.F"
        joints.append("swivel")
    else:
        model.add_block(f, "RigidTransform", "mount", translation=_vec(REFLEX_F3_PROXIMAL),
                        rotation="axis_angle", axis="[0, 0, 1]", angle="pi")
        model.connect(f, ".base", "mount.B")
        previous = "mount.F"
    segments = {"proximal": REFLEX_DISTAL_FROM_PROXIMAL, "distal": [REFLEX_DISTAL_LENGTH, 0, 0]}
    # Ry(atan2(x, z)) turns z onto a segment (x, 0, z).
    poses = {j: (_vec([_round(c / 2) for c in v]), "[0, 1, 0]", f"atan2({_num(v[0])}, {_num(v[2])})")
             for j, v in segments.items()}
    links = {"proximal": REFLEX_PROXIMAL_LINK, "distal": REFLEX_DISTAL_LINK}
    ranges = {"proximal": REFLEX_PROXIMAL_RANGE, "distal": REFLEX_DISTAL_RANGE}
    for k, joint in enumerate(("proximal", "distal")):
        lower, upper = ranges[joint]
        params = dict(axis="[0, -1, 0]", lower=lower, upper=upper, stiffness=REFLEX_E[k],
                      q_eq=REFLEX_Q_REST[k], q0=REFLEX_Q_REST[k], damping=REFLEX_DAMPING)
        if drive != "none":
            params["actuation"] = "port"
        model.add_block(f, "RevoluteJoint", joint, **params)
        model.connect(f, previous, f"{joint}.B")
        pose = _add_link(model, f, f"{joint}_link", segments[joint], links[joint]["mass"],
                         links[joint]["radius"], REFLEX_LINK_COLORS[joint], poses[joint])
        model.connect(f, f"{joint}.F", f"{pose}.B")
        model.connect(f, f"{pose}.F", f"{joint}_link.R")
        info.links.append(f"{name}/{joint}_link")
        nxt = "to_distal" if joint == "proximal" else "to_tip"
        model.add_block(f, "RigidTransform", nxt, translation=_vec(segments[joint]))
        model.connect(f, f"{joint}.F", f"{nxt}.B")
        previous = f"{nxt}.F"
        joints.append(joint)
    info.joints += [f"{name}/{j}" for j in joints]
    info.tendon_joints += [f"{name}/proximal", f"{name}/distal"]
    info.R_functions[name] = reflex_R_functions()
    if drive == "tendon":
        model.add_inport(f, "command")
        # sigma = 1 - sigma_offset - c: the Tendon makes s = 3.6 (sigma + sigma_offset).
        model.add_block(f, "Expression", "sigma", inputs=1,
                        expr=f"1 - {_num(REFLEX_SIGMA_OFFSET)} - u1")
        transmission = {}
        if tendon_stiffness is not None:
            # The servo behind the tendon, as a spring (its position gain through the spool)
            # and a damper: it stalls on an object instead of crushing it.
            transmission = {"transmission": "elastic", "stiffness": tendon_stiffness,
                            "damping": tendon_damping if tendon_damping is not None else 0}
        model.add_block(f, "Tendon", "tendon", R_functions=reflex_R_functions(),
                        q_rest=_vec(REFLEX_Q_REST), sigma_scaling=REFLEX_SIGMA_SCALING,
                        sigma_offset=REFLEX_SIGMA_OFFSET, routing="chain", **transmission)
        model.connect(f, ".command", "sigma.u1")
        model.connect(f, "sigma.y", "tendon.s")
        model.connect(f, "tendon.J1", "proximal.shaft")
        model.connect(f, "tendon.J2", "distal.shaft")
    elif drive == "ports":
        for k, joint in enumerate(("proximal", "distal"), start=1):
            model.add_port(f, f"J{k}", "rotational")
            model.connect(f, f"{joint}.shaft", f".J{k}")
    model.add_block(f, "TransformSensor", "tip")
    model.connect(f, ".base", "tip.B")
    model.connect(f, previous, "tip.F")
    model.connect(f, "tip.position", ".tip")
    model.add_block(f, "Mux", "angles", inputs=len(joints))
    for k, joint in enumerate(joints, start=1):
        model.connect(f, f"{joint}.q", f"angles.u{k}")
    model.connect(f, "angles.y", ".q")
    info.fingers.append(name)
    info.tips.append(f"{name}/tip")


def build_reflex(model, hand, *, drive="tendon", tendon_stiffness=None, tendon_damping=None):
    """Fills the diagram `hand` with the RightHand Reflex SF.

    Ports: frame `base` (B, the palm's normal +z); input `preshape` (p in [0, 1]: the swivels
    turn to F1 = pi p / 2, F2 = -pi p / 2 under a PD of 5 N m/rad, 0.5 N m s/rad; 0 power
    grasp, 1 pinch); outputs `q` (8: F1 swivel, proximal, distal; F2 the same; F3 proximal,
    distal) and `tips` (9, in B, m). With drive="tendon" an input `command` (3: c per finger,
    in [0, 1], 1 open) and a Tendon `tendon` in each finger (R row [1, -R1(q_d)/r0]); with
    drive="ports" each finger's rotational ports J1 (proximal), J2 (distal), as ports
    f1_J1 ... f3_J2 of the hand.
    tendon_stiffness (N m/rad of tendon, R being dimensionless) and tendon_damping (N m s/rad),
    numbers or the define's parameter names: each tendon elastic, f = k (s - l) - c dl/dt, as
    a position-controlled servo pulls it; None: rigid, l(q) = s exactly.
    The proximal joints start at their rest angle -0.34 rad (q0).
    @return a Hand describing what was built.
    """
    _check_drive(drive)
    info = Hand(hand)
    model.add_port(hand, "base", "frame")
    model.add_inport(hand, "preshape")
    if drive == "tendon":
        model.add_inport(hand, "command")
    model.add_outport(hand, "q")
    model.add_outport(hand, "tips")
    model.add_block(hand, "RigidTransform", "palm_pose", translation=_vec(REFLEX_PALM["centre"]))
    model.add_block(hand, "Solid", "palm", shape="box", size=_vec(REFLEX_PALM["size"]),
                    mass=REFLEX_PALM["mass"], color=PALM_COLOR)
    model.connect(hand, ".base", "palm_pose.B")
    model.connect(hand, "palm_pose.F", "palm.R")
    info.links.append("palm")
    for name in ("f1", "f2", "f3"):
        _reflex_finger(model, hand, name, drive, info, tendon_stiffness, tendon_damping)
        model.connect(hand, ".base", f"{name}.base")
    model.add_block(hand, "Gain", "swivel_f1", k="pi/2")
    model.add_block(hand, "Gain", "swivel_f2", k="-pi/2")
    model.connect(hand, ".preshape", "swivel_f1.u")
    model.connect(hand, ".preshape", "swivel_f2.u")
    model.connect(hand, "swivel_f1.y", "f1.swivel_angle")
    model.connect(hand, "swivel_f2.y", "f2.swivel_angle")
    if drive == "tendon":
        model.add_block(hand, "Demux", "commands", outputs=3)
        model.connect(hand, ".command", "commands.u")
        for k, name in enumerate(info.fingers, start=1):
            model.connect(hand, f"commands.y{k}", f"{name}.command")
    elif drive == "ports":
        for name in info.fingers:
            for k in (1, 2):
                model.add_port(hand, f"{name}_J{k}", "rotational")
                model.connect(hand, f"{name}.J{k}", f".{name}_J{k}")
    model.add_block(hand, "Mux", "angles", inputs=3)
    model.add_block(hand, "Mux", "tip_positions", inputs=3)
    for k, name in enumerate(info.fingers, start=1):
        model.connect(hand, f"{name}.q", f"angles.u{k}")
        model.connect(hand, f"{name}.tip", f"tip_positions.u{k}")
    model.connect(hand, "angles.y", ".q")
    model.connect(hand, "tip_positions.y", ".tips")
    return info


def add_reflex(model, diagram, name, *, drive="tendon", tendon_stiffness=None,
               tendon_damping=None):
    """A Reflex as a new subsystem NAME of `diagram`; see build_reflex.
    @return a Hand."""
    return build_reflex(model, model.add_subsystem(diagram, name), drive=drive,
                        tendon_stiffness=tendon_stiffness, tendon_damping=tendon_damping)


# ---- Contact --------------------------------------------------------------------------------


def add_contacts(model, hand, *, object_port=True, ground_port=True, stiffness=1e5,
                 damping=100, mu_object=1.0, mu_other=0.5, friction="smooth_stick_slip",
                 v_crit=1e-3, transition_width=1e-4):
    """SpatialContactForce blocks (Kelvin-Voigt) between every link of the Hand `hand` and an
    object and/or the ground, reached through new frame ports `object` and `ground` of the
    hand's diagram (connect them to the object Solid's R and the ground plane Solid's R).

    A contact block NAME_object / NAME_ground sits beside each link Solid NAME, in the link's
    finger subsystem (which gets the ports too). Hand-object contacts take mu_object as mu_s
    and mu_d, hand-ground ones mu_other (Rocchi & Hauser 2016's rubber pads against the
    code's default). Values may be numbers or texts (a define's parameter names).
    @return the contact blocks' paths.
    """
    targets = []
    if object_port:
        targets.append(("object", mu_object))
    if ground_port:
        targets.append(("ground", mu_other))
    paths = []
    finger_ports = set()
    for port, _ in targets:
        model.add_port(hand.path, port, "frame")
    for link in hand.links:
        finger, _, solid = link.rpartition("/")
        diagram = _child(hand.path, finger) if finger else hand.path
        for port, mu in targets:
            if finger and (finger, port) not in finger_ports:
                model.add_port(diagram, port, "frame")
                model.connect(hand.path, f".{port}", f"{finger}.{port}")
                finger_ports.add((finger, port))
            name = f"{solid}_{port}"
            model.add_block(diagram, "SpatialContactForce", name, model="kelvin_voigt",
                            stiffness=stiffness, damping=damping,
                            transition_width=transition_width, friction=friction, mu_s=mu,
                            mu_d=mu, v_crit=v_crit)
            model.connect(diagram, f"{solid}.R", f"{name}.B")
            model.connect(diagram, f".{port}", f"{name}.F")
            paths.append(_child(diagram, name))
    return paths


def tendon_available():
    """True when this build has the Tendon block (drive="tendon" needs it)."""
    try:
        Model("probe").add_block("", "Tendon", "t")
    except ModelError:
        return False
    return True
