#include "blocks/signal/saturation.h"

#include <algorithm>
#include <memory>

#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

Saturation::Saturation(const Params& params)
    : lower_param_(params.Vector("lower")), upper_param_(params.Vector("upper")) {
  const int w = internal::CommonParamWidth({{"lower", &lower_param_}, {"upper", &upper_param_}});
  const std::vector<double> lo = internal::Expand(lower_param_, w);
  const std::vector<double> hi = internal::Expand(upper_param_, w);
  for (int i = 0; i < w; ++i) {
    if (lo[i] > hi[i]) throw BlockError("parameter 'lower' is above 'upper'", "lower");
  }
  DeclareInput("u");
  DeclareOutput("y");
}

void Saturation::DoConfigure(const std::vector<int>& input_widths) {
  const int wu = input_widths[0];
  const int wp = static_cast<int>(std::max(lower_param_.size(), upper_param_.size()));
  if (wp != 1 && wu != 1)
    internal::CheckParamFitsWidth(lower_param_.size() > 1 ? "lower" : "upper", wp, wu, "u");
  const int w = std::max(wu, wp);
  u_stride_ = internal::StrideOf(wu);
  lower_ = internal::Expand(lower_param_, w);
  upper_ = internal::Expand(upper_param_, w);
  SetOutputWidth(0, w);
  DeclareModes(w);  // -1 at lower, 0 inside, +1 at upper
  DeclareZeroCrossings(2 * w);
}

void Saturation::DoInitialize(Context& c) const {
  int* mode = modes(c);
  for (int i = 0; i < num_modes(); ++i) mode[i] = 0;
}

void Saturation::DoCalcOutputs(Context& c, int stage) const {
  const double* u = in(c, 0);
  double* y = out(c, 0);
  int* mode = modes(c);
  const int n = out_width(0);
  const double* lo = lower_.data();
  const double* hi = upper_.data();
  if (c.major) {
    for (int i = 0; i < n; ++i) {
      const double ui = u[i * u_stride_];
      mode[i] = ui > hi[i] ? 1 : (ui < lo[i] ? -1 : 0);
    }
  }
  for (int i = 0; i < n; ++i) {
    y[i] = mode[i] == 0 ? u[i * u_stride_] : (mode[i] > 0 ? hi[i] : lo[i]);
  }
}

void Saturation::DoCalcZeroCrossings(Context& c) const {
  const double* u = in(c, 0);
  double* z = zc(c);
  const int n = out_width(0);
  const bool active = internal::ZeroCrossingsActive(*this);
  for (int i = 0; i < n; ++i) {
    const double ui = u[i * u_stride_];
    z[2 * i] = active ? ui - upper_[i] : 1.0;
    z[2 * i + 1] = active ? ui - lower_[i] : 1.0;
  }
}

BlockType SaturationType() {
  BlockType t;
  t.name = "Saturation";
  t.category = "Math and continuous";
  t.summary = "Limits the input to [lower, upper].";
  t.doc =
      "y = upper where u > upper, lower where u < lower, u otherwise, element-wise; vector "
      "limits apply per element (scalars expand). Zero crossings (continuous rate): the "
      "region is a mode chosen at major steps and held inside solver steps, so y stays "
      "smooth within a step; the zero-crossing functions are u - upper and u - lower per "
      "element. Inherited sample time; direct feedthrough.";
  t.reference = "Simulink Saturation (zero-crossing detection on)";
  t.params = {{"lower", ParamKind::kVector, "-1", "lower limit, scalar or per element"},
              {"upper", ParamKind::kVector, "1", "upper limit, scalar or per element"}};
  t.inputs = {{"u", "input"}};
  t.outputs = {{"y", "the limited input"}};
  t.create = [](const Params& p) { return std::make_unique<Saturation>(p); };
  return t;
}

}  // namespace twinblocks::blocks
