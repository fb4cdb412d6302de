#include "blocks/robotics/finger_inverse_kinematics.h"

#include <algorithm>
#include <memory>
#include <string>

#include "blocks/robotics/finger_kinematics.h"

namespace twinblocks::blocks {

FingerInverseKinematics::FingerInverseKinematics(const Params& params)
    : geometry_(ReadFingerGeometry(params, true)),
      algebraic_(params.Word("method") == "algebraic"),
      preferred_(params.Word("branch") == "up" ? 0 : 1) {
  const Eigen::VectorXd q0 = params.Vector("q_init");
  if (q0.size() != 3 || !q0.allFinite()) {
    throw BlockError("parameter 'q_init' must be 3 finite angles (rad), got " +
                         std::to_string(q0.size()) + " values",
                     "q_init");
  }
  q_init_ = q0;
  DeclareInput("position");
  if (algebraic_) DeclareInput("rotation");
  DeclareOutput("q", 3);
  DeclareOutput("reachable", 1);
  DeclareOutput("valid", 2);
  DeclareOutput("branches", 6);
  DeclareDWork(3);
}

void FingerInverseKinematics::DoConfigure(const std::vector<int>& input_widths) {
  const int expected[2] = {3, 9};
  for (int i = 0; i < num_inputs(); ++i) {
    if (input_widths[i] != expected[i]) {
      const std::string& name = input_port(i).name;
      throw BlockError("input '" + name + "' has width " + std::to_string(input_widths[i]) +
                           ", expected " + std::to_string(expected[i]),
                       {}, name);
    }
  }
}

void FingerInverseKinematics::DoInitialize(Context& c) const {
  std::copy(q_init_.data(), q_init_.data() + 3, dwork(c));
}

void FingerInverseKinematics::DoCalcOutputs(Context& c, int stage) const {
  const double* p = in(c, 0);
  multibody::FingerIkResult r;
  if (algebraic_) {
    const multibody::Pose X(
        Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(in(c, 1)),
        Eigen::Vector3d(p[0], p[1], p[2]));
    r = multibody::FingerInverseAlgebraic(geometry_, X);
  } else {
    r = multibody::FingerInverseGeometric(geometry_, Eigen::Vector3d(p[0], p[1], p[2]));
  }
  const int pick =
      r.valid[preferred_] ? preferred_ : (r.valid[1 - preferred_] ? 1 - preferred_ : -1);
  double* prev = dwork(c);
  double* q = out(c, 0);
  for (int k = 0; k < 3; ++k) q[k] = pick >= 0 ? r.branch[pick][k] : prev[k];
  out(c, 1)[0] = r.reachable ? 1.0 : 0.0;
  out(c, 2)[0] = r.valid[0] ? 1.0 : 0.0;
  out(c, 2)[1] = r.valid[1] ? 1.0 : 0.0;
  for (int b = 0; b < 2; ++b) {
    for (int k = 0; k < 3; ++k) out(c, 3)[3 * b + k] = r.branch[b][k];
  }
  // The held output follows accepted steps only.
  if (c.major) std::copy(q, q + 3, prev);
}

BlockType FingerInverseKinematicsType() {
  BlockType t;
  t.name = "FingerInverseKinematics";
  t.category = "Robotics";
  t.summary = "Closed-form inverse kinematics of a three-joint finger, both elbow branches.";
  t.doc =
      "The finger of FingerKinematics (Mattar 2013). method = geometric (eq. 12-13): q1 = "
      "atan2(py, px) (the flexion plane; on the abduction axis the q1 nearest 0 within the "
      "limits), then in that plane, with r = sqrt(px^2 + py^2) - l1 and d^2 = r^2 + pz^2, C3 = "
      "(d^2 - l2^2 - l3^2) / (2 l2 l3), q3 = +-acos(C3) (branch up: q3 >= 0, down: q3 <= 0), "
      "q2 = atan2(pz, r) - atan2(l3 S3, l2 + l3 C3). method = algebraic (eq. 8-11) takes the "
      "whole fingertip frame (input rotation, row-major): q1 = atan2(a_x, -a_y), q2 + q3 = "
      "atan2(n_z, o_z), q2 from the position in the flexion plane; the frame counts as "
      "reachable only if the angles give it back to 1e-9. A branch is valid when it reaches "
      "the target within the limits. q is the preferred branch when valid, else the other, "
      "else (out of reach, or outside the limits) the output of the last major step (q_init "
      "at the start). branches gives both ([up; down], zero where not valid).";
  t.reference =
      "M. A. Mattar, e_GRASP: Robotic Hand Modeling and Simulation Environment, 2013, eq. "
      "8-13";
  t.params = FingerLengthParams();
  t.params.push_back({"lower", ParamKind::kVector, "[-pi, -pi, -pi]",
                      "lower joint limits [abduction, proximal, distal] (rad)"});
  t.params.push_back({"upper", ParamKind::kVector, "[pi, pi, pi]",
                      "upper joint limits [abduction, proximal, distal] (rad)"});
  t.params.push_back({"method",
                      ParamKind::kWord,
                      "geometric",
                      "geometric (a position) or algebraic (a whole frame)",
                      {"geometric", "algebraic"}});
  t.params.push_back({"branch",
                      ParamKind::kWord,
                      "up",
                      "preferred elbow branch: up (q3 >= 0) or down (q3 <= 0)",
                      {"up", "down"}});
  t.params.push_back(
      {"q_init", ParamKind::kVector, "[0, 0, 0]", "output before the first solution (rad)"});
  t.inputs = {{"position", "fingertip target in the finger's base frame, 3 (m)"},
              {"rotation", "fingertip frame's rotation (method = algebraic), 9, row-major"}};
  t.outputs = {{"q", "joint angles [abduction, proximal, distal], 3 (rad)"},
               {"reachable", "1 when the target is in the workspace (limits aside), else 0"},
               {"valid", "per branch [up, down]: 1 when it reaches within the limits, 2"},
               {"branches", "both branches' angles [up (3); down (3)], 6 (rad)"}};
  t.create = [](const Params& p) { return std::make_unique<FingerInverseKinematics>(p); };
  return t;
}

}  // namespace twinblocks::blocks
