#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "physics/multibody/algorithms.h"
#include "physics/multibody/dh.h"
#include "physics/spatial/spatial.h"
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

// The reference arm of docs/multibody.md (modified DH, Boschetti & Sinico 2024, "Designing Digital
// Twins of Robots Using Simscape Multibody", Table 1).
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

// ---- Joint rates (derivatives = on) ----

// Homogeneous 4 x 4 matrix of a pose.
Eigen::Matrix4d Homogeneous(const Pose& X) {
  Eigen::Matrix4d H = Eigen::Matrix4d::Identity();
  H.topLeftCorner<3, 3>() = X.rotation;
  H.topRightCorner<3, 1>() = X.translation;
  return H;
}

// The tool's pose and its first two time derivatives, in the base frame.
struct ToolMotion {
  Pose X;
  Eigen::Vector3d w, v;      // angular velocity of the tool frame, velocity of the tool point
  Eigen::Vector3d alpha, a;  // their derivatives
};

Eigen::Vector3d Vee(const Eigen::Matrix3d& W) { return {W(2, 1), W(0, 2), W(1, 0)}; }

// ToolMotion of the arm moving with (q, qd, qdd), by differentiating the product of the DH
// transforms T = F_1(theta_1) ... F_6(theta_6) F_tool analytically, independently of the
// Jacobian and of the kinematic tree the block uses: each factor is L Rz(theta) M with fixed
// L, M, so dF/dtheta = L G L^-1 F and d2F/dtheta2 = L G G L^-1 F with G = d Rz/dtheta at 0.
// Then Tdot = sum_i qd_i T[i: F'], Tddot = sum_i (qdd_i T[i: F'] + qd_i^2 T[i: F'']) +
// sum_{i != j} qd_i qd_j T[i: F', j: F'], and w = vee(Rdot R^T), alpha = vee(Rddot R^T +
// Rdot Rdot^T), v = pdot, a = pddot.
ToolMotion ToolMotionOf(const Arm& arm, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                        const Eigen::VectorXd& qdd) {
  Eigen::Matrix4d G = Eigen::Matrix4d::Zero();
  G(0, 1) = -1.0;
  G(1, 0) = 1.0;
  std::array<Eigen::Matrix4d, 7> F, D1, D2;
  for (int i = 0; i < 6; ++i) {
    const auto& r = arm.dh[i];
    const double theta = q[i] + r[3];
    Eigen::Matrix4d L = Eigen::Matrix4d::Identity();
    if (arm.standard) {
      F[i] = Homogeneous(multibody::StandardDhTransform(r[0], r[1], theta, r[2]));
    } else {
      F[i] = Homogeneous(multibody::ModifiedDhTransform(r[0], r[1], theta, r[2]));
      L = Homogeneous(multibody::ModifiedDhTransform(r[0], r[1], 0.0, 0.0));
    }
    const Eigen::Matrix4d LGLinv = L * G * L.inverse();
    D1[i] = LGLinv * F[i];
    D2[i] = LGLinv * D1[i];
  }
  F[6] = Homogeneous(Pose::Translation(arm.tool));
  // The product with factor i replaced by Di[i] and factor j by Dj[j] (-1: none).
  auto product = [&](int i, const std::array<Eigen::Matrix4d, 7>& Di, int j,
                     const std::array<Eigen::Matrix4d, 7>& Dj) {
    Eigen::Matrix4d T = Eigen::Matrix4d::Identity();
    for (int k = 0; k < 7; ++k) T = T * (k == i ? Di[k] : k == j ? Dj[k] : F[k]);
    return T;
  };
  const Eigen::Matrix4d T = product(-1, F, -1, F);
  Eigen::Matrix4d Td = Eigen::Matrix4d::Zero(), Tdd = Eigen::Matrix4d::Zero();
  for (int i = 0; i < 6; ++i) {
    const Eigen::Matrix4d Ti = product(i, D1, -1, F);
    Td += qd[i] * Ti;
    Tdd += qdd[i] * Ti + qd[i] * qd[i] * product(i, D2, -1, F);
    for (int j = 0; j < 6; ++j) {
      if (j != i) Tdd += qd[i] * qd[j] * product(i, D1, j, D1);
    }
  }
  const Eigen::Matrix3d R = T.topLeftCorner<3, 3>();
  const Eigen::Matrix3d Rd = Td.topLeftCorner<3, 3>();
  const Eigen::Matrix3d Rdd = Tdd.topLeftCorner<3, 3>();
  ToolMotion m;
  m.X = Pose(R, T.topRightCorner<3, 1>());
  m.w = Vee(Rd * R.transpose());
  m.alpha = Vee(Rdd * R.transpose() + Rd * Rd.transpose());
  m.v = Td.topRightCorner<3, 1>();
  m.a = Tdd.topRightCorner<3, 1>();
  return m;
}

