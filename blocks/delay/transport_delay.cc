#include "blocks/delay/transport_delay.h"

#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>

#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

TransportDelay::TransportDelay(const Params& params)
    : delay_(params.Scalar("delay")),
      initial_output_param_(params.Vector("initial_output")),
      buffer_size_(internal::DelayBufferSize(params.Scalar("buffer_size"))) {
  if (!(delay_ >= 0.0) || !std::isfinite(delay_)) {
    throw BlockError("parameter 'delay' must be a finite time >= 0 s", "delay");
  }
  if (initial_output_param_.size() == 0) {
    throw BlockError("parameter 'initial_output' is empty", "initial_output");
  }
  if (!initial_output_param_.allFinite()) {
    throw BlockError("parameter 'initial_output' must be finite", "initial_output");
  }
  // A delay of 0 is a wire; any other reads only the past, so it breaks algebraic loops.
  DeclareInput("u", kDynamicWidth, delay_ == 0.0 ? kFeedthrough : kNoFeedthrough);
  DeclareOutput("y");
  DeclareSampleTime(SampleTime::Continuous());
  if (delay_ > 0.0) {
    DeclareUpdate();          // records u at every major step
    DeclareTimeDependence();  // reads its history at t - delay
    DeclareBreakpoints();     // the jump from initial_output at t0 + delay
  }
}

void TransportDelay::DoConfigure(const std::vector<int>& input_widths) {
  const int wu = input_widths[0];
  const int n0 = static_cast<int>(initial_output_param_.size());
  if (n0 > 1 && wu != 1) internal::CheckParamFitsWidth("initial_output", n0, wu, "u");
  width_ = n0 > 1 ? n0 : wu;
  u_stride_ = internal::StrideOf(wu);
  initial_output_ = internal::Expand(initial_output_param_, width_);
  SetOutputWidth(0, width_);
  if (delay_ > 0.0) {
    DeclareDWork(internal::DelayHistory::WorkSize(buffer_size_, width_));
    DeclareModes(1);
    history_ = internal::DelayHistory(buffer_size_, width_);
  }
}

void TransportDelay::DoInitialize(Context& c) const {
  if (delay_ == 0.0) return;
  history_.Clear(dwork(c));
  modes(c)[0] = 0;
}

void TransportDelay::DoCalcOutputs(Context& c, int stage) const {
  double* y = out(c, 0);
  if (delay_ == 0.0) {
    const double* u = in(c, 0);
    for (int i = 0; i < width_; ++i) y[i] = u[i * u_stride_];
    return;
  }
  const double* dw = dwork(static_cast<const Context&>(c));
  int* started = modes(c);
  if (c.major) {
    // The same sum as the breakpoint's, so that the step landing there starts the output.
    started[0] = history_.count(dw) > 0 && c.t >= history_.time(dw, 0) + delay_ ? 1 : 0;
  }
  if (started[0] == 0) {
    for (int i = 0; i < width_; ++i) y[i] = initial_output_[i];
    return;
  }
  history_.Read(dw, c.t - delay_, y);
}

void TransportDelay::DoUpdate(Context& c) const {
  double* dw = dwork(c);
  if (!history_.Append(dw, c.t, in(c, 0), u_stride_, c.t - delay_)) {
    throw std::runtime_error(internal::FullHistoryMessage(history_, dw, delay_, "delay"));
  }
}

double TransportDelay::DoNextBreakpoint(const Context& c, double t) const {
  const double* dw = dwork(c);
  if (history_.count(dw) == 0) return std::numeric_limits<double>::infinity();
  const double start = history_.time(dw, 0) + delay_;
  return t < start ? start : std::numeric_limits<double>::infinity();
}

BlockType TransportDelayType() {
  BlockType t;
  t.name = "TransportDelay";
  t.category = "Delays";
  t.summary = "Delays its input by a fixed time.";
  t.doc =
      "y(t) = u(t - delay), and y = initial_output until t0 + delay, where the solver lands "
      "(a breakpoint) and y jumps to u(t0). The block samples u at every major step into a "
      "history of buffer_size samples, allocated before the run, and reads it at t - delay "
      "between samples with a quintic through six neighbouring samples on their own times "
      "(Lagrange's), chosen as essentially non-oscillatory schemes choose them: from the two "
      "samples around t - delay the stencil grows towards the neighbour of smaller divided "
      "difference. A smooth input is delayed with an error O(h^6) in the major steps h, "
      "about (w h)^6 / 200 for a sine of w rad/s (4e-7 for 1 rad/s under ode45 at rtol 1e-8, "
      "whose default steps reach t_end / 50): the history is as fine as the steps the solver "
      "takes for the model's states, so where the model is quiet and the steps long, limit "
      "them with max_step. A jump of u is delayed without ringing, spread over the step that "
      "ended on it (as Simulink's linear interpolation spreads it): the read stays within the "
      "two samples around it, widened by what a smooth input bulges between them, so even a "
      "pulse shorter than the stencil does not overshoot. A discrete (staircase) input is "
      "interpolated too, its steps spread likewise (Simulink returns the held value). When t "
      "- delay falls after the newest sample (a delay shorter than the step), y is "
      "extrapolated along the line through the last two samples: keep max_step below the "
      "delay. A history too short for the delay at the steps the solver takes (more than "
      "buffer_size major steps within one delay) ends the run with a failure naming the "
      "block, the time and the buffer_size to set; it never drops samples still needed. u is "
      "not direct feedthrough, so the block can close a feedback loop; a delay of 0 passes u "
      "through (direct feedthrough). Continuous sample time.";
  t.reference =
      "Simulink Transport Delay (DelayTime, InitialOutput, BufferSize with a fixed-size "
      "buffer); Simulink interpolates linearly between samples (an error of (w h)^2 / 8), this "
      "block with the bounded ENO quintic above, and it fails instead of growing or "
      "overwriting a full buffer";
  t.params = {
      {"delay", ParamKind::kScalar, "1", "delay, s, >= 0"},
      {"initial_output", ParamKind::kVector, "0", "output until t0 + delay, scalar or per element"},
      {"buffer_size", ParamKind::kScalar, "1024",
       "samples of input the history holds (major steps within one delay), >= 6"}};
  t.inputs = {{"u", "input, any width"}};
  t.outputs = {{"y", "u(t - delay), width of u (or of a vector initial_output)"}};
  t.create = [](const Params& p) { return std::make_unique<TransportDelay>(p); };
  return t;
}

}  // namespace twinblocks::blocks
