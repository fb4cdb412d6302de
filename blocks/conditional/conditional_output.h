#pragma once

#include <Eigen/Core>

#include "blocks/block.h"
#include "blocks/block_registry.h"

namespace twinblocks::blocks {

/// The outport of a conditional subsystem (Simulink's Outport block inside an enabled or
/// triggered subsystem), made by the compiler: y = u while the subsystem runs (`active` = 1);
/// while it does not, y holds its last value ("held") or returns to `initial` ("reset").
/// Before the subsystem first runs, y = initial.
class ConditionalOutput final : public Block {
 public:
  ConditionalOutput(bool reset, Eigen::VectorXd initial);

 private:
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;

  bool reset_;
  Eigen::VectorXd initial_;  ///< one value, or one per element
};

/// The registry entry the compiler gives its ConditionalOutput blocks, for messages.
const BlockType& ConditionalOutportType();

}  // namespace twinblocks::blocks
