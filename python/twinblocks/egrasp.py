"""The e_GRASP hand of Mattar (2013), "e_GRASP: Robotic Hand Modeling and Simulation
Environment", built with the editing API, and its scenario H1: three fingertips move a grasped
sphere along a commanded motion while they keep it squeezed (object-level control, eq. 39-44).

    import twinblocks as tb
    m = tb.egrasp.build_h1()            # the whole scenario, as models/hands/egrasp_h1.xml
    results = tb.simulate(m)

A finger is the three-joint chain of the paper's Table 1 (standard DH: abduction, then two
parallel flexion joints; lengths 10, 45, 30 mm), its links uniform aluminium cylinders
(radius 8 mm). `add_finger` adds one as a subsystem with ports base and tip (frames), input tau
(3 joint torques) and outputs q, qd (3 each). The closed-form kinematics of the finger are
tb.kinematics.finger_pose and finger_jacobian, and the FingerKinematics block.

H1 (fixed by the reference; docs/hands.md): a 40 mm, 0.1 kg sphere held at its equator by
fingers 1-3 at 0, 120 and 240 deg through non-slipping hard-finger contacts (ball joints, eq.
41). Its centre is commanded along u_d = (0, 0, A (1 - cos 2 pi f t)), A = 2.5 mm, f = 1 Hz.
Each finger's joint torques are, every T_s = 1 ms (eq. 42-43 reduced):

    tau_i = J_i^T (f_d,i + K_P e_i + K_D e_i' + K_I int e_i) + g_i(q_i),
    e_i = c_i + u_d - tip_i,
    f_d = G^+ w_d + f_int N,  w_d = [m (u_d'' + g e_z); 0]                 (eq. 40, 44)

with G_i = [I; S(c_i)] the grasp matrix of the contacts c_i (object frame), N the inward
normals and f_int the commanded squeeze. Everything is written in each finger's base frame, so
its blocks are the FingerKinematics block, matrix products and a discrete integrator.
"""

import math

import numpy as np

from ._twinblocks import Model
from .hands import _num, _vec  # the parameter-text helpers the hand builders share

LENGTHS = (0.010, 0.045, 0.030)  # m, l1 (abduction link), l2, l3
ALPHAS = (math.pi / 2, 0.0, 0.0)  # rad, the standard DH twists
LINK_RADIUS = 0.008  # m
LINK_DENSITY = 2700.0  # kg/m^3, aluminium
LOWER = (-math.pi / 4, -math.pi / 4, -math.pi / 4)
UPPER = (math.pi / 4, math.pi / 4, math.pi / 4)
Q_H = (0.0, math.pi / 6, math.pi / 3)  # the reference pose q_H
H1_UPPER = (math.pi / 4, math.pi / 4, math.pi / 2)  # H1 widens the distal range to 90 deg

# Scenario H1.
SPHERE_RADIUS = 0.040
SPHERE_MASS = 0.100
CONTACT_ANGLES = (0.0, 120.0, 240.0)  # deg, phi_i of fingers 1-3
AMPLITUDE = 0.0025  # m
FREQUENCY = 1.0  # Hz
SQUEEZE = 2.0  # N, f_int
MU = 0.5
K_P, K_D, K_I = 2000.0, 20.0, 1e4  # N/m, N s/m, N/(m s)
SAMPLE_TIME = 1e-3  # s
GRAVITY = 9.81


def fingertip(q):
    """The fingertip in the finger's base frame (m) at q (rad), by eq. 16."""
    l1, l2, l3 = LENGTHS
    psi = l3 * math.cos(q[1] + q[2]) + l2 * math.cos(q[1]) + l1
    return np.array([math.cos(q[0]) * psi, math.sin(q[0]) * psi,
                     l3 * math.sin(q[1] + q[2]) + l2 * math.sin(q[1])])


