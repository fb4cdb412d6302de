// URDF import: the real robots compile and run, the UR5 has the mass matrix of the same robot
// written by hand from its DH table, every URDF element maps as docs/urdf.md says, and every
// malformed file is one line with its file:line (and nothing leaks onto stderr).
#include "xml/urdf_reader.h"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "blocks/multibody/mechanism.h"
#include "compiler/compile.h"
#include "model/model_error.h"
#include "physics/multibody/algorithms.h"
#include "runtime/simulator.h"
#include "tests/support/acceptance_helpers.h"
#include "tests/xml/xml_test_helpers.h"
#include "xml/model_reader.h"

namespace twinblocks::xml {
namespace {

namespace mb = multibody;
using twinblocks::testing::FindMechanism;

const std::string kUrdfData = std::string(TWINBLOCKS_TEST_DATA) + "/urdf/";

#define SKIP_WITHOUT_URDF() \
  if (!UrdfSupported()) GTEST_SKIP() << "this build has no URDF support"

// M(q) of a compiled model, with q and M in the order of `joints` (element paths).
Eigen::MatrixXd MassMatrix(const graph::System& system, const std::vector<std::string>& joints,
                           const Eigen::VectorXd& q_in_order) {
  const mb::MechanismModel& m = FindMechanism(system).model();
  const mb::KinematicTree& tree = *m.tree;
  std::vector<int> index;  // joint k of `joints` -> its tree coordinate
  for (const std::string& name : joints) {
    auto it = std::find_if(m.joints.begin(), m.joints.end(),
                           [&](const mb::MechanismJoint& j) { return j.name == name; });
    EXPECT_NE(it, m.joints.end()) << name;
    EXPECT_FALSE(it->reversed) << name;
    index.push_back(it->v_index);
  }
  EXPECT_EQ(tree.nq(), static_cast<int>(joints.size()));
  Eigen::VectorXd q = Eigen::VectorXd::Zero(tree.nq());
  for (size_t k = 0; k < joints.size(); ++k) q[index[k]] = q_in_order[k];
  mb::KinematicTreeData data(tree);
  const Eigen::MatrixXd& M = mb::Crba(tree, &data, q);
  Eigen::MatrixXd out(joints.size(), joints.size());
  for (size_t r = 0; r < joints.size(); ++r) {
    for (size_t c = 0; c < joints.size(); ++c) out(r, c) = M(index[r], index[c]);
  }
  return out;
}

TEST(UrdfReaderTest, Ur5MassMatrixEqualsTheHandWrittenDhModel) {
  SKIP_WITHOUT_URDF();
  const UrdfImport ur5 = ReadUrdfFile(kUrdfData + "ur5.urdf");
  const graph::System urdf_system = graph::Compile(ur5.model);
  const graph::System dh_system = graph::Compile(
      ReadModelFile(std::string(TWINBLOCKS_SOURCE_DIR) + "/models/robots/ur5_dh.xml"));
  const std::vector<std::string> urdf_joints = {"shoulder_pan_joint", "shoulder_lift_joint",
                                                "elbow_joint",        "wrist_1_joint",
                                                "wrist_2_joint",      "wrist_3_joint"};
  const std::vector<std::string> dh_joints = {"link1/joint", "link2/joint", "link3/joint",
                                              "link4/joint", "link5/joint", "link6/joint"};
  // The URDF turns shoulder_lift and wrist_1 by 1.57079632679 (not pi/2) about their own axes:
  // its q2 and q4 are the DH angles less that rounding (see models/robots/ur5_dh.xml).
  Eigen::VectorXd offset = Eigen::VectorXd::Zero(6);
  offset[1] = offset[3] = 1.57079632679 - M_PI / 2;
  std::mt19937 rng(20240808);
  std::uniform_real_distribution<double> angle(-M_PI, M_PI);
  double worst = 0.0, worst_without_offset = 0.0, largest = 0.0;
  for (int sample = 0; sample < 5; ++sample) {
    Eigen::VectorXd q(6);
    for (int k = 0; k < 6; ++k) q[k] = angle(rng);
    const Eigen::MatrixXd M_urdf = MassMatrix(urdf_system, urdf_joints, q);
    const Eigen::MatrixXd M_dh = MassMatrix(dh_system, dh_joints, q + offset);
    const Eigen::MatrixXd M_dh_plain = MassMatrix(dh_system, dh_joints, q);
    worst = std::max(worst, (M_urdf - M_dh).cwiseAbs().maxCoeff());
    worst_without_offset =
        std::max(worst_without_offset, (M_urdf - M_dh_plain).cwiseAbs().maxCoeff());
    largest = std::max(largest, M_urdf.cwiseAbs().maxCoeff());
  }
  char figure[32];
  std::snprintf(figure, sizeof figure, "%.3g", worst);
  RecordProperty("max_abs_difference", figure);
  std::printf(
      "UR5 M(q), 5 configurations: max |M_urdf - M_dh| = %.3g (%.3g without the URDF's "
      "pi/2 rounding), max |M| = %.3g kg m^2\n",
      worst, worst_without_offset, largest);
  EXPECT_LT(worst, 1e-12);
  EXPECT_GT(largest, 1.0);  // the comparison is not between two near-zero matrices
}

TEST(UrdfReaderTest, RealRobotsCompileWithTheirJointsCouplersAndRotors) {
  SKIP_WITHOUT_URDF();
  struct Case {
    const char* file;
    int revolute, prismatic, couplers, rotors, states;
  };
  for (const Case& c : {Case{"ur5.urdf", 6, 0, 0, 0, 12}, Case{"panda.urdf", 7, 2, 1, 0, 18},
                        Case{"iiwa14_drake.urdf", 7, 0, 0, 7, 14}}) {
    SCOPED_TRACE(c.file);
    const UrdfImport imp = ReadUrdfFile(kUrdfData + c.file);
    auto count = [&](const std::string& type) {
      return static_cast<int>(imp.model.FindBlocks({.type = type}).size());
    };
    EXPECT_EQ(count("RevoluteJoint"), c.revolute);
    EXPECT_EQ(count("PrismaticJoint"), c.prismatic);
    EXPECT_EQ(count("JointCoupler"), c.couplers);
    EXPECT_EQ(count("Inertia"), c.rotors);
    const graph::System system = graph::Compile(imp.model);
    EXPECT_EQ(system.num_continuous_states(), c.states);
    // No meshes are given: every visual is left out with a warning naming it.
    ASSERT_FALSE(imp.warnings.empty());
    EXPECT_CONTAINS(imp.warnings[0], "package://");
    EXPECT_CONTAINS(imp.warnings[0], "not found");
  }
}

TEST(UrdfReaderTest, IiwaRotorInertiaIsReflectedThroughTheGearRatio) {
  SKIP_WITHOUT_URDF();
  const UrdfImport imp = ReadUrdfFile(kUrdfData + "iiwa14_drake.urdf");
  // drake:gear_ratio 160, drake:rotor_inertia 0.0001321 on joint 1.
  EXPECT_DOUBLE_EQ(imp.model.GetParamValue("iiwa_joint_1_rotor", "J"), 0.0001321 * 160 * 160);
  EXPECT_EQ(imp.model.GetParam("iiwa_joint_1", "damping"), "0.5");
  // M's diagonal holds link inertia plus n^2 Jm.
  const graph::System system = graph::Compile(imp.model);
  const mb::KinematicTree& tree = *FindMechanism(system).model().tree;
  mb::KinematicTreeData data(tree);
  const Eigen::MatrixXd& M = mb::Crba(tree, &data, Eigen::VectorXd::Zero(7));
  EXPECT_GT(M(6, 6), 0.0000454 * 160 * 160);
  EXPECT_LT(M(6, 6), 0.0000454 * 160 * 160 + 0.05);
}

// A one-link pendulum whose inertial frame is turned: M = (R I R^T)_zz + m |r_xy|^2 about z.
TEST(UrdfReaderTest, InertialOriginRotatesTheTensorAndPlacesTheCentreOfMass) {
  SKIP_WITHOUT_URDF();
  const std::string urdf = R"(<robot name="p">
  <link name="base"/>
  <link name="arm">
    <inertial>
      <origin xyz="0.3 0.4 0" rpy="0.3 -0.2 0.7"/>
      <mass value="2"/>
      <inertia ixx="0.02" ixy="0.001" ixz="0.002" iyy="0.025" iyz="0.003" izz="0.03"/>
    </inertial>
  </link>
  <joint name="hinge" type="continuous">
    <parent link="base"/><child link="arm"/>
    <origin xyz="0 0 1" rpy="0 0 0"/>
    <axis xyz="0 0 1"/>
  </joint>
</robot>)";
  const UrdfImport imp = ReadUrdfString(urdf, "p.urdf");
  EXPECT_TRUE(imp.warnings.empty());
  const graph::System system = graph::Compile(imp.model);
  const mb::KinematicTree& tree = *FindMechanism(system).model().tree;
  mb::KinematicTreeData data(tree);
  const Eigen::MatrixXd& M = mb::Crba(tree, &data, Eigen::VectorXd::Constant(1, 0.4));
  const Eigen::Matrix3d R = (Eigen::AngleAxisd(0.7, Eigen::Vector3d::UnitZ()) *
                             Eigen::AngleAxisd(-0.2, Eigen::Vector3d::UnitY()) *
                             Eigen::AngleAxisd(0.3, Eigen::Vector3d::UnitX()))
                                .toRotationMatrix();
  Eigen::Matrix3d I;
  I << 0.02, 0.001, 0.002, 0.001, 0.025, 0.003, 0.002, 0.003, 0.03;
  const double expected = (R * I * R.transpose())(2, 2) + 2.0 * (0.3 * 0.3 + 0.4 * 0.4);
  EXPECT_NEAR(M(0, 0), expected, 1e-14);
  // Continuous: no limits.
  EXPECT_FALSE(imp.model.GetParam("hinge", "lower").has_value());
}

const std::string kTwoJointMimic = R"(<robot name="m">
  <link name="base"/>
  <link name="a">
    <inertial><origin xyz="0.2 0 0"/><mass value="1"/>
      <inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.001"/></inertial>
  </link>
  <link name="b">
    <inertial><origin xyz="0.2 0 0"/><mass value="0.5"/>
      <inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.001"/></inertial>
  </link>
  <joint name="ja" type="revolute">
    <parent link="base"/><child link="a"/><axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="10" velocity="1"/>
    <dynamics damping="0.1" friction="0.2"/>
  </joint>
  <joint name="jb" type="revolute">
    <parent link="a"/><child link="b"/><origin xyz="0.4 0 0"/><axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="10" velocity="1"/>
    <mimic joint="ja" multiplier="-0.5" offset="0.1"/>
  </joint>
</robot>)";

