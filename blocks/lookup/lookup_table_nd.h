#pragma once

#include "blocks/block_registry.h"
#include "blocks/lookup/detail/table_lookup_block.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// y = T(u1, ..., ud), element-wise: a table of any number of dimensions (Simulink's n-D
/// Lookup Table).
class LookupTableND final : public internal::TableLookupBlock {
 public:
  /// Reads `sizes`, `breakpoints` and `table`, or `file`.
  /// @throws BlockError for breakpoints that are not finite and strictly increasing, counts
  ///   that do not match, or a file that cannot be read or parsed
  explicit LookupTableND(const Params& params);
};

/// The registry entry of LookupTableND.
BlockType LookupTableNDType();

}  // namespace twinblocks::blocks
