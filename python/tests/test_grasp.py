"""twinblocks.grasp: the grasp analysis library from Python (numpy in, numpy out)."""

import math

import numpy as np
import pytest

import twinblocks as tb

R = 0.05  # m, sphere radius
WEIGHT = 0.2 * 9.81  # N


def equator(n, phase=math.radians(10)):
    angles = phase + 2 * math.pi * np.arange(n) / n
    radial = np.stack([np.cos(angles), np.sin(angles), np.zeros(n)], axis=1)
    return R * radial, -radial


def test_grasp_matrix_of_three_fingers():
    p, n = equator(3)
    g = tb.grasp.grasp_matrix(p, n, np.zeros(3), "hard")
    G = g["G"]
    assert G.shape == (6, 9)
    expected = np.diag([3, 3, 3, 1.5 * R * R, 1.5 * R * R, 3 * R * R])
    assert np.allclose(G @ G.T, expected, atol=1e-14)
    assert g["min_singular_value"] == pytest.approx(math.sqrt(1.5) * R, rel=1e-13)
    assert len(g["frames"]) == 3
    assert tb.grasp.internal_forces(G).shape == (9, 3)


def test_forces_hold_a_weight():
    p, n = equator(3)
    G = tb.grasp.grasp_matrix(p, n, np.zeros(3))["G"]
    w = np.array([0, 0, -WEIGHT, 0, 0, 0])
    f = tb.grasp.min_norm_forces(G, w)
    assert np.allclose(G @ f, -w, atol=1e-13)
    least = tb.grasp.least_squeeze_forces(G, w, mu=0.5)
    assert least["feasible"]
    assert least["total_normal_force"] == pytest.approx(WEIGHT / 0.5, rel=1e-12)
    margin = tb.grasp.friction_margin_forces(G, w, mu=0.5, max_normal_force=10.0)
    assert margin["feasible"] and margin["margin"] > 0
    assert np.allclose(G @ margin["f"], -w, atol=1e-9)
    none = tb.grasp.least_squeeze_forces(G, w, mu=0.0)
    assert not none["feasible"] and none["message"]


def test_force_closure_and_epsilon():
    p, n = equator(3)
    assert tb.grasp.force_closure(p, n, np.zeros(3), mu=0.5)
    assert not tb.grasp.force_closure(p, n, np.zeros(3), mu=0.0)
    q = tb.grasp.epsilon(p, n, np.zeros(3), mu=0.5)
    assert q["force_closure"] and q["epsilon"] > 0
    assert q["torque_length"] == pytest.approx(R)
    qi = tb.grasp.epsilon(p, n, np.zeros(3), mu=0.5, edges=6, norm="Linf")
    assert qi["force_closure"]
    p2, n2 = equator(2)
    assert not tb.grasp.force_closure(p2, n2, np.zeros(3), mu=0.5)
    assert tb.grasp.force_closure(p2, n2, np.zeros(3), mu=0.5, model="soft", torsional_mu=0.001)


def test_triangle_measures():
    h = math.sqrt(3) / 2
    assert tb.grasp.q1([0, 0, 0], [1, 0, 0], [0.5, h, 0]) == pytest.approx(0, abs=1e-15)
    assert tb.grasp.q1([0, 0, 0], [1, 0, 0], [0, 1, 0]) == pytest.approx(0.5, abs=1e-15)
    assert tb.grasp.q1([0, 0, 0], [1, 0, 0], [2, 0, 0]) == pytest.approx(2, abs=1e-15)
    assert tb.grasp.q2([0, 0, 0], [3, 0, 0], [0, 3, 0], [1, 1, 4]) == pytest.approx(4)
    angles = 0.1 + math.pi / 3 * np.arange(6)
    circle = np.stack([np.cos(angles), np.sin(angles), np.zeros(6)], axis=1)
    t = tb.grasp.choose_triangle(circle, np.zeros(3))
    assert t["found"] and list(t["indices"]) == [0, 2, 4]
    assert t["q2"] == pytest.approx(0, abs=1e-15)


def test_bad_input_raises_value_error():
    p, n = equator(3)
    bad = n.copy()
    bad[1] *= 2
    with pytest.raises(ValueError, match="contact 1"):
        tb.grasp.grasp_matrix(p, bad, np.zeros(3))
    with pytest.raises(ValueError, match="mu"):
        tb.grasp.force_closure(p, n, np.zeros(3), mu=-1)
    with pytest.raises(ValueError, match="at least 2"):
        tb.grasp.grasp_matrix(p[:1], n[:1], np.zeros(3))
    with pytest.raises(ValueError, match="model"):
        tb.grasp.grasp_matrix(p, n, np.zeros(3), "sticky")
    with pytest.raises(ValueError, match="shape"):
        tb.grasp.grasp_matrix(p[:, :2], n, np.zeros(3))