double FinalValue(const graph::Recording& rec, const std::string& column) {
  const int c = rec.FindColumn(column);
  EXPECT_GE(c, 0) << column;
  return c < 0 ? NAN : rec.value(rec.num_rows() - 1, c);
}

TEST(UrdfReaderTest, MimicJointFollowsThroughAJointCoupler) {
  SKIP_WITHOUT_URDF();
  UrdfImportOptions o;
  o.t_end = 0.3;
  const UrdfImport imp = ReadUrdfString(kTwoJointMimic, "m.urdf", o);
  EXPECT_EQ(imp.model.GetParam("jb_mimic", "ratio"), "-0.5");
  EXPECT_EQ(imp.model.GetParam("jb", "q0"), "0.1");
  EXPECT_EQ(imp.model.GetParam("ja", "damping"), "0.1");
  // Effort, velocity and friction have no parameter: they are noted for the file's comment.
  ASSERT_EQ(imp.notes.size(), 2u);
  EXPECT_CONTAINS(imp.notes[0], "effort and velocity");
  EXPECT_CONTAINS(imp.notes[1], "friction");
  EXPECT_CONTAINS(WriteImportedModelString(imp, "m.urdf"), "Coulomb friction");
  const graph::System system = graph::Compile(imp.model);
  graph::Simulator sim(system, system.settings());
  ASSERT_TRUE(sim.Run().ok);
  const double qa = FinalValue(sim.recording(), "ja.q");
  const double qb = FinalValue(sim.recording(), "jb.q");
  EXPECT_GT(std::abs(qa), 0.05);  // it fell
  EXPECT_NEAR(qb, -0.5 * qa + 0.1, 1e-8);
}

