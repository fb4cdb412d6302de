#pragma once

#include <memory>
#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"
#include "physics/contact/collision.h"
#include "physics/deformable/mass_spring_body.h"
#include "physics/deformable/node_contact.h"

namespace twinblocks::blocks {

/// A deformable body: the mass-spring network of a tetrahedral mesh (physics/deformable), its
/// nodes free in the world under gravity or fixed where they start. The mesh is a primitive
/// meshed by Gmsh at `element_size`, placed at `position`; `deformation` stretches the
/// initial positions about the centre (per axis) so that a run can start from a deformed,
/// resting body.
///
/// States: the node positions x (3n, world, m) then their velocities v (3n, m/s). The stiff
/// Jacobian d(x, v)'/d(x, v) is given in closed form (springs, dashpots and contacts).
///
/// Contacts (Zaidi et al. 2020, eq. 4-10; physics/deformable/node_contact.h): the surface nodes
/// against m rigid spheres (`contact_radius`, a fingertip each) whose motion comes in on the
/// input `solids` (18 m: each sphere's position, rotation row by row, velocity and angular
/// velocity in the world, a TransformSensor's outputs), and against a table (the half-space
/// below z = `table`). Hertz normal force with K from the two materials and the effective
/// radius (the tip's on flat faces, with the object's curvature on a sphere or a cylinder's
/// side), anchored stick-slip friction, each anchor a discrete state updated at every major
/// step. The contacts' slopes in the node's own position and velocity are in the Jacobian:
/// the tip is moved by the input, so its coupling back is not stiff here.
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
  void DoUpdate(Context& c) const override;
  void DoCalcStiffJacobian(Context& c, Eigen::Ref<Eigen::MatrixXd> J) const override;
  bool DoStiffJacobianStructure(std::vector<std::pair<int, int>>* entries) const override;
  /// The surface nodes' velocity rows: only they feel the tips (the positions' rows stay
  /// x' = v, which the solvers eliminate).
  void DoStiffInputRows(std::vector<int>* rows) const override;
  std::unique_ptr<BlockWorkspace> DoMakeWorkspace() const override;

 private:
  struct Scratch;
  /// One node-partner pair's law and geometry: partner j < m is the j-th sphere, j = m the
  /// table.
  struct Partner {
    contact::Shape shape;
    std::vector<deformable::NodeContactLaw> laws;  ///< per surface node (its K, C)
  };
  int num_partners() const { return static_cast<int>(partners_.size()); }
  /// The partner's motion at c: the input's for a sphere, at rest for the table.
  deformable::SolidMotion PartnerMotion(const Context& c, int j) const;
  /// Every surface node against every partner at the state (pos, vel): the contacts into the
  /// workspace, their forces added to ws.force.
  void CalcContacts(const Context& c, const Eigen::Ref<const Eigen::VectorXd>& pos,
                    const Eigen::Ref<const Eigen::VectorXd>& vel, Scratch& ws) const;

  std::shared_ptr<const deformable::MassSpringBody> body_;
  std::vector<std::array<int, 4>> tets_;
  Eigen::VectorXd x0_;                ///< (3n) initial positions, world (m)
  std::vector<unsigned char> fixed_;  ///< per node
  Eigen::Vector3d gravity_;           ///< m/s^2
  Eigen::VectorXd inverse_mass_;      ///< (n) 0 on fixed nodes
  std::vector<int> surface_nodes_;    ///< the nodes on the mesh's boundary, ascending
  std::vector<Partner> partners_;     ///< the spheres, then the table if any
  int num_spheres_ = 0;
  bool has_table_ = false;
  double table_height_ = 0.0;  ///< z of the table top (m)
  // Output ports (-1 when absent).
  int out_contact_force_ = -1, out_contact_torque_ = -1, out_normal_force_ = -1,
      out_contact_nodes_ = -1, out_table_force_ = -1;
};

/// The registry entry of DeformableBody.
BlockType DeformableBodyType();

}  // namespace twinblocks::blocks