// q_i(t) = c_i + amp_i sin(omega_i t + phase_i).
struct JointPath {
  std::array<double, 6> c{}, amp{}, omega{}, phase{};
  Eigen::VectorXd Q(double t, int order) const {
    Eigen::VectorXd q(6);
    for (int i = 0; i < 6; ++i) {
      const double s = std::sin(omega[i] * t + phase[i]);
      const double co = std::cos(omega[i] * t + phase[i]);
      const double w = omega[i];
      q[i] = order == 0 ? c[i] + amp[i] * s : order == 1 ? amp[i] * w * co : -amp[i] * w * w * s;
    }
    return q;
  }
};

constexpr double kPathTime = 4.0;  // s
constexpr int kPathSamples = 400;  // intervals of 10 ms

// Sines of the three singularities, by the branch definitions of the block's doc: the
// wrist centre's x in frame 1 (m; 0 on axis 1 with the shoulder offset), the elbow's and
// the wrist's sine. The trajectories keep each away from 0 so that q is well defined.
std::array<double, 3> SingularityMeasures(const Arm& arm, const Eigen::VectorXd& q) {
  const Eigen::Vector3d p_w = Fk(arm, q, 4).translation;
  const auto& r3 = arm.dh[arm.standard ? 2 : 3];
  const double th1 = q[0] + arm.dh[0][3];
  const double x1 = std::cos(th1) * p_w.x() + std::sin(th1) * p_w.y();
  const double psi = std::atan2(-std::sin(r3[0]) * arm.dh[3][2], r3[1]);
  return {x1, std::sin(q[2] + arm.dh[2][3] + psi), std::sin(q[4] + arm.dh[4][3])};
}

// A seeded random path that stays on one branch and away from the singularities.
JointPath RandomPath(const Arm& arm, std::mt19937& rng) {
  std::uniform_real_distribution<double> centre(-M_PI + 0.7, M_PI - 0.7);
  std::uniform_real_distribution<double> amp(0.15, 0.6);
  std::uniform_real_distribution<double> omega(0.5, 3.0);
  std::uniform_real_distribution<double> phase(0.0, 2.0 * M_PI);
  for (;;) {
    JointPath path;
    for (int i = 0; i < 6; ++i) {
      path.c[i] = centre(rng);
      path.amp[i] = amp(rng);
      path.omega[i] = omega(rng);
      path.phase[i] = phase(rng);
    }
    bool ok = true;
    for (int k = 0; k <= kPathSamples && ok; ++k) {
      const std::array<double, 3> s =
          SingularityMeasures(arm, path.Q(kPathTime * k / kPathSamples, 0));
      ok = std::abs(s[0]) > 0.1 && std::abs(s[1]) > 0.15 && std::abs(s[2]) > 0.15;
    }
    if (ok) return path;
  }
}

std::string VectorText(const Eigen::VectorXd& v) {
  std::string s = "[";
  for (int i = 0; i < v.size(); ++i) s += (i ? ", " : "") + Text(v[i]);
  return s + "]";
}

void SetMotion(BlockHarness& h, const ToolMotion& m) {
  SetPose(h, m.X);
  h.SetInput("velocity", {m.w.x(), m.w.y(), m.w.z(), m.v.x(), m.v.y(), m.v.z()});
  h.SetInput("acceleration", {m.alpha.x(), m.alpha.y(), m.alpha.z(), m.a.x(), m.a.y(), m.a.z()});
}

Eigen::VectorXd OutVector(const BlockHarness& h, const std::string& port) {
  const std::vector<double> out = h.Output(port);
  return Eigen::Map<const Eigen::VectorXd>(out.data(), static_cast<Eigen::Index>(out.size()));
}

struct RateErrors {
  double q = 0.0;    // max |q_ik - q|_inf (rad)
  double qd = 0.0;   // max |qd_ik - qd|_inf / |qd|_inf
  double qdd = 0.0;  // max |qdd_ik - qdd|_inf / |qdd|_inf
  int samples = 0;
};