TEST(UrdfReaderTest, TorqueActuationAddsOneInportEntryPerIndependentJoint) {
  SKIP_WITHOUT_URDF();
  UrdfImportOptions o;
  o.actuation = UrdfActuation::kTorque;
  const UrdfImport imp = ReadUrdfString(kTwoJointMimic, "m.urdf", o);
  ASSERT_EQ(imp.model.root.ports.size(), 1u);
  EXPECT_EQ(imp.model.root.ports[0].name, "tau");
  EXPECT_EQ(imp.model.root.ports[0].width, "1");  // jb follows ja
  // ja carries the coupler's shaft, so it is driven through a TorqueSource on it.
  EXPECT_EQ(imp.model.GetParam("ja", "actuation"), "port");
  EXPECT_NE(imp.model.FindBlock("ja_drive"), nullptr);
  const graph::System system = graph::Compile(imp.model);
  graph::Simulator sim(system, system.settings());
  sim.Initialize();
  const graph::InputHandle tau = sim.FindInput("tau");
  const double hold[] = {0.5 * 9.81 * (1.0 * 0.2 + 0.5 * 0.6)};  // about what holds it level
  sim.SetInput(tau, hold);
  ASSERT_TRUE(sim.Run().ok);
}

TEST(UrdfReaderTest, MotionActuationDrivesTheMimicJointThroughItsAffineMap) {
  SKIP_WITHOUT_URDF();
  UrdfImportOptions o;
  o.actuation = UrdfActuation::kMotion;
  o.t_end = 0.5;
  const UrdfImport imp = ReadUrdfString(kTwoJointMimic, "m.urdf", o);
  EXPECT_EQ(imp.model.GetParam("ja", "actuation"), "motion");
  EXPECT_EQ(imp.model.GetParam("jb", "actuation"), "motion");
  const graph::System system = graph::Compile(imp.model);
  graph::Simulator sim(system, system.settings());
  sim.Initialize();
  const double target[] = {0.7};
  sim.SetInput(sim.FindInput("q"), target);
  ASSERT_TRUE(sim.Run().ok);
  const double qa = FinalValue(sim.recording(), "ja.q");
  EXPECT_NEAR(qa, 0.7, 1e-3);  // the q filter (tc 0.01 s) has settled
  EXPECT_NEAR(FinalValue(sim.recording(), "jb.q"), -0.5 * qa + 0.1, 1e-9);
}

