#pragma once

// Numbers and vectors as text for the grasp library's error messages.

#include <Eigen/Core>
#include <sstream>
#include <string>

namespace twinblocks::grasp::detail {

inline std::string NumberText(double x) {
  std::ostringstream out;
  out.precision(9);
  out << x;
  return out.str();
}

inline std::string VectorText(const Eigen::Ref<const Eigen::VectorXd>& v) {
  std::ostringstream out;
  out.precision(9);
  out << "(";
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    out << (i ? ", " : "") << v[i];
  }
  out << ")";
  return out.str();
}

}  // namespace twinblocks::grasp::detail