// Follows `paths` random joint paths with the block, fed the exact tool motion, at major
// steps every 10 ms.
RateErrors RunPaths(const Arm& arm, unsigned seed, int paths) {
  std::mt19937 rng(seed);
  RateErrors e;
  for (int p = 0; p < paths; ++p) {
    const JointPath path = RandomPath(arm, rng);
    const Eigen::VectorXd q0 = path.Q(0.0, 0);
    testing::ParamTexts params = IkParams(arm, BranchOf(arm, q0));
    params["derivatives"] = "on";
    params["q_init"] = VectorText(q0);
    BlockHarness h("InverseKinematics", params, {3, 9, 6, 6});
    h.Initialize();
    for (int k = 0; k <= kPathSamples; ++k) {
      const double t = kPathTime * k / kPathSamples;
      const Eigen::VectorXd q = path.Q(t, 0), qd = path.Q(t, 1), qdd = path.Q(t, 2);
      SetMotion(h, ToolMotionOf(arm, q, qd, qdd));
      h.MajorStep(t);
      EXPECT_EQ(h.Output("reachable")[0], 1.0) << "path " << p << " t " << t;
      e.q = std::max(e.q, (OutVector(h, "q") - q).cwiseAbs().maxCoeff());
      e.qd = std::max(e.qd,
                      (OutVector(h, "qd") - qd).cwiseAbs().maxCoeff() / qd.cwiseAbs().maxCoeff());
      e.qdd = std::max(
          e.qdd, (OutVector(h, "qdd") - qdd).cwiseAbs().maxCoeff() / qdd.cwiseAbs().maxCoeff());
      ++e.samples;
    }
  }
  return e;
}

TEST(InverseKinematicsTest, ToolMotionOracleMatchesFiniteDifferences) {
  // The test's own derivatives against central differences of its pose (to their accuracy,
  // about 1e-7 at a 1e-4 s step), so that the oracle of the rate tests is itself checked.
  for (const Arm& arm : {ReferenceArm(), StandardArmWithOffsets()}) {
    std::mt19937 rng(11);
    const JointPath path = RandomPath(arm, rng);
    const double t = 0.37, h = 1e-4;
    const ToolMotion m = ToolMotionOf(arm, path.Q(t, 0), path.Q(t, 1), path.Q(t, 2));
    EXPECT_LT(PoseError(m.X, Fk(arm, path.Q(t, 0))), 1e-15);
    auto pose = [&](double s) { return Fk(arm, path.Q(s, 0)); };
    const Pose Xm = pose(t - h), X0 = pose(t), Xp = pose(t + h);
    const Eigen::Vector3d v_fd = (Xp.translation - Xm.translation) / (2 * h);
    const Eigen::Vector3d a_fd = (Xp.translation - 2 * X0.translation + Xm.translation) / (h * h);
    const Eigen::Matrix3d Rd_fd = (Xp.rotation - Xm.rotation) / (2 * h);
    const Eigen::Vector3d w_fd = Vee(Rd_fd * X0.rotation.transpose());
    // alpha by differencing w itself.
    const ToolMotion mm = ToolMotionOf(arm, path.Q(t - h, 0), path.Q(t - h, 1), path.Q(t - h, 2));
    const ToolMotion mp = ToolMotionOf(arm, path.Q(t + h, 0), path.Q(t + h, 1), path.Q(t + h, 2));
    EXPECT_LT((m.v - v_fd).norm(), 1e-6 * (1 + m.v.norm()));
    EXPECT_LT((m.a - a_fd).norm(), 1e-4 * (1 + m.a.norm()));
    EXPECT_LT((m.w - w_fd).norm(), 1e-6 * (1 + m.w.norm()));
    EXPECT_LT((m.alpha - (mp.w - mm.w) / (2 * h)).norm(), 1e-6 * (1 + m.alpha.norm()));
    EXPECT_LT((m.a - (mp.v - mm.v) / (2 * h)).norm(), 1e-6 * (1 + m.a.norm()));
  }
}

TEST(InverseKinematicsTest, RatesFollowJointPathsOnTheReferenceArm) {
  const RateErrors e = RunPaths(ReferenceArm(), 21, 8);
  std::printf("reference arm, %d samples: q error %.2e rad, qd %.2e, qdd %.2e relative\n",
              e.samples, e.q, e.qd, e.qdd);
  EXPECT_LT(e.q, 1e-9);
  EXPECT_LT(e.qd, 1e-8);
  EXPECT_LT(e.qdd, 1e-8);
}