TEST(UrdfReaderTest, ParsesActuationWords) {
  EXPECT_EQ(ParseUrdfActuation("none"), UrdfActuation::kNone);
  EXPECT_EQ(ParseUrdfActuation("torque"), UrdfActuation::kTorque);
  EXPECT_EQ(ParseUrdfActuation("motion"), UrdfActuation::kMotion);
  EXPECT_THROW(ParseUrdfActuation("force"), std::invalid_argument);
}

std::string OneLink(const std::string& visual) {
  return R"(<robot name="v">
  <link name="base"/>
  <link name="arm">
    <inertial><origin xyz="0 0 0.1"/><mass value="1"/>
      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
)" + visual +
         R"(
  </link>
  <joint name="j" type="continuous">
    <parent link="base"/><child link="arm"/><axis xyz="1 0 0"/>
  </joint>
</robot>)";
}

std::string MeshVisual(const std::string& uri, const std::string& extra = "") {
  return "    <visual><origin xyz=\"0 0 0.05\"/><geometry><mesh filename=\"" + uri + "\"" + extra +
         "/></geometry></visual>";
}

TEST(UrdfReaderTest, PackageMeshIsFoundUnderTheMeshPathAndCarriesTheInertial) {
  SKIP_WITHOUT_URDF();
  UrdfImportOptions o;
  o.mesh_paths = {"/nonexistent", kUrdfData + "meshes"};
  const UrdfImport imp =
      ReadUrdfString(OneLink(MeshVisual("package://demo_pkg/meshes/cube.stl")), "v.urdf", o);
  EXPECT_TRUE(imp.warnings.empty()) << imp.warnings[0];
  EXPECT_EQ(imp.model.GetParam("arm", "shape"), "mesh");
  EXPECT_CONTAINS(*imp.model.GetParam("arm", "file"), "demo_pkg/meshes/cube.stl");
  // The Solid sits at the visual's origin (z 0.05): the centre of mass moves to 0.05 there.
  EXPECT_EQ(imp.model.GetParam("arm", "com"), "[0, 0, 0.05]");
  EXPECT_EQ(imp.model.GetParam("arm_visual", "translation"), "[0, 0, 0.05]");
  graph::Compile(imp.model);
}

