#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "blocks/multibody/algorithms.h"
#include "blocks/multibody/dh.h"
#include "blocks/multibody/spatial.h"
#include "tests/blocks/block_test_helpers.h"

namespace twinblocks::blocks {
namespace {

using multibody::Pose;
using testing::BlockHarness;
using testing::CatchBlockError;
using ::testing::HasSubstr;
using testing::MakeBlock;

constexpr double kDeg = M_PI / 180.0;

// A 6R arm: DH rows [alpha, a, d, theta_offset] and a tool point in frame 6.
struct Arm {
  std::vector<std::array<double, 4>> dh;
  bool standard = false;
  Eigen::Vector3d tool = Eigen::Vector3d::Zero();
};

// The reference arm of shared/reference/robot6dof.md (modified DH, seed 003 Table 1).
Arm ReferenceArm() {
  return {{{0, 0, 0.500, 0},
           {-90 * kDeg, 0.150, 0, 0},
           {0, 0.400, 0, 0},
           {-90 * kDeg, 0.100, 0.540, 0},
           {90 * kDeg, 0, 0, 0},
           {-90 * kDeg, 0, 0.100, 0}},
          false};
}

// PUMA 560, standard DH (Corke's puma560 table).
Arm Puma560() {
  return {{{90 * kDeg, 0, 0, 0},
           {0, 0.4318, 0, 0},
           {-90 * kDeg, 0.0203, 0.15005, 0},
           {90 * kDeg, 0, 0.4318, 0},
           {-90 * kDeg, 0, 0, 0},
           {0, 0, 0, 0}},
          true};
}

// A standard-DH arm with every freedom the solver claims: joint offsets, a shoulder offset
// d_2, axes 2 and 3 antiparallel, a flange a_6 and alpha_6, non-right wrist twists.
Arm StandardArmWithOffsets() {
  return {{{-90 * kDeg, 0.12, 0.45, 0.3},
           {180 * kDeg, 0.50, 0.08, -0.7},
           {90 * kDeg, 0.05, -0.03, 1.1},
           {-60 * kDeg, 0, 0.42, 0.2},
           {75 * kDeg, 0, 0, -0.4},
           {30 * kDeg, 0.02, 0.09, 0.5}},
          true,
          Eigen::Vector3d(0.03, -0.02, 0.11)};
}

// Frame `upto` of the chain (6: the tool frame, with the tool point as origin).
Pose Fk(const Arm& arm, const Eigen::VectorXd& q, int upto = 6) {
  Pose X;
  for (int i = 0; i < upto; ++i) {
    const auto& r = arm.dh[i];
    X = X * (arm.standard ? multibody::StandardDhTransform(r[0], r[1], q[i] + r[3], r[2])
                          : multibody::ModifiedDhTransform(r[0], r[1], q[i] + r[3], r[2]));
  }
  if (upto == 6) X = X * Pose::Translation(arm.tool);
  return X;
}

// The branch [shoulder, elbow, wrist] that q lies on, by the definitions in the block's doc.
// Wrist centre: origin of frame 4 in both conventions (a_4 = d_5 = 0).
std::array<int, 3> BranchOf(const Arm& arm, const Eigen::VectorXd& q) {
  const Eigen::Vector3d p_w = Fk(arm, q, 4).translation;
  // The modified table's alpha_3, a_3 are standard row 3's, modified row 4's.
  const auto& r3 = arm.dh[arm.standard ? 2 : 3];
  const double th1 = q[0] + arm.dh[0][3];
  // Frame 1's x is the base's x turned by theta_1 (alpha_0 = a_0 = 0 in these arms).
  const double x1 = std::cos(th1) * p_w.x() + std::sin(th1) * p_w.y();
  const double psi = std::atan2(-std::sin(r3[0]) * arm.dh[3][2], r3[1]);
  const double s_elbow = std::sin(q[2] + arm.dh[2][3] + psi);
  const double s_wrist = std::sin(q[4] + arm.dh[4][3]);
  return {x1 >= 0 ? 1 : -1, s_elbow >= 0 ? 1 : -1, s_wrist >= 0 ? 1 : -1};
}

std::string Text(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

testing::ParamTexts IkParams(const Arm& arm, std::array<int, 3> branch) {
  std::string dh = "[";
  for (int i = 0; i < 6; ++i) {
    dh += i ? ", [" : "[";
    for (int j = 0; j < 4; ++j) dh += (j ? ", " : "") + Text(arm.dh[i][j]);
    dh += "]";
  }
  dh += "]";
  return {{"dh", dh},
          {"convention", arm.standard ? "standard" : "modified"},
          {"tool",
           "[" + Text(arm.tool.x()) + ", " + Text(arm.tool.y()) + ", " + Text(arm.tool.z()) + "]"},
          {"branch", "[" + std::to_string(branch[0]) + ", " + std::to_string(branch[1]) + ", " +
                         std::to_string(branch[2]) + "]"}};
}

void SetPose(BlockHarness& h, const Pose& X) {
  h.SetInput("position", {X.translation.x(), X.translation.y(), X.translation.z()});
  std::vector<double> R(9);
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) R[3 * r + c] = X.rotation(r, c);
  }
  h.SetInput("rotation", R);
}

double PoseError(const Pose& A, const Pose& B) {
  return std::max((A.translation - B.translation).norm(), (A.rotation - B.rotation).norm());
}

struct RoundTrip {
  double pose_error = 0.0;  // max over every branch and sample
  double q_error = 0.0;     // max over the branch that holds the original q
  int solved = 0;           // samples solved on their own branch
  int reached = 0;          // (sample, branch) pairs solved
};

// FK -> IK on every branch -> FK, for seeded random joint vectors in (-pi, pi).
RoundTrip RunRoundTrip(const Arm& arm, unsigned seed, int samples) {
  std::vector<std::unique_ptr<BlockHarness>> blocks;
  std::vector<std::array<int, 3>> branches;
  for (int b = 0; b < 8; ++b) {
    const std::array<int, 3> br = {b & 1 ? -1 : 1, b & 2 ? -1 : 1, b & 4 ? -1 : 1};
    branches.push_back(br);
    blocks.push_back(std::make_unique<BlockHarness>("InverseKinematics", IkParams(arm, br),
                                                    std::vector<int>{3, 9}));
    blocks.back()->Initialize();
  }
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-M_PI + 1e-3, M_PI - 1e-3);
  RoundTrip result;
  for (int s = 0; s < samples; ++s) {
    Eigen::VectorXd q(6);
    for (int i = 0; i < 6; ++i) q[i] = u(rng);
    const Pose target = Fk(arm, q);
    const std::array<int, 3> own = BranchOf(arm, q);
    for (int b = 0; b < 8; ++b) {
      BlockHarness& h = *blocks[b];
      SetPose(h, target);
      h.MinorOutputs(0.0);  // each sample starts from q_init = 0: no continuity carried over
      // An arm with a shoulder offset cannot reach every pose on every branch (the
      // flipped shoulder adds twice the offset to the reach), but the branch of q must.
      if (h.Output("reachable")[0] != 1.0) {
        EXPECT_NE(branches[b], own) << "sample " << s << " branch " << b;
        continue;
      }
      ++result.reached;
      const std::vector<double> out = h.Output("q");
      const Eigen::VectorXd q_ik = Eigen::Map<const Eigen::VectorXd>(out.data(), 6);
      result.pose_error = std::max(result.pose_error, PoseError(Fk(arm, q_ik), target));
      if (branches[b] == own) {
        result.q_error = std::max(result.q_error, (q_ik - q).cwiseAbs().maxCoeff());
        ++result.solved;
      }
    }
  }
  return result;
}

