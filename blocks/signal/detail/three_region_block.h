#pragma once

#include <Eigen/Core>
#include <array>
#include <string>
#include <vector>

#include "blocks/block.h"
#include "blocks/param.h"

namespace twinblocks::blocks::internal {

/// A block whose output is linear in u on each of three regions split by two breakpoints
/// lo <= hi, element-wise: below lo, inside [lo, hi], above hi (Saturation, DeadZone). The
/// region is a mode per element (-1, 0, +1) chosen at major steps and held inside solver
/// steps, so the output stays smooth within a step; the zero-crossing functions are u - hi
/// and u - lo. Breakpoints are scalars or vectors (scalars expand).
class ThreeRegionBlock : public Block {
 public:
  /// y = slope u + at_lo lo + at_hi hi on one region.
  struct Piece {
    double slope;
    double at_lo;
    double at_hi;
  };

 protected:
  /// @param pieces the output on the regions below, inside and above.
  /// @throws BlockError when lo > hi or the breakpoints disagree in width.
  ThreeRegionBlock(const Params& params, std::string lo_name, std::string hi_name,
                   const std::array<Piece, 3>& pieces);

  /// @throws BlockError when a vector breakpoint does not fit the width of u.
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  void DoCalcZeroCrossings(Context& c) const override;

 private:
  std::string lo_name_, hi_name_;
  std::array<Piece, 3> pieces_;
  Eigen::VectorXd lo_param_, hi_param_;
  std::vector<double> lo_, hi_;  ///< (width) breakpoints per element
  std::vector<double> offset_;   ///< (3 x width) at_lo lo + at_hi hi per region
  int u_stride_ = 1;
};

}  // namespace twinblocks::blocks::internal
