// DH chains: the library file holds exactly the defines DhLinkBody makes, AddDhChain adds the
// links and lines of a table and round-trips through XML, and (once the catalog has the frame
// blocks) a chain added in code, the same chain written with the defines, and the dynamics
// algorithms on the same table move alike.
#include "builders/dh_chain.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "blocks/block_registry.h"
#include "common/suggest.h"
#include "compiler/compile.h"
#include "model/model_error.h"
#include "physics/multibody/algorithms.h"
#include "physics/multibody/dh.h"
#include "runtime/simulator.h"
#include "xml/model_reader.h"
#include "xml/model_writer.h"

namespace twinblocks::graph {
namespace {

const std::string kLibrary = std::string(TWINBLOCKS_SOURCE_DIR) + "/models/lib/dh.xml";

// A spatial 2R arm with both twists pi/2 (so that gravity drives it in either convention: in a
// standard table the first row's twist tilts joint 2), offsets, off-axis centres of mass and
// full inertia tensors, so that every parameter matters.
std::vector<DhJointSpec> TwoLinkTable() {
  std::vector<DhJointSpec> joints(2);
  multibody::DhLink& l1 = joints[0].link;
  l1.alpha = M_PI / 2;
  l1.a = 0.0;
  l1.d = 0.15;
  l1.theta_offset = 0.1;
  l1.mass = 1.3;
  l1.com = Eigen::Vector3d(0.02, -0.01, 0.05);
  l1.inertia_com << 0.011, 0.001, 0.0, 0.001, 0.013, 0.002, 0.0, 0.002, 0.009;
  multibody::DhLink& l2 = joints[1].link;
  l2.alpha = M_PI / 2;
  l2.a = 0.3;
  l2.d = 0.05;
  l2.theta_offset = -0.2;
  l2.mass = 0.8;
  l2.com = Eigen::Vector3d(0.15, 0.0, 0.01);
  l2.inertia_com << 0.002, 0.0, 0.0005, 0.0, 0.007, 0.0, 0.0005, 0.0, 0.006;
  joints[0].q0 = 0.3;
  joints[1].q0 = -0.5;
  joints[1].damping = 0.05;
  return joints;
}

TEST(DhChainTest, LibraryFileHoldsExactlyTheDefines) {
  const Model lib = xml::ReadModelFile(kLibrary);
  const std::vector<Define> made = DhLinkDefines();
  // The file's last define, ModifiedDhLinkShaft (actuation="port", for drivetrains), has no
  // DhActuation here yet.
  ASSERT_EQ(lib.defines.size(), 7u);
  ASSERT_EQ(made.size(), 6u);
  for (size_t i = 0; i < made.size(); ++i) {
    EXPECT_EQ(lib.defines[i], made[i]) << made[i].name;
  }
  EXPECT_EQ(lib.defines[6].name, "ModifiedDhLinkShaft");
  std::vector<std::string> names;
  for (const Define& d : made) names.push_back(d.name);
  EXPECT_EQ(names, (std::vector<std::string>{"ModifiedDhLink", "ModifiedDhLinkMotion",
                                             "ModifiedDhLinkPassive", "StandardDhLink",
                                             "StandardDhLinkMotion", "StandardDhLinkPassive"}));
}

TEST(DhChainTest, LinkBodyHasTheFourBlocksAndTheActuationInput) {
  const Diagram torque = DhLinkBody(DhConvention::kModified, DhActuation::kTorque, {});
  std::vector<std::string> blocks;
  for (const BlockNode& b : torque.blocks) blocks.push_back(b.name + ":" + b.type);
  EXPECT_EQ(blocks, (std::vector<std::string>{"pre:RigidTransform", "joint:RevoluteJoint",
                                              "post:RigidTransform", "solid:Solid"}));
  std::vector<std::string> ports;
  for (const PortDecl& p : torque.ports) ports.push_back(p.name);
  EXPECT_EQ(ports, (std::vector<std::string>{"B", "F", "tau", "q", "qd", "qdd", "torque"}));
  EXPECT_EQ(torque.blocks[1].GetParam("actuation"), "torque");

  const Diagram motion = DhLinkBody(DhConvention::kStandard, DhActuation::kMotion, {});
  EXPECT_EQ(motion.ports[2].name, "motion");
  EXPECT_EQ(motion.blocks[1].GetParam("actuation"), "motion");
  EXPECT_NE(std::find(motion.connections.begin(), motion.connections.end(),
                      Connection{".motion", "joint.motion", {}}),
            motion.connections.end());

  const Diagram passive = DhLinkBody(DhConvention::kModified, DhActuation::kNone, {});
  EXPECT_EQ(passive.ports.size(), 6u);
  EXPECT_EQ(passive.blocks[1].GetParam("actuation"), "none");
  EXPECT_EQ(passive.connections.size(), 9u);
}

TEST(DhChainTest, ConventionsPlaceTheRotationsAroundTheJoint) {
  DhLinkTexts t;
  t.alpha = "A";
  t.a = "L";
  t.d = "D";
  t.offset = "O";
  const Diagram m = DhLinkBody(DhConvention::kModified, DhActuation::kNone, t);
  EXPECT_EQ(m.blocks[0].params, (std::vector<Parameter>{{"translation", "[L, 0, 0]"},
                                                        {"rotation", "axis_angle"},
                                                        {"axis", "[1, 0, 0]"},
                                                        {"angle", "A"}}));
  EXPECT_EQ(m.blocks[2].params, (std::vector<Parameter>{{"translation", "[0, 0, D]"},
                                                        {"rotation", "axis_angle"},
                                                        {"axis", "[0, 0, 1]"},
                                                        {"angle", "O"}}));
  const Diagram s = DhLinkBody(DhConvention::kStandard, DhActuation::kNone, t);
  EXPECT_EQ(
      s.blocks[0].params,
      (std::vector<Parameter>{{"rotation", "axis_angle"}, {"axis", "[0, 0, 1]"}, {"angle", "O"}}));
  EXPECT_EQ(s.blocks[2].params, (std::vector<Parameter>{{"translation", "[L, 0, D]"},
                                                        {"rotation", "axis_angle"},
                                                        {"axis", "[1, 0, 0]"},
                                                        {"angle", "A"}}));
}

TEST(DhChainTest, AddsOneSubsystemPerRowChainedFromTheBase) {
  Model m;
  m.AddBlock("", "World", "world");
  m.AddSubsystem("", "robot");
  m.GetDiagram("robot").ports.push_back({PortDecl::Kind::kPhysical, "base", "frame", {}});
  DhChainSpec spec;
  spec.joints = TwoLinkTable();
  spec.joints[1].actuation = DhActuation::kMotion;
  spec.prefix = "arm";
  spec.base = ".base";
  EXPECT_THROW(AddDhChain(m, "", spec), ModelError);  // the top level has no boundary ports
  spec.base = "world.W";
  const DhChain chain = AddDhChain(m, "", spec);
  EXPECT_EQ(chain.links, (std::vector<std::string>{"arm1", "arm2"}));
  EXPECT_EQ(chain.joints, (std::vector<std::string>{"arm1/joint", "arm2/joint"}));
  EXPECT_EQ(chain.inputs, (std::vector<std::string>{"arm1.tau", "arm2.motion"}));
  EXPECT_EQ(chain.tip, "arm2.F");
  EXPECT_EQ(m.root.connections,
            (std::vector<Connection>{{"world.W", "arm1.B", {}}, {"arm1.F", "arm2.B", {}}}));
  ASSERT_NE(m.FindBlock("arm2/joint"), nullptr);
  EXPECT_EQ(m.GetParam("arm1/pre", "translation"), "[0, 0, 0]");
  EXPECT_EQ(m.GetParam("arm1/post", "translation"), "[0, 0, 0.15]");
  EXPECT_EQ(m.GetParam("arm1/post", "angle"), "0.1");
  EXPECT_EQ(m.GetParam("arm2/pre", "translation"), "[0.3, 0, 0]");
  EXPECT_EQ(m.GetParam("arm2/pre", "angle"), FormatNumber(M_PI / 2));
  EXPECT_EQ(m.GetParam("arm2/solid", "com"), "[0.15, 0, 0.01]");
  EXPECT_EQ(m.GetParam("arm2/solid", "inertia"),
            "[[0.002, 0, 5e-04], [0, 0.007, 0], [5e-04, 0, 0.006]]");
  EXPECT_EQ(m.GetParam("arm2/joint", "q0"), "-0.5");
  EXPECT_EQ(m.GetParam("arm2/joint", "damping"), "0.05");
  EXPECT_EQ(m.GetParam("arm2/joint", "actuation"), "motion");

  // The numbers are written so that they read back to the same doubles.
  EXPECT_EQ(std::stod(*m.GetParam("arm2/pre", "angle")), M_PI / 2);

  // Into a subsystem, from its boundary port.
  spec.base = ".base";
  const DhChain inner = AddDhChain(m, "robot", spec);
  EXPECT_EQ(inner.joints[0], "arm1/joint");
  ASSERT_NE(m.FindBlock("robot/arm1/joint"), nullptr);
  EXPECT_EQ(m.GetDiagram("robot").connections[0], (Connection{".base", "arm1.B", {}}));
}

TEST(DhChainTest, RoundTripsThroughXml) {
  Model m;
  m.name = "arm";
  m.AddBlock("", "World", "world");
  DhChainSpec spec;
  spec.convention = DhConvention::kStandard;
  spec.joints = TwoLinkTable();
  spec.joints[0].actuation = DhActuation::kNone;
  AddDhChain(m, "", spec);
  const std::string text = xml::WriteModelString(m);
  const Model back = xml::ReadModelString(text, "arm.xml");
  EXPECT_TRUE(back == m) << text;
  EXPECT_EQ(xml::WriteModelString(back), text);
}

TEST(DhChainTest, RejectsWhatItCannotAddAndLeavesTheModelAlone) {
  Model m;
  m.AddBlock("", "World", "world");
  m.AddBlock("", "Constant", "link2");
  DhChainSpec spec;
  spec.joints = TwoLinkTable();
  const Model before = m;
  try {
    AddDhChain(m, "", spec);
    FAIL() << "no error";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("a block named 'link2' already exists"), std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(m == before);
  spec.prefix = "2link";
  EXPECT_THROW(AddDhChain(m, "", spec), ModelError);
  spec.prefix = "l";
  spec.base = "world";
  EXPECT_THROW(AddDhChain(m, "", spec), ModelError);
  EXPECT_TRUE(m == before);
  spec.joints.clear();
  EXPECT_THROW(AddDhChain(m, "", spec), std::logic_error);
}

// ------------------------------------------------------------------------------------------
// Simulation: needs World, RigidTransform, RevoluteJoint and Solid in the catalog.

bool HasFrameBlocks() {
  for (const char* type : {"World", "RigidTransform", "RevoluteJoint", "Solid"}) {
    if (blocks::Catalog().Find(type) == nullptr) return false;
  }
  return true;
}

constexpr double kStep = 1e-3;
constexpr double kEnd = 1.0;

// q1(t), q2(t) of a passive run (ode4, fixed step) of a model logging link1.q and link2.q.
std::vector<Eigen::Vector2d> JointPaths(const Model& m) {
  const System sys = Compile(m);
  SimulationSettingsValues s = sys.settings();
  s.solver = "ode4";
  s.t_start = 0.0;
  s.t_end = kEnd;
  s.step = kStep;
  Simulator sim(sys, s);
  const SimulationOutcome outcome = sim.Run();
  EXPECT_TRUE(outcome.ok) << outcome.error;
  const Recording& r = sim.recording();
  const int c1 = r.FindColumn("q1"), c2 = r.FindColumn("q2");
  EXPECT_GE(c1, 0);
  EXPECT_GE(c2, 0);
  std::vector<Eigen::Vector2d> q;
  for (int row = 0; row < r.num_rows(); ++row) q.emplace_back(r.value(row, c1), r.value(row, c2));
  return q;
}

Model ChainInCode(DhConvention convention) {
  Model m;
  m.name = "chain_in_code";
  m.AddBlock("", "World", "world");
  DhChainSpec spec;
  spec.convention = convention;
  spec.joints = TwoLinkTable();
  for (DhJointSpec& j : spec.joints) j.actuation = DhActuation::kNone;
  AddDhChain(m, "", spec);
  m.logs.push_back({"link1.q", "q1", {}});
  m.logs.push_back({"link2.q", "q2", {}});
  return m;
}

Model ChainFromDefines(DhConvention convention) {
  std::string text =
      "<model name=\"chain_from_defines\" format=\"1\">\n"
      "<include file=\"lib/dh.xml\"/>\n<block type=\"World\" name=\"world\"/>\n";
  const std::vector<DhJointSpec> table = TwoLinkTable();
  for (size_t i = 0; i < table.size(); ++i) {
    const multibody::DhLink& l = table[i].link;
    const Eigen::Matrix3d& I = l.inertia_com;
    auto f = [](double v) { return FormatNumber(v); };
    text += "<block type=\"" + DhLinkDefineName(convention, DhActuation::kNone) + "\" name=\"link" +
            std::to_string(i + 1) + "\" alpha=\"" + f(l.alpha) + "\" a=\"" + f(l.a) + "\" d=\"" +
            f(l.d) + "\" offset=\"" + f(l.theta_offset) + "\" mass=\"" + f(l.mass) + "\" com=\"[" +
            f(l.com.x()) + ", " + f(l.com.y()) + ", " + f(l.com.z()) + "]\" inertia=\"[[" +
            f(I(0, 0)) + ", " + f(I(0, 1)) + ", " + f(I(0, 2)) + "], [" + f(I(1, 0)) + ", " +
            f(I(1, 1)) + ", " + f(I(1, 2)) + "], [" + f(I(2, 0)) + ", " + f(I(2, 1)) + ", " +
            f(I(2, 2)) + "]]\" q0=\"" + f(table[i].q0) + "\" damping=\"" + f(table[i].damping) +
            "\"/>\n";
  }
  text +=
      "<connect from=\"world.W\" to=\"link1.B\"/>\n<connect from=\"link1.F\" to=\"link2.B\"/>\n"
      "<log signal=\"link1.q\" as=\"q1\"/>\n<log signal=\"link2.q\" as=\"q2\"/>\n</model>\n";
  return xml::ReadModelString(text, std::string(TWINBLOCKS_SOURCE_DIR) + "/models/dh_test.xml");
}

// The same table integrated by hand: classic RK4 on qdd = Aba(q, qd, -damping qd).
std::vector<Eigen::Vector2d> SimulateWithAba(DhConvention convention) {
  const std::vector<DhJointSpec> table = TwoLinkTable();
  std::vector<multibody::DhLink> links;
  for (const DhJointSpec& j : table) links.push_back(j.link);
  const Eigen::Vector3d g(0, 0, -9.81);
  const multibody::KinematicTree tree = convention == DhConvention::kModified
                                            ? multibody::BuildModifiedDhTree(links, g)
                                            : multibody::BuildStandardDhTree(links, g);
  multibody::KinematicTreeData data(tree);
  const Eigen::Vector2d c(table[0].damping, table[1].damping);
  auto f = [&](const Eigen::Vector4d& x) {
    const Eigen::Vector2d q = x.head<2>(), v = x.tail<2>();
    const Eigen::Vector2d tau = -c.cwiseProduct(v);
    Eigen::Vector4d dx;
    dx << v, multibody::Aba(tree, &data, q, v, tau);
    return dx;
  };
  Eigen::Vector4d x(table[0].q0, table[1].q0, 0, 0);
  std::vector<Eigen::Vector2d> q{x.head<2>()};
  const int steps = static_cast<int>(std::lround(kEnd / kStep));
  for (int k = 0; k < steps; ++k) {
    const Eigen::Vector4d k1 = f(x), k2 = f(x + 0.5 * kStep * k1), k3 = f(x + 0.5 * kStep * k2),
                          k4 = f(x + kStep * k3);
    x += kStep / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4);
    q.push_back(x.head<2>());
  }
  return q;
}

class DhChainSimulationTest : public ::testing::TestWithParam<DhConvention> {};

TEST_P(DhChainSimulationTest, CodeDefinesAndAbaAgree) {
  if (!HasFrameBlocks()) {
    GTEST_SKIP() << "World, RigidTransform, RevoluteJoint or Solid not in the catalog yet";
  }
  const std::vector<Eigen::Vector2d> code = JointPaths(ChainInCode(GetParam()));
  const std::vector<Eigen::Vector2d> defines = JointPaths(ChainFromDefines(GetParam()));
  const std::vector<Eigen::Vector2d> aba = SimulateWithAba(GetParam());
  ASSERT_EQ(code.size(), defines.size());
  ASSERT_EQ(code.size(), aba.size());
  double moved = 0.0, worst_defines = 0.0, worst_aba = 0.0;
  for (size_t i = 0; i < code.size(); ++i) {
    moved = std::max(moved, (code[i] - code[0]).cwiseAbs().maxCoeff());
    worst_defines = std::max(worst_defines, (code[i] - defines[i]).cwiseAbs().maxCoeff());
    worst_aba = std::max(worst_aba, (code[i] - aba[i]).cwiseAbs().maxCoeff());
  }
  EXPECT_GT(moved, 0.1) << "the arm must swing for the comparison to mean something";
  EXPECT_LE(worst_defines, 1e-12);
  // Same method and step, dynamics by different code paths: round-off only (measured
  // 1.2e-14 modified, 5.3e-15 standard).
  EXPECT_LE(worst_aba, 1e-12);
  RecordProperty("max_diff_defines", FormatNumber(worst_defines));
  RecordProperty("max_diff_aba", FormatNumber(worst_aba));
  RecordProperty("max_swing", FormatNumber(moved));
}

INSTANTIATE_TEST_SUITE_P(Conventions, DhChainSimulationTest,
                         ::testing::Values(DhConvention::kModified, DhConvention::kStandard),
                         [](const auto& info) {
                           return info.param == DhConvention::kModified ? "Modified" : "Standard";
                         });

}  // namespace
}  // namespace twinblocks::graph
