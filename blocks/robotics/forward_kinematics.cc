#include "blocks/robotics/forward_kinematics.h"

#include <memory>

#include "physics/multibody/algorithms.h"

namespace twinblocks::blocks {

ForwardKinematics::ForwardKinematics(const Params& params) : RobotBlock(params, true) {
  DeclareInput("q");
  DeclareOutput("position", 3);
  DeclareOutput("rotation", 9);
}

void ForwardKinematics::DoConfigure(const std::vector<int>& input_widths) {
  CheckInputWidth(input_widths, 0, BoundTree().nq(), "nq");
}

void ForwardKinematics::DoCalcOutputs(Context& c, int stage) const {
  const multibody::KinematicTree& tree = *robot_.tree;
  internal::RobotWorkspace& ws = Scratch(c);
  multibody::ForwardKinematics(tree, &ws.data, InVector(c, 0, tree.nq()));
  const multibody::Pose X_WF =
      robot_.frame_body < 0 ? robot_.X_BF : ws.data.X_WB[robot_.frame_body] * robot_.X_BF;
  double* p = out(c, 0);
  double* R = out(c, 1);
  for (int r = 0; r < 3; ++r) {
    p[r] = X_WF.translation[r];
    for (int k = 0; k < 3; ++k) R[3 * r + k] = X_WF.rotation(r, k);
  }
}

BlockType ForwardKinematicsType() {
  BlockType t;
  t.name = "ForwardKinematics";
  t.category = "Robotics";
  t.summary = "Pose of a frame on a robot in the robot's base, from the joint positions.";
  t.doc =
      "X_BF(q) = X_B1(q1) X_12(q2) ... X_nF: the pose of `frame` in the base of `robot` "
      "(the frame the robot's subsystem is attached by), by forward kinematics of the "
      "robot's kinematic tree. position is the frame's origin (m), rotation its orientation "
      "R_BF, row-major (R[3 r + c] = R(r, c)). The robot is the subsystem named by `robot`; "
      "the compiler builds its tree and sizes q from it (nq).";
  t.reference = "Robotics System Toolbox Get Transform";
  t.params = {internal::RobotParam(), internal::FrameParam()};
  t.inputs = {{"q", "joint positions, nq of the robot (rad, m)"}};
  t.outputs = {{"position", "frame origin in the base, 3 (m)"},
               {"rotation", "frame orientation in the base, 9, row-major"}};
  t.create = [](const Params& p) { return std::make_unique<ForwardKinematics>(p); };
  return t;
}

}  // namespace twinblocks::blocks
