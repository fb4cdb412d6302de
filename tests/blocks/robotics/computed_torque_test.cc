// Tests of ComputedTorque: the control law against an independent computation from the same
// tree (CRBA mass matrix times the commanded acceleration plus the RNEA bias at rest), gear
// ratios and rotor inertias, the friction estimate (tanh and exact sign, on and off), the
// errors for bad parameters and robots, and closed loops on the reference arm of
// models/robot6dof/arm.xml: with the arm's own model the tracking error follows
// e'' + Kd e' + Kp e = 0 exactly.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "compiler/compile.h"
#include "model/model_error.h"
#include "physics/multibody/algorithms.h"
#include "physics/multibody/robot_model.h"
#include "tests/blocks/block_test_helpers.h"
#include "tests/blocks/robotics/robot_harness.h"
#include "tests/support/acceptance_helpers.h"
#include "tests/support/test_trees.h"
#include "xml/model_reader.h"

namespace twinblocks::blocks {
namespace {

using multibody::KinematicTree;
using multibody::KinematicTreeData;
using multibody::RobotModel;
using multibody::testing::RandomVector;
using testing::CatchBlockError;
using ::testing::HasSubstr;
using testing::ParamTexts;

RobotModel MakeRobot(KinematicTree tree) {
  RobotModel robot;
  robot.tree = std::make_shared<const KinematicTree>(std::move(tree));
  robot.name = "arm";
  return robot;
}

RobotModel ComputedTorqueReferenceRobot() { return MakeRobot(multibody::testing::ReferenceArm()); }

// A ComputedTorque bound to a robot and configured as the compiler does (q nq wide, the other
// inputs nv, unless `widths` says otherwise).
class ComputedTorqueHarness : public testing::RobotHarness {
 public:
  ComputedTorqueHarness(const ParamTexts& texts, const RobotModel& robot,
                        std::vector<int> widths = {})
      : RobotHarness("ComputedTorque", texts, robot, std::move(widths)) {}

