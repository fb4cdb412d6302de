#include "blocks/nonlinear/backlash.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

Backlash::Backlash(const Params& params)
    : width_param_(params.Vector("deadband_width")),
      initial_output_param_(params.Vector("initial_output")) {
  internal::CommonParamWidth(
      {{"deadband_width", &width_param_}, {"initial_output", &initial_output_param_}});
  for (Eigen::Index i = 0; i < width_param_.size(); ++i) {
    if (!(width_param_(i) >= 0.0) || !std::isfinite(width_param_(i))) {
      throw BlockError("parameter 'deadband_width' must be finite and >= 0 (units of u)",
                       "deadband_width");
    }
  }
  if (!initial_output_param_.allFinite()) {
    throw BlockError("parameter 'initial_output' must be finite", "initial_output");
  }
  DeclareInput("u");
  DeclareOutput("y");
  DeclareUpdate();  // keeps the output of every major step
}

void Backlash::DoConfigure(const std::vector<int>& input_widths) {
  const int wu = input_widths[0];
  const int wp = static_cast<int>(std::max(width_param_.size(), initial_output_param_.size()));
  if (wp != 1 && wu != 1) {
    internal::CheckParamFitsWidth(width_param_.size() > 1 ? "deadband_width" : "initial_output", wp,
                                  wu, "u");
  }
  width_ = std::max(wu, wp);
  u_stride_ = internal::StrideOf(wu);
  half_width_ = internal::Expand(width_param_ / 2.0, width_);
  initial_output_ = internal::Expand(initial_output_param_, width_);
  SetOutputWidth(0, width_);
  DeclareDWork(width_);
  DeclareModes(width_);
  DeclareZeroCrossings(2 * width_);
}

void Backlash::DoInitialize(Context& c) const {
  double* held = dwork(c);
  for (int i = 0; i < width_; ++i) held[i] = initial_output_[i];
  std::fill(modes(c), modes(c) + width_, 0);
}

void Backlash::DoCalcOutputs(Context& c, int stage) const {
  const double* held = dwork(static_cast<const Context&>(c));
  const double* u = in(c, 0);
  double* y = out(c, 0);
  int* mode = modes(c);
  for (int i = 0; i < width_; ++i) {
    const double lo = u[i * u_stride_] - half_width_[i];
    const double hi = u[i * u_stride_] + half_width_[i];
    if (c.major) {
      // The play operator: the input drags the output when it reaches a side of the band.
      // y_held changes only in Update, so that a second evaluation here gives the same.
      mode[i] = lo > held[i] ? 1 : (hi < held[i] ? -1 : 0);
    }
    // Engaged, the output follows the input but never back past where the last major step
    // left it: where the input turns inside a step, the output stays there, continuous.
    y[i] = mode[i] > 0 ? std::max(lo, held[i]) : (mode[i] < 0 ? std::min(hi, held[i]) : held[i]);
  }
}

void Backlash::DoUpdate(Context& c) const {
  double* held = dwork(c);
  const double* y = out(c, 0);
  for (int i = 0; i < width_; ++i) held[i] = y[i];
}

void Backlash::DoCalcZeroCrossings(Context& c) const {
  const double* held = dwork(static_cast<const Context&>(c));
  const double* u = in(c, 0);
  double* z = zc(c);
  const bool active = internal::ZeroCrossingsActive(*this);
  for (int i = 0; i < width_; ++i) {
    z[2 * i] = active ? u[i * u_stride_] - half_width_[i] - held[i] : 1.0;
    z[2 * i + 1] = active ? u[i * u_stride_] + half_width_[i] - held[i] : 1.0;
  }
}

BlockType BacklashType() {
  BlockType t;
  t.name = "Backlash";
  t.category = "Discontinuities";
  t.summary = "Play: the output moves only when the input pushes it from either side.";
  t.doc =
      "A deadband of deadband_width w, centred on the output, starts centred on "
      "initial_output. While the input is inside it the output holds (disengaged); where the "
      "input reaches a side it drags the output with it: y = u - w/2 pushing up, y = u + w/2 "
      "pushing down (engaged). At each major step y = min(max(y_held, u - w/2), u + w/2), "
      "with y_held the output of the last major step, element-wise. Zero crossings "
      "(continuous rate): the engaged or disengaged state is a mode chosen at major steps, "
      "and the functions u - w/2 - y_held and u + w/2 - y_held land the solver where the "
      "input engages either side; engaged, the output follows the input inside a step but "
      "never back past y_held, where the same function lands the step. An input that turns "
      "round inside a solver step leaves the output at the step's start, short of the "
      "turning point by at most how far u moved in that step (Simulink also disengages at "
      "major steps). Inherited sample time; direct feedthrough.";
  t.reference = "Simulink Backlash (BacklashWidth, InitialOutput, zero-crossing detection on)";
  t.params = {{"deadband_width", ParamKind::kVector, "1",
               "width of the play, units of u, >= 0, scalar or per element"},
              {"initial_output", ParamKind::kVector, "0",
               "output at the start (the band's first centre), scalar or per element"}};
  t.inputs = {{"u", "input, any width"}};
  t.outputs = {{"y", "the output behind the play"}};
  t.create = [](const Params& p) { return std::make_unique<Backlash>(p); };
  return t;
}

}  // namespace twinblocks::blocks
