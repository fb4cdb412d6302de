// The hand builder: the grasp library files hold exactly the defines the builder makes, the
// reference gripper's hand define is the one written in models/gripper4, a zero-length link
// loses its body (Pozzi et al. 2022, "Modeling and Simulation of Robotic Grasping in Simulink
// Through Simscape Multibody", section 2.2.1), the hand-closure controller holds on its own and
// distal contacts (section 2.2.3.2), and a hand built in code runs exactly as the same hand
// written with the defines.
#include "builders/hand_builder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "blocks/block_registry.h"
#include "common/suggest.h"
#include "compiler/compile.h"
#include "model/model_error.h"
#include "physics/spatial/spatial.h"
#include "runtime/simulator.h"
#include "xml/model_reader.h"
#include "xml/model_writer.h"

namespace twinblocks::graph {
namespace {

std::string Source(const std::string& relative) {
  return std::string(TWINBLOCKS_SOURCE_DIR) + "/" + relative;
}

const Define* FindIn(const std::vector<Define>& defines, const std::string& name) {
  for (const Define& d : defines) {
    if (d.name == name) return &d;
  }
  return nullptr;
}

TEST(HandBuilderTest, GraspLibraryHoldsTheBuildersDefines) {
  const Model lib = xml::ReadModelFile(Source("models/lib/grasp.xml"));
  std::vector<std::string> names;
  for (const Define& made : GraspDefines()) {
    names.push_back(made.name);
    const Define* in_file = FindIn(lib.defines, made.name);
    ASSERT_NE(in_file, nullptr) << made.name;
    EXPECT_EQ(*in_file, made) << made.name;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"JointClosure", "Phalanx", "Palm"}));
  // The file's own defines begin with these, in this order.
  for (size_t i = 0; i < names.size(); ++i) EXPECT_EQ(lib.defines[i].name, names[i]);
  // The detector comes from the foundation's library, through an include.
  ASSERT_EQ(lib.includes.size(), 1u);
  EXPECT_EQ(lib.includes[0].file, "contact_detector.xml");
}

TEST(HandBuilderTest, ContactDetectorDefineIsTheLibrarys) {
  const Model lib = xml::ReadModelFile(Source("models/lib/contact_detector.xml"));
  ASSERT_EQ(lib.defines.size(), 1u);
  EXPECT_EQ(lib.defines[0], ContactDetectorDefine());
}

TEST(HandBuilderTest, Gripper4HandIsTheOneWrittenInModels) {
  const Model lib = xml::ReadModelFile(Source("models/gripper4/gripper4_hand.xml"));
  const Define* written = FindIn(lib.defines, "Gripper4");
  ASSERT_NE(written, nullptr);
  const Define built = HandDefine(Gripper4Spec(), "Gripper4");
  EXPECT_EQ(built.params, HandDefineParams());
  EXPECT_TRUE(*written == built);
  // Say where they differ, block by block, when they do.
  if (!(*written == built)) {
    Model a, b;
    a.defines = {*written};
    b.defines = {built};
    EXPECT_EQ(xml::WriteModelString(a), xml::WriteModelString(b));
  }
}

// ------------------------------------------------------------------------------------------
// Simulation.

// Runs a model with ode3 at a fixed step to `t_end` and returns its recording.
Recording Simulate(const Model& m, double t_end, double step) {
  const System sys = Compile(m);
  SimulationSettingsValues s = sys.settings();
  s.solver = "ode3";
  s.t_start = 0.0;
  s.t_end = t_end;
  s.step = step;
  Simulator sim(sys, s);
  const SimulationOutcome outcome = sim.Run();
  EXPECT_TRUE(outcome.ok) << outcome.error;
  return sim.recording();
}

std::vector<double> Col(const Recording& r, const std::string& name) {
  const int c = r.FindColumn(name);
  EXPECT_GE(c, 0) << "no column " << name;
  std::vector<double> v;
  for (int row = 0; c >= 0 && row < r.num_rows(); ++row) v.push_back(r.value(row, c));
  return v;
}

