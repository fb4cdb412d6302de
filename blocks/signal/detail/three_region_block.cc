#include "blocks/signal/detail/three_region_block.h"

#include <algorithm>

#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks::internal {

ThreeRegionBlock::ThreeRegionBlock(const Params& params, std::string lo_name, std::string hi_name,
                                   const std::array<Piece, 3>& pieces)
    : lo_name_(std::move(lo_name)),
      hi_name_(std::move(hi_name)),
      pieces_(pieces),
      lo_param_(params.Vector(lo_name_)),
      hi_param_(params.Vector(hi_name_)) {
  const int w = CommonParamWidth({{lo_name_.c_str(), &lo_param_}, {hi_name_.c_str(), &hi_param_}});
  const std::vector<double> lo = Expand(lo_param_, w);
  const std::vector<double> hi = Expand(hi_param_, w);
  for (int i = 0; i < w; ++i) {
    if (lo[i] > hi[i]) {
      throw BlockError("parameter '" + lo_name_ + "' is above '" + hi_name_ + "'", lo_name_);
    }
  }
  DeclareInput("u");
  DeclareOutput("y");
}

void ThreeRegionBlock::DoConfigure(const std::vector<int>& input_widths) {
  const int wu = input_widths[0];
  const int wp = static_cast<int>(std::max(lo_param_.size(), hi_param_.size()));
  if (wp != 1 && wu != 1) {
    CheckParamFitsWidth(lo_param_.size() > 1 ? lo_name_.c_str() : hi_name_.c_str(), wp, wu, "u");
  }
  const int w = std::max(wu, wp);
  u_stride_ = StrideOf(wu);
  lo_ = Expand(lo_param_, w);
  hi_ = Expand(hi_param_, w);
  offset_.resize(3 * w);
  for (int r = 0; r < 3; ++r) {
    for (int i = 0; i < w; ++i) {
      offset_[r * w + i] = pieces_[r].at_lo * lo_[i] + pieces_[r].at_hi * hi_[i];
    }
  }
  SetOutputWidth(0, w);
  DeclareModes(w);
  DeclareZeroCrossings(2 * w);
}

void ThreeRegionBlock::DoInitialize(Context& c) const {
  std::fill(modes(c), modes(c) + num_modes(), 0);
}

void ThreeRegionBlock::DoCalcOutputs(Context& c, int stage) const {
  const double* u = in(c, 0);
  double* y = out(c, 0);
  int* mode = modes(c);
  const int n = out_width(0);
  if (c.major) {
    for (int i = 0; i < n; ++i) {
      const double ui = u[i * u_stride_];
      mode[i] = ui > hi_[i] ? 1 : (ui < lo_[i] ? -1 : 0);
    }
  }
  for (int i = 0; i < n; ++i) {
    const int r = mode[i] + 1;
    // A flat piece ignores u entirely, so that saturating an infinite input gives the limit
    // rather than 0 * inf.
    const double slope = pieces_[r].slope;
    y[i] = slope == 0.0 ? offset_[r * n + i] : slope * u[i * u_stride_] + offset_[r * n + i];
  }
}

void ThreeRegionBlock::DoCalcZeroCrossings(Context& c) const {
  const double* u = in(c, 0);
  double* z = zc(c);
  const int n = out_width(0);
  const bool active = ZeroCrossingsActive(*this);
  for (int i = 0; i < n; ++i) {
    const double ui = u[i * u_stride_];
    z[2 * i] = active ? ui - hi_[i] : 1.0;
    z[2 * i + 1] = active ? ui - lo_[i] : 1.0;
  }
}

}  // namespace twinblocks::blocks::internal