TEST(UrdfReaderTest, OpenVisualMeshIsKeptAsThePictureOfTheLink) {
  SKIP_WITHOUT_URDF();
  UrdfImportOptions o;
  o.mesh_paths = {kUrdfData + "meshes"};
  const UrdfImport imp =
      ReadUrdfString(OneLink(MeshVisual("package://demo_pkg/meshes/open.stl")), "v.urdf", o);
  EXPECT_TRUE(imp.warnings.empty()) << imp.warnings[0];
  EXPECT_EQ(imp.model.GetParam("arm", "shape"), "mesh");
  EXPECT_CONTAINS(*imp.model.GetParam("arm", "file"), "demo_pkg/meshes/open.stl");
  // The link's inertial, not the open surface, gives the body its mass.
  const graph::System sys = graph::Compile(imp.model);
  EXPECT_GT(sys.num_blocks(), 0);
}

TEST(UrdfReaderTest, MeshScaleBecomesTheSolidsScale) {
  SKIP_WITHOUT_URDF();
  UrdfImportOptions o;
  o.mesh_paths = {kUrdfData + "meshes"};
  const UrdfImport imp = ReadUrdfString(
      OneLink(MeshVisual("package://demo_pkg/meshes/cube.stl", " scale=\"0.001 0.001 0.002\"")),
      "v.urdf", o);
  EXPECT_TRUE(imp.warnings.empty()) << imp.warnings[0];
  EXPECT_EQ(imp.model.GetParam("arm", "scale"), "[0.001, 0.001, 0.002]");
  graph::Compile(imp.model);
}

TEST(UrdfReaderTest, MeshesThatCannotBeUsedAreLeftOutWithAWarningNamingThem) {
  SKIP_WITHOUT_URDF();
  UrdfImportOptions o;
  o.mesh_paths = {kUrdfData + "meshes"};
  struct Case {
    std::string visual, says;
  };
  for (const Case& c : {
           Case{MeshVisual("package://demo_pkg/meshes/missing.dae"),
                "not found under the mesh path"},
       }) {
    const UrdfImport imp = ReadUrdfString(OneLink(c.visual), "v.urdf", o);
    ASSERT_EQ(imp.warnings.size(), 1u);
    EXPECT_CONTAINS(imp.warnings[0], "v.urdf:6: warning: link 'arm'");
    EXPECT_CONTAINS(imp.warnings[0], c.says);
    EXPECT_CONTAINS(imp.warnings[0], "package://demo_pkg/meshes/");
    EXPECT_EQ(imp.model.GetParam("arm", "shape"), "none");
    graph::Compile(imp.model);
  }
  // Without a mesh path the warning says so.
  const UrdfImport none = ReadUrdfString(OneLink(MeshVisual("package://x/y.stl")), "v.urdf");
  ASSERT_EQ(none.warnings.size(), 1u);
  EXPECT_CONTAINS(none.warnings[0], "no --mesh-path given");
}

TEST(UrdfReaderTest, PrimitiveVisualGivesTheSolidItsShapeAndSecondVisualIsLeftOut) {
  SKIP_WITHOUT_URDF();
  const UrdfImport imp = ReadUrdfString(
      OneLink("    <visual><geometry><cylinder radius=\"0.02\" length=\"0.2\"/></geometry>"
              "<material name=\"red\"><color rgba=\"1 0 0 1\"/></material></visual>\n"
              "    <visual><geometry><box size=\"0.1 0.1 0.1\"/></geometry></visual>"),
      "v.urdf");
  EXPECT_EQ(imp.model.GetParam("arm", "shape"), "cylinder");
  EXPECT_EQ(imp.model.GetParam("arm", "color"), "[1, 0, 0]");
  ASSERT_EQ(imp.warnings.size(), 1u);
  EXPECT_CONTAINS(imp.warnings[0], "v.urdf:7: warning: link 'arm': visual 2 left out");
}

