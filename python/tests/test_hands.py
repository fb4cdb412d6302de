"""The adaptive-synergy hands of Rocchi & Hauser (2016), "A Generic Simulator for Underactuated
Compliant Hands": tb.hands builds them, examples/hands_from_python.py writes the checked-in
libraries models/hands/soft_hand.xml and reflex.xml, and at q = 0 every joint's position and
axis and every fingertip are where the reference's tables put them (to 1e-12 m)."""

import math

import numpy as np
import pytest

import twinblocks as tb
from conftest import REPO, load_example

LIBRARY = REPO / "models" / "hands"
TOL = 1e-12

# ---- The reference's tables, written out again here (not read from tb.hands) ----------------

STEPS = [0.009, 0.013, 0.009, 0.013, 0.009, 0.013]  # p -> j1, j1', j2, j2', j3, j3'
TIP = 0.020
FINGERS = {"index": ([-0.0033, 0.0195, 0.0937], 5.0), "middle": ([-0.0033, 0, 0.1007], 0.0),
           "ring": ([-0.0033, -0.0195, 0.0937], -3.0), "little": ([-0.0033, -0.039, 0.0837], -5.0)}
THUMB_P = np.array([0.0057, 0.0296, 0.0553])
THUMB_D = np.array([0, 0.927, 0.375])
THUMB_ABDUCTION = np.array([0, 0.375, -0.927])
THUMB_FLEXION = np.array([0.910, 0.155, -0.384])
X_H = np.array([1.0, 0, 0])


def soft_hand_reference():
    """{finger: ([(joint, position in H, axis in H)], tip position)} at q = 0."""
    ref = {}
    for name, (p, splay) in FINGERS.items():
        s = math.radians(splay)
        d = np.array([0, math.sin(s), math.cos(s)])
        flexion = np.cross(d, X_H)
        at = np.array(p, dtype=float)
        joints = [("abd", at.copy(), X_H)]
        for joint, step in zip(["j1", "j1m", "j2", "j2m", "j3", "j3m"], STEPS):
            at = at + step * d
            joints.append((joint, at.copy(), flexion))
        ref[name] = (joints, at + TIP * d)
    at = THUMB_P + 0.0225 * THUMB_D + 0.0033 * X_H
    joints = [("abd", THUMB_P, THUMB_ABDUCTION), ("j1", at.copy(), THUMB_FLEXION)]
    for joint, step in zip(["j1m", "j2", "j2m"], [0.013, 0.009, 0.013]):
        at = at + step * THUMB_D
        joints.append((joint, at.copy(), THUMB_FLEXION))
    thumb = (joints, at + TIP * THUMB_D)
    return {"thumb": thumb, **ref}  # the order of the hand's output tips


def reflex_reference():
    """{finger: ([(joint, position in B, axis in B)], tip position)} at q = 0."""
    ref = {}
    for name, y in (("f1", -0.026), ("f2", 0.026)):
        swivel = np.array([0.0504, y, 0.063])
        proximal = swivel + [0.010, 0, 0.0186]
        distal = proximal + [0.066, 0, -0.005]
        ref[name] = ([("swivel", swivel, [0, 0, -1.0]), ("proximal", proximal, [0, -1.0, 0]),
                      ("distal", distal, [0, -1.0, 0])], distal + [0.048, 0, 0])
    # F3 turned 180 deg about z: its x and y are -x_B and -y_B.
    proximal = np.array([-0.030, 0, 0.0816])
    distal = proximal + [-0.066, 0, -0.005]
    ref["f3"] = ([("proximal", proximal, [0, 1.0, 0]), ("distal", distal, [0, 1.0, 0])],
                 distal + [-0.048, 0, 0])
    return ref


# ---- Models ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def example():
    return load_example("hands_from_python")


