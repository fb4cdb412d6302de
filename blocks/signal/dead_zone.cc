#include "blocks/signal/dead_zone.h"

#include <algorithm>
#include <memory>

#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

DeadZone::DeadZone(const Params& params)
    : start_param_(params.Vector("start")), end_param_(params.Vector("end")) {
  const int w = internal::CommonParamWidth({{"start", &start_param_}, {"end", &end_param_}});
  const std::vector<double> lo = internal::Expand(start_param_, w);
  const std::vector<double> hi = internal::Expand(end_param_, w);
  for (int i = 0; i < w; ++i) {
    if (lo[i] > hi[i]) throw BlockError("parameter 'start' is above 'end'", "start");
  }
  DeclareInput("u");
  DeclareOutput("y");
}

void DeadZone::DoConfigure(const std::vector<int>& input_widths) {
  const int wu = input_widths[0];
  const int wp = static_cast<int>(std::max(start_param_.size(), end_param_.size()));
  if (wp != 1 && wu != 1)
    internal::CheckParamFitsWidth(start_param_.size() > 1 ? "start" : "end", wp, wu, "u");
  const int w = std::max(wu, wp);
  u_stride_ = internal::StrideOf(wu);
  start_ = internal::Expand(start_param_, w);
  end_ = internal::Expand(end_param_, w);
  SetOutputWidth(0, w);
  DeclareModes(w);  // -1 below start, 0 inside, +1 above end
  DeclareZeroCrossings(2 * w);
}

void DeadZone::DoInitialize(Context& c) const {
  int* mode = modes(c);
  for (int i = 0; i < num_modes(); ++i) mode[i] = 0;
}

void DeadZone::DoCalcOutputs(Context& c, int stage) const {
  const double* u = in(c, 0);
  double* y = out(c, 0);
  int* mode = modes(c);
  const int n = out_width(0);
  if (c.major) {
    for (int i = 0; i < n; ++i) {
      const double ui = u[i * u_stride_];
      mode[i] = ui > end_[i] ? 1 : (ui < start_[i] ? -1 : 0);
    }
  }
  for (int i = 0; i < n; ++i) {
    const double ui = u[i * u_stride_];
    y[i] = mode[i] == 0 ? 0.0 : (mode[i] > 0 ? ui - end_[i] : ui - start_[i]);
  }
}

void DeadZone::DoCalcZeroCrossings(Context& c) const {
  const double* u = in(c, 0);
  double* z = zc(c);
  const int n = out_width(0);
  const bool active = internal::ZeroCrossingsActive(*this);
  for (int i = 0; i < n; ++i) {
    const double ui = u[i * u_stride_];
    z[2 * i] = active ? ui - start_[i] : 1.0;
    z[2 * i + 1] = active ? ui - end_[i] : 1.0;
  }
}

BlockType DeadZoneType() {
  BlockType t;
  t.name = "DeadZone";
  t.category = "Math and continuous";
  t.summary = "Zero output inside [start, end], shifted input outside.";
  t.doc =
      "y = u - end where u > end, y = u - start where u < start, y = 0 otherwise, "
      "element-wise; vector limits apply per element. Zero crossings (continuous rate): the "
      "region is a mode chosen at major steps and held inside solver steps; the zero-crossing "
      "functions are u - start and u - end per element. Inherited sample time; direct "
      "feedthrough.";
  t.reference = "Simulink Dead Zone (zero-crossing detection on)";
  t.params = {{"start", ParamKind::kVector, "-0.5", "lower end of the dead zone"},
              {"end", ParamKind::kVector, "0.5", "upper end of the dead zone"}};
  t.inputs = {{"u", "input"}};
  t.outputs = {{"y", "the input outside the dead zone, shifted to be continuous"}};
  t.create = [](const Params& p) { return std::make_unique<DeadZone>(p); };
  return t;
}

}  // namespace twinblocks::blocks
