#pragma once

#include <cstdint>
#include <pugixml.hpp>
#include <string>

#include "common/input_limits.h"
#include "model/model_error.h"
#include "xml/detail/line_index.h"

namespace twinblocks::xml::internal {

/// The node after `n` in document order below `root` (children first), or a null node at the
/// end: a walk of the whole tree without recursion.
inline pugi::xml_node NextInDocumentOrder(pugi::xml_node n, pugi::xml_node root,
                                          std::int64_t* depth) {
  if (n.first_child()) {
    ++*depth;
    return n.first_child();
  }
  while (n != root && !n.next_sibling()) {
    n = n.parent();
    --*depth;
  }
  return n == root ? pugi::xml_node() : n.next_sibling();
}

/// The first element (in document order) nested deeper than `limit` levels below `root`'s
/// children, or a null node. Walks without recursion: the point is to refuse a file of
/// 100,000 nested elements before anything that recurses (liburdfdom's TinyXML, a reader's
/// own descent) sees it.
inline pugi::xml_node FirstElementDeeperThan(pugi::xml_node root, std::int64_t limit) {
  std::int64_t depth = 1;
  for (pugi::xml_node n = root.first_child(); n; n = NextInDocumentOrder(n, root, &depth)) {
    if (n.type() == pugi::node_element && depth > limit) return n;
  }
  return {};
}

/// Refuses a document nested deeper than the xml_depth limit, at the first element too deep.
/// @throws graph::ModelError
inline void CheckElementDepth(const pugi::xml_document& doc, std::string_view text,
                              const std::string& file) {
  const std::int64_t limit = blocks::CurrentInputLimits().xml_depth;
  const pugi::xml_node deep = FirstElementDeeperThan(doc, limit);
  if (!deep) return;
  throw graph::ModelError({file, LineIndex(text).LineOf(deep.offset_debug())},
                          "an element nested " + std::to_string(limit + 1) + " levels deep, " +
                              blocks::OverLimit("xml_depth"));
}

}  // namespace twinblocks::xml::internal
