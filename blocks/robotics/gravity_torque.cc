#include "blocks/robotics/gravity_torque.h"

#include <memory>

#include "physics/multibody/algorithms.h"

namespace twinblocks::blocks {

GravityTorque::GravityTorque(const Params& params) : RobotBlock(params, false) {
  DeclareInput("q");
  DeclareOutput("tau");
}

void GravityTorque::DoConfigure(const std::vector<int>& input_widths) {
  const multibody::KinematicTree& tree = BoundTree();
  CheckInputWidth(input_widths, 0, tree.nq(), "nq");
  SetOutputWidth(0, tree.nv());
}

void GravityTorque::DoCalcOutputs(Context& c, int stage) const {
  const multibody::KinematicTree& tree = *robot_.tree;
  internal::RobotWorkspace& ws = Scratch(c);
  const Eigen::VectorXd& tau =
      multibody::NonlinearEffects(tree, &ws.data, InVector(c, 0, tree.nq()), ws.zero_v);
  Eigen::Map<Eigen::VectorXd>(out(c, 0), tree.nv()) = tau;
}

BlockType GravityTorqueType() {
  BlockType t;
  t.name = "GravityTorque";
  t.category = "Robotics";
  t.summary = "Joint forces g(q) that hold a robot still against gravity.";
  t.doc =
      "g(q) = tau(q, qd = 0, qdd = 0): the recursive Newton-Euler algorithm at rest, with "
      "the gravity of the kinematic tree of `robot`. Adding it to a controller's output "
      "compensates gravity.";
  t.reference = "Robotics System Toolbox Gravity Torque";
  t.params = {internal::RobotParam()};
  t.inputs = {{"q", "joint positions, nq (rad, m)"}};
  t.outputs = {{"tau", "gravity joint forces, nv (N m, N)"}};
  t.create = [](const Params& p) { return std::make_unique<GravityTorque>(p); };
  return t;
}

}  // namespace twinblocks::blocks
