#pragma once

#include <string>
#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/lookup/detail/grid_interpolant.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// Multilinear interpolation in a d-D table at the intervals and fractions that Prelookup
/// blocks found (Simulink's Interpolation Using Prelookup).
class InterpolationUsingPrelookup final : public Block {
 public:
  /// Reads `sizes` and `table`, or `file`.
  /// @throws BlockError for counts that do not match or a file that cannot be read or parsed
  explicit InterpolationUsingPrelookup(const Params& params);

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  /// @throws BlockError for an index input that is not an interval of its dimension
  void DoCalcOutputs(Context& c, int stage) const override;

 private:
  [[noreturn]] void ThrowBadIndex(int dimension, double k) const;

  lookup::GridInterpolant table_;
  bool clip_ = false;
  std::vector<int> strides_;  ///< (2d) per input, 0 for a scalar
};

/// The registry entry of InterpolationUsingPrelookup.
BlockType InterpolationUsingPrelookupType();

}  // namespace twinblocks::blocks
