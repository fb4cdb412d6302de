#pragma once

#include <string>
#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// Plays back a CSV table: the first column is time (strictly increasing), the others
/// become y. Read once, in the constructor.
class FromFile final : public Block {
 public:
  /// Reads params.base_dir() + `file` (an absolute `file` as is).
  /// @throws BlockError naming file:line for a file that cannot be read or parsed.
  explicit FromFile(const Params& params);

  int num_rows() const { return static_cast<int>(times_.size()); }

 protected:
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  double DoNextBreakpoint(const Context& c, double t) const override;
  double DoEndTime() const override;
  std::string DoEndReason() const override;

 private:
  void Load(const std::string& path);
  /// The row i with times_[i] <= t < times_[i + 1]; -1 before the first time.
  int RowAt(double t) const;
  [[noreturn]] void ThrowOutside(double t) const;

  std::string path_;
  bool zoh_ = false;
  bool error_outside_ = false;
  int width_ = 0;
  std::vector<double> times_;   ///< s, (rows)
  std::vector<double> values_;  ///< (rows x width), row-major
};

/// The registry entry of FromFile.
BlockType FromFileType();

}  // namespace twinblocks::blocks
