#pragma once

#include <algorithm>
#include <cstddef>
#include <string_view>
#include <vector>

namespace twinblocks::xml::internal {

/// Maps byte offsets in a text to 1-based line numbers. pugixml keeps no line numbers, only
/// offsets (`xml_node::offset_debug()`, `xml_parse_result::offset`), so the reader keeps one of
/// these per file it loads.
class LineIndex {
 public:
  explicit LineIndex(std::string_view text) {
    // "\n" (Unix), "\r\n" (Windows) or a lone "\r" (classic Mac OS) ends a line.
    for (size_t i = 0; i < text.size(); ++i) {
      const bool lone_cr = text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n');
      if (text[i] == '\n' || lone_cr) newlines_.push_back(i);
    }
  }

  /// The line holding the byte at `offset` (1 for the first line; a negative offset, which
  /// pugixml gives when it does not know, also maps to 1).
  int LineOf(std::ptrdiff_t offset) const {
    if (offset <= 0) return 1;
    // Every newline strictly before `offset` starts a new line.
    auto it = std::lower_bound(newlines_.begin(), newlines_.end(), static_cast<size_t>(offset));
    return static_cast<int>(it - newlines_.begin()) + 1;
  }

 private:
  std::vector<size_t> newlines_;  // offsets of every '\n', ascending
};

}  // namespace twinblocks::xml::internal
