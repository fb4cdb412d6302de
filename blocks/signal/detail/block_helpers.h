#pragma once

#include <Eigen/Core>
#include <limits>
#include <string>
#include <vector>

#include "blocks/block.h"
#include "blocks/block_error.h"

/// Small helpers shared by the signal, discrete, logic and routing blocks. Construction-time
/// only, except the inline accessors, which are cheap enough for the step loop.
namespace twinblocks::blocks::internal {

/// "u1", "u2", ...: the names of a variable number of ports, numbered from 1.
inline std::string NumberedPort(const char* base, int i) {
  std::string name(base);  // appended, not `base + ...`, which trips GCC 12's -Wrestrict
  name += std::to_string(i + 1);
  return name;
}

/// Reads an operator list such as Sum's "+-+" or Product's "*/": one input per `first` or
/// `second` character ('|' and spaces are separators, as in Simulink). Returns, per input,
/// whether it is `second`. @throws BlockError naming `param` for any other character or none.
inline std::vector<bool> ParseOperatorList(const std::string& text, const char* param, char first,
                                           char second) {
  std::vector<bool> is_second;
  for (char ch : text) {
    if (ch == first || ch == second) {
      is_second.push_back(ch == second);
    } else if (ch != '|' && ch != ' ') {
      throw BlockError("parameter '" + std::string(param) + "' may hold only '" +
                           std::string(1, first) + "', '" + std::string(1, second) +
                           "' and '|', got '" + text + "'",
                       param);
    }
  }
  if (is_second.empty()) {
    throw BlockError("parameter '" + std::string(param) + "' has no '" + std::string(1, first) +
                         "' or '" + std::string(1, second) + "'",
                     param);
  }
  return is_second;
}

/// Scalar expansion: the step of the index into a signal of width `width` when the output has
/// more elements (0 for a scalar, which is read again for every output element).
inline int StrideOf(int width) { return width == 1 ? 0 : 1; }

/// True when a block's zero-crossing functions mean something: it runs continuously (an
/// inherited block resolved to a discrete or constant rate only runs at major steps, where
/// its modes are recomputed anyway).
inline bool ZeroCrossingsActive(const Block& b) {
  return b.rate_index() < 0 && !b.sample_time().is_constant() && !b.sample_time().is_discrete();
}

/// The three zero-crossing functions of a state `v` limited to [lower, upper] (the
/// integrators' limits): while free, v - lower and v - upper, which change sign where it hits
/// a limit; while held on one, u, which changes sign where it stops pushing outward.
inline void LimitZeroCrossings(bool held, double v, double lower, double upper, double u,
                               double* z) {
  if (held) {
    z[0] = z[1] = 1.0;
    z[2] = u;
  } else {
    z[0] = v - lower;
    z[1] = v - upper;
    z[2] = 1.0;
  }
}

/// The common width of named vector parameters, where 1-element vectors expand.
/// @throws BlockError naming the first parameter that disagrees.
inline int CommonParamWidth(const std::vector<std::pair<const char*, const Eigen::VectorXd*>>& ps) {
  int common = 1;
  for (const auto& [name, v] : ps) {
    const int n = static_cast<int>(v->size());
    if (n == 0) throw BlockError(std::string("parameter '") + name + "' is empty", name);
    if (n == 1) continue;
    if (common == 1) {
      common = n;
    } else if (n != common) {
      throw BlockError(std::string("parameter '") + name + "' has " + std::to_string(n) +
                           " elements, but another parameter has " + std::to_string(common) +
                           " (vector parameters must agree or be scalars)",
                       name);
    }
  }
  return common;
}

/// `v` expanded to `width` elements (a scalar is repeated).
inline std::vector<double> Expand(const Eigen::VectorXd& v, int width) {
  std::vector<double> out(width);
  for (int i = 0; i < width; ++i) out[i] = v.size() == 1 ? v(0) : v(i);
  return out;
}

/// Checks that a per-element parameter of `n` values fits a signal of width `width`
/// (1 expands). @throws BlockError naming the parameter and the port.
inline void CheckParamFitsWidth(const char* param, int n, int width, const char* port) {
  if (n != 1 && n != width) {
    throw BlockError(std::string("parameter '") + param + "' has " + std::to_string(n) +
                         " elements, but input '" + port + "' has width " + std::to_string(width),
                     param, port);
  }
}

/// The widths of an integrator (Integrator, DiscreteIntegrator): its state takes the width of
/// u, or of a vector x0 where u is a scalar; the limits fit it; the optional `reset` and `x0`
/// inputs (port -1: absent) are scalars or of the state's width.
struct IntegratorWidths {
  int state = 0;
  int reset = 0;  ///< 0 without a reset input
  int x0 = 0;     ///< 0 without an x0 input
};

/// @throws BlockError naming the parameter or input that does not fit.
inline IntegratorWidths CheckIntegratorWidths(const std::vector<int>& input_widths, int in_reset,
                                              int in_x0, const Eigen::VectorXd& x0,
                                              const Eigen::VectorXd& lower,
                                              const Eigen::VectorXd& upper) {
  const int wu = input_widths[0];
  IntegratorWidths w;
  w.state = wu;
  if (in_x0 < 0 && x0.size() > 1) {
    if (wu != 1) CheckParamFitsWidth("x0", static_cast<int>(x0.size()), wu, "u");
    w.state = static_cast<int>(x0.size());
  }
  CheckParamFitsWidth("lower", static_cast<int>(lower.size()), w.state, "u");
  CheckParamFitsWidth("upper", static_cast<int>(upper.size()), w.state, "u");
  auto check_input = [&](int port, const char* name) {
    if (port < 0) return 0;
    const int wi = input_widths[port];
    if (wi != 1 && wi != w.state) {
      throw BlockError(std::string("input '") + name + "' has width " + std::to_string(wi) +
                           ", expected 1 or the state width " + std::to_string(w.state),
                       {}, name);
    }
    return wi;
  };
  w.reset = check_input(in_reset, "reset");
  w.x0 = check_input(in_x0, "x0");
  return w;
}

}  // namespace twinblocks::blocks::internal

