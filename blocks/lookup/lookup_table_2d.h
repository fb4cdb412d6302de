#pragma once

#include "blocks/block_registry.h"
#include "blocks/lookup/detail/table_lookup_block.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// y = T(u1, u2), element-wise: a 2-D table, its rows at the breakpoints of u1 and its
/// columns at those of u2 (Simulink's 2-D Lookup Table).
class LookupTable2D final : public internal::TableLookupBlock {
 public:
  /// Reads `breakpoints1`, `breakpoints2` and `table`, or `file`.
  /// @throws BlockError for breakpoints that are not finite and strictly increasing, a table
  ///   whose shape does not match them, or a file that cannot be read or parsed
  explicit LookupTable2D(const Params& params);
};

/// The registry entry of LookupTable2D.
BlockType LookupTable2DType();

}  // namespace twinblocks::blocks
