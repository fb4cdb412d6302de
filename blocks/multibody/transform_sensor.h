#pragma once

// TransformSensor: the pose and velocity of one frame relative to another.

#include "blocks/multibody/frame_element.h"

namespace twinblocks::multibody {

/// The pose and velocity of F relative to B.
class TransformSensorElement final : public FrameElement {
 public:
  explicit TransformSensorElement(const blocks::Params& p);
  void Contribute(MechanismBuilder& builder) const override;
  int out_position, out_rotation, out_v, out_w, out_euler;
};

blocks::BlockType TransformSensorType();

}  // namespace twinblocks::multibody
