#include "blocks/robotics/jacobian.h"

#include <memory>

#include "physics/multibody/algorithms.h"
#include "physics/multibody/jacobian.h"

namespace twinblocks::blocks {

Jacobian::Jacobian(const Params& params) : RobotBlock(params, true) {
  DeclareInput("q");
  DeclareOutput("J");
}

void Jacobian::DoConfigure(const std::vector<int>& input_widths) {
  const multibody::KinematicTree& tree = BoundTree();
  CheckInputWidth(input_widths, 0, tree.nq(), "nq");
  SetOutputWidth(0, 6 * tree.nv());
}

void Jacobian::DoCalcOutputs(Context& c, int stage) const {
  const multibody::KinematicTree& tree = *robot_.tree;
  internal::RobotWorkspace& ws = Scratch(c);
  multibody::ForwardKinematics(tree, &ws.data, InVector(c, 0, tree.nq()));
  multibody::FrameJacobian(tree, ws.data, robot_.frame_body, robot_.X_BF, ws.J);
  // Row-major, so that a Selector of the first three entries picks row 0 as written.
  double* J = out(c, 0);
  const int nv = tree.nv();
  for (int r = 0; r < 6; ++r) {
    for (int k = 0; k < nv; ++k) J[r * nv + k] = ws.J(r, k);
  }
}

BlockType JacobianType() {
  BlockType t;
  t.name = "Jacobian";
  t.category = "Robotics";
  t.summary = "Geometric Jacobian of a frame on a robot, in base axes.";
  t.doc =
      "[w; v] = J(q) qd: J (6 x nv) maps the joint velocities to the angular velocity w of "
      "`frame` (rows 0-2) and the velocity v of its origin (rows 3-5), both relative to and "
      "expressed in the robot's base. Column j of a revolute joint about unit axis z_j "
      "through p_j is [z_j; z_j x (p_F - p_j)], of a prismatic one [0; z_j]; joints that do "
      "not move the frame give zero columns. Output row-major: J[r nv + j] = J(r, j), "
      "6 nv entries.";
  t.reference =
      "Robotics System Toolbox Get Jacobian (geometricJacobian); Pinocchio "
      "LOCAL_WORLD_ALIGNED frame Jacobian";
  t.params = {internal::RobotParam(), internal::FrameParam()};
  t.inputs = {{"q", "joint positions, nq of the robot (rad, m)"}};
  t.outputs = {{"J", "the Jacobian, 6 nv entries, row-major 6 x nv"}};
  t.create = [](const Params& p) { return std::make_unique<Jacobian>(p); };
  return t;
}

}  // namespace twinblocks::blocks
