#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"
#include "physics/multibody/finger_kinematics.h"

namespace twinblocks::blocks {

/// Inverse kinematics of the three-joint finger of Mattar 2013 in closed form: the geometric
/// inverse (a fingertip position, both elbow branches) or the algebraic one (a whole fingertip
/// frame), within the joint limits. A target out of reach, or with no branch inside the
/// limits, holds the last output and says so: never a NaN.
///
/// Storage: dwork (3) the output of the last major step.
class FingerInverseKinematics final : public Block {
 public:
  /// @throws BlockError naming the parameter (see ReadFingerGeometry; q_init not 3 values).
  explicit FingerInverseKinematics(const Params& params);

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;

 private:
  multibody::FingerGeometry geometry_;
  bool algebraic_ = false;
  int preferred_ = 0;  ///< 0: the branch with q3 >= 0 first; 1: q3 <= 0 first
  Eigen::Vector3d q_init_ = Eigen::Vector3d::Zero();
};

/// The registry entry of FingerInverseKinematics.
BlockType FingerInverseKinematicsType();

}  // namespace twinblocks::blocks
