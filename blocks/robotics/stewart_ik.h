#pragma once

#include <Eigen/Core>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// Inverse kinematics of a six-leg parallel platform (Stewart-Gough, 6-UPS or 6-SPS): the
/// length of each leg, and its first and second time derivatives, for a commanded platform
/// pose and the pose's derivatives. Leg i joins base point b_i (fixed, in the base frame) to
/// platform point a_i (in the platform frame); with the platform at position x and orientation
/// R = Rz(yaw) Ry(pitch) Rx(roll) (euler_zyx of TransformSensor),
///   d_i = x + R a_i - b_i,  L_i = |d_i|,  Ld_i = u_i . d_i',  Ldd_i = (|d_i'|^2 + d_i . d_i''
///   - Ld_i^2) / L_i,
/// where d_i' = x' + R' a_i and d_i'' = x'' + R'' a_i, with R' and R'' from the angles' rates
/// by the product rule (exact; no numerical differentiation). Each output `legK` is
/// [L, Ld, Ldd]: a prismatic joint's motion input.
class StewartIK final : public Block {
 public:
  /// @throws BlockError when base or platform is not 6 x 3.
  explicit StewartIK(const Params& params);

 protected:
  void DoCalcOutputs(Context& c, int stage) const override;

 private:
  Eigen::Matrix<double, 6, 3> base_, platform_;  ///< rows: b_i in the base, a_i in the platform
};

/// The registry entry of StewartIK.
BlockType StewartIKType();

}  // namespace twinblocks::blocks
