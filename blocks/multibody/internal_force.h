#pragma once

// InternalForce: equal and opposite forces along the line between two frames.

#include "blocks/multibody/frame_element.h"

namespace twinblocks::multibody {

/// Equal and opposite forces on B and F along the line between their origins.
class InternalForceElement final : public FrameElement {
 public:
  explicit InternalForceElement(const blocks::Params& p);
  void Contribute(MechanismBuilder& builder) const override;
  bool spring_damper = false;
  double k = 0.0, c = 0.0, length0 = 0.0;
  int in_f = -1, out_distance, out_speed;
};

blocks::BlockType InternalForceType();

}  // namespace twinblocks::multibody
