#pragma once

// ExternalForceTorque: a force and torque applied at a frame.

#include "blocks/multibody/frame_element.h"

namespace twinblocks::multibody {

/// A force and torque applied to the body at F, at F's origin.
class ExternalForceTorqueElement final : public FrameElement {
 public:
  explicit ExternalForceTorqueElement(const blocks::Params& p);
  void Contribute(MechanismBuilder& builder) const override;
  bool world_frame = true;  ///< inputs expressed in W, else in F
  int in_force, in_torque;
};

blocks::BlockType ExternalForceTorqueType();

}  // namespace twinblocks::multibody