namespace twinblocks::blocks::internal {

/// The sample time of a discrete block from its `Ts` (s; -1 inherits) and `offset` (s)
/// parameters. @throws BlockError unless Ts is -1 or positive and finite, 0 <= offset < Ts.
inline SampleTime DiscreteSampleTime(double ts, double offset) {
  if (ts == -1.0) return SampleTime::Inherited();
  if (!(ts > 0.0) || ts == std::numeric_limits<double>::infinity()) {
    throw BlockError("parameter 'Ts' must be a positive sample time in s, or -1 to inherit", "Ts");
  }
  if (!(offset >= 0.0 && offset < ts)) {
    throw BlockError("parameter 'offset' must satisfy 0 <= offset < Ts", "offset");
  }
  return SampleTime::Discrete(ts, offset);
}

}  // namespace twinblocks::blocks::internal

namespace twinblocks::blocks::internal {

/// A relational operator of RelationalOperator and CompareToConstant.
enum class CompareOp { kLess, kLessEqual, kGreater, kGreaterEqual, kEqual, kNotEqual };

/// The operator words, in the catalog's order.
inline std::vector<std::string> CompareOpWords() { return {"<", "<=", ">", ">=", "==", "!="}; }

/// @throws BlockError naming `param` for a word that is not an operator.
inline CompareOp ParseCompareOp(const std::string& word, const char* param) {
  if (word == "<") return CompareOp::kLess;
  if (word == "<=") return CompareOp::kLessEqual;
  if (word == ">") return CompareOp::kGreater;
  if (word == ">=") return CompareOp::kGreaterEqual;
  if (word == "==") return CompareOp::kEqual;
  if (word == "!=") return CompareOp::kNotEqual;
  throw BlockError(
      std::string("parameter '") + param + "' must be one of < <= > >= == !=, got '" + word + "'",
      param);
}

inline bool Compare(CompareOp op, double a, double b) {
  switch (op) {
    case CompareOp::kLess:
      return a < b;
    case CompareOp::kLessEqual:
      return a <= b;
    case CompareOp::kGreater:
      return a > b;
    case CompareOp::kGreaterEqual:
      return a >= b;
    case CompareOp::kEqual:
      return a == b;
    case CompareOp::kNotEqual:
      return a != b;
  }
  return false;
}

}  // namespace twinblocks::blocks::internal