TEST(InverseKinematicsTest, RatesFollowJointPathsOnTheReferenceArmWithTool) {
  Arm arm = ReferenceArm();
  arm.tool = Eigen::Vector3d(0.02, 0.01, 0.15);
  arm.dh[1][3] = -M_PI / 2;
  const RateErrors e = RunPaths(arm, 22, 8);
  std::printf("reference arm with tool, %d samples: q error %.2e rad, qd %.2e, qdd %.2e\n",
              e.samples, e.q, e.qd, e.qdd);
  EXPECT_LT(e.q, 1e-9);
  EXPECT_LT(e.qd, 1e-8);
  EXPECT_LT(e.qdd, 1e-8);
}

TEST(InverseKinematicsTest, RatesFollowJointPathsOnThePuma560) {
  const RateErrors e = RunPaths(Puma560(), 23, 8);
  std::printf("PUMA 560, %d samples: q error %.2e rad, qd %.2e, qdd %.2e relative\n", e.samples,
              e.q, e.qd, e.qdd);
  EXPECT_LT(e.q, 1e-9);
  EXPECT_LT(e.qd, 1e-8);
  EXPECT_LT(e.qdd, 1e-8);
}

TEST(InverseKinematicsTest, RatesFollowJointPathsOnAStandardArmWithFlangeAndTool) {
  const RateErrors e = RunPaths(StandardArmWithOffsets(), 24, 8);
  std::printf("offset arm, %d samples: q error %.2e rad, qd %.2e, qdd %.2e relative\n", e.samples,
              e.q, e.qd, e.qdd);
  EXPECT_LT(e.q, 1e-9);
  EXPECT_LT(e.qd, 1e-8);
  EXPECT_LT(e.qdd, 1e-8);
}

TEST(InverseKinematicsTest, MotionInterleavesQQdQdd) {
  const Arm arm = ReferenceArm();
  testing::ParamTexts params = IkParams(arm, {1, 1, 1});
  params["derivatives"] = "on";
  BlockHarness h("InverseKinematics", params, {3, 9, 6, 6});
  const Block& b = h.block();
  ASSERT_EQ(b.num_inputs(), 4);
  EXPECT_EQ(b.input_port(2).name, "velocity");
  EXPECT_EQ(b.input_port(2).width, 6);
  EXPECT_EQ(b.input_port(3).name, "acceleration");
  EXPECT_EQ(b.input_port(3).width, 6);
  ASSERT_EQ(b.num_outputs(), 5);
  EXPECT_EQ(b.output_port(2).name, "qd");
  EXPECT_EQ(b.output_port(3).name, "qdd");
  EXPECT_EQ(b.output_port(4).name, "motion");
  EXPECT_EQ(b.output_port(4).width, 18);
  h.Initialize();
  const Eigen::VectorXd q = (Eigen::VectorXd(6) << 0.2, -0.3, 0.4, 0.5, 0.6, 0.7).finished();
  const Eigen::VectorXd qd = (Eigen::VectorXd(6) << 1, -2, 3, -4, 5, -6).finished();
  const Eigen::VectorXd qdd = (Eigen::VectorXd(6) << -7, 8, -9, 10, -11, 12).finished();
  SetMotion(h, ToolMotionOf(arm, q, qd, qdd));
  h.MajorStep(0.0);
  const std::vector<double> out_q = h.Output("q"), out_qd = h.Output("qd"),
                            out_qdd = h.Output("qdd"), motion = h.Output("motion");
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(motion[3 * i], out_q[i]) << i;
    EXPECT_EQ(motion[3 * i + 1], out_qd[i]) << i;
    EXPECT_EQ(motion[3 * i + 2], out_qdd[i]) << i;
    EXPECT_NEAR(out_qd[i], qd[i], 1e-11 * 6);
    EXPECT_NEAR(out_qdd[i], qdd[i], 1e-11 * 12);
  }
}

