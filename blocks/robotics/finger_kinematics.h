#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"
#include "physics/multibody/finger_kinematics.h"

namespace twinblocks::blocks {

/// Forward kinematics of the three-joint finger of Mattar 2013 (abduction, then two parallel
/// flexion joints) in closed form: the fingertip frame and its Jacobians, for controllers that
/// map fingertip forces to joint torques (J^T f) without a robot model in the diagram.
class FingerKinematics final : public Block {
 public:
  /// @throws BlockError naming a length that is not > 0 and finite.
  explicit FingerKinematics(const Params& params);

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoCalcOutputs(Context& c, int stage) const override;

 private:
  multibody::FingerGeometry geometry_;
};

/// The registry entry of FingerKinematics.
BlockType FingerKinematicsType();

/// Reads l1, l2, l3 (and, with `limits`, lower and upper) into a FingerGeometry.
/// @throws BlockError naming the parameter: a length not > 0 and finite, a limit vector not
///         of 3 values, a NaN, or lower > upper.
multibody::FingerGeometry ReadFingerGeometry(const Params& params, bool limits);

/// The lengths' entries of a finger block's registry entry.
std::vector<ParamSpec> FingerLengthParams();

}  // namespace twinblocks::blocks
