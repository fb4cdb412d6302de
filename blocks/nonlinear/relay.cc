#include "blocks/nonlinear/relay.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

Relay::Relay(const Params& params)
    : on_param_(params.Vector("on_switch_point")),
      off_param_(params.Vector("off_switch_point")),
      on_value_param_(params.Vector("on_value")),
      off_value_param_(params.Vector("off_value")) {
  const int w = internal::CommonParamWidth({{"on_switch_point", &on_param_},
                                            {"off_switch_point", &off_param_},
                                            {"on_value", &on_value_param_},
                                            {"off_value", &off_value_param_}});
  const std::vector<double> on = internal::Expand(on_param_, w);
  const std::vector<double> off = internal::Expand(off_param_, w);
  for (int i = 0; i < w; ++i) {
    if (std::isnan(on[i]))
      throw BlockError("parameter 'on_switch_point' is NaN", "on_switch_point");
    if (std::isnan(off[i])) {
      throw BlockError("parameter 'off_switch_point' is NaN", "off_switch_point");
    }
    if (on[i] < off[i]) {
      throw BlockError(
          "parameter 'on_switch_point' must be >= 'off_switch_point' (equal: a switch without "
          "hysteresis)",
          "on_switch_point");
    }
  }
  if (!on_value_param_.allFinite()) {
    throw BlockError("parameter 'on_value' must be finite", "on_value");
  }
  if (!off_value_param_.allFinite()) {
    throw BlockError("parameter 'off_value' must be finite", "off_value");
  }
  DeclareInput("u");
  DeclareOutput("y");
}

void Relay::DoConfigure(const std::vector<int>& input_widths) {
  const int wu = input_widths[0];
  const Eigen::VectorXd* params[] = {&on_param_, &off_param_, &on_value_param_, &off_value_param_};
  const char* names[] = {"on_switch_point", "off_switch_point", "on_value", "off_value"};
  int wp = 1;
  for (int k = 0; k < 4; ++k) {
    const int n = static_cast<int>(params[k]->size());
    if (n > 1 && wu != 1) internal::CheckParamFitsWidth(names[k], n, wu, "u");
    wp = std::max(wp, n);
  }
  width_ = std::max(wu, wp);
  u_stride_ = internal::StrideOf(wu);
  on_ = internal::Expand(on_param_, width_);
  off_ = internal::Expand(off_param_, width_);
  on_value_ = internal::Expand(on_value_param_, width_);
  off_value_ = internal::Expand(off_value_param_, width_);
  SetOutputWidth(0, width_);
  DeclareModes(width_);
  DeclareZeroCrossings(2 * width_);
}

void Relay::DoInitialize(Context& c) const { std::fill(modes(c), modes(c) + width_, 0); }

void Relay::DoCalcOutputs(Context& c, int stage) const {
  const double* u = in(c, 0);
  double* y = out(c, 0);
  int* on = modes(c);
  if (c.major) {
    for (int i = 0; i < width_; ++i) {
      const double ui = u[i * u_stride_];
      // A located crossing ends its step a hair past the switch point; its flag also covers
      // an input that rounding leaves exactly on the point there.
      if (on[i] != 0) {
        if (ui < off_[i] || (zc_crossed(c, 2 * i + 1) && ui <= off_[i])) on[i] = 0;
      } else if (ui > on_[i] || (zc_crossed(c, 2 * i) && ui >= on_[i])) {
        on[i] = 1;
      }
    }
  }
  for (int i = 0; i < width_; ++i) y[i] = on[i] != 0 ? on_value_[i] : off_value_[i];
}

void Relay::DoCalcZeroCrossings(Context& c) const {
  const double* u = in(c, 0);
  double* z = zc(c);
  const bool active = internal::ZeroCrossingsActive(*this);
  for (int i = 0; i < width_; ++i) {
    const double ui = u[i * u_stride_];
    z[2 * i] = active ? ui - on_[i] : 1.0;
    z[2 * i + 1] = active ? ui - off_[i] : 1.0;
  }
}

BlockType RelayType() {
  BlockType t;
  t.name = "Relay";
  t.category = "Discontinuities";
  t.summary = "Switches between two values with hysteresis.";
  t.doc =
      "Off, the relay turns on when u rises above on_switch_point (u > on); on, it turns off "
      "when u falls below off_switch_point (u < off); in between it keeps its state, and it "
      "starts off unless u > on at the first major step (Simulink: an initial input between "
      "the points gives the off output). y = on_value when on, off_value when off, "
      "element-wise. on_switch_point >= off_switch_point; equal points make a switch without "
      "hysteresis. Zero crossings (continuous rate): the state is a mode chosen at major "
      "steps and held inside the solver's steps, and u - on and u - off land the solver on "
      "each switch. Inherited sample time; direct feedthrough.";
  t.reference =
      "Simulink Relay (OnSwitchValue, OffSwitchValue, OnOutputValue, OffOutputValue; "
      "Simulink's switch points default to eps, which the strict comparisons here make 0)";
  t.params = {{"on_switch_point", ParamKind::kVector, "0",
               "input above which the relay turns on, scalar or per element"},
              {"off_switch_point", ParamKind::kVector, "0",
               "input below which it turns off, <= on_switch_point"},
              {"on_value", ParamKind::kVector, "1", "output when on"},
              {"off_value", ParamKind::kVector, "0", "output when off"}};
  t.inputs = {{"u", "input, any width"}};
  t.outputs = {{"y", "on_value or off_value"}};
  t.create = [](const Params& p) { return std::make_unique<Relay>(p); };
  return t;
}

}  // namespace twinblocks::blocks
