#pragma once

#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// y = k u: k a scalar, a vector (element-wise) or a matrix (y = K u).
class Gain final : public Block {
 public:
  /// @throws BlockError when `k` is empty.
  explicit Gain(const Params& params);

 protected:
  /// @throws BlockError when u does not fit k (matrix: width(u) == cols(K); vector: equal
  /// widths or a scalar u).
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoCalcOutputs(Context& c, int stage) const override;

 private:
  enum class Kind { kScalar, kElementwise, kMatrix };
  Kind kind_ = Kind::kScalar;
  double k_ = 1.0;          ///< the scalar gain
  std::vector<double> kv_;  ///< element-wise gains (n), or K row-major (rows x cols)
  int rows_ = 1, cols_ = 1;
  int u_stride_ = 1;  ///< 0 when a scalar u meets a vector gain
};

/// The registry entry of Gain.
BlockType GainType();

}  // namespace twinblocks::blocks
