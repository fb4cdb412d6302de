#pragma once

#include <string>
#include <vector>

#include "blocks/block.h"
#include "blocks/lookup/detail/grid_interpolant.h"

namespace twinblocks::blocks::internal {

/// A block whose output is a table looked up at its inputs, one input per dimension,
/// element-wise (LookupTable, LookupTable2D, LookupTableND). Linear and spline tables keep,
/// per element and dimension, the interval found last as a search hint in dwork. Flat and
/// nearest tables hold each element's cell per dimension as a mode, chosen at major steps and
/// held inside solver steps, with the cell's two ends as zero-crossing functions: u - lower
/// end (>= 0 inside) and u - upper end (< 0 inside), constants where the cell is open.
class TableLookupBlock : public Block {
 public:
  const lookup::GridInterpolant& table() const { return table_; }

 protected:
  /// @param inputs the input ports' names, one per dimension of `table`; none: u1, ..., ud
  TableLookupBlock(lookup::GridInterpolant table, const std::vector<std::string>& inputs);

  /// @throws BlockError when non-scalar inputs differ in width
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  void DoCalcZeroCrossings(Context& c) const override;

 private:
  lookup::GridInterpolant table_;
  std::vector<int> u_strides_;  ///< (d) 0 for a scalar input, which every element reads
};

}  // namespace twinblocks::blocks::internal
