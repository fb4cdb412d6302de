// Bad multibody models, and wrong drivetrain wiring: each gives one line naming the file,
// the line of the block at fault and what is wrong, and exit status 2, through the real
// `twinblocks` program.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/acceptance_helpers.h"

namespace {

struct BadModel {
  const char* file;
  int line;
  const char* block;  // "block 'NAME' (TYPE)"
  const char* says;
};

class BadModels : public ::testing::TestWithParam<BadModel> {};

TEST_P(BadModels, OneLineWithFileLineBlockAndStatus2) {
  const BadModel& c = GetParam();
  const std::string path = std::string(TWINBLOCKS_TEST_DATA) + "/bad_models/" + c.file;
  twinblocks::testing::ExpectOneLineBadInput(path, c.file, c.line, {c.block, c.says});
}

INSTANTIATE_TEST_SUITE_P(
    EveryCase, BadModels,
    ::testing::Values(
        BadModel{"unconnected_joint_port.xml", 4, "block 'hinge' (RevoluteJoint)",
                 "frame port 'F' of 'hinge' is not connected"},
        BadModel{"two_worlds.xml", 4, "block 'other_world' (World)", "a second World"},
        BadModel{"not_connected_to_world.xml", 8, "block 'base' (Solid)",
                 "is not connected to World"},
        BadModel{"zero_mass_with_inertia.xml", 5, "block 'bob' (Solid)",
                 "zero mass with non-zero inertia"},
        BadModel{"zero_axis.xml", 4, "block 'hinge' (RevoluteJoint)",
                 "parameter 'axis' must be a non-zero direction"},
        BadModel{"four_bar_too_short.xml", 14, "block 'tip' (RevoluteJoint)",
                 "the kinematic loop closed by joint 'tip' (through 'coupler_pivot', "
                 "'crank_pivot', 'rocker_pivot') cannot be assembled: its constraint residual "
                 "stays 0.236"},
        BadModel{"loop_cut_motion.xml", 5, "block 'right' (RevoluteJoint)",
                 "closes a kinematic loop and has actuation=motion"},
        BadModel{"joint_welded_shut.xml", 7, "block 'hinge' (RevoluteJoint)",
                 "joins two frames of one rigid body"},
        BadModel{"massless_link.xml", 4, "block 'hinge' (RevoluteJoint)", "no mass or inertia"},
        BadModel{"missing_torque_line.xml", 4, "block 'hinge' (RevoluteJoint)",
                 "input 'tau' is not connected"},
        BadModel{"frame_to_signal.xml", 5, "", "port kind mismatch"},
        // Issue 44, K6: inverse kinematics given crossed limits or a frame no chain reaches.
        BadModel{"ik_lower_above_upper.xml", 6, "block 'ik' (NumericalInverseKinematics)",
                 "joint limits need lower <= upper, got lower 1 and upper -1"},
        BadModel{"ik_frame_off_robot.xml", 13, "block 'ik' (NumericalInverseKinematics)",
                 "frame 'other.F' is not a frame port in robot 'arm'"},
        BadModel{"ik_frame_on_base.xml", 7, "block 'ik' (NumericalInverseKinematics)",
                 "frame 'mount.F' is fixed to the base of robot '': no joint moves it"},
        BadModel{"finger_ik_lower_above_upper.xml", 3, "block 'ik' (FingerInverseKinematics)",
                 "joint limits need lower <= upper, got lower 0.5 and upper -0.5 at joint 2"},
        // Issue 45, F6: a deformable body's material, node indices and surface.
        BadModel{"deformable_nu_out_of_range.xml", 2, "block 'foam' (DeformableBody)",
                 "parameter 'poisson_ratio' must be in (-1, 0.5), got 0.5"},
        BadModel{"deformable_negative_modulus.xml", 2, "block 'foam' (DeformableBody)",
                 "parameter 'young_modulus' must be > 0 and finite, got -1"},
        BadModel{"deformable_fixed_node_out_of_range.xml", 2, "block 'foam' (DeformableBody)",
                 "is not a node index of the mesh"},
        // Its contacts: a fingertip's radius, the tips' motion input, the table.
        BadModel{"deformable_contact_radius_negative.xml", 3, "block 'foam' (DeformableBody)",
                 "parameter 'contact_radius': entry 1 is -0.01, expected a radius > 0 (m)"},
        BadModel{"deformable_solids_width.xml", 3, "block 'foam' (DeformableBody)",
                 "input 'solids' has width 3, expected 18"},
        BadModel{"deformable_table_two_heights.xml", 2, "block 'foam' (DeformableBody)",
                 "parameter 'table' must be [] (none) or [z] (m)"},
        // A surface from a file that is not closed, and one Gmsh cannot fill (two closed
        // cubes passing through each other).
        BadModel{"deformable_mesh_open.xml", 2, "block 'foam' (DeformableBody)",
                 "the surface is not closed (3 edges are not shared by exactly two triangles"},
        BadModel{"deformable_mesh_crossing.xml", 2, "block 'foam' (DeformableBody)",
                 "two_cubes_crossing.obj': Gmsh: meshing failed"}),
    [](const auto& info) {
      std::string name = info.param.file;
      return name.substr(0, name.find('.'));
    });

// C6: a motor without a reference (case open, or on a turning shaft), a free rotor without
// inertia (an open port is free, but a massless free shaft has no defined speed), a `shaft` on
// a joint that is not actuation=port, two gears forcing contradictory ratios on one shaft.
INSTANTIATE_TEST_SUITE_P(
    C6DrivetrainWiring, BadModels,
    ::testing::Values(
        BadModel{"motor_without_reference.xml", 6, "block 'motor' (PMSM)",
                 "has no reference: its case C is not connected"},
        BadModel{"open_rotor_without_inertia.xml", 5, "block 'motor' (DCMotor)",
                 "a shaft that is neither on a joint nor fixed has no inertia"},
        BadModel{"motor_case_turning.xml", 5, "block 'motor' (DCMotor)",
                 "has no reference: its case C is on a turning shaft"},
        BadModel{"shaft_without_port_actuation.xml", 11, "block 'hinge' (RevoluteJoint)",
                 "no port 'shaft' with these parameters (RevoluteJoint has it as: rotational, "
                 "with actuation=port only"},
        BadModel{"contradictory_gears.xml", 6, "block 'g2' (SimpleGear)",
                 "forces a speed ratio that contradicts another gear path between the same "
                 "shafts (50 against 30)"}),
    [](const auto& info) {
      std::string name = info.param.file;
      return name.substr(0, name.find('.'));
    });

// D7: contact on a shape that has no surface, a negative stiffness, mu_d above mu_s, a mesh
// file that is missing or not closed, a contact frame with no Solid on it.
INSTANTIATE_TEST_SUITE_P(
    D7ContactInput, BadModels,
    ::testing::Values(
        BadModel{"contact_shape_none.xml", 4, "block 'contact' (SpatialContactForce)",
                 "the Solid 'point' at its frame F has shape 'none', which has no surface to "
                 "touch"},
        BadModel{"contact_negative_stiffness.xml", 4, "block 'contact' (SpatialContactForce)",
                 "parameter 'stiffness': must be zero or positive, got -1e+05"},
        BadModel{"contact_mu_d_above_mu_s.xml", 4, "block 'contact' (SpatialContactForce)",
                 "parameter 'mu_d': the dynamic coefficient 0.5 exceeds the static one mu_s = 0.3"},
        BadModel{"contact_mesh_missing.xml", 5, "block 'part' (Solid)", "no_such_part.stl"},
        BadModel{"contact_mesh_open.xml", 5, "block 'part' (Solid)", "is not a closed surface"},
        // An open mesh with its mass properties given is a Solid's picture, not a surface
        // contact can use.
        BadModel{"contact_mesh_open_visual.xml", 7, "block 'contact' (SpatialContactForce)",
                 "is not a closed surface, which contact needs"},
        BadModel{"contact_without_solid.xml", 7, "block 'contact' (SpatialContactForce)",
                 "no Solid at its frame F; connect F to the R port of the Solid whose surface "
                 "it touches"}),
    [](const auto& info) {
      std::string name = info.param.file;
      return name.substr(0, name.find('.'));
    });

}  // namespace
