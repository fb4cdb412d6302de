"""twinblocks.grasp: the Barrett hand's pregrasp (Zaidi et al. 2020, Algorithm 2) and the
candidate points of the reference objects and of closed triangle meshes."""

import math

import numpy as np
import pytest

import twinblocks as tb

CUBE_TRIANGLES = np.array([[0, 2, 3], [0, 3, 1], [4, 5, 7], [4, 7, 6], [0, 1, 5], [0, 5, 4],
                           [2, 7, 3], [2, 6, 7], [0, 4, 6], [0, 6, 2], [1, 3, 7], [1, 7, 5]])


def cube_vertices(centre, half):
    """Vertex k has the signs of bits 0, 1, 2 of k along x, y, z."""
    return np.array([[centre[0] + (half if k & 1 else -half),
                      centre[1] + (half if k & 2 else -half),
                      centre[2] + (half if k & 4 else -half)] for k in range(8)])


def check_hand(plan):
    R, p = plan["pose"]
    assert np.allclose(R.T @ R, np.eye(3), atol=1e-14)
    assert np.allclose(R[:, 2], -plan["normal"], atol=1e-14)
    assert np.allclose(p, plan["centroid"] + (0.084 + plan["L"]) * plan["normal"], atol=1e-14)
    # The exact IK's tips on the targets' projections; the counts of the coupled angles,
    # Theta2c = q_M / 125 deg.
    offsets = np.linalg.norm(np.array(plan["tips"]) - plan["targets"], axis=1)
    assert np.allclose(offsets, plan["plane_distance"], atol=1e-9)
    assert np.allclose(np.radians(plan["q_M"][:3] / 125.0), plan["coupled_theta2"], atol=1e-12)
    theta2 = np.array(plan["theta2"])
    assert np.all((theta2 >= 0) & (theta2 <= math.radians(140)))


@pytest.mark.parametrize("name", ["sphere", "cube", "cylinder"])
def test_reference_objects_report_the_nearest_miss(name):
    # With Algorithm 1's triangle no palm distance has all three fingers within 2 deg of the
    # coupling (docs/grasp-analysis.md); the nearest miss is returned.
    obj = tb.grasp.sample_reference_object(name)
    assert obj["points"].shape == obj["normals"].shape
    tb.grasp.check_on_reference_object(name, obj["points"], 1e-12)
    plan = tb.grasp.plan_barrett_pregrasp(obj["points"], obj["normals"], obj["centre"])
    assert not plan["found"]
    assert "the least worst coupling error is" in plan["message"]
    assert plan["Q1"] <= 0.3
    assert len(plan["triangle"]) == 3
    assert max(plan["coupling_error_deg"]) > 2.0
    check_hand(plan)


def test_sphere_pregrasp_within_five_degrees():
    obj = tb.grasp.sample_reference_object("sphere")
    plan = tb.grasp.plan_barrett_pregrasp(obj["points"], obj["normals"], obj["centre"],
                                          max_coupling_error_deg=5.0)
    assert plan["found"], plan["message"]
    assert plan["message"] == ""
    assert plan["L"] == pytest.approx(0.089, abs=1e-12)
    assert max(plan["coupling_error_deg"]) <= 5.0
    assert max(plan["coupled_tip_distance"]) < 0.003
    check_hand(plan)


def test_a_cube_mesh_behaves_like_the_cube():
    centre = np.array([0.60, 0.0, 0.040])
    mesh = tb.grasp.sample_triangle_mesh(cube_vertices(centre, 0.04), CUBE_TRIANGLES, 0.012)
    assert mesh["points"].shape == (250, 3)
    tb.grasp.check_on_reference_object("cube", mesh["points"], 1e-15)
    plan = tb.grasp.plan_barrett_pregrasp(mesh["points"], mesh["normals"], centre)
    assert not plan["found"]
    assert plan["Q1"] <= 0.3
    assert plan["L"] == pytest.approx(0.090, abs=0.005)


def raises(call, text):
    with pytest.raises(ValueError) as info:
        call()
    assert text in str(info.value)
    return str(info.value)


def test_bad_input_raises_value_error_with_the_message():
    obj = tb.grasp.sample_reference_object("cube")
    p, n, c = obj["points"], obj["normals"], obj["centre"]
    raises(lambda: tb.grasp.plan_barrett_pregrasp(p[:2], n[:2], c),
           "grasp: pregrasp has 2 candidate points; expected 3 to 300")
    long_normals = n.copy()
    long_normals[4] *= 1.1
    raises(lambda: tb.grasp.plan_barrett_pregrasp(p, long_normals, c),
           "grasp: pregrasp candidate point 4: normal")
    nan_points = p.copy()
    nan_points[7, 1] = math.nan
    raises(lambda: tb.grasp.plan_barrett_pregrasp(nan_points, n, c),
           "grasp: pregrasp candidate point 7 (")
    raises(lambda: tb.grasp.plan_barrett_pregrasp(p, n, c, l_step=0.0), "l_step 0")
    raises(lambda: tb.grasp.sample_reference_object("torus"),
           "grasp: reference object 'torus'; expected 'sphere', 'cube' or 'cylinder'")
    off = p.copy()
    off[3] *= 1.01
    message = raises(lambda: tb.grasp.check_on_reference_object("cube", off, 1e-6),
                     "grasp: contact 3 at")
    assert "\n" not in message
    inside_out = CUBE_TRIANGLES[:, [0, 2, 1]]
    raises(lambda: tb.grasp.sample_triangle_mesh(cube_vertices(c, 0.04), inside_out),
           "grasp: triangle mesh encloses a volume of -0.000512 m^3")
    raises(lambda: tb.grasp.sample_triangle_mesh(cube_vertices(c, 0.04), CUBE_TRIANGLES[:11]),
           "grasp: mesh edge (5, 7) of triangle 2 is shared by 1 triangle(s)")
    raises(lambda: tb.grasp.sample_mesh_file("/nonexistent/part.stl"),
           "grasp: mesh file '/nonexistent/part.stl' not found")


@pytest.mark.parametrize("name", ["cube", "cylinder"])
def test_closure_mu_chooses_a_force_closure_triangle(name):
    """Algorithm 1 as published picks triangles the fingertips (mu 0.5) cannot close on a rigid
    cube or cylinder; closure_mu chooses among those that are force closure."""
    s = tb.grasp.sample_reference_object(name, 0.012)
    points, normals, centre = s["points"], s["normals"], s["centre"]

    def closure(plan):
        t = list(plan["triangle"])
        return tb.grasp.force_closure(points[t], -normals[t], centre, mu=0.5)

    assert not closure(tb.grasp.plan_barrett_pregrasp(points, normals, centre))
    plan = tb.grasp.plan_barrett_pregrasp(points, normals, centre, closure_mu=0.5)
    assert plan["Q1"] <= 0.3
    assert closure(plan)
    check_hand(plan)
