#pragma once

// Solid: a rigid body's mass, inertia and shape at a frame.

#include <Eigen/Core>
#include <memory>
#include <string>

#include "blocks/multibody/frame_element.h"
#include "physics/multibody/mesh.h"
#include "physics/multibody/solid_geometry.h"
#include "physics/spatial/spatial.h"

namespace twinblocks::multibody {

/// A rigid body's mass and shape, attached at its reference frame R.
class SolidElement final : public FrameElement {
 public:
  explicit SolidElement(const blocks::Params& p);
  void Contribute(MechanismBuilder& builder) const override;
  ShapeKind shape = ShapeKind::kNone;
  SpatialInertia inertia;                          ///< about R's origin, in R
  double radius = 0.0;                             ///< m (sphere, cylinder, capsule)
  double length = 0.0;                             ///< m (cylinder, capsule)
  Eigen::Vector3d size = Eigen::Vector3d::Zero();  ///< m (box)
  std::string file;                                ///< mesh file, resolved
  std::shared_ptr<const TriangleMesh> mesh;        ///< shape mesh: its triangles, for contact
  Eigen::Vector3d color = Eigen::Vector3d(0.7, 0.7, 0.7);
};

blocks::BlockType SolidType();

}  // namespace twinblocks::multibody
