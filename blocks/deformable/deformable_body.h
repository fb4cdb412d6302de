#pragma once

#include <memory>
#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"
#include "physics/deformable/mass_spring_body.h"

namespace twinblocks::blocks {

/// A deformable body: the mass-spring network of a tetrahedral mesh (physics/deformable), its
/// nodes free in the world under gravity or fixed where they start. The mesh is a primitive
/// meshed by Gmsh at `element_size`, placed at `position`; `deformation` stretches the
/// initial positions about the centre (per axis) so that a run can start from a deformed,
/// resting body.
///
/// States: the node positions x (3n, world, m) then their velocities v (3n, m/s). The stiff
/// Jacobian d(x, v)'/d(x, v) is given in closed form (springs and dashpots).
class DeformableBody final : public Block {
 public:
  /// @throws BlockError naming the parameter: a shape size, element size, E, nu, density or
  ///         a spring parameter out of range, a fixed node index out of range, or a mesh that
  ///         cannot be made (Gmsh's reason).
  explicit DeformableBody(const Params& params);

  const deformable::MassSpringBody& body() const { return *body_; }

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override {}
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  void DoCalcDerivatives(Context& c) const override;
  void DoCalcStiffJacobian(Context& c, Eigen::Ref<Eigen::MatrixXd> J) const override;
  bool DoStiffJacobianStructure(std::vector<std::pair<int, int>>* entries) const override;
  std::unique_ptr<BlockWorkspace> DoMakeWorkspace() const override;

 private:
  struct Scratch;

  std::shared_ptr<const deformable::MassSpringBody> body_;
  std::vector<std::array<int, 4>> tets_;
  Eigen::VectorXd x0_;                ///< (3n) initial positions, world (m)
  std::vector<unsigned char> fixed_;  ///< per node
  Eigen::Vector3d gravity_;           ///< m/s^2
  Eigen::VectorXd inverse_mass_;      ///< (n) 0 on fixed nodes
};

/// The registry entry of DeformableBody.
BlockType DeformableBodyType();

}  // namespace twinblocks::blocks
