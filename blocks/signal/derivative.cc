#include "blocks/signal/derivative.h"

#include <memory>

namespace twinblocks::blocks {

Derivative::Derivative(const Params& params) {
  DeclareInput("u");
  DeclareOutput("y");
  DeclareSampleTime(SampleTime::Continuous());
  DeclareUpdate();          // remembers u and t at every major step
  DeclareTimeDependence();  // (u - u_then) / (t - t_then)
}

void Derivative::DoConfigure(const std::vector<int>& input_widths) {
  Block::DoConfigure(input_widths);
  DeclareDWork(2 + 2 * input_widths[0]);
}

void Derivative::DoInitialize(Context& c) const {
  double* dw = dwork(c);
  for (int i = 0; i < num_dwork(); ++i) dw[i] = 0.0;
}

void Derivative::DoCalcOutputs(Context& c, int stage) const {
  const double* dw = dwork(c);
  const double* u = in(c, 0);
  double* y = out(c, 0);
  const int n = in_width(0);
  const double dt = c.t - dw[1];
  const double* u_prev = dw + 2;
  const double* y_prev = dw + 2 + n;
  if (dw[0] == 0.0) {
    for (int i = 0; i < n; ++i) y[i] = 0.0;
  } else if (dt <= 0.0) {
    // A second major step at the same time (after an event): keep the last slope.
    for (int i = 0; i < n; ++i) y[i] = y_prev[i];
  } else {
    for (int i = 0; i < n; ++i) y[i] = (u[i] - u_prev[i]) / dt;
  }
}

void Derivative::DoUpdate(Context& c) const {
  double* dw = dwork(c);
  const double* u = in(c, 0);
  const double* y = out(c, 0);
  const int n = in_width(0);
  dw[0] = 1.0;
  dw[1] = c.t;
  for (int i = 0; i < n; ++i) {
    dw[2 + i] = u[i];
    dw[2 + n + i] = y[i];
  }
}

BlockType DerivativeType() {
  BlockType t;
  t.name = "Derivative";
  t.category = "Math and continuous";
  t.summary = "Numerical time derivative of the input.";
  t.doc =
      "y = (u(t) - u(t_prev)) / (t - t_prev), where t_prev and u(t_prev) are the time and "
      "input of the last major step (Simulink's Derivative); y = 0 at the first major step, "
      "and a repeated major step at the same time keeps the last value. Continuous sample "
      "time; direct feedthrough; it remembers u at every major step. The result is only as "
      "smooth as the step sequence: prefer a filtered derivative (PID, TransferFunction "
      "s/(tau s + 1)) inside loops.";
  t.reference = "Simulink Derivative";
  t.inputs = {{"u", "input, any width"}};
  t.outputs = {{"y", "du/dt, width of u, units of u per s"}};
  t.create = [](const Params& p) { return std::make_unique<Derivative>(p); };
  return t;
}

}  // namespace twinblocks::blocks