def hand_at_rest(define, library, inputs, reference):
    """A model with the library's `define` expanded as subsystem `hand` on World (no gravity),
    a probe (TransformSensor from the hand's base) at every joint's base frame, the hand's
    inputs held at `inputs`, its tendons removed, and every joint's q0 = 0."""
    m = tb.Model("probe", file=str(LIBRARY / "probe.xml"))
    m.add_include(library)
    m.add_block("", "World", "world", gravity=[0, 0, 0])
    m.add_block("", define, "hand")
    m.connect("", "world.W", "hand.base")
    for port, value in inputs.items():
        m.add_block("", "Constant", f"{port}_value", value=value)
        m.connect("", f"{port}_value.y", f"hand.{port}")
    m.expand_define("hand")
    for kind in ("Tendon", "SynergyEquilibrium"):
        for block in m.find_blocks(type=kind):
            m.remove_block(block)
    for finger, (joints, _) in reference.items():
        f = f"hand/{finger}"
        for joint, _, _ in joints:
            m.set_param(f"{f}/{joint}", "q0", 0)
            m.add_block(f, "TransformSensor", f"probe_{joint}")
            m.connect(f, ".base", f"probe_{joint}.B")
            m.connect(f, f"probe_{joint}.F", f"{joint}.B")
            m.add_log(f"{f}/probe_{joint}.position")
            m.add_log(f"{f}/probe_{joint}.rotation")
    m.add_log("hand.tips")
    m.add_log("hand.q")
    m.set_simulation(solver="ode45", t_end=1e-6)
    return m


def check_geometry(model, reference):
    results = tb.simulate(model)
    assert results.ok, results.error
    assert np.all(results["hand.q"][0] == 0)
    tips = results["hand.tips"][0].reshape(-1, 3)
    for k, (finger, (joints, tip)) in enumerate(reference.items()):
        for joint, position, axis in joints:
            probe = f"hand/{finger}/probe_{joint}"
            assert np.max(np.abs(results[f"{probe}.position"][0] - position)) < TOL, probe
            R = results[f"{probe}.rotation"][0].reshape(3, 3)
            axis_B = model.get_param_vector(f"hand/{finger}/{joint}", "axis")
            assert np.max(np.abs(R @ axis_B - axis)) < TOL, probe
        assert np.max(np.abs(tips[k] - tip)) < TOL, finger


def test_the_builder_writes_the_checked_in_libraries(example, tmp_path):
    built = example.write_models(tmp_path)
    for name, model in built.items():
        read_back = tb.load(tmp_path / name)
        assert read_back == model, name
        assert read_back == tb.load(LIBRARY / name), name
    assert example.compare_with_checked_in(tmp_path) == []


def test_soft_hand_has_19_tendon_joints_and_14_matched_ones():
    lib = tb.load(LIBRARY / "soft_hand.xml")
    assert [d.name for d in lib.defines] == ["SoftHand", "SoftHandContact"]
    m = tb.Model("count")
    hand = tb.hands.add_soft_hand(m, "", "hand", drive="ports")
    joints = m.find_blocks(type="RevoluteJoint", path="hand/**")
    assert len(joints) == 33 and len(hand.joints) == 33
    sprung = [j for j in joints if m.get_param(j, "stiffness") is not None]
    assert len(sprung) == 19 and len(hand.tendon_joints) == 19
    couplers = m.find_blocks(type="JointCoupler", path="hand/**")
    assert len(couplers) == 14
    assert hand.R == [1.3, 1, 1, -0.2, 1, 1, 1, 0.001, 1, 1, 1, 0.2, 1, 1, 1, 0.4, 1, 1, 1]
    solids = m.find_blocks(type="Solid", path="hand/**")
    assert len(solids) == 34 and all(m.get_param(s, "color") for s in solids)
    assert sum(m.get_param_value(s, "mass") for s in solids) == pytest.approx(0.5, abs=1e-12)
    ports = [f"J{k}" for k in range(1, 20)]
    assert [p.name for p in m.diagram("hand").ports if p.name.startswith("J")] == ports


def test_soft_hand_geometry_at_q_zero():
    inputs = {"sigma": 0} if tb.hands.tendon_available() else {}
    ref = soft_hand_reference()
    check_geometry(hand_at_rest("SoftHand", "soft_hand.xml", inputs, ref), ref)


