#pragma once

#include <Eigen/Core>
#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// y = sign(u) (offset + gain |u|) element-wise: Coulomb friction offset plus viscous
/// friction gain u, as a signal.
///
/// Modes (width): sign(u) chosen at major steps and held inside the solver's steps, so that
/// y = sign offset + gain u stays smooth there. Zero crossings (width): u.
class CoulombViscousFriction final : public Block {
 public:
  /// @throws BlockError for non-finite parameters or parameters of disagreeing widths.
  explicit CoulombViscousFriction(const Params& params);

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  void DoCalcZeroCrossings(Context& c) const override;

 private:
  Eigen::VectorXd offset_param_, gain_param_;
  std::vector<double> offset_, gain_;  ///< (width) each
  int width_ = 1;
  int u_stride_ = 1;
};

/// The registry entry of CoulombViscousFriction.
BlockType CoulombViscousFrictionType();

}  // namespace twinblocks::blocks