// The row at time t (rows fall on multiples of the step).
int RowAt(const Recording& r, double t) {
  for (int row = 0; row < r.num_rows(); ++row) {
    if (std::abs(r.time(row) - t) < 1e-9) return row;
  }
  ADD_FAILURE() << "no row at t = " << t;
  return 0;
}

// Pozzi et al. 2022 section 2.2.3.2 on synthetic contact signals: three JointClosures chained as
// the joints of one finger. Contact on phalanx 1 from 2 ms on; on phalanx 3 from 5 ms to 8 ms.
// Joint 1 holds from 2 ms (its own contact), joints 2 and 3 hold from 5 ms to 8 ms (contact on
// phalanx 3, distal to both) and close again after.
TEST(HandBuilderTest, JointClosureHoldsOnItsOwnAndMoreDistalContacts) {
  Model m;
  m.defines = GraspDefines();
  const std::string Ts = "1e-4";
  m.AddBlock("", "Step", "touch1", {{"time", "0.00205"}});
  m.AddBlock("", "Step", "touch3", {{"time", "0.00505"}});
  m.AddBlock("", "Step", "release3", {{"time", "0.00805"}});
  m.AddBlock("", "Sum", "contact3", {{"signs", "+-"}});
  m.AddBlock("", "ZeroOrderHold", "sample1", {{"Ts", Ts}});
  m.AddBlock("", "ZeroOrderHold", "sample3", {{"Ts", Ts}});
  m.AddBlock("", "Constant", "no_contact", {{"value", "0"}});
  for (const char* name : {"joint1", "joint2", "joint3"}) {
    m.AddBlock("", "JointClosure", name, {{"rate", "2"}, {"Ts", Ts}, {"q0", "0.1"}});
    m.logs.push_back({std::string(name) + ".q", name, {}});
  }
  m.Connect("", "touch1.y", "sample1.u");
  m.Connect("", "touch3.y", "contact3.u1");
  m.Connect("", "release3.y", "contact3.u2");
  m.Connect("", "contact3.y", "sample3.u");
  m.Connect("", "sample1.y", "joint1.contact");
  m.Connect("", "no_contact.y", "joint2.contact");
  m.Connect("", "sample3.y", "joint3.contact");
  m.Connect("", "joint2.hold", "joint1.distal");
  m.Connect("", "joint3.hold", "joint2.distal");
  m.Connect("", "no_contact.y", "joint3.distal");
  const Recording r = Simulate(m, 0.01, 1e-4);

  // q[k] = q[k-1] + (held at sample k ? 0 : rate Ts), q[-1] = q0: the command at t = k Ts.
  const double step = 2 * 1e-4;
  auto expected = [&](int joint, int k) {
    double q = 0.1;
    for (int i = 0; i <= k; ++i) {
      const double t = i * 1e-4;
      const bool own = (joint == 1 && t > 0.00205) || (joint == 3 && t > 0.00505 && t < 0.00805);
      const bool distal = joint != 1 ? (t > 0.00505 && t < 0.00805) : (t > 0.00505 && t < 0.00805);
      if (!(own || distal)) q += step;
    }
    return q;
  };
  const char* names[] = {"joint1", "joint2", "joint3"};
  for (int j = 1; j <= 3; ++j) {
    const std::vector<double> q = Col(r, names[j - 1]);
    for (int k = 0; k <= 100; ++k) {
      EXPECT_NEAR(q[RowAt(r, k * 1e-4)], expected(j, k), 1e-12) << names[j - 1] << " k " << k;
    }
  }
  // Joint 1 holds from its own contact on; it never resumes.
  const std::vector<double> q1 = Col(r, "joint1");
  EXPECT_NEAR(q1.back(), 0.1 + 21 * step, 1e-12);
  // Joints 2 and 3 held for 30 samples (5.1 ms ... 8.0 ms) and closed on either side.
  const std::vector<double> q3 = Col(r, "joint3");
  EXPECT_NEAR(q3[RowAt(r, 0.0080)], q3[RowAt(r, 0.0051)], 1e-12);
  EXPECT_NEAR(q3.back(), 0.1 + (101 - 30) * step, 1e-12);
}

