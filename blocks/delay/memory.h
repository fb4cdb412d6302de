#pragma once

#include <Eigen/Core>
#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// y = u at the previous major step (initial_condition at the first), held through the
/// solver's steps. dwork: [time of the output, output (width), input of the last major step
/// (width)].
class Memory final : public Block {
 public:
  /// @throws BlockError for an empty or non-finite initial_condition.
  explicit Memory(const Params& params);

  int DefaultInputWidth() const override {
    return static_cast<int>(initial_condition_param_.size());
  }

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  void DoUpdate(Context& c) const override;

 private:
  Eigen::VectorXd initial_condition_param_;
  std::vector<double> initial_condition_;  ///< (width)
  int width_ = 1;
  int u_stride_ = 1;
};

/// The registry entry of Memory.
BlockType MemoryType();

}  // namespace twinblocks::blocks
