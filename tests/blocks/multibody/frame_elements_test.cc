// The frame blocks as elements: what each reads from its parameters, which ports it
// declares, and what it refuses. Their behaviour in a running mechanism is tested in
// tests/blocks/multibody/mechanism_test.cc.
#include "blocks/multibody/frame_elements.h"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "blocks/multibody/mechanism_builder.h"
#include "tests/blocks/block_test_helpers.h"

namespace twinblocks::blocks {
namespace {

using multibody::JointElement;
using multibody::RigidTransformElement;
using multibody::SolidElement;
using testing::CatchBlockError;
using testing::MakeBlock;

template <class E>
const E& As(const std::unique_ptr<Block>& b) {
  return dynamic_cast<const E&>(*b);
}

TEST(WorldBlock, HasOneFramePortAndItsGravity) {
  auto b = MakeBlock("World", {{"gravity", "[0, -9.81, 0]"}});
  ASSERT_EQ(b->num_physical_ports(), 1);
  EXPECT_EQ(b->physical_port(0).name, "W");
  EXPECT_EQ(b->physical_port(0).domain, "frame");
  EXPECT_EQ(As<multibody::WorldElement>(b).gravity, Eigen::Vector3d(0, -9.81, 0));
  EXPECT_TRUE(b->is_network_element());
  EXPECT_EQ(b->num_inputs() + b->num_outputs(), 0);
}

TEST(RigidTransformBlock, EveryRotationFormGivesTheSameRotation) {
  // Rz(0.3) Ry(-0.2) Rx(0.5), written four ways.
  const Eigen::Matrix3d R = (Eigen::AngleAxisd(0.3, Eigen::Vector3d::UnitZ()) *
                             Eigen::AngleAxisd(-0.2, Eigen::Vector3d::UnitY()) *
                             Eigen::AngleAxisd(0.5, Eigen::Vector3d::UnitX()))
                                .toRotationMatrix();
  const Eigen::AngleAxisd aa(R);
  const Eigen::Quaterniond q(R);
  auto text = [](double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", x);
    return std::string(buf);
  };
  const std::vector<testing::ParamTexts> forms = {
      {{"rotation", "rpy"}, {"rpy", "[0.5, -0.2, 0.3]"}},
      {{"rotation", "axis_angle"},
       {"axis",
        "[" + text(aa.axis().x()) + "," + text(aa.axis().y()) + "," + text(aa.axis().z()) + "]"},
       {"angle", text(aa.angle())}},
      {{"rotation", "quaternion"},
       {"quaternion", "[" + text(2 * q.w()) + "," + text(2 * q.x()) + "," + text(2 * q.y()) + "," +
                          text(2 * q.z()) + "]"}},  // not unit: normalized
      {{"rotation", "matrix"},
       {"matrix", "[[" + text(R(0, 0)) + "," + text(R(0, 1)) + "," + text(R(0, 2)) + "],[" +
                      text(R(1, 0)) + "," + text(R(1, 1)) + "," + text(R(1, 2)) + "],[" +
                      text(R(2, 0)) + "," + text(R(2, 1)) + "," + text(R(2, 2)) + "]]"}}};
  for (testing::ParamTexts f : forms) {
    f["translation"] = "[1, 2, 3]";
    auto b = MakeBlock("RigidTransform", f);
    const auto& t = As<RigidTransformElement>(b);
    EXPECT_LT((t.X_BF.rotation - R).cwiseAbs().maxCoeff(), 1e-14) << f["rotation"];
    EXPECT_EQ(t.X_BF.translation, Eigen::Vector3d(1, 2, 3));
  }
}

TEST(RigidTransformBlock, RejectsAMatrixThatIsNotARotation) {
  const BlockError e = CatchBlockError([] {
    MakeBlock("RigidTransform", {{"rotation", "matrix"}, {"matrix", "[[2,0,0],[0,1,0],[0,0,1]]"}});
  });
  EXPECT_NE(std::string(e.what()).find("must be a rotation"), std::string::npos) << e.what();
}

TEST(SolidBlock, MassPropertiesFromShapeDensityOrMass) {
  // A 0.1 m sphere of water: m = 4/3 pi r^3 rho, I = 2/5 m r^2.
  auto s = MakeBlock("Solid", {{"shape", "sphere"}, {"radius", "0.1"}});
  const double m = 4.0 / 3.0 * std::numbers::pi * 1e-3 * 1000.0;
  EXPECT_NEAR(As<SolidElement>(s).inertia.mass(), m, 1e-12);
  EXPECT_NEAR(As<SolidElement>(s).inertia.inertia_com()(0, 0), 0.4 * m * 0.01, 1e-14);
  // Given a mass, the shape's inertia scales to it.
  auto b = MakeBlock("Solid", {{"shape", "box"}, {"size", "[0.3, 0.2, 0.1]"}, {"mass", "6"}});
  EXPECT_NEAR(As<SolidElement>(b).inertia.inertia_com()(2, 2), 6.0 / 12 * (0.09 + 0.04), 1e-14);
  // com and inertia override the shape's.
  auto o = MakeBlock("Solid", {{"shape", "none"},
                               {"mass", "2"},
                               {"com", "[0.1, 0, 0]"},
                               {"inertia", "[[1, 0, 0], [0, 2, 0], [0, 0, 2]]"}});
  EXPECT_EQ(As<SolidElement>(o).inertia.com(), Eigen::Vector3d(0.1, 0, 0));
  EXPECT_EQ(As<SolidElement>(o).inertia.inertia_com()(1, 1), 2.0);
}

TEST(SolidBlock, MeshFileGivesVolumeAndInertia) {
  auto s = MakeBlock("Solid", {{"shape", "mesh"}, {"file", "meshes/cube.stl"}, {"density", "1"}},
                     TWINBLOCKS_TEST_DATA);
  const auto& solid = As<SolidElement>(s);
  EXPECT_GT(solid.inertia.mass(), 0.0);
  EXPECT_NEAR(solid.inertia.inertia_com()(0, 0), solid.inertia.inertia_com()(1, 1), 1e-12);
}

// mass = 0 with a shape: a massless contact geometry (it had thrown from the scaling, with
// neither the block nor the parameter named).
TEST(SolidBlock, ZeroMassWithAShapeIsMassless) {
  auto s = MakeBlock("Solid", {{"shape", "sphere"}, {"radius", "0.1"}, {"mass", "0"}});
  EXPECT_EQ(As<SolidElement>(s).inertia.mass(), 0.0);
  EXPECT_EQ(As<SolidElement>(s).inertia.inertia_com(), Eigen::Matrix3d::Zero());
}

TEST(SolidBlock, RefusesWhatNoRigidBodyHas) {
  auto message = [](const testing::ParamTexts& p) {
    return std::string(CatchBlockError([&] { MakeBlock("Solid", p); }).what());
  };
  EXPECT_NE(message({{"shape", "none"}}).find("needs parameter 'mass'"), std::string::npos);
  EXPECT_NE(message({{"shape", "sphere"}}).find("needs parameter 'radius'"), std::string::npos);
  EXPECT_NE(message({{"shape", "none"}, {"mass", "0"}, {"inertia", "[[1,0,0],[0,1,0],[0,0,1]]"}})
                .find("zero mass with non-zero inertia"),
            std::string::npos);
  EXPECT_NE(message({{"shape", "none"}, {"mass", "1"}, {"inertia", "[[1,0,0],[0,1,0],[0,0,3]]"}})
                .find("triangle inequality"),
            std::string::npos);
  EXPECT_NE(message({{"shape", "mesh"}, {"file", "no_such.stl"}}).find("no_such.stl"),
            std::string::npos);
}

TEST(RevoluteJointBlock, PortsFollowTheActuation) {
  auto none = MakeBlock("RevoluteJoint");
  EXPECT_EQ(none->num_inputs(), 0);
  EXPECT_GE(none->FindOutput("q"), 0);
  EXPECT_GE(none->FindOutput("torque"), 0);
  EXPECT_EQ(none->output_port(none->FindOutput("wrench")).width, 6);
  // q and qd need no input; qdd, torque and wrench come from the dynamics (stage 1).
  EXPECT_EQ(none->output_port(none->FindOutput("q")).stage, 0);
  EXPECT_EQ(none->output_port(none->FindOutput("qdd")).stage, 1);
  auto torque = MakeBlock("RevoluteJoint", {{"actuation", "torque"}});
  ASSERT_EQ(torque->num_inputs(), 1);
  EXPECT_EQ(torque->input_port(0).name, "tau");
  EXPECT_EQ(torque->input_port(0).feedthrough, FeedthroughToStage(1));
  auto motion = MakeBlock("RevoluteJoint", {{"actuation", "motion"}});
  EXPECT_EQ(motion->input_port(0).name, "motion");
  auto slider = MakeBlock("PrismaticJoint", {{"actuation", "torque"}});
  EXPECT_EQ(slider->input_port(0).name, "f");
  EXPECT_GE(slider->FindOutput("force"), 0);
}

TEST(RevoluteJointBlock, RefusesAZeroAxisAndEmptyLimits) {
  EXPECT_NE(std::string(CatchBlockError([] {
                          MakeBlock("RevoluteJoint", {{"axis", "[0,0,0]"}});
                        }).what())
                .find("non-zero direction"),
            std::string::npos);
  EXPECT_NE(std::string(CatchBlockError([] {
                          MakeBlock("RevoluteJoint", {{"lower", "1"}, {"upper", "0.5"}});
                        }).what())
                .find("lower < upper"),
            std::string::npos);
  auto j = MakeBlock("RevoluteJoint", {{"axis", "[0, 3, 4]"}});
  EXPECT_NEAR(As<JointElement>(j).axis.y(), 0.6, 1e-15);
}

TEST(OtherJointBlocks, DeclareTheirCoordinates) {
  auto weld = MakeBlock("WeldJoint");
  EXPECT_EQ(weld->num_outputs(), 0);
  EXPECT_EQ(weld->num_physical_ports(), 2);
  auto ball = MakeBlock("SphericalJoint", {{"q0", "[2, 0, 0, 0]"}});
  EXPECT_EQ(As<JointElement>(ball).q0, Eigen::Vector4d(1, 0, 0, 0));
  EXPECT_EQ(ball->output_port(ball->FindOutput("quaternion")).width, 4);
  auto bushing = MakeBlock("BushingJoint", {{"stiffness", "[1, 2, 3, 4, 5, 6]"}});
  EXPECT_EQ(As<JointElement>(bushing).properties.stiffness[5], 6.0);
  EXPECT_EQ(bushing->output_port(bushing->FindOutput("q")).width, 6);
  auto free = MakeBlock("FreeJoint", {{"position0", "[1, 2, 3]"}});
  EXPECT_EQ(As<JointElement>(free).q0.head<3>(), Eigen::Vector3d(1, 2, 3));
  for (const char* port : {"position", "quaternion", "v", "w", "wrench"}) {
    EXPECT_GE(free->FindOutput(port), 0) << port;
  }
}

TEST(SensorAndForceBlocks, DeclareTheirPorts) {
  auto sensor = MakeBlock("TransformSensor");
  EXPECT_EQ(sensor->output_port(sensor->FindOutput("rotation")).width, 9);
  EXPECT_EQ(sensor->output_port(sensor->FindOutput("euler_zyx")).width, 3);
  auto force = MakeBlock("ExternalForceTorque", {{"frame", "local"}});
  EXPECT_EQ(force->num_inputs(), 2);
  EXPECT_FALSE(As<multibody::ExternalForceTorqueElement>(force).world_frame);
  auto spring = MakeBlock("InternalForce", {{"mode", "spring_damper"}, {"k", "10"}});
  EXPECT_EQ(spring->num_inputs(), 0);
  auto pushed = MakeBlock("InternalForce");
  EXPECT_EQ(pushed->input_port(0).name, "f");
}

// Each element says what it is to the mechanism builder (Contribute): a weld and a
// RigidTransform are rigid connections, a revolute joint a joint, a Solid a solid, World the
// world; a gear describes its ratio; and a block that is no network element is refused.
TEST(MechanismElements, DescribeThemselvesToTheBuilder) {
  std::vector<std::unique_ptr<Block>> blocks;
  blocks.push_back(MakeBlock("World", {}));
  blocks.push_back(MakeBlock("WeldJoint", {}));
  blocks.push_back(MakeBlock("RigidTransform", {{"translation", "[1, 0, 0]"}}));
  blocks.push_back(MakeBlock("RevoluteJoint", {}));
  blocks.push_back(MakeBlock("Solid", {{"shape", "sphere"}, {"radius", "0.1"}, {"mass", "1"}}));
  blocks.push_back(MakeBlock("SimpleGear", {{"ratio", "3"}}));
  std::vector<multibody::NetworkElement> elements;
  for (const auto& b : blocks) elements.push_back({b.get(), "e", {}});
  const multibody::MechanismBuilder network(elements);
  EXPECT_NE(network.world(0), nullptr);
  EXPECT_TRUE(network.rigid(1).has_value());
  EXPECT_TRUE(network.rigid(1)->translation.isZero());
  EXPECT_EQ(network.joint(1), nullptr);
  ASSERT_TRUE(network.rigid(2).has_value());
  EXPECT_EQ(network.rigid(2)->translation, Eigen::Vector3d(1, 0, 0));
  EXPECT_EQ(network.joint(3), blocks[3].get());
  EXPECT_FALSE(network.rigid(3).has_value());
  EXPECT_EQ(network.solid(4), blocks[4].get());
  ASSERT_EQ(network.rotational().size(), 1u);
  EXPECT_EQ(network.rotational()[0].element, 5);
  EXPECT_EQ(network.rotational()[0].part.kind, drivetrain::RotationalPart::Kind::kGear);
  EXPECT_EQ(network.rotational()[0].part.ratio, 3.0);

  auto gain = MakeBlock("Gain", {{"k", "2"}});
  const std::vector<multibody::NetworkElement> signal = {{gain.get(), "gain", {}}};
  try {
    multibody::MechanismBuilder refused(signal);
    FAIL() << "a signal block was taken as a network element";
  } catch (const multibody::NetworkError& e) {
    EXPECT_EQ(e.element(), 0);
    EXPECT_NE(std::string(e.what()).find("no element of a frame or rotational network"),
              std::string::npos);
  }
}

}  // namespace
}  // namespace twinblocks::blocks
