#pragma once

#include <string>
#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// Plays back a table given as parameters: a time vector and a matrix of values, one row per
/// time (arrays from Python become this parameter text). Between rows it interpolates
/// linearly or holds the row (zoh); before and after the data it holds the end row, gives 0 or
/// stops the run.
class FromWorkspace final : public Block {
 public:
  enum class Extrapolation { kHold, kZero, kError };

  /// @throws BlockError unless the times are finite and strictly increasing and the values
  /// finite, one row per time.
  explicit FromWorkspace(const Params& params);

  int num_rows() const { return static_cast<int>(times_.size()); }

 protected:
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  double DoNextBreakpoint(const Context& c, double t) const override;
  double DoEndTime() const override;
  std::string DoEndReason() const override;

 private:
  /// The row i with times_[i] <= t < times_[i + 1]; -1 before the first time, the last row
  /// from the last time on.
  int RowAt(double t) const;
  const double* Row(int i) const { return values_.data() + static_cast<size_t>(i) * width_; }
  [[noreturn]] void ThrowOutside(double t) const;

  bool zoh_ = false;
  Extrapolation extrapolation_ = Extrapolation::kHold;
  int width_ = 0;
  std::vector<double> times_;   ///< s, (rows)
  std::vector<double> values_;  ///< (rows x width), row-major
};

/// The registry entry of FromWorkspace.
BlockType FromWorkspaceType();

}  // namespace twinblocks::blocks