TEST(InverseKinematicsTest, FkMatchesTheKinematicTree) {
  // The test's DH chain against the multibody core's, so that the round trips below test
  // the block against the same kinematics the simulator uses.
  const Arm arm = ReferenceArm();
  std::vector<multibody::DhLink> links(6);
  for (int i = 0; i < 6; ++i) {
    links[i].alpha = arm.dh[i][0];
    links[i].a = arm.dh[i][1];
    links[i].d = arm.dh[i][2];
    links[i].mass = 1.0;
    links[i].inertia_com = 0.01 * Eigen::Matrix3d::Identity();
  }
  const multibody::KinematicTree tree =
      multibody::BuildModifiedDhTree(links, Eigen::Vector3d(0, 0, -9.81));
  multibody::KinematicTreeData data(tree);
  const Eigen::VectorXd q = (Eigen::VectorXd(6) << 0.3, -1.2, 0.7, 2.0, -0.4, 1.1).finished();
  multibody::ForwardKinematics(tree, &data, q);
  EXPECT_LT(PoseError(data.X_WB[5], Fk(arm, q)), 1e-14);
}

TEST(InverseKinematicsTest, ReferenceArmRoundTripsOnEveryBranch) {
  const RoundTrip r = RunRoundTrip(ReferenceArm(), 3, 200);
  std::printf(
      "reference arm: FK(IK) pose error %.2e, own-branch q error %.2e, %d of 1600 "
      "(sample, branch) pairs reachable\n",
      r.pose_error, r.q_error, r.reached);
  EXPECT_LT(r.pose_error, 1e-10);
  EXPECT_LT(r.q_error, 1e-9);
  EXPECT_EQ(r.solved, 200);
}

