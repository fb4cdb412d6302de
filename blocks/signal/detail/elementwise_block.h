#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks::internal {

/// The shape Sum, Product and MinMax share, as Simulink's blocks of the same names: inputs
/// u1..un and an output y. With one input its elements reduce to a scalar y; with more, y
/// has their common width and a scalar input expands (read again for every element).
class ElementwiseBlock : public Block {
 protected:
  /// Declares the inputs u1..u`num_inputs` and the output y.
  void DeclareOperands(int num_inputs) {
    for (int j = 0; j < num_inputs; ++j) DeclareInput(NumberedPort("u", j));
    DeclareOutput("y");
  }

  /// Sets y's width from the inputs', and strides_ when there is more than one input.
  /// @return y's width.
  /// @throws BlockError when the inputs' widths disagree (CommonWidth).
  int ConfigureOperands(const std::vector<int>& input_widths) {
    const int width = input_widths.size() == 1 ? 1 : CommonWidth(input_widths);
    SetOutputWidth(0, width);
    strides_.clear();
    if (input_widths.size() > 1) {
      for (int w : input_widths) strides_.push_back(StrideOf(w));
    }
    return width;
  }

  std::vector<int> strides_;  ///< per input (of two or more), 0 for an expanded scalar
};

}  // namespace twinblocks::blocks::internal