def test_reflex_has_7_joints_and_2_swivels():
    m = tb.Model("count")
    hand = tb.hands.add_reflex(m, "", "hand", drive="ports")
    joints = m.find_blocks(type="RevoluteJoint", path="hand/**")
    assert len(joints) == 8 and len(hand.tendon_joints) == 6
    assert [j for j in joints if j.endswith("swivel")] == ["hand/f1/swivel", "hand/f2/swivel"]
    solids = m.find_blocks(type="Solid", path="hand/**")
    assert all(m.get_param(s, "color") for s in solids)
    assert m.get_param("hand/f1/proximal", "q0") == "-0.34"


@pytest.mark.skipif(not tb.hands.tendon_available(), reason="this build has no Tendon block")
def test_reflex_tendons_are_rigid_unless_a_stiffness_is_given():
    rigid, servo = tb.Model("rigid"), tb.Model("servo")
    tb.hands.add_reflex(rigid, "", "hand")
    tb.hands.add_reflex(servo, "", "hand", tendon_stiffness=5, tendon_damping="c")
    for f in ("f1", "f2", "f3"):
        tendon = f"hand/{f}/tendon"
        assert rigid.get_param(tendon, "transmission") in (None, "", "rigid")
        assert servo.get_param(tendon, "transmission") == "elastic"
        assert servo.get_param(tendon, "stiffness") == "5"
        assert servo.get_param(tendon, "damping") == "c"


def test_reflex_geometry_at_q_zero():
    inputs = {"preshape": 0}
    if tb.hands.tendon_available():
        inputs["command"] = [1, 1, 1]
    ref = reflex_reference()
    check_geometry(hand_at_rest("Reflex", "reflex.xml", inputs, ref), ref)


def test_da_vinci_moment_arm_text_evaluates_as_the_closed_form():
    # R1(0) by hand: a = 0.03, b = -0.01, r = -0.002, l = sqrt(0.000996).
    l = math.sqrt(0.000996)
    by_hand = 0.002 + (0.01 * (0.00002 - 0.03 * l) - 0.01 * (-0.00006 - 0.01 * l)) / 0.001
    assert tb.hands.da_vinci_R1(0.0) == pytest.approx(by_hand, rel=1e-14)
    assert by_hand == pytest.approx(-0.0035118, abs=1e-7)  # -R1/r0 > 0: tension closes q_d
    m = tb.Model("r1")
    angles = [-0.3, 0.0, 0.5, 1.2, 2.0]
    m.add_block("", "Constant", "q", value=angles)
    m.add_block("", "Expression", "R1", expr=tb.hands.da_vinci_R1_text(q="u1"))
    m.connect("", "q.y", "R1.u1")
    m.add_log("R1.y")
    results = tb.simulate(m, t_end=1e-3)
    expected = [tb.hands.da_vinci_R1(q) for q in angles]
    assert np.allclose(results["R1.y"][0], expected, rtol=1e-14, atol=0)
    text = tb.hands.reflex_R_functions()
    assert text.startswith("1; -(") and text.endswith(")/0.015")


def test_contacts_touch_every_link_and_the_palm():
    lib = tb.load(LIBRARY / "soft_hand.xml")
    body = lib.find_define("SoftHandContact").body
    assert [p.name for p in body.ports][-2:] == ["object", "ground"]
    m = tb.Model("contacts")
    hand = tb.hands.add_soft_hand(m, "", "hand", drive="none")
    paths = tb.hands.add_contacts(m, hand, stiffness=1e5, damping=100)
    assert len(paths) == 2 * 34
    assert m.get_param("hand/index/j3m_link_object", "mu_s") == "1"
    assert m.get_param("hand/index/j3m_link_ground", "mu_d") == "0.5"
    assert m.get_param("hand/palm_object", "model") == "kelvin_voigt"


@pytest.mark.parametrize("name", ["rh1_grasp_lift.xml", "reflex_cylinder.xml"])
def test_the_experiments_start_at_rest(name):
    # The object rests on the ground, clear of the open hand: over the first 20 ms it settles
    # into the ground by its weight over k (about 10 and 20 micrometres), no more.
    results = tb.simulate(tb.load(LIBRARY / name), t_end=0.02)
    assert results.ok, results.error
    key = "sphere_position" if name.startswith("rh1") else "cylinder_position"
    start, end = results[key][0], results[key][-1]
    assert np.max(np.abs(end - start)) < 1e-4
