#pragma once

#include "blocks/block_registry.h"
#include "blocks/lookup/detail/table_lookup_block.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// y = T(u), element-wise: a 1-D table of values at breakpoints, interpolated and
/// extrapolated as its parameters say (Simulink's 1-D Lookup Table).
class LookupTable final : public internal::TableLookupBlock {
 public:
  /// Reads `breakpoints` and `table`, or `file`.
  /// @throws BlockError for breakpoints that are not finite and strictly increasing, a table
  ///   that does not match them, or a file that cannot be read or parsed
  explicit LookupTable(const Params& params);
};

/// The registry entry of LookupTable.
BlockType LookupTableType();

}  // namespace twinblocks::blocks
