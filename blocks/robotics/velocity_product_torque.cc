#include "blocks/robotics/velocity_product_torque.h"

#include <memory>

#include "physics/multibody/algorithms.h"

namespace twinblocks::blocks {

VelocityProductTorque::VelocityProductTorque(const Params& params) : RobotBlock(params, false) {
  DeclareInput("q");
  DeclareInput("qd");
  DeclareOutput("tau");
}

void VelocityProductTorque::DoConfigure(const std::vector<int>& input_widths) {
  const multibody::KinematicTree& tree = BoundTree();
  CheckInputWidth(input_widths, 0, tree.nq(), "nq");
  CheckInputWidth(input_widths, 1, tree.nv(), "nv");
  SetOutputWidth(0, tree.nv());
}

void VelocityProductTorque::DoCalcOutputs(Context& c, int stage) const {
  const multibody::KinematicTree& tree = *robot_.tree;
  internal::RobotWorkspace& ws = Scratch(c);
  const Eigen::Map<const Eigen::VectorXd> q = InVector(c, 0, tree.nq());
  ws.tau = multibody::NonlinearEffects(tree, &ws.data, q, ws.zero_v);  // g(q)
  const Eigen::VectorXd& all =
      multibody::NonlinearEffects(tree, &ws.data, q, InVector(c, 1, tree.nv()));
  Eigen::Map<Eigen::VectorXd>(out(c, 0), tree.nv()) = all - ws.tau;
}

BlockType VelocityProductTorqueType() {
  BlockType t;
  t.name = "VelocityProductTorque";
  t.category = "Robotics";
  t.summary = "Coriolis and centrifugal joint forces C(q, qd) qd of a robot.";
  t.doc =
      "C(q, qd) qd = tau(q, qd, qdd = 0) - g(q): the velocity-dependent part of the "
      "recursive Newton-Euler algorithm on the kinematic tree of `robot`, without gravity "
      "(two passes, with qd and at rest). With MassMatrix and GravityTorque it completes "
      "M(q) qdd + C(q, qd) qd + g(q).";
  t.reference = "Robotics System Toolbox Velocity Product Torque";
  t.params = {internal::RobotParam()};
  t.inputs = {{"q", "joint positions, nq (rad, m)"}, {"qd", "joint velocities, nv (rad/s, m/s)"}};
  t.outputs = {{"tau", "velocity-product joint forces, nv (N m, N)"}};
  t.create = [](const Params& p) { return std::make_unique<VelocityProductTorque>(p); };
  return t;
}

}  // namespace twinblocks::blocks