def add_finger(model, diagram, name, *, q0=Q_H, lower=LOWER, upper=UPPER, damping=0.0,
               drive="torque"):
    """One e_GRASP finger as a subsystem NAME of `diagram`: ports base (frame {0}) and tip
    (frame 3, at the fingertip), outputs q and qd (3 each). Joints j1 (abduction), j2, j3
    (flexion) start at q0 within [lower, upper] (rad). drive="torque": input tau (3, N m);
    drive="ports": the joints' shafts as rotational ports J1, J2, J3, for actuators outside."""
    if drive not in ("torque", "ports"):
        raise ValueError(f"drive must be 'torque' or 'ports', got {drive!r}")
    f = model.add_subsystem(diagram, name)
    model.add_port(f, "base", "frame")
    model.add_port(f, "tip", "frame")
    model.add_outport(f, "q")
    model.add_outport(f, "qd")
    if drive == "torque":
        model.add_inport(f, "tau")
        model.add_block(f, "Demux", "torques", outputs=3)
        model.connect(f, ".tau", "torques.u")
    model.add_block(f, "Mux", "angles", inputs=3)
    model.add_block(f, "Mux", "speeds", inputs=3)
    previous = ".base"
    for i in range(3):
        j, link = f"j{i + 1}", f"link{i + 1}"
        model.add_block(f, "RevoluteJoint", j, actuation="torque" if drive == "torque" else "port",
                        q0=_num(q0[i]), lower=_num(lower[i]), upper=_num(upper[i]),
                        damping=_num(damping))
        rotation = {}
        if ALPHAS[i] != 0.0:
            rotation = dict(rotation="axis_angle", axis="[1, 0, 0]", angle=_num(ALPHAS[i]))
        model.add_block(f, "RigidTransform", link, translation=_vec([LENGTHS[i], 0, 0]),
                        **rotation)
        # The link's body: a cylinder from (-a_i, 0, 0) to frame i's origin, along x_i.
        model.add_block(f, "RigidTransform", f"{link}_centre",
                        translation=_vec([-LENGTHS[i] / 2, 0, 0]), rotation="axis_angle",
                        axis="[0, 1, 0]", angle=_num(math.pi / 2))
        model.add_block(f, "Solid", f"{link}_body", shape="cylinder", radius=_num(LINK_RADIUS),
                        length=_num(LENGTHS[i]), density=_num(LINK_DENSITY),
                        color="[0.75, 0.75, 0.8]" if i % 2 == 0 else "[0.55, 0.6, 0.7]")
        model.connect(f, previous, f"{j}.B")
        model.connect(f, f"{j}.F", f"{link}.B")
        model.connect(f, f"{link}.F", f"{link}_centre.B")
        model.connect(f, f"{link}_centre.F", f"{link}_body.R")
        if drive == "torque":
            model.connect(f, f"torques.y{i + 1}", f"{j}.tau")
        else:
            model.add_port(f, f"J{i + 1}", "rotational")
            model.connect(f, f"{j}.shaft", f".J{i + 1}")
        model.connect(f, f"{j}.q", f"angles.u{i + 1}")
        model.connect(f, f"{j}.qd", f"speeds.u{i + 1}")
        previous = f"{link}.F"
    model.connect(f, previous, ".tip")
    model.connect(f, "angles.y", ".q")
    model.connect(f, "speeds.y", ".qd")
    return f


# The hand (eq. 3-5): palm frame P = finger 1's base frame {0}; the other bases in P (m), F4
# (the thumb) turned Ry(40 deg). Drives of the reference: the actuator of eq. 26-27, its
# position loop (eq. 28) and the discrete PID of eq. 25 around it.
PALM_BASES = [((0.0, 0.0, 0.0), 0.0), ((-0.005, 0.0, -0.025), 0.0),
              ((-0.010, 0.0, -0.050), 0.0), ((-0.040, 0.0, 0.0), math.radians(40.0))]
ACTUATOR = dict(R="2", k_i="0.05", k_b="0.05", J_a="2e-6", J_m="8e-6", B_a="4e-6", B_m="6e-6",
                n="0.01")
K_PD = 324.0  # V/rad, the position loop (eq. 28)
PID = (2.0, 0.1, 0.5)  # K_p, K_ip (per sample), K_d (per sample difference): eq. 25
ACTUATOR_LIBRARY = "EGraspActuator"
# build_hand_step's command (rad): with the loop's 21 % overshoot still inside the +-45 deg stops.
HAND_STEP = (0.2, 0.5, 0.6)


ACTUATOR_PARAMS = ["R", "k_i", "k_b", "J_a", "J_m", "B_a", "B_m", "n"]


