#include "blocks/robotics/mass_matrix.h"

#include <memory>

#include "physics/multibody/algorithms.h"

namespace twinblocks::blocks {

MassMatrix::MassMatrix(const Params& params) : RobotBlock(params, false) {
  DeclareInput("q");
  DeclareOutput("M");
}

void MassMatrix::DoConfigure(const std::vector<int>& input_widths) {
  const multibody::KinematicTree& tree = BoundTree();
  CheckInputWidth(input_widths, 0, tree.nq(), "nq");
  SetOutputWidth(0, tree.nv() * tree.nv());
}

void MassMatrix::DoCalcOutputs(Context& c, int stage) const {
  const multibody::KinematicTree& tree = *robot_.tree;
  internal::RobotWorkspace& ws = Scratch(c);
  const Eigen::MatrixXd& M = multibody::Crba(tree, &ws.data, InVector(c, 0, tree.nq()));
  // M is symmetric: its column-major storage is also its row-major one.
  Eigen::Map<Eigen::MatrixXd>(out(c, 0), tree.nv(), tree.nv()) = M;
}

BlockType MassMatrixType() {
  BlockType t;
  t.name = "MassMatrix";
  t.category = "Robotics";
  t.summary = "Joint-space mass matrix M(q) of a robot.";
  t.doc =
      "M(q) (nv x nv, symmetric positive definite) with kinetic energy 1/2 qd^T M(q) qd, by "
      "the composite-rigid-body algorithm on the kinematic tree of `robot`. Output "
      "row-major, M[r nv + c] = M(r, c), nv^2 entries (kg m^2, kg).";
  t.reference = "Robotics System Toolbox Get Mass Matrix; Featherstone 2008 ch. 6 (CRBA)";
  t.params = {internal::RobotParam()};
  t.inputs = {{"q", "joint positions, nq (rad, m)"}};
  t.outputs = {{"M", "the mass matrix, nv^2 entries, row-major"}};
  t.create = [](const Params& p) { return std::make_unique<MassMatrix>(p); };
  return t;
}

}  // namespace twinblocks::blocks
