#include "blocks/delay/variable_transport_delay.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

VariableTransportDelay::VariableTransportDelay(const Params& params)
    : max_delay_(params.Scalar("max_delay")),
      initial_output_param_(params.Vector("initial_output")),
      buffer_size_(internal::DelayBufferSize(params.Scalar("buffer_size"))) {
  if (!(max_delay_ > 0.0) || !std::isfinite(max_delay_)) {
    throw BlockError("parameter 'max_delay' must be a finite time > 0 s", "max_delay");
  }
  if (initial_output_param_.size() == 0) {
    throw BlockError("parameter 'initial_output' is empty", "initial_output");
  }
  if (!initial_output_param_.allFinite()) {
    throw BlockError("parameter 'initial_output' must be finite", "initial_output");
  }
  // Only the past of u is read (a delay shorter than the step extrapolates it); the delay
  // itself is read now.
  DeclareInput("u", kDynamicWidth, kNoFeedthrough);
  DeclareInput("d");
  DeclareOutput("y");
  DeclareSampleTime(SampleTime::Continuous());
  DeclareUpdate();          // records u at every major step
  DeclareTimeDependence();  // reads its history at t - d
}

void VariableTransportDelay::DoConfigure(const std::vector<int>& input_widths) {
  const int wu = input_widths[0];
  const int wd = input_widths[1];
  const int n0 = static_cast<int>(initial_output_param_.size());
  if (n0 > 1 && wu != 1) internal::CheckParamFitsWidth("initial_output", n0, wu, "u");
  width_ = n0 > 1 ? n0 : wu;
  if (wd != 1 && wd != width_) {
    throw BlockError("input 'd' has width " + std::to_string(wd) + ", expected 1 or " +
                         std::to_string(width_) + " (one delay per element of u)",
                     {}, "d");
  }
  u_stride_ = internal::StrideOf(wu);
  d_stride_ = internal::StrideOf(wd);
  initial_output_ = internal::Expand(initial_output_param_, width_);
  SetOutputWidth(0, width_);
  DeclareDWork(internal::DelayHistory::WorkSize(buffer_size_, width_));
  DeclareModes(width_);
  DeclareZeroCrossings(width_);
  history_ = internal::DelayHistory(buffer_size_, width_);
}

void VariableTransportDelay::DoInitialize(Context& c) const {
  history_.Clear(dwork(c));
  std::fill(modes(c), modes(c) + width_, 0);
}

double VariableTransportDelay::ReadTime(const Context& c, int i) const {
  const double d = in(c, 1)[i * d_stride_];
  // NaN stays NaN (and reads as NaN) rather than becoming a limit.
  return c.t - (d < 0.0 ? 0.0 : (d > max_delay_ ? max_delay_ : d));
}

void VariableTransportDelay::DoCalcOutputs(Context& c, int stage) const {
  const double* dw = dwork(static_cast<const Context&>(c));
  double* y = out(c, 0);
  int* started = modes(c);
  const int n = history_.count(dw);
  if (c.major) {
    for (int i = 0; i < width_; ++i) {
      started[i] = n > 0 && ReadTime(c, i) >= history_.time(dw, 0) ? 1 : 0;
    }
  }
  for (int i = 0; i < width_; ++i) {
    y[i] = started[i] == 0 ? initial_output_[i] : history_.ReadElement(dw, ReadTime(c, i), i);
  }
}

void VariableTransportDelay::DoUpdate(Context& c) const {
  double* dw = dwork(c);
  if (!history_.Append(dw, c.t, in(c, 0), u_stride_, c.t - max_delay_)) {
    throw std::runtime_error(internal::FullHistoryMessage(history_, dw, max_delay_, "max_delay"));
  }
}

void VariableTransportDelay::DoCalcZeroCrossings(Context& c) const {
  const double* dw = dwork(static_cast<const Context&>(c));
  double* z = zc(c);
  const bool any = history_.count(dw) > 0;
  for (int i = 0; i < width_; ++i) z[i] = any ? ReadTime(c, i) - history_.time(dw, 0) : -1.0;
}

BlockType VariableTransportDelayType() {
  BlockType t;
  t.name = "VariableTransportDelay";
  t.category = "Delays";
  t.summary = "Delays its input by a time given by a second input.";
  t.doc =
      "y(t) = u(t - d(t)), with the delay d clipped to [0, max_delay], element by element (a "
      "scalar d delays every element alike), and y = initial_output while t - d(t) is before "
      "t0: a zero crossing of t - d - t0 lands the solver where y jumps to u(t0). The "
      "history of u and how it is read are TransportDelay's: buffer_size samples taken at "
      "major steps, allocated before the run; the bounded, essentially non-oscillatory quintic "
      "between "
      "samples; the line through the last two samples past the newest (a delay shorter than "
      "the step); a run whose history would have to drop input that a delay up to max_delay "
      "may still read fails, naming the block, the time and the buffer_size to set. u is "
      "not direct feedthrough, d is. Continuous sample time.";
  t.reference =
      "Simulink Variable Transport Delay in its Variable time delay form (MaximumDelay, "
      "InitialOutput, MaximumPoints); Simulink interpolates linearly between samples, this "
      "block with TransportDelay's quintic";
  t.params = {{"max_delay", ParamKind::kScalar, "10", "largest delay, s, > 0 (d is clipped to it)"},
              {"initial_output", ParamKind::kVector, "0",
               "output until t - d reaches t0, scalar or "
               "per element"},
              {"buffer_size", ParamKind::kScalar, "1024",
               "samples of input the history holds (major steps within max_delay), >= 6"}};
  t.inputs = {{"u", "input, any width"}, {"d", "delay, s, scalar or one per element of u"}};
  t.outputs = {{"y", "u(t - d), width of u (or of a vector initial_output)"}};
  t.create = [](const Params& p) { return std::make_unique<VariableTransportDelay>(p); };
  return t;
}

}  // namespace twinblocks::blocks