  // Inputs in port order: q, qd, q_ref, qd_ref, qdd_ref.
  Eigen::VectorXd Tau(const std::vector<Eigen::VectorXd>& inputs) {
    for (int i = 0; i < block().num_inputs(); ++i) SetInput(block().input_port(i).name, inputs[i]);
    return Output("tau");
  }
};

// The law's parameters, expanded per joint, for the independent computation.
struct Law {
  Eigen::VectorXd Kp, Kd, n, Jm, Fc, Fv;
  double friction_velocity = 0.01;
  bool friction_on = true;
};

Law DefaultLaw(int nv) {
  Law law;
  law.Kp = Eigen::VectorXd::Constant(nv, 100.0);
  law.Kd = Eigen::VectorXd::Constant(nv, 20.0);
  law.n = Eigen::VectorXd::Ones(nv);
  law.Jm = law.Fc = law.Fv = Eigen::VectorXd::Zero(nv);
  return law;
}

// tau_m = diag(1/n) [(M + diag(n^2 Jm)) a + b + f], with M from the composite-rigid-body
// algorithm and the bias b = c + g from Newton-Euler at zero acceleration.
Eigen::VectorXd ExpectedTorques(const KinematicTree& tree, const std::vector<Eigen::VectorXd>& in,
                                const Law& law) {
  const Eigen::VectorXd &q = in[0], &qd = in[1];
  KinematicTreeData data(tree);
  const Eigen::VectorXd a =
      in[4] + law.Kp.cwiseProduct(in[2] - q) + law.Kd.cwiseProduct(in[3] - qd);
  Eigen::MatrixXd M = multibody::Crba(tree, &data, q);
  M.diagonal() += law.n.cwiseAbs2().cwiseProduct(law.Jm);
  const Eigen::VectorXd bias = multibody::NonlinearEffects(tree, &data, q, qd);
  Eigen::VectorXd f = Eigen::VectorXd::Zero(tree.nv());
  if (law.friction_on) {
    for (int k = 0; k < tree.nv(); ++k) {
      const double shape = law.friction_velocity > 0.0
                               ? std::tanh(qd[k] / law.friction_velocity)
                               : (qd[k] > 0.0 ? 1.0 : (qd[k] < 0.0 ? -1.0 : 0.0));
      f[k] = law.Fc[k] * shape + law.Fv[k] * qd[k];
    }
  }
  return (M * a + bias + f).cwiseQuotient(law.n);
}

// q, qd, q_ref, qd_ref, qdd_ref: references near the measured state, as in tracking.
std::vector<Eigen::VectorXd> RandomInputs(std::mt19937& rng, int nv) {
  const Eigen::VectorXd q = RandomVector(rng, nv, 2.0);
  const Eigen::VectorXd qd = RandomVector(rng, nv, 1.5);
  return {q, qd, q + RandomVector(rng, nv, 0.05), qd + RandomVector(rng, nv, 0.2),
          RandomVector(rng, nv, 3.0)};
}

const ParamTexts kArm = {{"robot", "arm"}};

ParamTexts With(ParamTexts texts) {
  texts.emplace("robot", "arm");
  return texts;
}

TEST(ComputedTorqueTest, IsARoboticsRobotUserWithTheDocumentedPorts) {
  const BlockType& t = testing::TypeOf("ComputedTorque");
  EXPECT_EQ(t.category, "Robotics");
  std::unique_ptr<Block> b = testing::MakeBlock("ComputedTorque", kArm);
  auto* user = dynamic_cast<multibody::RobotUser*>(b.get());
  ASSERT_NE(user, nullptr);
  EXPECT_EQ(user->robot_path(), "arm");
  EXPECT_EQ(user->frame_path(), "");
  ASSERT_EQ(b->num_inputs(), 5);
  const char* names[] = {"q", "qd", "q_ref", "qd_ref", "qdd_ref"};
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(b->input_port(i).name, names[i]);
    EXPECT_EQ(b->input_port(i).feedthrough, kFeedthrough) << names[i];  // a static law
    EXPECT_EQ(t.inputs[i].name, names[i]);
  }
  ASSERT_EQ(b->num_outputs(), 1);
  EXPECT_EQ(b->output_port(0).name, "tau");
  const std::string doc = FormatBlockDoc(t);
  for (const char* word :
       {"ComputedTorque", "friction_velocity", "tanh", "n^2 Jm", "Boschetti & Sinico 2024"}) {
    EXPECT_THAT(doc, HasSubstr(word));
  }
}

TEST(ComputedTorqueTest, IsMassMatrixTimesCommandedAccelerationPlusBias) {
  const KinematicTree tree = multibody::testing::ReferenceArm();
  ComputedTorqueHarness h(kArm, ComputedTorqueReferenceRobot());
  EXPECT_EQ(h.block().output_port(0).width, 6);
  std::mt19937 rng(41);
  for (int trial = 0; trial < 10; ++trial) {
    const std::vector<Eigen::VectorXd> in = RandomInputs(rng, 6);
    const Eigen::VectorXd tau = h.Tau(in);
    EXPECT_LT((tau - ExpectedTorques(tree, in, DefaultLaw(6))).cwiseAbs().maxCoeff(), 1e-10);
  }
  // On the reference, with zero error, it is the inverse dynamics of the reference.
  std::vector<Eigen::VectorXd> in = RandomInputs(rng, 6);
  in[2] = in[0];
  in[3] = in[1];
  KinematicTreeData data(tree);
  EXPECT_LT((h.Tau(in) - multibody::Rnea(tree, &data, in[0], in[1], in[4])).norm(), 1e-10);
}

TEST(ComputedTorqueTest, PerJointGainsOnARandomBranchedTree) {
  const KinematicTree tree = multibody::testing::RandomTree(7, 5, true);
  const int nv = tree.nv();
  ComputedTorqueHarness h(
      With({{"Kp", "[50, 60, 70, 80, 90, 100, 110]"}, {"Kd", "[5, 6, 7, 8, 9, 10, 11]"}}),
      MakeRobot(multibody::testing::RandomTree(7, 5, true)));
  Law law = DefaultLaw(nv);
  law.Kp << 50, 60, 70, 80, 90, 100, 110;
  law.Kd << 5, 6, 7, 8, 9, 10, 11;
  std::mt19937 rng(42);
  for (int trial = 0; trial < 5; ++trial) {
    const std::vector<Eigen::VectorXd> in = RandomInputs(rng, nv);
    EXPECT_LT((h.Tau(in) - ExpectedTorques(tree, in, law)).cwiseAbs().maxCoeff(), 1e-10);
  }
}

TEST(ComputedTorqueTest, GearRatiosDivideAndRotorInertiasReflectAsNSquaredJm) {
  // The reference drivetrain (docs/multibody.md).
  const KinematicTree tree = multibody::testing::ReferenceArm();
  const ParamTexts geared = With({{"n", "[80, 50, 50, 30, 30, 15]"},
                                  {"Jm", "[3.3e-4, 3.3e-4, 1.5e-4, 5.0e-5, 5.0e-5, 2.0e-5]"}});
  ComputedTorqueHarness h(geared, ComputedTorqueReferenceRobot());
  ComputedTorqueHarness gears_only(With({{"n", "[80, 50, 50, 30, 30, 15]"}}),
                                   ComputedTorqueReferenceRobot());
  ComputedTorqueHarness direct(kArm, ComputedTorqueReferenceRobot());
  Law law = DefaultLaw(6);
  law.n << 80, 50, 50, 30, 30, 15;
  law.Jm << 3.3e-4, 3.3e-4, 1.5e-4, 5.0e-5, 5.0e-5, 2.0e-5;
  std::mt19937 rng(43);
  for (int trial = 0; trial < 5; ++trial) {
    const std::vector<Eigen::VectorXd> in = RandomInputs(rng, 6);
    const Eigen::VectorXd tau = h.Tau(in);
    EXPECT_LT((tau - ExpectedTorques(tree, in, law)).cwiseAbs().maxCoeff(), 1e-12);
    // Without Jm the motor torque is the joint torque over n, exactly as a gear passes it.
    const Eigen::VectorXd joint = direct.Tau(in);
    const Eigen::VectorXd motor = gears_only.Tau(in);
    for (int k = 0; k < 6; ++k) EXPECT_NEAR(motor[k] * law.n[k], joint[k], 1e-12);
    // The rotor adds n^2 Jm a on the joint side, n Jm a on the motor side.
    const Eigen::VectorXd a = in[4] + 100.0 * (in[2] - in[0]) + 20.0 * (in[3] - in[1]);
    for (int k = 0; k < 6; ++k) {
      EXPECT_NEAR(tau[k] - motor[k], law.n[k] * law.Jm[k] * a[k], 1e-12);
    }
  }
}

TEST(ComputedTorqueTest, FrictionEstimateWithTanhOrSignAndOff) {
  const KinematicTree tree = multibody::testing::ReferenceArm();
  // The reference joint friction: Coulomb 10 N m, viscous 0.001 N m s/rad.
  const ParamTexts tanh_texts = With({{"Fc", "10"}, {"Fv", "0.001"}});
  ComputedTorqueHarness smooth(tanh_texts, ComputedTorqueReferenceRobot());
  ComputedTorqueHarness exact(With({{"Fc", "10"}, {"Fv", "0.001"}, {"friction_velocity", "0"}}),
                              ComputedTorqueReferenceRobot());
  ComputedTorqueHarness off(With({{"Fc", "10"}, {"Fv", "0.001"}, {"friction_compensation", "off"}}),
                            ComputedTorqueReferenceRobot());
  ComputedTorqueHarness none(kArm, ComputedTorqueReferenceRobot());
  Law law = DefaultLaw(6);
  law.Fc.setConstant(10.0);
  law.Fv.setConstant(0.001);
  std::mt19937 rng(44);
  std::vector<Eigen::VectorXd> in = RandomInputs(rng, 6);
  // Velocities across the smoothing band, and one at rest.
  in[1] << 0.0, 0.001, -0.005, 0.01, -0.1, 1.0;
  const Eigen::VectorXd base = none.Tau(in);

  EXPECT_LT((smooth.Tau(in) - ExpectedTorques(tree, in, law)).cwiseAbs().maxCoeff(), 1e-10);
  const Eigen::VectorXd f_tanh = smooth.Tau(in) - base;
  for (int k = 0; k < 6; ++k) {
    EXPECT_NEAR(f_tanh[k], 10.0 * std::tanh(in[1][k] / 0.01) + 0.001 * in[1][k], 1e-10) << k;
  }
  EXPECT_NEAR(f_tanh[0], 0.0, 1e-12);                           // at rest: no Coulomb torque
  EXPECT_NEAR(f_tanh[3], 10.0 * std::tanh(1.0) + 1e-5, 1e-10);  // one velocity scale in
  EXPECT_NEAR(f_tanh[5], 10.0 + 0.001, 1e-10);                  // far beyond the band: the full Fc

  law.friction_velocity = 0.0;
  EXPECT_LT((exact.Tau(in) - ExpectedTorques(tree, in, law)).cwiseAbs().maxCoeff(), 1e-10);
  const Eigen::VectorXd f_sign = exact.Tau(in) - base;
  EXPECT_NEAR(f_sign[0], 0.0, 1e-12);  // sign(0) = 0
  EXPECT_NEAR(f_sign[1], 10.0 + 1e-6, 1e-10);
  EXPECT_NEAR(f_sign[2], -10.0 - 5e-6, 1e-10);
  EXPECT_GT(std::abs(f_sign[1]), std::abs(f_tanh[1]) + 8.0);  // tanh(0.1): about 1 N m only

  EXPECT_LT((off.Tau(in) - base).cwiseAbs().maxCoeff(), 1e-13);
  // Friction is a link-side torque: behind gears it is divided by n like the rest.
  ComputedTorqueHarness geared(With({{"Fc", "10"}, {"n", "50"}}), ComputedTorqueReferenceRobot());
  ComputedTorqueHarness geared_none(With({{"n", "50"}}), ComputedTorqueReferenceRobot());
  const Eigen::VectorXd f_geared = geared.Tau(in) - geared_none.Tau(in);
  for (int k = 0; k < 6; ++k) {
    EXPECT_NEAR(f_geared[k], 10.0 * std::tanh(in[1][k] / 0.01) / 50.0, 1e-12) << k;
  }
}

TEST(ComputedTorqueTest, BadParametersNameTheParameter) {
  struct Case {
    ParamTexts texts;
    const char* param;
    const char* message;
  };
  const std::vector<Case> at_construction = {
      {With({{"friction_velocity", "-0.01"}}), "friction_velocity",
       "parameter 'friction_velocity' must be >= 0 and finite"},
      {With({{"n", "[80, 0, 50]"}}), "n", "parameter 'n' must be finite and non-zero, got 0"},
      {With({{"Jm", "-1e-4"}}), "Jm", "parameter 'Jm' must be finite and >= 0"},
      {With({{"Kp", "[100, -1]"}}), "Kp", "parameter 'Kp' must be finite and >= 0"},
      {With({{"Kd", "inf"}}), "Kd", "parameter 'Kd' must be finite and >= 0"},
      {With({{"Fc", "-10"}}), "Fc", "parameter 'Fc' must be finite and >= 0"},
      {With({{"Fv", "[]"}}), "Fv", "parameter 'Fv' is empty"},
  };
  for (const Case& c : at_construction) {
    const BlockError e = CatchBlockError([&] { testing::MakeBlock("ComputedTorque", c.texts); });
    EXPECT_THAT(e.what(), HasSubstr(c.message)) << c.param;
    EXPECT_EQ(e.param(), c.param);
  }
  EXPECT_THAT(CatchBlockError([] { testing::MakeBlock("ComputedTorque", {}); }).what(),
              HasSubstr("'robot' is required"));

  // A word the catalog does not list, given past the parser: the block still refuses it.
  const BlockType& t = testing::TypeOf("ComputedTorque");
  Params p = testing::MakeParams(t, kArm);
  p.Set("friction_compensation", ParamValue::Text("maybe"));
  const BlockError word = CatchBlockError([&] { t.create(p); });
  EXPECT_THAT(word.what(),
              HasSubstr("parameter 'friction_compensation' must be 'on' or 'off', got 'maybe'"));
  EXPECT_EQ(word.param(), "friction_compensation");

  // Lengths are checked against the robot's nv once it is bound.
  const BlockError length = CatchBlockError([] {
    ComputedTorqueHarness h(With({{"n", "[80, 50, 50, 30, 30]"}}), ComputedTorqueReferenceRobot());
  });
  EXPECT_THAT(length.what(), HasSubstr("parameter 'n' has 5 entries, but robot 'arm' has nv = 6 "
                                       "joints (give one value, or one per joint)"));
  EXPECT_EQ(length.param(), "n");
  EXPECT_THAT(CatchBlockError([] {
                ComputedTorqueHarness h(With({{"Kd", "[1, 2, 3, 4, 5, 6, 7]"}}),
                                        ComputedTorqueReferenceRobot());
              }).what(),
              HasSubstr("parameter 'Kd' has 7 entries"));
}

TEST(ComputedTorqueTest, UnboundOrMisfittingRobotIsAnError) {
  std::unique_ptr<Block> b = testing::MakeBlock("ComputedTorque", kArm);
  EXPECT_THAT(CatchBlockError([&] {
                b->Configure({6, 6, 6, 6, 6});
              }).what(),
              HasSubstr("no robot bound"));
  EXPECT_THAT(CatchBlockError([] {
                ComputedTorqueHarness h(kArm, ComputedTorqueReferenceRobot(), {6, 6, 6, 5, 6});
              }).what(),
              HasSubstr("input 'qd_ref' has width 5, expected nv = 6 of robot 'arm'"));
  // A ball joint has a quaternion in q: q_ref - q would not be an error.
  std::vector<multibody::BodySpec> bodies(2);
  bodies[0].name = "shoulder";
  bodies[0].inertia = multibody::SpatialInertia(1.0, Eigen::Vector3d(0.1, 0, 0),
                                                0.01 * Eigen::Matrix3d::Identity());
  bodies[1].name = "ball";
  bodies[1].parent = 0;
  bodies[1].joint = multibody::Joint::Spherical();
  bodies[1].inertia = bodies[0].inertia;
  const RobotModel ball = MakeRobot(KinematicTree(bodies, Eigen::Vector3d(0, 0, -9.81)));
  const BlockError e = CatchBlockError([&] {
    ComputedTorqueHarness h(kArm, ball, {4, 4, 4, 4, 4});
  });
  EXPECT_THAT(e.what(), HasSubstr("joint 'ball' of robot 'arm' is spherical or free"));
}

// ---- Closed loops on the reference arm (models/robot6dof/arm.xml, torque-driven, n = 1) ----

// The arm follows Trajectory (E2's profile with E4's rises) under ComputedTorque; `extra`
// goes inside <model>, `q0` is the trajectory's start (the arm starts at q = 0).
std::string ClosedLoopModel(const std::string& q0, const std::string& extra = {}) {
  return R"xml(<model name="computed_torque_loop" format="1">
  <include file="../models/robot6dof/arm.xml"/>
  <simulation solver="ode45" t_end="3" rtol="1e-10" atol="1e-12" output_interval="0.01"/>
  <block type="World" name="world"/>
  <block type="Robot6Dof" name="arm"/>
  <connect from="world.W" to="arm.base"/>
  <block type="Trajectory" name="desired" q0=")xml" +
         q0 + R"xml(" T="2"
         qr="[deg(90), deg(90), deg(30), deg(90), deg(90), deg(90)]"/>
  <block type="ComputedTorque" name="ct" robot="arm" )xml" +
         extra + R"xml(/>
  <connect from="arm.q" to="ct.q"/>
  <connect from="arm.qd" to="ct.qd"/>
  <connect from="desired.q" to="ct.q_ref"/>
  <connect from="desired.qd" to="ct.qd_ref"/>
  <connect from="desired.qdd" to="ct.qdd_ref"/>
  <connect from="ct.tau" to="arm.tau"/>
  <block type="Sum" name="error" signs="+-"/>
  <connect from="desired.q" to="error.u1"/>
  <connect from="arm.q" to="error.u2"/>
  <log signal="error.y" as="error"/>
  <log signal="arm.q"/>
</model>)xml";
}

