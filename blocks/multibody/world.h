#pragma once

// World: the inertial frame of a frame network, and the model's gravity.

#include <Eigen/Core>
#include <string>

#include "blocks/multibody/frame_element.h"

namespace twinblocks::multibody {

/// The inertial frame W and the gravity of the model.
class WorldElement final : public FrameElement {
 public:
  explicit WorldElement(const blocks::Params& p);
  void Contribute(MechanismBuilder& builder) const override;
  std::string UnconnectedPortError(const std::string& path, int port) const override;
  Eigen::Vector3d gravity;  ///< m/s^2, in W
};

blocks::BlockType WorldType();

}  // namespace twinblocks::multibody