def build_actuator(model, diagram):
    """The joint actuator of eq. 26-27 in `diagram` (a define's body, "define:NAME", whose
    parameters are ACTUATOR_PARAMS): input v (V), rotational port joint (the joint's side).

    J_T theta'' + (B_T + k_b k_i / R) theta' = (k_i / R) v - n d, J_T = J_a + J_m + n^2 J_L,
    B_T = B_a + B_m (the paper's eq. 26 groups (B_a + B_m + k_b k_i) / R; repaired). With the
    inductance neglected the current is algebraic, i = (v - k_b theta') / R, so the motor is a
    torque source (k_i / R) v with the back-emf as viscous damping k_b k_i / R on the rotor;
    the gear of ratio n turns the joint n theta, and the joint's side brings J_L and d."""
    model.add_inport(diagram, "v")
    model.add_port(diagram, "joint", "rotational")
    model.add_block(diagram, "Gain", "current_gain", k="k_i / R")
    model.add_block(diagram, "TorqueSource", "motor_torque")
    model.add_block(diagram, "Inertia", "rotor", J="J_a + J_m")
    model.add_block(diagram, "RotationalSpringDamper", "losses", c="B_a + B_m + k_b * k_i / R")
    model.add_block(diagram, "RotationalReference", "case")
    model.add_block(diagram, "SimpleGear", "gear", ratio="1 / n")
    for a_, b_ in [(".v", "current_gain.u"), ("current_gain.y", "motor_torque.tau"),
                   ("motor_torque.R", "rotor.I"), ("motor_torque.R", "losses.R"),
                   ("motor_torque.R", "gear.B"), ("motor_torque.C", "case.R"),
                   ("losses.C", "case.R"), ("gear.F", ".joint")]:
        model.connect(diagram, a_, b_)


def build_library():
    """models/hands/egrasp_lib.xml: the define EGraspActuator (build_actuator)."""
    lib = Model("egrasp_lib")
    build_actuator(lib, lib.add_define("EGraspActuator", ACTUATOR_PARAMS))
    return lib


def add_hand(model, diagram, name, *, q0=(0.0, 0.0, 0.0), sample_time=SAMPLE_TIME, pid=PID,
             k_pd=K_PD):
    """The four-finger e_GRASP hand as a subsystem NAME: port base (the palm frame P), input
    q_cmd (12: per finger f1..f4 its joints j1..j3, rad), output q (12, the same order).

    Every joint is driven by an EGraspActuator (build_library's define, which the model must
    include: models/hands/egrasp_lib.xml) in the position loop of eq. 28, v = k_PD (r - q),
    under the discrete PID of eq. 25 on the joint's error: r_k = K_p e_k + K_ip sum_{j<=k} e_j + K_d (e_k - e_{k-1}), e_{-1} = 0
    (a DiscretePID with Kp = K_p, Ki = K_ip / T_s, Kd = K_d T_s and the backward-Euler
    integral, the accumulation the paper's z-transform implies); both sampled every T_s, the
    voltage held. One vector PID and one vector loop serve the 12 joints."""
    h = model.add_subsystem(diagram, name)
    model.add_port(h, "base", "frame")
    model.add_inport(h, "q_cmd")
    model.add_outport(h, "q")
    model.add_block(h, "Mux", "angles", inputs=4)
    ts = _num(sample_time)
    kp, kip, kd = pid
    model.add_block(h, "Sum", "error", signs="+-")
    model.add_block(h, "DiscretePID", "pid", Kp=_num(kp), Ki=_num(kip / sample_time),
                    Kd=_num(kd * sample_time), Ts=ts, integrator_method="backward-euler")
    model.add_block(h, "Sum", "loop_error", signs="+-")
    model.add_block(h, "Gain", "k_PD", k=_num(k_pd))
    model.add_block(h, "ZeroOrderHold", "voltage", Ts=ts)
    model.add_block(h, "Demux", "voltages", outputs=12)
    for a_, b_ in [(".q_cmd", "error.u1"), ("angles.y", "error.u2"), ("error.y", "pid.e"),
                   ("pid.u", "loop_error.u1"), ("angles.y", "loop_error.u2"),
                   ("loop_error.y", "k_PD.u"), ("k_PD.y", "voltage.u"),
                   ("voltage.y", "voltages.u"), ("angles.y", ".q")]:
        model.connect(h, a_, b_)
    for k, (offset, tilt) in enumerate(PALM_BASES, start=1):
        finger = f"f{k}"
        rotation = {}
        if tilt != 0.0:
            rotation = dict(rotation="axis_angle", axis="[0, 1, 0]", angle=_num(tilt))
        model.add_block(h, "RigidTransform", f"{finger}_base", translation=_vec(offset),
                        **rotation)
        model.connect(h, ".base", f"{finger}_base.B")
        add_finger(model, h, finger, q0=q0, drive="ports")
        model.connect(h, f"{finger}_base.F", f"{finger}.base")
        model.connect(h, f"{finger}.q", f"angles.u{k}")
        for j in range(1, 4):
            actuator = f"{finger}_a{j}"
            model.add_block(h, ACTUATOR_LIBRARY, actuator, **ACTUATOR)
            model.connect(h, f"voltages.y{3 * (k - 1) + j}", f"{actuator}.v")
            model.connect(h, f"{actuator}.joint", f"{finger}.J{j}")
    return h


