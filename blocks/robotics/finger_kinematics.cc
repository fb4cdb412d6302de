#include "blocks/robotics/finger_kinematics.h"

#include <cmath>
#include <memory>
#include <string>

#include "common/format_value.h"

namespace twinblocks::blocks {

multibody::FingerGeometry ReadFingerGeometry(const Params& params, bool limits) {
  multibody::FingerGeometry g;
  double* lengths[3] = {&g.l1, &g.l2, &g.l3};
  const char* names[3] = {"l1", "l2", "l3"};
  for (int i = 0; i < 3; ++i) {
    *lengths[i] = params.Scalar(names[i]);
    if (!(*lengths[i] > 0.0) || !std::isfinite(*lengths[i])) {
      throw BlockError(std::string("parameter '") + names[i] + "' must be a length > 0, got " +
                           FormatValue(*lengths[i]),
                       names[i]);
    }
  }
  if (!limits) return g;
  const Eigen::VectorXd lower = params.Vector("lower"), upper = params.Vector("upper");
  for (const auto& [v, name] : {std::pair{&lower, "lower"}, std::pair{&upper, "upper"}}) {
    if (v->size() != 3 || v->hasNaN()) {
      throw BlockError(std::string("parameter '") + name +
                           "' must be 3 angles [abduction, proximal, distal] (rad), got " +
                           std::to_string(v->size()) + " values" + (v->hasNaN() ? " with NaN" : ""),
                       name);
    }
  }
  for (int i = 0; i < 3; ++i) {
    if (lower[i] > upper[i]) {
      throw BlockError("joint limits need lower <= upper, got lower " + FormatValue(lower[i]) +
                           " and upper " + FormatValue(upper[i]) + " at joint " +
                           std::to_string(i + 1),
                       "lower");
    }
  }
  g.lower = lower;
  g.upper = upper;
  return g;
}

std::vector<ParamSpec> FingerLengthParams() {
  return {{"l1", ParamKind::kScalar, "", "abduction link length a_1 (m, > 0)", {}, true},
          {"l2", ParamKind::kScalar, "", "proximal link length a_2 (m, > 0)", {}, true},
          {"l3", ParamKind::kScalar, "", "distal link length a_3 (m, > 0)", {}, true}};
}

FingerKinematics::FingerKinematics(const Params& params)
    : geometry_(ReadFingerGeometry(params, false)) {
  DeclareInput("q");
  DeclareOutput("position", 3);
  DeclareOutput("rotation", 9);
  DeclareOutput("J_base", 9);
  DeclareOutput("J_tip", 9);
}

void FingerKinematics::DoConfigure(const std::vector<int>& input_widths) {
  if (input_widths[0] != 3) {
    throw BlockError("input 'q' has width " + std::to_string(input_widths[0]) +
                         ", expected 3 [abduction, proximal, distal]",
                     {}, "q");
  }
}

void FingerKinematics::DoCalcOutputs(Context& c, int stage) const {
  const Eigen::Vector3d q(in(c, 0)[0], in(c, 0)[1], in(c, 0)[2]);
  const multibody::Pose X = multibody::FingertipPose(geometry_, q);
  const Eigen::Matrix3d J_base = multibody::FingertipJacobianInBase(geometry_, q);
  const Eigen::Matrix3d J_tip = X.rotation.transpose() * J_base;
  double* p = out(c, 0);
  for (int r = 0; r < 3; ++r) {
    p[r] = X.translation[r];
    for (int k = 0; k < 3; ++k) {
      out(c, 1)[3 * r + k] = X.rotation(r, k);
      out(c, 2)[3 * r + k] = J_base(r, k);
      out(c, 3)[3 * r + k] = J_tip(r, k);
    }
  }
}

BlockType FingerKinematicsType() {
  BlockType t;
  t.name = "FingerKinematics";
  t.category = "Robotics";
  t.summary = "Fingertip pose and Jacobians of a three-joint finger, in closed form.";
  t.doc =
      "The finger of Mattar 2013: standard DH rows (alpha, a, d, theta) = (90 deg, l1, 0, "
      "q1), (0, l2, 0, q2), (0, l3, 0, q3), the fingertip at frame 3's origin. With psi = l3 "
      "C23 + l2 C2 + l1: position = (C1 psi, S1 psi, l3 S23 + l2 S2) in the finger's base "
      "frame 0 (eq. 16); rotation = 0R3 = [[C1 C23, -C1 S23, S1], [S1 C23, -S1 S23, -C1], "
      "[S23, C23, 0]], row-major. J_base = d position / dq (3 x 3, row-major); J_tip = 0R3^T "
      "J_base, the same in the tip frame (eq. 23: columns (0, 0, -psi), (l2 S3, l3 + l2 C3, "
      "0), (0, l3, 0)). A fingertip force f (base axes) needs joint torques J_base^T f.";
  t.reference =
      "M. A. Mattar, e_GRASP: Robotic Hand Modeling and Simulation Environment, 2013, eq. "
      "8-16 and 23 (its misprints repaired: 0H3 entry (1, 2) is -C1 S23, entry (3, 4) l3 S23 "
      "+ l2 S2)";
  t.params = FingerLengthParams();
  t.inputs = {{"q", "joint angles [abduction, proximal, distal], 3 (rad)"}};
  t.outputs = {{"position", "fingertip in the base frame, 3 (m)"},
               {"rotation", "fingertip frame's rotation in the base, 9, row-major"},
               {"J_base", "d position / dq in the base frame, 9, row-major 3 x 3 (m/rad)"},
               {"J_tip", "the same in the tip frame (eq. 23), 9, row-major 3 x 3 (m/rad)"}};
  t.create = [](const Params& p) { return std::make_unique<FingerKinematics>(p); };
  return t;
}

}  // namespace twinblocks::blocks
