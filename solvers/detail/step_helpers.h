#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "solvers/integrator.h"

namespace twinblocks::solvers::internal {

/// The spacing of doubles at 1: relative round-off, in step-size floors and difference increments.
inline constexpr double kEps = std::numeric_limits<double>::epsilon();

/// Index of the first NaN or Inf entry of `v`, or -1 when all are finite.
inline int FirstNonFinite(const Eigen::Ref<const Eigen::VectorXd>& v) {
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    if (!std::isfinite(v[i])) return static_cast<int>(i);
  }
  return -1;
}

/// True when g_i went from one side of zero to the other (or onto zero) between two points.
/// g0 == 0 means the previous step ended on a crossing of this function: not a new one.
inline bool SignChanged(double g0, double g1) {
  return (g0 > 0.0 && g1 <= 0.0) || (g0 < 0.0 && g1 >= 0.0);
}

/// True when g has reached the other side, not just zero. A located crossing ends where this
/// holds, so that the blocks deciding their modes there (u > upper, say) see the new region
/// rather than the boundary itself.
inline bool SignStrictlyChanged(double g0, double g1) {
  return (g0 > 0.0 && g1 < 0.0) || (g0 < 0.0 && g1 > 0.0);
}

/// The message of the error a non-finite state raises.
std::string NonFiniteStateMessage(std::string_view solver, const std::string& state, double value,
                                  double t_from, double t_to);

/// The absolute tolerance of each of `nx` states: options.state_atol, or options.atol for
/// every state when that is empty.
/// @throws std::invalid_argument when state_atol has another size or an entry that is not a
/// positive number.
Eigen::VectorXd AbsoluteTolerances(std::string_view solver, const IntegratorOptions& options,
                                   int nx);

/// Simulink's "Auto scale absolute tolerance" (IntegratorOptions::scale_atol): each state's
/// absolute tolerance grows to rtol times the largest |x_i| it has reached.
class AbsoluteToleranceScaling {
 public:
  AbsoluteToleranceScaling() = default;  ///< off
  /// Off unless options.scale_atol; then it scales every state not in options.fixed_atol.
  /// @throws std::invalid_argument when fixed_atol is neither empty nor of nx entries.
  AbsoluteToleranceScaling(std::string_view solver, const IntegratorOptions& options, int nx);

  bool on() const { return growth_.size() > 0; }
  /// atol_i = max(atol_i, rtol |x_i|) for each scaled state: at x, a state the run has reached.
  /// No allocation.
  void Grow(const Eigen::Ref<const Eigen::VectorXd>& x, Eigen::Ref<Eigen::VectorXd> atol) const;

 private:
  Eigen::VectorXd growth_;  // per state, rtol where it scales, 0 where it stays; empty: off
};

/// Throws std::invalid_argument when `x` does not have `nx` entries.
void CheckStateSize(std::string_view solver, Eigen::Index size, int nx);

/// Throws std::logic_error for a Step called before Reset or backwards in time.
void CheckStepRequest(std::string_view solver, bool started, double t, double t_stop);

/// Appends numbers and matrices to an integrator's saved memory (IntegratorSnapshot).
class MemoryWriter {
 public:
  explicit MemoryWriter(std::vector<double>* out) : out_(out) {}
  MemoryWriter& operator<<(double v) {
    out_->push_back(v);
    return *this;
  }
  MemoryWriter& operator<<(const Eigen::MatrixXd& m) {
    out_->insert(out_->end(), m.data(), m.data() + m.size());
    return *this;
  }
  MemoryWriter& operator<<(const Eigen::VectorXd& v) {
    out_->insert(out_->end(), v.data(), v.data() + v.size());
    return *this;
  }

 private:
  std::vector<double>* out_;
};

/// Reads back what a MemoryWriter wrote, in the same order, into storage of the same sizes.
class MemoryReader {
 public:
  /// @throws std::invalid_argument when `in` does not have `expected` numbers.
  MemoryReader(std::span<const double> in, size_t expected, std::string_view solver) : in_(in) {
    if (in.size() != expected) {
      throw std::invalid_argument(std::string(solver) + ": the snapshot's solver memory has " +
                                  std::to_string(in.size()) + " numbers, expected " +
                                  std::to_string(expected) + " (saved by another solver?)");
    }
  }
  double Next() { return in_[at_++]; }
  void Into(Eigen::MatrixXd* m) {
    std::copy(in_.begin() + at_, in_.begin() + at_ + m->size(), m->data());
    at_ += m->size();
  }
  void Into(Eigen::VectorXd* v) {
    std::copy(in_.begin() + at_, in_.begin() + at_ + v->size(), v->data());
    at_ += v->size();
  }

 private:
  std::span<const double> in_;
  size_t at_ = 0;
};

}  // namespace twinblocks::solvers::internal
