#pragma once

// Readers of the frame blocks' parameters that check shapes and say what was expected.
// Construction time only.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cmath>
#include <string>

#include "blocks/block_error.h"
#include "blocks/param.h"

namespace twinblocks::multibody::internal {

using blocks::BlockError;
using blocks::Params;

inline Eigen::Vector3d Vector3(const Params& p, const char* name) {
  const Eigen::VectorXd v = p.Vector(name);
  if (v.size() != 3) {
    throw BlockError("parameter '" + std::string(name) + "' must have 3 elements, got " +
                         std::to_string(v.size()),
                     name);
  }
  return v;
}

inline Eigen::VectorXd VectorOfSize(const Params& p, const char* name, int n) {
  Eigen::VectorXd v = p.Vector(name);
  if (v.size() == 1 && n > 1) return Eigen::VectorXd::Constant(n, v[0]);
  if (v.size() != n) {
    throw BlockError("parameter '" + std::string(name) + "' must have " + std::to_string(n) +
                         " element" + (n == 1 ? "" : "s") + ", got " + std::to_string(v.size()),
                     name);
  }
  return v;
}

inline Eigen::Vector3d UnitAxis(const Params& p, const char* name) {
  const Eigen::Vector3d a = Vector3(p, name);
  const double n = a.norm();
  if (!(n > 1e-12) || !std::isfinite(n)) {
    throw BlockError("parameter '" + std::string(name) + "' must be a non-zero direction, got [" +
                         std::to_string(a.x()) + ", " + std::to_string(a.y()) + ", " +
                         std::to_string(a.z()) + "]",
                     name);
  }
  return a / n;
}

inline Eigen::Quaterniond UnitQuaternion(const Eigen::VectorXd& v, const char* name) {
  if (v.size() != 4) {
    throw BlockError("parameter '" + std::string(name) +
                         "' must be a quaternion [w, x, y, z] (4 elements), got " +
                         std::to_string(v.size()),
                     name);
  }
  const double n = v.norm();
  if (!(n > 1e-12)) {
    throw BlockError("parameter '" + std::string(name) + "' must be a non-zero quaternion", name);
  }
  return Eigen::Quaterniond(v[0] / n, v[1] / n, v[2] / n, v[3] / n);
}

/// The value of an optional scalar parameter, or `fallback` when it is not set.
inline double OptionalScalar(const Params& p, const char* name, double fallback) {
  return p.has(name) && p.Get(name).is_set() ? p.Scalar(name) : fallback;
}

}  // namespace twinblocks::multibody::internal