def build_hand_step(file=None, *, t_end=0.5):
    """The hand closing from q = 0 to HAND_STEP on every finger (the thumb too), gravity off: a
    step of the command at t = 0; models/hands/egrasp_hand_step.xml. `file`: where the model will
    be written (its include, egrasp_lib.xml, is read from the same folder)."""
    m = Model("egrasp_hand_step", file=file or "")
    m.add_include("egrasp_lib.xml")
    m.set_simulation(solver="ode45", t_end=_num(t_end), rtol="1e-9", atol="1e-11",
                     output_interval=_num(SAMPLE_TIME))
    m.add_block("", "World", "world", gravity="[0, 0, 0]")
    add_hand(m, "", "hand")
    m.add_block("", "Constant", "q_cmd", value=_vec(list(HAND_STEP) * 4))
    m.connect("", "world.W", "hand.base")
    m.connect("", "q_cmd.y", "hand.q_cmd")
    m.add_log("hand.q", "q")
    m.add_log("hand/pid.u", "reference")
    m.add_log("hand/voltage.y", "voltage")
    m.add_plot("egrasp_hand_step.svg", ["hand.q"],
               title="e_GRASP hand: the 12 joints stepping to (0.2, 0.5, 0.6) rad",
               ylabel="rad")
    return m


def h1_grasp():
    """H1's contacts and commands: per finger the contact point c_i (object frame, m), the
    base rotation angle (rad) and position (m, world), and the constant vectors of the feed-
    forward force in the finger's base frame, f_d,i = alpha_i s(t) + beta_i with s(t) = m
    (u_d'' + g) (N); plus G (6 x 9)."""
    c = [SPHERE_RADIUS * np.array([math.cos(math.radians(p)), math.sin(math.radians(p)), 0.0])
         for p in CONTACT_ANGLES]
    G = np.hstack([np.vstack([np.eye(3), _skew(ci)]) for ci in c])
    G_plus = np.linalg.pinv(G)
    tip = fingertip(Q_H)
    fingers = []
    for i, phi in enumerate(CONTACT_ANGLES):
        angle = math.radians(phi + 180.0)
        R = np.array([[math.cos(angle), -math.sin(angle), 0.0],
                      [math.sin(angle), math.cos(angle), 0.0], [0.0, 0.0, 1.0]])
        base = c[i] - R @ tip
        alpha = R.T @ G_plus[3 * i:3 * i + 3, 2]  # per unit of the vertical force
        beta = R.T @ (SQUEEZE * (-c[i] / SPHERE_RADIUS))
        fingers.append(dict(c=c[i], angle=angle, R=R, base=base, alpha=alpha, beta=beta))
    return fingers, G


def _skew(v):
    return np.array([[0.0, -v[2], v[1]], [v[2], 0.0, -v[0]], [-v[1], v[0], 0.0]])


def _per_axis(values):
    """An Expression of the axis index u (0, 1, 2) giving values[u] (texts)."""
    return f"u == 0 ? {values[0]} : (u == 1 ? {values[1]} : {values[2]})"


