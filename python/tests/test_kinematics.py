"""twinblocks.kinematics: the e_GRASP finger of Mattar 2013 in closed form, and Robot, the
numerical inverse kinematics of a model's chain (issue 44, K1 and K2 from Python)."""

import math

import numpy as np
import pytest

import twinblocks as tb

L = (0.010, 0.045, 0.030)
LIMITS = dict(lower=[-math.pi / 4] * 3, upper=[math.pi / 4] * 3)


def test_finger_ik_gives_back_the_angles_of_either_branch():
    rng = np.random.default_rng(3)
    for _ in range(200):
        q = rng.uniform(-math.pi / 4, math.pi / 4, 3)
        p, R = tb.kinematics.finger_pose(q, *L)
        r = tb.kinematics.finger_ik(p, *L, **LIMITS)
        assert r["reachable"]
        branch = 0 if q[2] >= 0 else 1
        assert r["valid"][branch]
        np.testing.assert_allclose(r["branches"][branch], q, atol=1e-10)
        frame = tb.kinematics.finger_ik(p, *L, rotation=R, **LIMITS)
        np.testing.assert_allclose(frame["branches"][frame["first_valid"]], q, atol=1e-10)


def test_finger_ik_reports_an_unreachable_target_without_nan():
    r = tb.kinematics.finger_ik([0.2, 0.0, 0.0], *L)
    assert not r["reachable"] and r["first_valid"] == -1
    assert np.all(np.isfinite(r["branches"]))
    with pytest.raises(ValueError, match="lower <= upper"):
        tb.kinematics.finger_ik([0.05, 0, 0], *L, lower=[1, 1, 1], upper=[0, 0, 0])


def test_finger_jacobians_match_finite_differences_and_eq_23():
    q = np.array([0.2, 0.3, 0.4])
    J = tb.kinematics.finger_jacobian(q, *L)
    h = 1e-7
    for k in range(3):
        dq = np.zeros(3)
        dq[k] = h
        column = (tb.kinematics.finger_pose(q + dq, *L)[0] - tb.kinematics.finger_pose(q - dq, *L)[0]) / (2 * h)
        np.testing.assert_allclose(J[:, k], column, atol=1e-8)
    J_tip = tb.kinematics.finger_jacobian(q, *L, frame="tip")
    psi = L[2] * math.cos(q[1] + q[2]) + L[1] * math.cos(q[1]) + L[0]
    np.testing.assert_allclose(J_tip[:, 0], [0, 0, -psi], atol=1e-15)
    np.testing.assert_allclose(J_tip[:, 2], [0, L[2], 0], atol=1e-15)


def finger_model():
    """The e_GRASP finger as frame blocks (standard DH: Rz(q) Dx(a) Rx(alpha))."""
    m = tb.Model("finger")
    m.add_block("", "World", "world", gravity="[0, 0, 0]")
    previous = "world.W"
    for i, (a, alpha) in enumerate(zip(L, (math.pi / 2, 0, 0)), start=1):
        m.add_block("", "RevoluteJoint", f"j{i}", lower="-pi/4", upper="pi/4")
        m.add_block("", "RigidTransform", f"link{i}", translation=f"[{a}, 0, 0]",
                    rotation="axis_angle", axis="[1, 0, 0]", angle=str(alpha))
        m.add_block("", "Solid", f"mass{i}", shape="sphere", radius="0.005")
        m.connect("", previous, f"j{i}.B")
        m.connect("", f"j{i}.F", f"link{i}.B")
        m.connect("", f"link{i}.F", f"mass{i}.R")
        previous = f"link{i}.F"
    return m


def test_robot_inverse_reaches_fingertip_targets_within_the_joint_limits():
    robot = tb.kinematics.Robot(finger_model(), "link3.F")
    assert robot.nq == 3
    np.testing.assert_allclose(robot.upper, [math.pi / 4] * 3)
    rng = np.random.default_rng(5)
    for _ in range(100):
        q = rng.uniform(-math.pi / 4, math.pi / 4, 3)
        p, _ = robot.pose(q)
        np.testing.assert_allclose(p, tb.kinematics.finger_pose(q, *L)[0], atol=1e-15)
        r = robot.inverse(p)
        assert r["success"]
        assert r["position_error"] <= 1e-9
        assert np.all(np.abs(r["q"]) <= math.pi / 4 + 1e-15)
        np.testing.assert_allclose(robot.pose(r["q"])[0], p, atol=1e-9)
    far = robot.inverse([0.2, 0, 0], restarts=2)
    assert not far["success"] and far["attempts"] == 3
    assert far["position_error"] == pytest.approx(0.2 - 0.085, abs=1e-9)


def test_robot_refuses_a_frame_outside_the_model():
    with pytest.raises(tb.ModelError, match="not a frame port"):
        tb.kinematics.Robot(finger_model(), "nowhere.F")


def test_robot_of_a_urdf_arm_reaches_a_full_pose_from_the_current_configuration():
    import os
    import warnings
    here = os.path.dirname(os.path.abspath(__file__))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its meshes are not in the repository
        arm = tb.import_urdf(os.path.join(here, "..", "..", "tests", "data", "urdf",
                                          "iiwa14_drake.urdf"))
    robot = tb.kinematics.Robot(arm, frame="iiwa_joint_7.F")
    assert robot.nq == 7 and robot.upper[1] == pytest.approx(2.09439510239)
    q_goal = np.array([0.3, 0.5, -0.2, -1.2, 0.4, 0.8, 0.1])
    p, R = robot.pose(q_goal)
    q_now = q_goal + 0.05
    sol = robot.inverse(p, rotation=R, q_start=q_now)
    assert sol["success"] and sol["attempts"] == 1
    assert sol["position_error"] <= 1e-9 and sol["rotation_error"] <= 1e-9
    p2, R2 = robot.pose(sol["q"])
    np.testing.assert_allclose(p2, p, atol=1e-9)
    np.testing.assert_allclose(R2, R, atol=1e-9)


def test_egrasp_h1_feedforward_balances_the_weight_and_squeezes_along_the_normals():
    fingers, G = tb.egrasp.h1_grasp()
    assert G.shape == (6, 9)
    # f_d = G^+ w_d + f_int N in the world: the fingers carry m g together, no moment, and the
    # squeeze is in G's null space.
    weight = tb.egrasp.SPHERE_MASS * tb.egrasp.GRAVITY
    forces = np.concatenate([f["R"] @ (f["alpha"] * weight + f["beta"]) for f in fingers])
    np.testing.assert_allclose(G @ forces, [0, 0, weight, 0, 0, 0], atol=1e-12)
    squeeze = np.concatenate([f["R"] @ f["beta"] for f in fingers])
    np.testing.assert_allclose(G @ squeeze, np.zeros(6), atol=1e-12)
    assert np.linalg.norm(squeeze) == pytest.approx(2 * math.sqrt(3))
    # Each base puts the fingertip at q_H on its contact point.
    for f in fingers:
        np.testing.assert_allclose(f["base"] + f["R"] @ tb.egrasp.fingertip(tb.egrasp.Q_H),
                                   f["c"], atol=1e-15)


def test_egrasp_finger_drive_is_checked():
    with pytest.raises(ValueError, match="drive"):
        tb.egrasp.add_finger(tb.Model("m"), "", "f", drive="tendon")