// Standard DH forward kinematics of one finger: the origin of its last frame in the hand's
// base frame.
Eigen::Vector3d FingertipByDh(const FingerSpec& f, const std::vector<double>& q) {
  Eigen::Matrix3d R = f.base_rotation;
  Eigen::Vector3d p = f.base_position;
  for (size_t j = 0; j < f.phalanges.size(); ++j) {
    const PhalanxSpec& row = f.phalanges[j];
    const Eigen::Matrix3d Rz =
        Eigen::AngleAxisd(q[j] + row.offset, Eigen::Vector3d::UnitZ()).toRotationMatrix();
    p += R * Rz * Eigen::Vector3d(row.a, 0, row.d);
    R = R * Rz * Eigen::AngleAxisd(row.alpha, Eigen::Vector3d::UnitX()).toRotationMatrix();
  }
  return p;
}

bool HasGraspBlocks() {
  for (const char* type : {"World", "RigidTransform", "RevoluteJoint", "Solid", "TransformSensor",
                           "SpatialContactForce"}) {
    if (blocks::Catalog().Find(type) == nullptr) return false;
  }
  return true;
}

// A hand, its base on the world, and a small ball welded far above it, out of reach: the hand
// closes (or opens) freely.
Model HandOverFarBall(HandSpec spec) {
  Model m;
  m.name = "hand_kinematics";
  m.AddBlock("", "World", "world", {{"gravity", "[0, 0, 0]"}});
  m.AddBlock("", "RigidTransform", "far", {{"translation", "[0, 0, 1]"}});
  m.AddBlock("", "Solid", "ball", {{"shape", "sphere"}, {"radius", "0.01"}});
  m.Connect("", "world.W", "far.B");
  m.Connect("", "far.F", "ball.R");
  spec.object = "far.F";
  const Hand hand = AddHand(m, "", spec);
  m.logs.push_back({"hand.q", "q", {}});
  m.logs.push_back({"hand.tips", "tips", {}});
  m.logs.push_back({"hand.contacts", "contacts", {}});
  EXPECT_EQ(hand.subsystem, "hand");
  return m;
}

// Closing and opening without an object: every joint follows rate*t behind its motion filter
// (lag 2 filter_tc rate once the ramp is established), and each fingertip is where the DH
// table puts it for the joint angles the joints report.
void CheckFreeMotion(const HandSpec& spec, double q0, double rate) {
  const double t_end = 0.3;
  const Recording r = Simulate(HandOverFarBall(spec), t_end, 1e-4);
  int joint = 0;
  double worst_tip = 0.0;
  for (size_t k = 0; k < spec.fingers.size(); ++k) {
    const FingerSpec& f = spec.fingers[k];
    for (int row = 0; row < r.num_rows(); row += 50) {
      std::vector<double> q;
      for (size_t j = 0; j < f.phalanges.size(); ++j) {
        q.push_back(r.value(row, r.FindColumn("q[" + std::to_string(joint + j) + "]")));
      }
      const Eigen::Vector3d tip = FingertipByDh(f, q);
      for (int i = 0; i < 3; ++i) {
        const double measured =
            r.value(row, r.FindColumn("tips[" + std::to_string(3 * k + i) + "]"));
        worst_tip = std::max(worst_tip, std::abs(measured - tip[i]));
      }
    }
    for (size_t j = 0; j < f.phalanges.size(); ++j, ++joint) {
      const std::vector<double> q = Col(r, "q[" + std::to_string(joint) + "]");
      // The command is a staircase q0 + rate (t_k + Ts), on average the ramp q0 + rate (t + Ts/2);
      // the motion filter lags 2 tc rate behind a ramp.
      const double command = q0 + rate * (t_end + 0.5e-4);
      EXPECT_NEAR(q.back(), command - 2 * spec.filter_tc * rate, 1e-6) << "joint " << joint;
    }
  }
  EXPECT_LE(worst_tip, 1e-12);
  for (double c : Col(r, "contacts[0]")) EXPECT_EQ(c, 0.0);
}

