"""examples/gripper4_geometry_scan.py: the G2 model it edits is the reference model where the
geometry is the reference one, each finger base moves only in |y| and keeps its side, the
start-clearance test rejects what overlaps, and its measurements read a run as the acceptance
test does (the first contacts of G2 at 0.1529 s, docs/grasp.md)."""

import pytest

import twinblocks as tb
from conftest import REPO, load_example


@pytest.fixture(scope="module")
def scan():
    return load_example("gripper4_geometry_scan")


def reference_model():
    model = tb.load(REPO / "models" / "gripper4" / "g2_power.xml")
    model.expand_define("hand")
    return model


def test_the_reference_geometry_gives_the_reference_model(scan):
    edited = scan.g2_model(scan.FINGER_Y, scan.SPHERE["radius"], scan.SPHERE["x"],
                           scan.SPHERE["z"], 1000.0)
    assert edited == reference_model()


def test_finger_bases_move_in_y_only_and_keep_their_sides(scan):
    reference = reference_model()
    moved = scan.g2_model(0.035, 0.02, -0.01, 0.05, 700.0)
    for k in range(1, 5):
        path = f"hand/finger{k}/mount"
        x, y, z = reference.get_param_vector(path, "translation")
        assert list(moved.get_param_vector(path, "translation")) == pytest.approx(
            [x, 0.035 if y > 0 else -0.035, z], abs=1e-15)
    assert list(moved.get_param_vector("object", "position")) == [-0.01, 0.0, 0.05]
    assert moved.get_param_value("object", "radius") == 0.02
    assert moved.get_param_value("object", "density") == 700.0


def test_fits_rejects_spheres_in_the_palm_or_a_finger(scan):
    assert scan.fits(scan.FINGER_Y, 0.030, -0.005, 0.060)
    assert not scan.fits(scan.FINGER_Y, 0.030, -0.005, 0.029)  # through the palm
    assert not scan.fits(scan.FINGER_Y, 0.030, -0.030, 0.060)  # through fingers 2 and 4
    assert not scan.fits(0.0, 0.030, -0.010, 0.060)  # fingers in the mid-plane, 0.035 away


def test_measures_the_first_contacts_of_g2(scan):
    model = scan.g2_model(scan.FINGER_Y, scan.SPHERE["radius"], scan.SPHERE["x"],
                          scan.SPHERE["z"], 1000.0)
    m = scan.measure(scan.run(model, False, t_end=0.17))
    assert scan.first_contacts(m["first"]) == "F2P1+F4P1@0.1529"
    assert m["y_max"] < 1e-6
    assert m["dx"] > 0.0 and m["down"] > 0.0
