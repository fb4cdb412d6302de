#include "blocks/nonlinear/quantizer.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

Quantizer::Quantizer(const Params& params) : interval_param_(params.Vector("interval")) {
  if (interval_param_.size() == 0) throw BlockError("parameter 'interval' is empty", "interval");
  for (Eigen::Index i = 0; i < interval_param_.size(); ++i) {
    if (!(interval_param_(i) > 0.0) || !std::isfinite(interval_param_(i))) {
      throw BlockError("parameter 'interval' must be finite and > 0 (units of u)", "interval");
    }
  }
  DeclareInput("u");
  DeclareOutput("y");
}

void Quantizer::DoConfigure(const std::vector<int>& input_widths) {
  const int wu = input_widths[0];
  const int wp = static_cast<int>(interval_param_.size());
  if (wp != 1 && wu != 1) internal::CheckParamFitsWidth("interval", wp, wu, "u");
  width_ = std::max(wu, wp);
  u_stride_ = internal::StrideOf(wu);
  interval_ = internal::Expand(interval_param_, width_);
  SetOutputWidth(0, width_);
  DeclareDWork(width_);
  DeclareZeroCrossings(2 * width_);
}

void Quantizer::DoInitialize(Context& c) const { std::fill(dwork(c), dwork(c) + width_, 0.0); }

void Quantizer::DoCalcOutputs(Context& c, int stage) const {
  double* level = dwork(c);
  const double* u = in(c, 0);
  double* y = out(c, 0);
  if (c.major) {
    for (int i = 0; i < width_; ++i) level[i] = std::round(u[i * u_stride_] / interval_[i]);
  }
  for (int i = 0; i < width_; ++i) y[i] = interval_[i] * level[i];
}

void Quantizer::DoCalcZeroCrossings(Context& c) const {
  const double* level = dwork(static_cast<const Context&>(c));
  const double* u = in(c, 0);
  double* z = zc(c);
  const bool active = internal::ZeroCrossingsActive(*this);
  for (int i = 0; i < width_; ++i) {
    const double ui = u[i * u_stride_];
    z[2 * i] = active ? ui - interval_[i] * (level[i] + 0.5) : 1.0;
    z[2 * i + 1] = active ? ui - interval_[i] * (level[i] - 0.5) : 1.0;
  }
}

BlockType QuantizerType() {
  BlockType t;
  t.name = "Quantizer";
  t.category = "Discontinuities";
  t.summary = "Rounds its input to a multiple of an interval.";
  t.doc =
      "y = q round(u / q), element-wise, with q the interval and halves rounded away from "
      "zero. Zero crossings (continuous rate): the level round(u / q) is chosen at major "
      "steps and held inside the solver's steps, and the functions u - q (level + 1/2) and "
      "u - q (level - 1/2) land the solver on each jump. Inherited sample time; direct "
      "feedthrough.";
  t.reference = "Simulink Quantizer (QuantizationInterval, zero-crossing detection on)";
  t.params = {{"interval", ParamKind::kVector, "0.5",
               "quantization interval q, units of u, > 0, scalar or per element"}};
  t.inputs = {{"u", "input, any width"}};
  t.outputs = {{"y", "the quantized input"}};
  t.create = [](const Params& p) { return std::make_unique<Quantizer>(p); };
  return t;
}

}  // namespace twinblocks::blocks