def _add_finger_controller(model, diagram, name, robot, finger):
    """The object-level controller of one finger (eq. 42-43 reduced) as subsystem NAME: inputs
    q, qd; output tau. Written in the finger's base frame, where c_i - b_i is the fingertip at
    q_H and u_d keeps its direction (the bases turn about z only)."""
    k = model.add_subsystem(diagram, name)
    for port in ("q", "qd"):
        model.add_inport(k, port)
    model.add_outport(k, "tau")
    ts = _num(SAMPLE_TIME)
    w = f"2*pi*{_num(FREQUENCY)}"
    A = _num(AMPLITUDE)
    tip = fingertip(Q_H)
    model.add_block(k, "ZeroOrderHold", "q_sampled", Ts=ts)
    model.add_block(k, "ZeroOrderHold", "qd_sampled", Ts=ts)
    model.add_block(k, "FingerKinematics", "kinematics", l1=_num(LENGTHS[0]),
                    l2=_num(LENGTHS[1]), l3=_num(LENGTHS[2]))
    model.add_block(k, "Reshape", "J", output="custom", dimensions="[3, 3]")
    model.add_block(k, "Transpose", "J_T")
    model.add_block(k, "Constant", "axis", value="[0, 1, 2]")
    # The commanded fingertip, its velocity, and the feedforward force f_d,i (base frame).
    model.add_block(k, "Expression", "target", expr=_per_axis(
        [_num(tip[0]), _num(tip[1]), f"{_num(tip[2])} + {A}*(1 - cos({w}*t))"]))
    model.add_block(k, "Expression", "target_velocity",
                    expr=_per_axis(["0", "0", f"{A}*{w}*sin({w}*t)"]))
    s = f"{_num(SPHERE_MASS)}*({A}*{w}^2*cos({w}*t) + {_num(GRAVITY)})"
    a, b = finger["alpha"], finger["beta"]
    model.add_block(k, "Expression", "feedforward", expr=_per_axis(
        [f"{_num(a[j])}*{s} + {_num(b[j])}" for j in range(3)]))
    model.add_block(k, "Sum", "error", signs="+-")
    model.add_block(k, "MatrixMultiply", "tip_velocity")
    model.add_block(k, "Sum", "error_rate", signs="+-")
    model.add_block(k, "DiscreteIntegrator", "error_integral", method="backward-euler", Ts=ts)
    model.add_block(k, "Gain", "K_P", k=_num(K_P))
    model.add_block(k, "Gain", "K_D", k=_num(K_D))
    model.add_block(k, "Gain", "K_I", k=_num(K_I))
    model.add_block(k, "Sum", "force", signs="++++")
    model.add_block(k, "MatrixMultiply", "joint_torque")
    model.add_block(k, "GravityTorque", "gravity", robot=robot)
    model.add_block(k, "Sum", "torque", signs="++")
    model.add_block(k, "ZeroOrderHold", "torque_held", Ts=ts)
    for a_, b_ in [(".q", "q_sampled.u"), (".qd", "qd_sampled.u"),
                   ("q_sampled.y", "kinematics.q"), ("kinematics.J_base", "J.u"),
                   ("J.y", "J_T.u"),
                   ("axis.y", "target.u1"), ("axis.y", "target_velocity.u1"),
                   ("axis.y", "feedforward.u1"),
                   ("target.y", "error.u1"), ("kinematics.position", "error.u2"),
                   ("J.y", "tip_velocity.u1"), ("qd_sampled.y", "tip_velocity.u2"),
                   ("target_velocity.y", "error_rate.u1"), ("tip_velocity.y", "error_rate.u2"),
                   ("error.y", "error_integral.u"),
                   ("error.y", "K_P.u"), ("error_rate.y", "K_D.u"),
                   ("error_integral.y", "K_I.u"),
                   ("feedforward.y", "force.u1"), ("K_P.y", "force.u2"), ("K_D.y", "force.u3"),
                   ("K_I.y", "force.u4"),
                   ("J_T.y", "joint_torque.u1"), ("force.y", "joint_torque.u2"),
                   ("q_sampled.y", "gravity.q"),
                   ("joint_torque.y", "torque.u1"), ("gravity.tau", "torque.u2"),
                   ("torque.y", "torque_held.u"), ("torque_held.y", ".tau")]:
        model.connect(k, a_, b_)
    return k