TEST(ComputedTorqueClosedLoopTest, ExactModelTracksTheReferenceArm) {
  const twinblocks::testing::RunOutput out =
      twinblocks::testing::RunModelText(ClosedLoopModel("0"));
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  double worst = 0.0, travel = 0.0;
  for (int j = 0; j < 6; ++j) {
    for (double e :
         twinblocks::testing::Column(out.recording, "error[" + std::to_string(j) + "]")) {
      worst = std::max(worst, std::abs(e));
    }
    for (double q :
         twinblocks::testing::Column(out.recording, "arm.q[" + std::to_string(j) + "]")) {
      travel = std::max(travel, std::abs(q));
    }
  }
  EXPECT_NEAR(travel, M_PI / 2, 1e-6);  // it did move the full 90 deg
  EXPECT_LT(worst, 1e-6);
  RecordProperty("max_tracking_error_rad", twinblocks::testing::Figure(worst));
}

TEST(ComputedTorqueClosedLoopTest, InitialErrorDecaysAsTheCriticallyDampedClosedForm) {
  // The reference starts 0.02 rad ahead of the arm, at rest: with Kp = 100, Kd = 20 every
  // joint's error obeys e'' + 20 e' + 100 e = 0, e(0) = 0.02, e'(0) = 0, whatever the
  // trajectory does: e(t) = 0.02 (1 + 10 t) exp(-10 t).
  const twinblocks::testing::RunOutput out =
      twinblocks::testing::RunModelText(ClosedLoopModel("0.02"));
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const std::vector<double> t = twinblocks::testing::Times(out.recording);
  double worst = 0.0;
  for (int j = 0; j < 6; ++j) {
    const std::vector<double> e =
        twinblocks::testing::Column(out.recording, "error[" + std::to_string(j) + "]");
    for (size_t r = 0; r < t.size(); ++r) {
      const double closed_form = 0.02 * (1.0 + 10.0 * t[r]) * std::exp(-10.0 * t[r]);
      worst = std::max(worst, std::abs(e[r] - closed_form));
    }
  }
  EXPECT_LT(worst, 1e-7);
  RecordProperty("max_difference_to_closed_form_rad", twinblocks::testing::Figure(worst));
}

TEST(ComputedTorqueClosedLoopTest, CompilerReportsBadParametersWithTheBlock) {
  auto compile_error = [](const std::string& extra) -> std::string {
    try {
      graph::Compile(xml::ReadModelString(ClosedLoopModel("0", extra),
                                          twinblocks::testing::SourcePath("tests/inline.xml")));
    } catch (const graph::ModelError& e) {
      return e.what();
    }
    return "compiled";
  };
  const std::string word = compile_error(R"(friction_compensation="maybe")");
  EXPECT_THAT(word, HasSubstr("'ct'"));
  EXPECT_THAT(word, HasSubstr("friction_compensation"));
  EXPECT_THAT(word, HasSubstr("on off"));
  const std::string length = compile_error(R"(n="[80, 50, 50]")");
  EXPECT_THAT(length, HasSubstr("'ct'"));
  EXPECT_THAT(length, HasSubstr("parameter 'n' has 3 entries, but robot 'arm' has nv = 6"));
}

}  // namespace
}  // namespace twinblocks::blocks
