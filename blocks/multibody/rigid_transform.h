#pragma once

// RigidTransform: a fixed offset between two frames.

#include "blocks/multibody/frame_element.h"
#include "physics/spatial/spatial.h"

namespace twinblocks::multibody {

/// F = B * X_BF, fixed.
class RigidTransformElement final : public FrameElement {
 public:
  explicit RigidTransformElement(const blocks::Params& p);
  void Contribute(MechanismBuilder& builder) const override;
  Pose X_BF;
};

blocks::BlockType RigidTransformType();

}  // namespace twinblocks::multibody