def build_h1(model=None, *, t_end=3.0):
    """Scenario H1 of the reference as a model: the sphere on a FreeJoint, fingers f1-f3 at
    their bases, the ball joints of the contacts (cut: they close the loops), the controllers
    ctrl1-ctrl3, and a GraspAnalysis of the three contact forces (hard finger, mu = 0.5)."""
    m = model if model is not None else Model("egrasp_h1")
    fingers, _ = h1_grasp()
    m.set_simulation(solver="ode45", t_end=_num(t_end), rtol="1e-7", atol="1e-9",
                     output_interval="1e-3", max_step="1e-3")
    m.add_block("", "World", "world")
    m.add_block("", "FreeJoint", "object_joint")
    m.add_block("", "Solid", "object", shape="sphere", radius=_num(SPHERE_RADIUS),
                mass=_num(SPHERE_MASS), color="[0.9, 0.4, 0.3]")
    m.connect("", "world.W", "object_joint.B")
    m.connect("", "object_joint.F", "object.R")
    m.add_block("", "Mux", "contacts", inputs=6)
    m.add_block("", "Constant", "centre", value="[0, 0, 0]")
    m.add_block("", "GraspAnalysis", "grasp", mu=_num(MU), threshold="0")
    for i, fg in enumerate(fingers, start=1):
        name = f"f{i}"
        m.add_block("", "RigidTransform", f"{name}_base", translation=_vec(fg["base"]),
                    rotation="axis_angle", axis="[0, 0, 1]", angle=_num(fg["angle"]))
        add_finger(m, "", name, upper=H1_UPPER)
        m.connect("", "world.W", f"{name}_base.B")
        m.connect("", f"{name}_base.F", f"{name}.base")
        # The contact: a ball joint from the fingertip (B) to the contact point on the sphere
        # (F, axes of the sphere), whose wrench is the force on the sphere in its axes.
        m.add_block("", "RigidTransform", f"c{i}", translation=_vec(fg["c"]))
        m.add_block("", "SphericalJoint", f"contact{i}", cut="true")
        m.connect("", "object_joint.F", f"c{i}.B")
        m.connect("", f"{name}.tip", f"contact{i}.B")
        m.connect("", f"c{i}.F", f"contact{i}.F")
        _add_finger_controller(m, "", f"ctrl{i}", name, fg)
        m.connect("", f"{name}.q", f"ctrl{i}.q")
        m.connect("", f"{name}.qd", f"ctrl{i}.qd")
        m.connect("", f"ctrl{i}.tau", f"{name}.tau")
        # GraspAnalysis reads [point, normal, force] per contact, here in the sphere's axes
        # about its centre: the point c_i, the inward normal, the wrench's force.
        m.add_block("", "Constant", f"c{i}_point_normal",
                    value=_vec(list(fg["c"]) + list(-fg["c"] / SPHERE_RADIUS)))
        m.add_block("", "Selector", f"contact{i}_force", indices="[0, 1, 2]")
        m.connect("", f"contact{i}.wrench", f"contact{i}_force.u")
    for i in range(1, 4):
        m.connect("", f"c{i}_point_normal.y", f"contacts.u{2 * i - 1}")
        m.connect("", f"contact{i}_force.y", f"contacts.u{2 * i}")
    m.connect("", "contacts.y", "grasp.contacts")
    m.connect("", "centre.y", "grasp.center")
    # The commanded motion, for the error and the plots.
    w = f"2*pi*{_num(FREQUENCY)}"
    m.add_block("", "Expression", "commanded_height",
                expr=f"{_num(AMPLITUDE)}*(1 - cos({w}*t))")
    m.add_block("", "Demux", "object_position", outputs=3)
    m.add_block("", "Sum", "height_error", signs="-+")
    m.add_block("", "Constant", "zero", value="0")
    m.connect("", "zero.y", "commanded_height.u1")
    m.connect("", "object_joint.position", "object_position.u")
    m.connect("", "commanded_height.y", "height_error.u1")
    m.connect("", "object_position.y3", "height_error.u2")
    m.add_log("object_joint.position", "object_position")
    m.add_log("object_joint.quaternion", "object_quaternion")
    m.add_log("commanded_height.y", "commanded_height")
    m.add_log("height_error.y", "height_error")
    m.add_log("contacts.y", "contacts")
    m.add_log("grasp.internal_force", "internal_force")
    m.add_log("grasp.slip", "slip")
    m.add_log("grasp.closure", "closure")
    for i in range(1, 4):
        m.add_log(f"f{i}.q", f"q{i}")
        m.add_log(f"ctrl{i}.tau", f"tau{i}")
    m.add_plot("egrasp_h1_height.svg", ["commanded_height.y", "object_joint.position[2]"],
               title="H1: the sphere's height and its command", ylabel="m")
    m.add_plot("egrasp_h1_error.svg", ["height_error.y"],
               title="H1: height error (command - sphere)", ylabel="m")
    m.add_plot("egrasp_h1_internal_force.svg", ["grasp.internal_force"],
               title="H1: internal force (command 2 N per contact: 2 sqrt(3) = 3.46 N)",
               ylabel="N")
    m.add_plot("egrasp_h1_slip.svg", ["grasp.slip"],
               title="H1: slip, max |f_t| / (mu f_n) over the contacts (1: on the cone)")
    return m