TEST(HandBuilderTest, Gripper4ClosesAndOpensFreelyAlongItsDhTable) {
  if (!HasGraspBlocks()) GTEST_SKIP() << "multibody or contact blocks not in the catalog yet";
  HandSpec closing = Gripper4Spec();
  CheckFreeMotion(closing, 0.0, 2.0);
  HandSpec opening = Gripper4Spec();
  opening.rate = -2.0;
  for (FingerSpec& f : opening.fingers) {
    for (PhalanxSpec& p : f.phalanges) p.q0 = 0.8;
  }
  CheckFreeMotion(opening, 0.8, -2.0);
}

// A finger with two joints at one place (abduction, then flexion), as the anthropomorphic hand
// of Pozzi et al. 2022 Fig. 2: the first phalanx has no link, so its body and contact are commented
// out (section 2.2.1); the rest of the finger is as usual.
HandSpec TwoJointBaseHand() {
  HandSpec spec;
  spec.palm = {0.08, 0.06, 0.01};
  FingerSpec finger;
  finger.base_position = Eigen::Vector3d(0.02, 0, 0);
  // z0 = -x (abduction axis), x0 = +z
  finger.base_rotation << 0, 0, -1,  //
      0, 1, 0,                       //
      1, 0, 0;
  PhalanxSpec abduction;
  abduction.alpha = M_PI / 2;
  PhalanxSpec proximal, distal;
  proximal.a = 0.04;
  distal.a = 0.03;
  finger.phalanges = {abduction, proximal, distal};
  spec.fingers = {finger};
  return spec;
}

TEST(HandBuilderTest, ZeroLengthLinkLosesItsBodyAndContact) {
  Model m;
  m.AddBlock("", "World", "world");
  const Hand hand = AddHand(m, "", TwoJointBaseHand());
  EXPECT_EQ(hand.bodiless, (std::vector<std::string>{"hand/finger1/phalanx1"}));
  EXPECT_EQ(hand.contact_names, (std::vector<std::string>{"F1P1", "F1P2", "F1P3", "palm"}));
  EXPECT_EQ(hand.contact_signals[0], "hand/finger1/phalanx1.contact");
  EXPECT_EQ(hand.contact_signals[3], "hand/palm.contact");
  EXPECT_EQ(hand.joint_signals[2], "hand/finger1/phalanx3.q");
  const BlockNode* expanded = m.FindBlock("hand/finger1/phalanx1");
  ASSERT_NE(expanded, nullptr);
  EXPECT_TRUE(expanded->is_subsystem());
  EXPECT_TRUE(m.FindBlock("hand/finger1/phalanx1/solid")->commented);
  EXPECT_TRUE(m.FindBlock("hand/finger1/phalanx1/contact")->commented);
  EXPECT_FALSE(m.FindBlock("hand/finger1/phalanx1/joint")->commented);
  EXPECT_EQ(m.GetParam("hand/finger1/phalanx1/joint", "actuation"), "motion");
  EXPECT_EQ(m.FindBlock("hand/finger1/phalanx2")->type, "Phalanx");
  EXPECT_EQ(m.GetParam("hand/finger1/phalanx2", "a"), "0.04");
  EXPECT_EQ(m.GetParam("hand/finger1/phalanx1/post", "angle"), FormatNumber(M_PI / 2));
  // The defines the hand needs came along.
  for (const char* name : {"ContactDetector", "JointClosure", "Phalanx", "Palm"}) {
    EXPECT_NE(m.FindDefine(name), nullptr) << name;
  }
  // Written and read back, the model says the same.
  const std::string text = xml::WriteModelString(m);
  EXPECT_TRUE(xml::ReadModelString(text, "hand.xml") == m) << text;
}

