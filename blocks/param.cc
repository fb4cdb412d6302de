#include "blocks/param.h"

#include <cmath>

#include "blocks/block_error.h"
#include "common/format_value.h"

namespace twinblocks::blocks {

void Params::Set(const std::string& name, ParamValue value) {
  for (auto& [n, v] : values_) {
    if (n == name) {
      v = std::move(value);
      return;
    }
  }
  values_.emplace_back(name, std::move(value));
}

bool Params::has(const std::string& name) const {
  for (const auto& [n, v] : values_) {
    if (n == name) return v.is_set();
  }
  return false;
}

const ParamValue& Params::Get(const std::string& name) const {
  for (const auto& [n, v] : values_) {
    if (n == name && v.is_set()) return v;
  }
  throw BlockError("parameter '" + name + "' is required", name);
}

namespace {

const Eigen::MatrixXd& NumericOf(const Params& p, const std::string& name) {
  const ParamValue& v = p.Get(name);
  if (!v.is_numeric()) throw BlockError("parameter '" + name + "' must be numeric", name);
  return v.numeric();
}

std::string ShapeOf(const Eigen::MatrixXd& m) {
  return std::to_string(m.rows()) + "x" + std::to_string(m.cols());
}

}  // namespace

double Params::Scalar(const std::string& name) const {
  const Eigen::MatrixXd& m = NumericOf(*this, name);
  if (m.size() != 1) {
    throw BlockError("parameter '" + name + "' must be a scalar, got a " + ShapeOf(m) + " value",
                     name);
  }
  return m(0, 0);
}

int Params::Integer(const std::string& name) const {
  const double v = Scalar(name);
  if (!std::isfinite(v) || v != std::floor(v)) {
    throw BlockError("parameter '" + name + "' must be a whole number, got " + FormatValue(v),
                     name);
  }
  // Counts, orders and indices: past a billion none is meant, and each fits an int.
  if (std::abs(v) > 1e9) {
    throw BlockError("parameter '" + name + "' = " + FormatValue(v) +
                         " is over the limit of whole-number parameters (1e9)",
                     name);
  }
  return static_cast<int>(v);
}

Eigen::VectorXd Params::Vector(const std::string& name) const {
  const Eigen::MatrixXd& m = NumericOf(*this, name);
  if (m.rows() != 1 && m.cols() != 1 && m.size() != 0) {
    throw BlockError("parameter '" + name + "' must be a vector, got a " + ShapeOf(m) + " matrix",
                     name);
  }
  return Eigen::Map<const Eigen::VectorXd>(m.data(), m.size());
}

Eigen::MatrixXd Params::Matrix(const std::string& name) const { return NumericOf(*this, name); }

const std::string& Params::Word(const std::string& name) const {
  const ParamValue& v = Get(name);
  if (v.is_numeric()) throw BlockError("parameter '" + name + "' must be a word", name);
  return v.text();
}

const std::string& Params::String(const std::string& name) const { return Word(name); }

bool Params::Bool(const std::string& name) const {
  const std::string& w = Word(name);
  if (w == "true" || w == "on" || w == "1") return true;
  if (w == "false" || w == "off" || w == "0") return false;
  throw BlockError("parameter '" + name + "' must be true or false, got '" + w + "'", name);
}

}  // namespace twinblocks::blocks
