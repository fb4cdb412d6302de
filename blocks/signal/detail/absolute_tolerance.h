#pragma once

#include <Eigen/Core>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "blocks/block_error.h"
#include "blocks/param.h"
#include "common/format_value.h"

/// The "Absolute tolerance" parameters of the blocks with continuous states (Simulink's
/// Integrator, Second-Order Integrator, State-Space, Transfer Fcn): `auto`, the simulation's
/// atol, or a positive number, scalar or one per state. A state whose scale is far from the
/// others' (a current in mA beside positions in m, a pressure in Pa) gets a tolerance of its own
/// size instead of one atol that is too loose for it or too tight for the rest.
namespace twinblocks::blocks::internal {

/// The catalog entry of such a parameter, `what` naming the states it applies to.
inline ParamSpec AbsoluteToleranceParam(const char* name, const std::string& what) {
  ParamSpec spec{name, ParamKind::kVector, "auto",
                 "absolute tolerance of " + what +
                     " for the variable-step solvers: auto (the simulation's atol), or > 0, "
                     "scalar or per element"};
  spec.allows_auto = true;
  return spec;
}

/// Reads it: empty for `auto`, else the values, each checked positive and finite.
/// @throws BlockError naming the parameter.
inline Eigen::VectorXd ReadAbsoluteTolerance(const Params& params, const char* name) {
  const ParamValue& value = params.Get(name);
  if (!value.is_numeric()) return {};
  Eigen::VectorXd tol = params.Vector(name);
  if (tol.size() == 0) throw BlockError(std::string("parameter '") + name + "' is empty", name);
  for (double v : tol) {
    if (!(v > 0.0) || !std::isfinite(v)) {
      throw BlockError(std::string("parameter '") + name +
                           "' must be auto or a positive number, got " + FormatValue(v),
                       name);
    }
  }
  return tol;
}

/// `tol` (from ReadAbsoluteTolerance) for `width` states: NaN each for auto, a scalar
/// repeated, or exactly `width` values. @throws BlockError naming the parameter otherwise.
inline std::vector<double> ExpandAbsoluteTolerance(const Eigen::VectorXd& tol, const char* name,
                                                   int width, const char* states) {
  if (tol.size() == 0) {
    return std::vector<double>(width, std::numeric_limits<double>::quiet_NaN());
  }
  if (tol.size() == 1) return std::vector<double>(width, tol[0]);
  if (tol.size() != width) {
    const std::string expected = width == 1 ? "1" : "1 or " + std::to_string(width);
    throw BlockError(std::string("parameter '") + name + "' has " + std::to_string(tol.size()) +
                         " values, expected " + expected + " (" + states + ")",
                     name);
  }
  return std::vector<double>(tol.begin(), tol.end());
}

}  // namespace twinblocks::blocks::internal
