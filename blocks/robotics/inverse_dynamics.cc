#include "blocks/robotics/inverse_dynamics.h"

#include <memory>

#include "physics/multibody/algorithms.h"

namespace twinblocks::blocks {

InverseDynamics::InverseDynamics(const Params& params) : RobotBlock(params, false) {
  DeclareInput("q");
  DeclareInput("qd");
  DeclareInput("qdd");
  DeclareOutput("tau");
}

void InverseDynamics::DoConfigure(const std::vector<int>& input_widths) {
  const multibody::KinematicTree& tree = BoundTree();
  CheckInputWidth(input_widths, 0, tree.nq(), "nq");
  CheckInputWidth(input_widths, 1, tree.nv(), "nv");
  CheckInputWidth(input_widths, 2, tree.nv(), "nv");
  SetOutputWidth(0, tree.nv());
}

void InverseDynamics::DoCalcOutputs(Context& c, int stage) const {
  const multibody::KinematicTree& tree = *robot_.tree;
  internal::RobotWorkspace& ws = Scratch(c);
  const Eigen::VectorXd& tau =
      multibody::Rnea(tree, &ws.data, InVector(c, 0, tree.nq()), InVector(c, 1, tree.nv()),
                      InVector(c, 2, tree.nv()));
  Eigen::Map<Eigen::VectorXd>(out(c, 0), tree.nv()) = tau;
}

BlockType InverseDynamicsType() {
  BlockType t;
  t.name = "InverseDynamics";
  t.category = "Robotics";
  t.summary = "Joint forces for given q, qd, qdd: tau = M(q) qdd + C(q, qd) qd + g(q).";
  t.doc =
      "tau = M(q) qdd + C(q, qd) qd + g(q), by the recursive Newton-Euler algorithm on the "
      "kinematic tree of `robot` (gravity as the tree has it, no external forces): the "
      "torque (N m) or force (N) each joint must apply to follow the given motion. Feeding "
      "the tau of a desired trajectory to the robot open loop reproduces it (Boschetti & "
      "Sinico 2024, experiment E2); "
      "it is also the feedforward term of computed-torque control. Widths from the robot: "
      "q has nq entries, qd, qdd and tau nv.";
  t.reference =
      "Robotics System Toolbox Inverse Dynamics; Featherstone 2008 ch. 5 (RNEA); Boschetti & "
      "Sinico 2024, \"Designing Digital Twins of Robots Using Simscape Multibody\" (Robotics), "
      "section 3.4 (experiment E2)";
  t.params = {internal::RobotParam()};
  t.inputs = {{"q", "joint positions, nq (rad, m)"},
              {"qd", "joint velocities, nv (rad/s, m/s)"},
              {"qdd", "joint accelerations, nv (rad/s^2, m/s^2)"}};
  t.outputs = {{"tau", "joint forces, nv (N m, N)"}};
  t.create = [](const Params& p) { return std::make_unique<InverseDynamics>(p); };
  return t;
}

}  // namespace twinblocks::blocks
