#pragma once

// Small builders shared by the code that writes diagrams programmatically (dh_chain.cc,
// hand_builder.cc): a block node, and numbers as the parameter texts a model file holds.

#include <Eigen/Core>
#include <string>
#include <utility>
#include <vector>

#include "common/suggest.h"
#include "model/model.h"

namespace twinblocks::graph::internal {

inline BlockNode Block(const std::string& type, const std::string& name,
                       std::vector<Parameter> params) {
  BlockNode b;
  b.type = type;
  b.name = name;
  b.params = std::move(params);
  return b;
}

/// "[x, y, z]" with each number as FormatNumber writes it.
inline std::string Vector3Text(const Eigen::Vector3d& v) {
  // Appended, not `"[" + ...`, which trips GCC 12's -Wrestrict.
  std::string text("[");
  text += FormatNumber(v.x());
  text += ", ";
  text += FormatNumber(v.y());
  text += ", ";
  text += FormatNumber(v.z());
  text += "]";
  return text;
}

/// "[[a, b, c], [d, e, f], [g, h, i]]", row by row.
inline std::string Matrix3Text(const Eigen::Matrix3d& m) {
  std::string s = "[";
  for (int r = 0; r < 3; ++r) {
    s += r == 0 ? "[" : ", [";
    for (int c = 0; c < 3; ++c) s += (c == 0 ? "" : ", ") + FormatNumber(m(r, c));
    s += "]";
  }
  return s + "]";
}

}  // namespace twinblocks::graph::internal