TEST(InverseKinematicsTest, Puma560StandardRoundTripsOnEveryBranch) {
  const RoundTrip r = RunRoundTrip(Puma560(), 4, 200);
  std::printf(
      "PUMA 560: FK(IK) pose error %.2e, own-branch q error %.2e, %d of 1600 "
      "(sample, branch) pairs reachable\n",
      r.pose_error, r.q_error, r.reached);
  EXPECT_LT(r.pose_error, 1e-10);
  EXPECT_LT(r.q_error, 1e-9);
  EXPECT_EQ(r.solved, 200);
}

TEST(InverseKinematicsTest, GeneralStandardArmWithToolRoundTrips) {
  const RoundTrip r = RunRoundTrip(StandardArmWithOffsets(), 5, 200);
  std::printf(
      "offset arm: FK(IK) pose error %.2e, own-branch q error %.2e, %d of 1600 "
      "(sample, branch) pairs reachable\n",
      r.pose_error, r.q_error, r.reached);
  EXPECT_LT(r.pose_error, 1e-10);
  EXPECT_LT(r.q_error, 1e-9);
  EXPECT_EQ(r.solved, 200);
}

TEST(InverseKinematicsTest, ModifiedArmWithToolRoundTrips) {
  Arm arm = ReferenceArm();
  arm.tool = Eigen::Vector3d(0.02, 0.01, 0.15);
  arm.dh[1][3] = -M_PI / 2;  // the usual offset that makes q = 0 point the upper arm up
  const RoundTrip r = RunRoundTrip(arm, 6, 100);
  EXPECT_LT(r.pose_error, 1e-10);
  EXPECT_LT(r.q_error, 1e-9);
}

TEST(InverseKinematicsTest, OutOfReachHoldsTheLastOutput) {
  const Arm arm = ReferenceArm();
  BlockHarness h("InverseKinematics", IkParams(arm, {1, 1, 1}), {3, 9});
  h.Initialize();
  const Eigen::VectorXd q = (Eigen::VectorXd(6) << 0.2, -0.3, 0.4, 0.5, 0.6, 0.7).finished();
  SetPose(h, Fk(arm, q));
  h.MajorStep(0.0);
  ASSERT_EQ(h.Output("reachable")[0], 1.0);
  const std::vector<double> held = h.Output("q");
  Pose far = Fk(arm, q);
  far.translation = Eigen::Vector3d(3.0, 0.5, 1.0);  // beyond 0.15 + 0.4 + 0.55 + 0.1 m
  SetPose(h, far);
  h.MajorStep(0.1);
  EXPECT_EQ(h.Output("reachable")[0], 0.0);
  EXPECT_EQ(h.Output("q"), held);
}