// ---- Errors: one line, FILE:LINE, and nothing else on stderr ----

std::string ErrorOf(const std::string& urdf, const UrdfImportOptions& o = {}) {
  ::testing::internal::CaptureStderr();
  std::string message = "(no error)";
  try {
    ReadUrdfString(urdf, "bad.urdf", o);
  } catch (const graph::ModelError& e) {
    message = e.what();
  }
  const std::string leaked = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(leaked, "") << "liburdfdom printed to stderr";
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  return message;
}

const char* kLink = R"(<inertial><mass value="1"/>
      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>)";

std::string Robot(const std::string& body) { return "<robot name=\"r\">\n" + body + "\n</robot>"; }

TEST(UrdfReaderErrorTest, NotXml) {
  SKIP_WITHOUT_URDF();
  EXPECT_CONTAINS(ErrorOf("<robot name=\"r\">\n  <link name=\"a\">\n</robot>"),
                  "bad.urdf:3: not a URDF file: malformed XML");
  EXPECT_CONTAINS(ErrorOf("G1 X0 Y0\n"), "bad.urdf:2: not a URDF file: malformed XML");
  EXPECT_CONTAINS(ErrorOf("<model name=\"x\"/>"), "the root element is <model>, expected <robot>");
}

TEST(UrdfReaderErrorTest, MissingFile) {
  SKIP_WITHOUT_URDF();
  try {
    ReadUrdfFile(kUrdfData + "no_such_robot.urdf");
    FAIL();
  } catch (const graph::ModelError& e) {
    EXPECT_CONTAINS(e.what(), "no_such_robot.urdf: no such URDF file");
  }
}

