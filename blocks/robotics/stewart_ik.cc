#include "blocks/robotics/stewart_ik.h"

#include <Eigen/Geometry>
#include <cmath>
#include <memory>
#include <string>

#include "blocks/block_error.h"

namespace twinblocks::blocks {

namespace {

Eigen::Matrix<double, 6, 3> SixPoints(const Params& p, const char* name) {
  const Eigen::MatrixXd m = p.Matrix(name);
  if (m.rows() != 6 || m.cols() != 3 || !m.allFinite()) {
    throw BlockError("parameter '" + std::string(name) +
                         "' must be six points, a 6 x 3 matrix [[x, y, z], ...] in m, got " +
                         std::to_string(m.rows()) + " x " + std::to_string(m.cols()),
                     name);
  }
  return m;
}

/// An elementary rotation about axis k by angle a, with its first and second derivatives
/// with respect to a: R' = R S, R'' = R S^2 for S = [e_k]x.
struct Elementary {
  Eigen::Matrix3d R, d1, d2;
  Elementary(int k, double a) {
    R = Eigen::AngleAxisd(a, Eigen::Vector3d::Unit(k)).toRotationMatrix();
    Eigen::Matrix3d S = Eigen::Matrix3d::Zero();
    const Eigen::Vector3d e = Eigen::Vector3d::Unit(k);
    S << 0.0, -e.z(), e.y(), e.z(), 0.0, -e.x(), -e.y(), e.x(), 0.0;
    d1 = R * S;
    d2 = d1 * S;
  }
};

}  // namespace

StewartIK::StewartIK(const Params& params)
    : base_(SixPoints(params, "base")), platform_(SixPoints(params, "platform")) {
  DeclareInput("pose", 6);
  DeclareInput("pose_d", 6);
  DeclareInput("pose_dd", 6);
  for (int k = 1; k <= 6; ++k) DeclareOutput("leg" + std::to_string(k), 3);
}

void StewartIK::DoCalcOutputs(Context& c, int) const {
  const Eigen::Map<const Eigen::Matrix<double, 6, 1>> pose(in(c, 0)), rate(in(c, 1)),
      accel(in(c, 2));
  // R = Rz(yaw) Ry(pitch) Rx(roll); factors in the order z, y, x; angle indices 5, 4, 3.
  const Elementary f[3] = {{2, pose[5]}, {1, pose[4]}, {0, pose[3]}};
  const double w[3] = {rate[5], rate[4], rate[3]};
  const double a[3] = {accel[5], accel[4], accel[3]};
  auto product = [&f](int d0, int d1, int d2) {
    auto pick = [](const Elementary& e, int d) -> const Eigen::Matrix3d& {
      return d == 0 ? e.R : d == 1 ? e.d1 : e.d2;
    };
    return Eigen::Matrix3d(pick(f[0], d0) * pick(f[1], d1) * pick(f[2], d2));
  };
  const Eigen::Matrix3d R = product(0, 0, 0);
  // First derivatives of R along each angle, and the second ones (d2[k][l]).
  const Eigen::Matrix3d D[3] = {product(1, 0, 0), product(0, 1, 0), product(0, 0, 1)};
  Eigen::Matrix3d R_dot = Eigen::Matrix3d::Zero(), R_ddot = Eigen::Matrix3d::Zero();
  for (int k = 0; k < 3; ++k) {
    R_dot += D[k] * w[k];
    R_ddot += D[k] * a[k];
    for (int l = 0; l < 3; ++l) {
      int order[3] = {0, 0, 0};
      ++order[k];
      ++order[l];
      R_ddot += product(order[0], order[1], order[2]) * (w[k] * w[l]);
    }
  }
  const Eigen::Vector3d x = pose.head<3>(), x_dot = rate.head<3>(), x_ddot = accel.head<3>();
  for (int i = 0; i < 6; ++i) {
    const Eigen::Vector3d p = platform_.row(i).transpose();
    const Eigen::Vector3d d = x + R * p - base_.row(i).transpose();
    const Eigen::Vector3d d_dot = x_dot + R_dot * p;
    const Eigen::Vector3d d_ddot = x_ddot + R_ddot * p;
    const double L = d.norm();
    const double L_dot = d.dot(d_dot) / L;
    double* y = out(c, i);
    y[0] = L;
    y[1] = L_dot;
    y[2] = (d_dot.squaredNorm() + d.dot(d_ddot) - L_dot * L_dot) / L;
  }
}

BlockType StewartIKType() {
  BlockType t;
  t.name = "StewartIK";
  t.category = "Robotics";
  t.summary = "Leg lengths of a six-leg (Stewart) platform for a pose, with their rates.";
  t.doc =
      "Leg i joins base point b_i (row i of `base`, in the base frame) to platform point a_i "
      "(row i of `platform`, in the platform frame). For the platform pose [x, y, z, roll, "
      "pitch, yaw] (position in m, R = Rz(yaw) Ry(pitch) Rx(roll), the angles TransformSensor's "
      "euler_zyx gives as [yaw, pitch, roll]) and its first and second time derivatives, "
      "d_i = x + R a_i - b_i, L_i = |d_i|, Ld_i = d_i . d_i' / L_i, Ldd_i = (|d_i'|^2 + d_i . "
      "d_i'' - Ld_i^2) / L_i, with R' and R'' exact from the angle rates. Output `legK` is "
      "[L, Ld, Ldd] of leg K: a PrismaticJoint's motion input (actuation=\"motion\") when the "
      "joint's coordinate is the leg length. Direct feedthrough; inherited sample time.";
  t.reference = "Stewart (1965); Merlet, Parallel Robots (2006), ch. 4";
  t.params = {
      {"base", ParamKind::kMatrix, "", "6 x 3: the legs' base points, m", {}, true},
      {"platform", ParamKind::kMatrix, "", "6 x 3: the legs' platform points, m", {}, true}};
  t.inputs = {{"pose", "6: x, y, z (m), roll, pitch, yaw (rad)"},
              {"pose_d", "6: its time derivative"},
              {"pose_dd", "6: its second time derivative"}};
  for (int k = 1; k <= 6; ++k) {
    t.outputs.push_back({"leg" + std::to_string(k), "3: L (m), Ld (m/s), Ldd (m/s^2)"});
  }
  t.create = [](const Params& p) { return std::make_unique<StewartIK>(p); };
  return t;
}

}  // namespace twinblocks::blocks