TEST(InverseKinematicsTest, AnglesStayContinuousThroughPi) {
  const Arm arm = ReferenceArm();
  BlockHarness h("InverseKinematics", IkParams(arm, {1, 1, 1}), {3, 9});
  h.Initialize();
  // Joints 1 and 6 turn through several half turns; the outputs must follow, not wrap.
  for (int k = 0; k <= 100; ++k) {
    const double s = 0.1 * k;
    const Eigen::VectorXd q = (Eigen::VectorXd(6) << s, -0.3, 0.4, 0.5, 0.6, -s).finished();
    SetPose(h, Fk(arm, q));
    h.MajorStep(s);
    ASSERT_EQ(h.Output("reachable")[0], 1.0);
    EXPECT_NEAR(h.Output("q")[0], s, 1e-9);
    EXPECT_NEAR(h.Output("q")[5], -s, 1e-9);
  }
}

TEST(InverseKinematicsTest, SingularWristKeepsJointFour) {
  const Arm arm = ReferenceArm();
  testing::ParamTexts p = IkParams(arm, {1, 1, 1});
  p["q_init"] = "[0, 0, 0, 0.8, 0, 0]";
  BlockHarness h("InverseKinematics", p, {3, 9});
  h.Initialize();
  const Eigen::VectorXd q = (Eigen::VectorXd(6) << 0.2, -0.3, 0.4, 0.5, 0.0, 0.7).finished();
  SetPose(h, Fk(arm, q));
  h.MajorStep(0.0);
  ASSERT_EQ(h.Output("reachable")[0], 1.0);
  const std::vector<double> out = h.Output("q");
  EXPECT_NEAR(out[3], 0.8, 1e-12);
  EXPECT_NEAR(out[3] + out[5], 0.5 + 0.7, 1e-9);  // only the sum is defined
  EXPECT_LT(PoseError(Fk(arm, Eigen::Map<const Eigen::VectorXd>(out.data(), 6)), Fk(arm, q)),
            1e-10);
}

TEST(InverseKinematicsTest, RejectsArmsItCannotSolve) {
  testing::ParamTexts p = IkParams(ReferenceArm(), {1, 1, 1});
  // Move axis 6 off the wrist centre: a_5 = 0.05 (row 6, column a).
  Arm bent = ReferenceArm();
  bent.dh[5][1] = 0.05;
  EXPECT_THAT(CatchBlockError([&] {
                MakeBlock("InverseKinematics", IkParams(bent, {1, 1, 1}));
              }).what(),
              HasSubstr("the wrist is not spherical, dh row 6 a is 0.05, must be 0"));
  Arm scara = ReferenceArm();
  scara.dh[1][0] = 0.0;
  EXPECT_THAT(CatchBlockError([&] {
                MakeBlock("InverseKinematics", IkParams(scara, {1, 1, 1}));
              }).what(),
              HasSubstr("dh row 2 alpha is 0, must be +-pi/2"));
  p["dh"] = "[[0, 0, 0.5, 0], [1, 2, 3, 4]]";
  EXPECT_THAT(CatchBlockError([&] { MakeBlock("InverseKinematics", p); }).what(),
              HasSubstr("must be a 6 x 4 matrix"));
  p = IkParams(ReferenceArm(), {1, 1, 1});
  p["branch"] = "[1, 0, 1]";
  EXPECT_THAT(CatchBlockError([&] { MakeBlock("InverseKinematics", p); }).what(),
              HasSubstr("+1 or -1 for the elbow"));
}

}  // namespace
}  // namespace twinblocks::blocks