TEST(HandBuilderTest, BodilessPhalanxStillMovesAndNeverTouches) {
  if (!HasGraspBlocks()) GTEST_SKIP() << "multibody or contact blocks not in the catalog yet";
  const HandSpec spec = TwoJointBaseHand();
  const Recording r = Simulate(HandOverFarBall(spec), 0.1, 1e-4);
  for (double c : Col(r, "contacts[0]")) EXPECT_EQ(c, 0.0);
  const std::vector<double> q1 = Col(r, "q[0]");
  EXPECT_NEAR(q1.back(), 2 * (0.1 + 0.5e-4) - 2 * spec.filter_tc * 2, 1e-6);
  // The fingertip follows the table, the zero-length abduction row included.
  const int last = r.num_rows() - 1;
  std::vector<double> q;
  for (int j = 0; j < 3; ++j)
    q.push_back(r.value(last, r.FindColumn("q[" + std::to_string(j) + "]")));
  const Eigen::Vector3d tip = FingertipByDh(spec.fingers[0], q);
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(r.value(last, r.FindColumn("tips[" + std::to_string(i) + "]")), tip[i], 1e-12);
  }
}

TEST(HandBuilderTest, RejectsWhatItCannotAddAndLeavesTheModelAlone) {
  Model m;
  m.AddBlock("", "World", "world");
  m.AddBlock("", "Constant", "hand");
  const Model before = m;
  HandSpec spec = Gripper4Spec();
  try {
    AddHand(m, "", spec);
    FAIL() << "no error";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("a block named 'hand' already exists"), std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(m == before);
  spec.name = "2hand";
  EXPECT_THROW(AddHand(m, "", spec), ModelError);
  spec.name = "gripper";
  spec.base = "world";
  EXPECT_THROW(AddHand(m, "", spec), ModelError);
  spec.base = "world.W";
  spec.object = ".object";  // the top level has no boundary ports
  EXPECT_THROW(AddHand(m, "", spec), ModelError);
  EXPECT_TRUE(m == before);
  spec.object.clear();
  spec.fingers[2].phalanges.clear();
  EXPECT_THROW(AddHand(m, "", spec), std::logic_error);
  spec.fingers.clear();
  EXPECT_THROW(AddHand(m, "", spec), std::logic_error);
  EXPECT_TRUE(m == before);
}

// The hand-written G1 model (the Gripper4 define from models/gripper4) and the same model with
// its hand built in code by AddHand (a subsystem of Phalanx blocks with the numbers inline)
// flatten to the same blocks in the same order: their runs agree to the last bit.
TEST(HandBuilderTest, HandBuiltInCodeRunsAsTheWrittenOne) {
  if (!HasGraspBlocks()) GTEST_SKIP() << "multibody or contact blocks not in the catalog yet";
  const Model written = xml::ReadModelFile(Source("models/gripper4/g1_precision.xml"));
  Model built = written;
  built.RemoveBlock("hand");
  HandSpec spec = Gripper4Spec();
  spec.object = "object.body";
  AddHand(built, "", spec);
  // Back in the hand's place (second, after the world), so that the flat order is the same.
  std::rotate(built.root.blocks.begin() + 1, built.root.blocks.end() - 1, built.root.blocks.end());
  ASSERT_EQ(built.root.blocks[1].name, "hand");
  built.Connect("", "hand.contacts", "set_times.contact");
  built.Connect("", "hand.touches", "grasp.contacts");
  EXPECT_TRUE(built.defines.empty()) << "the defines come from the model's includes";

  const double t_end = 0.25;
  const Recording a = Simulate(written, t_end, 1e-5);
  const Recording b = Simulate(built, t_end, 1e-5);
  ASSERT_EQ(a.columns(), b.columns());
  ASSERT_EQ(a.num_rows(), b.num_rows());
  int differing = 0;
  for (int row = 0; row < a.num_rows(); ++row) {
    for (int c = 0; c < a.num_columns(); ++c) differing += a.value(row, c) != b.value(row, c);
  }
  EXPECT_EQ(differing, 0);
  // The comparison means something only if the hand touched the sphere.
  double touches = 0;
  for (double c : Col(a, "F2P3")) touches += c;
  EXPECT_GT(touches, 0) << "no contact before t = " << t_end;
}

}  // namespace
}  // namespace twinblocks::graph