TEST(InverseKinematicsTest, DerivativesOffKeepsThePortsAndOutputs) {
  const Arm arm = ReferenceArm();
  const testing::ParamTexts params = IkParams(arm, {1, 1, 1});
  testing::ParamTexts with = params;
  with["derivatives"] = "on";
  BlockHarness off("InverseKinematics", params, {3, 9});
  BlockHarness on("InverseKinematics", with, {3, 9, 6, 6});
  const Block& b = off.block();
  ASSERT_EQ(b.num_inputs(), 2);
  EXPECT_EQ(b.input_port(0).name, "position");
  EXPECT_EQ(b.input_port(1).name, "rotation");
  ASSERT_EQ(b.num_outputs(), 2);
  EXPECT_EQ(b.output_port(0).name, "q");
  EXPECT_EQ(b.output_port(0).width, 6);
  EXPECT_EQ(b.output_port(1).name, "reachable");
  EXPECT_EQ(b.num_dwork(), 6);
  EXPECT_EQ(b.MakeWorkspace(), nullptr);
  EXPECT_EQ(on.block().num_dwork(), 18);
  // The same poses (reachable, singular, out of reach) give bit-equal q and reachable.
  off.Initialize();
  on.Initialize();
  for (int k = 0; k < 60; ++k) {
    Eigen::VectorXd q =
        (Eigen::VectorXd(6) << 0.1 * k, -0.3, 0.4, 0.5, 0.6 - 0.02 * k, -0.1 * k).finished();
    Pose X = Fk(arm, q);
    if (k % 7 == 3) X.translation = Eigen::Vector3d(3.0, 0.5, 1.0);
    SetPose(off, X);
    SetMotion(on, ToolMotionOf(arm, q, Eigen::VectorXd::Ones(6), Eigen::VectorXd::Ones(6)));
    SetPose(on, X);
    off.MajorStep(0.01 * k);
    on.MajorStep(0.01 * k);
    EXPECT_EQ(off.Output("q"), on.Output("q")) << k;
    EXPECT_EQ(off.Output("reachable"), on.Output("reachable")) << k;
  }
}

TEST(InverseKinematicsTest, RatesHoldAtSingularitiesAndOutOfReach) {
  const Arm arm = ReferenceArm();
  testing::ParamTexts params = IkParams(arm, {1, 1, 1});
  params["derivatives"] = "on";
  params["q_init"] = "[0.2, -0.3, 0.4, 0.5, 0.6, 0.7]";
  BlockHarness h("InverseKinematics", params, {3, 9, 6, 6});
  h.Initialize();
  const Eigen::VectorXd ones = Eigen::VectorXd::Ones(6);
  // Filled in place: GCC 12 takes the comma initializer's temporary for uninitialized.
  auto q_at = [](double q5) {
    Eigen::VectorXd q(6);
    q << 0.2, -0.3, 0.4, 0.5, q5, 0.7;
    return q;
  };
  // Singular from the start: the rates are 0.
  SetMotion(h, ToolMotionOf(arm, q_at(0.0), ones, ones));
  h.MajorStep(0.0);
  EXPECT_EQ(h.Output("qd"), std::vector<double>(6, 0.0));
  EXPECT_EQ(h.Output("qdd"), std::vector<double>(6, 0.0));
  // A regular major step, then a regular minor one (which must not be remembered).
  SetMotion(h, ToolMotionOf(arm, q_at(0.6), ones, 2 * ones));
  h.MajorStep(0.1);
  const std::vector<double> qd = h.Output("qd"), qdd = h.Output("qdd");
  EXPECT_NEAR(qd[2], 1.0, 1e-10);
  EXPECT_NEAR(qdd[2], 2.0, 1e-10);
  SetMotion(h, ToolMotionOf(arm, q_at(0.5), 3 * ones, 4 * ones));
  h.MinorOutputs(0.15);
  EXPECT_NEAR(h.Output("qd")[2], 3.0, 1e-10);
  // Wrist singular (axes 4 and 6 aligned): held, and so is `motion`.
  SetMotion(h, ToolMotionOf(arm, q_at(0.0), 5 * ones, 6 * ones));
  h.MajorStep(0.2);
  EXPECT_EQ(h.Output("reachable")[0], 1.0);
  EXPECT_EQ(h.Output("qd"), qd);
  EXPECT_EQ(h.Output("qdd"), qdd);
  EXPECT_EQ(h.Output("motion")[3 * 2 + 1], qd[2]);
  // Out of reach: held.
  Pose far = Fk(arm, q_at(0.6));
  far.translation = Eigen::Vector3d(3.0, 0.5, 1.0);
  SetPose(h, far);
  h.MajorStep(0.3);
  EXPECT_EQ(h.Output("reachable")[0], 0.0);
  EXPECT_EQ(h.Output("qd"), qd);
  EXPECT_EQ(h.Output("qdd"), qdd);
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