TEST(UrdfReaderErrorTest, MissingParentLink) {
  SKIP_WITHOUT_URDF();
  const std::string m =
      ErrorOf(Robot(std::string("<link name=\"base\"/><link name=\"arm\">") + kLink + R"(</link>
<joint name="j" type="continuous">
  <parent link="bsae"/><child link="arm"/>
</joint>)"));
  EXPECT_CONTAINS(m, "bad.urdf:5: joint 'j': parent link 'bsae' is not defined");
  EXPECT_CONTAINS(m, "did you mean 'base'");
}

TEST(UrdfReaderErrorTest, Cycle) {
  SKIP_WITHOUT_URDF();
  const std::string m = ErrorOf(Robot(std::string(R"(<link name="root"/>
<link name="a">)") + kLink + R"(</link>
<link name="b">)" + kLink + R"(</link>
<joint name="ab" type="fixed"><parent link="a"/><child link="b"/></joint>
<joint name="ba" type="fixed"><parent link="b"/><child link="a"/></joint>)"));
  EXPECT_CONTAINS(m, "bad.urdf:7: the joints form a cycle through links");
  EXPECT_CONTAINS(m, "b -> a -> b");
}

TEST(UrdfReaderErrorTest, LinkWithTwoParents) {
  SKIP_WITHOUT_URDF();
  EXPECT_CONTAINS(ErrorOf(Robot(std::string(R"(<link name="root"/><link name="x"/>
<link name="a">)") + kLink + R"(</link>
<joint name="j1" type="fixed"><parent link="root"/><child link="a"/></joint>
<joint name="j2" type="fixed"><parent link="x"/><child link="a"/></joint>)")),
                  "bad.urdf:6: link 'a' is the child of two joints, 'j1' and 'j2'");
}

TEST(UrdfReaderErrorTest, NegativeMass) {
  SKIP_WITHOUT_URDF();
  EXPECT_CONTAINS(ErrorOf(Robot(R"(<link name="a">
  <inertial>
    <mass value="-2"/>
    <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/>
  </inertial>
</link>)")),
                  "bad.urdf:4: link 'a': mass must be zero or positive (kg), got -2");
  EXPECT_CONTAINS(ErrorOf(Robot(R"(<link name="a"><inertial>
    <mass value="heavy"/></inertial></link>)")),
                  "bad.urdf:3: <mass value='heavy'>: expected a number");
}

TEST(UrdfReaderErrorTest, UnreadableMesh) {
  SKIP_WITHOUT_URDF();
  UrdfImportOptions o;
  o.mesh_paths = {kUrdfData + "meshes"};
  const std::string m = ErrorOf(OneLink(MeshVisual("package://demo_pkg/meshes/garbage.stl")), o);
  EXPECT_CONTAINS(m,
                  "bad.urdf:6: link 'arm': visual mesh 'package://demo_pkg/meshes/garbage.stl' "
                  "cannot be read");
}

TEST(UrdfReaderErrorTest, PlanarIsRefusedFloatingIsAFreeJoint) {
  SKIP_WITHOUT_URDF();
  const std::string body = std::string("<link name=\"base\"/>\n<link name=\"a\">") + kLink +
                           "</link>\n<joint name=\"j\" type=\"TYPE\"><parent link=\"base\"/>"
                           "<child link=\"a\"/></joint>";
  auto with = [&](const std::string& type) {
    std::string s = body;
    s.replace(s.find("TYPE"), 4, type);
    return Robot(s);
  };
  EXPECT_CONTAINS(ErrorOf(with("planar")), "bad.urdf:5: joint 'j': type 'planar' is not supported");
  EXPECT_CONTAINS(ErrorOf(with("ball")), "bad.urdf:5: joint 'j': unknown type 'ball'");
  const UrdfImport floating = ReadUrdfString(with("floating"), "f.urdf");
  EXPECT_EQ(floating.model.FindBlock("j")->type, "FreeJoint");
  EXPECT_EQ(graph::Compile(floating.model).num_continuous_states(), 13);
}

TEST(UrdfReaderErrorTest, LiburdfdomRejectionNamesTheJointsLine) {
  SKIP_WITHOUT_URDF();
  // A revolute joint needs <limit>: liburdfdom says so (on its console), we say where.
  const std::string m =
      ErrorOf(Robot(std::string("<link name=\"base\"/>\n<link name=\"a\">") + kLink + R"(</link>
<joint name="hinge" type="revolute">
  <parent link="base"/><child link="a"/>
</joint>)"));
  EXPECT_CONTAINS(m, "bad.urdf:5: liburdfdom rejected the robot: ");
  EXPECT_CONTAINS(m, "hinge");
}

TEST(UrdfReaderErrorTest, MimicOfNoJointAndMimicCycle) {
  SKIP_WITHOUT_URDF();
  std::string robot = kTwoJointMimic;
  robot.replace(robot.find("joint=\"ja\""), 10, "joint=\"jz\"");
  EXPECT_CONTAINS(ErrorOf(robot), "bad.urdf:19: joint 'jb' mimics 'jz', which is no revolute");
  std::string cycle = kTwoJointMimic;
  cycle.replace(cycle.find("<dynamics"), 0, "<mimic joint=\"jb\"/>");
  EXPECT_CONTAINS(ErrorOf(cycle), "mimic tags form a cycle");
}

TEST(UrdfReaderErrorTest, MasslessMovingLinkAndMassWithoutInertia) {
  SKIP_WITHOUT_URDF();
  EXPECT_CONTAINS(ErrorOf(Robot(R"(<link name="base"/><link name="tip"/>
<joint name="j" type="continuous"><parent link="base"/><child link="tip"/></joint>)")),
                  "bad.urdf:3: joint 'j' moves no mass");
  EXPECT_CONTAINS(ErrorOf(Robot(R"(<link name="base"/><link name="a"><inertial>
<mass value="0"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
<link name="b">)" + std::string(kLink) +
                                R"(</link>
<joint name="j" type="fixed"><parent link="base"/><child link="a"/></joint>
<joint name="k" type="continuous"><parent link="a"/><child link="b"/></joint>)")),
                  "bad.urdf:2: link 'a': zero mass with a non-zero inertia");
}

TEST(UrdfReaderErrorTest, DuplicateNames) {
  SKIP_WITHOUT_URDF();
  EXPECT_CONTAINS(ErrorOf(Robot("<link name=\"a\"/>\n<link name=\"a\"/>")),
                  "bad.urdf:3: link 'a' is defined twice");
}

}  // namespace
}  // namespace twinblocks::xml
