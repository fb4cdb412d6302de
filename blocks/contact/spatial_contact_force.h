#pragma once

// SpatialContactForce: compliant contact between the Solid geometries at two frames
// (Simscape Multibody Spatial Contact Force). Like every frame block it is an element: the
// mechanism it belongs to finds the Solids whose frame R is joined to its B and to its F,
// locates the overlap of their shapes every evaluation (collision.h) and applies the force
// laws of contact_law.h at each contact point.

#include <Eigen/Core>
#include <optional>

#include "blocks/multibody/frame_element.h"
#include "physics/contact/contact_law.h"

namespace twinblocks::contact {

/// Materials for the Hertz law's stiffness and damping (Zaidi et al. 2020, "Grasp Planning Pipeline
/// for Robust Manipulation of 3D Deformable Objects", eq. 6-8), when given.
struct HertzMaterials {
  Eigen::Vector2d E = Eigen::Vector2d::Zero();   ///< Young's moduli of B's and F's solids, Pa
  Eigen::Vector2d nu = Eigen::Vector2d::Zero();  ///< their Poisson ratios
  double gamma = 0.0;                            ///< damping constant of eq. 8
  double radius = 0.0;                           ///< effective radius R (m); 0: from the two shapes
};

class SpatialContactForceElement final : public multibody::FrameElement {
 public:
  explicit SpatialContactForceElement(const blocks::Params& p);
  void Contribute(multibody::MechanismBuilder& builder) const override;
  ContactLaw law;
  std::optional<HertzMaterials> materials;
  int out_distance, out_fn, out_ff, out_point, out_normal, out_force;
};

blocks::BlockType SpatialContactForceType();

}  // namespace twinblocks::contact
