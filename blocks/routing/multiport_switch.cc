#include "blocks/routing/multiport_switch.h"

#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

#include "blocks/signal/detail/block_helpers.h"
#include "common/format_value.h"

namespace twinblocks::blocks {

MultiportSwitch::MultiportSwitch(const Params& params)
    : num_data_(params.Integer("inputs")),
      zero_based_(params.Word("order") == "zero_based"),
      additional_default_(params.Word("default_port") == "additional"),
      error_out_of_range_(params.Word("diagnostic") == "error") {
  if (num_data_ < 1) throw BlockError("parameter 'inputs' must be at least 1", "inputs");
  CheckPortCountParam(num_data_, "inputs");
  DeclareInput("control", 1);
  for (int j = 0; j < num_data_; ++j) DeclareInput(internal::NumberedPort("u", j));
  if (additional_default_) DeclareInput("default");
  DeclareOutput("y");
}

void MultiportSwitch::DoConfigure(const std::vector<int>& input_widths) {
  int w = 1;
  for (int j = 1; j < num_inputs(); ++j) {
    const int wj = input_widths[j];
    if (wj == 1) continue;
    if (w == 1) {
      w = wj;
    } else if (wj != w) {
      throw BlockError("input '" + input_port(j).name + "' has width " + std::to_string(wj) +
                           ", but another data input has width " + std::to_string(w) +
                           " (data inputs must have equal widths or be scalars)",
                       {}, input_port(j).name);
    }
  }
  SetOutputWidth(0, w);
  strides_.clear();
  for (int j = 1; j < num_inputs(); ++j) strides_.push_back(internal::StrideOf(input_widths[j]));
  DeclareModes(1);          // the data input passed (0-based among u1..un, then `default`)
  DeclareDWork(1);          // the whole number the control truncated to at the major step
  DeclareZeroCrossings(2);  // the ends of the interval of controls that truncate to it
}

int MultiportSwitch::Select(double control) const {
  const double k = std::trunc(control);
  const double index = zero_based_ ? k : k - 1.0;
  if (!(index >= 0.0 && index < num_data_)) return -1;
  return static_cast<int>(index);
}

void MultiportSwitch::DoInitialize(Context& c) const {
  modes(c)[0] = 0;
  dwork(c)[0] = zero_based_ ? 0.0 : 1.0;
}

void MultiportSwitch::DoCalcOutputs(Context& c, int stage) const {
  int* mode = modes(c);
  if (c.major) {
    const double control = in(c, 0)[0];
    int j = Select(control);
    if (j < 0) {
      if (error_out_of_range_) {
        const int first = zero_based_ ? 0 : 1;
        throw std::runtime_error(
            "the control input is " + FormatValue(control) + ", which selects no data input (" +
            (zero_based_ ? "zero-based" : "one-based") + ": " + std::to_string(first) + " ... " +
            std::to_string(first + num_data_ - 1) + "); give diagnostic=\"none\" to pass the " +
            (additional_default_ ? "default" : "last") + " input instead");
      }
      j = additional_default_ ? num_data_ : num_data_ - 1;
    }
    mode[0] = j;
    dwork(c)[0] = std::trunc(control);
  }
  const int j = mode[0];
  const double* u = in(c, 1 + j);
  const int s = strides_[j];
  double* y = out(c, 0);
  const int n = out_width(0);
  for (int i = 0; i < n; ++i) y[i] = u[i * s];
}

void MultiportSwitch::DoCalcZeroCrossings(Context& c) const {
  double* z = zc(c);
  const double k = dwork(c)[0];
  if (!internal::ZeroCrossingsActive(*this) || !std::isfinite(k)) {
    z[0] = z[1] = 1.0;
    return;
  }
  // The interval of controls that truncate to k: [k, k + 1) above 0, (k - 1, k] below,
  // (-1, 1) at 0. Both functions are positive inside; one changes sign where it is left.
  const double control = in(c, 0)[0];
  const double lo = k > 0.0 ? k : k - 1.0;
  const double hi = k < 0.0 ? k : k + 1.0;
  z[0] = control - lo;
  z[1] = hi - control;
}

BlockType MultiportSwitchType() {
  BlockType t;
  t.name = "MultiportSwitch";
  t.category = "Routing and structure";
  t.summary = "Passes the data input that the control input selects.";
  t.doc =
      "y = u_k, where k is the control input truncated toward zero (2.7 selects 2), counted "
      "from 1 (order one_based: 1 selects u1) or from 0 (zero_based: 0 selects u1). Data "
      "inputs have equal widths or are scalars that expand. A control that selects no data "
      "input: with diagnostic error (the default) the run stops at that major step, with the "
      "time, the block and the value; with none, y is the last data input (default_port "
      "last) or the extra input `default` (default_port additional). Zero crossings "
      "(continuous rate): the selection is a mode chosen at major steps and held inside "
      "solver steps; the zero-crossing functions are the distances of the control to the "
      "ends of the interval that truncates to the held whole number, so the solver lands on "
      "each switch. The control is a scalar. Inherited sample time; all inputs direct "
      "feedthrough.";
  t.reference =
      "Simulink Multiport Switch (data port order one-based or zero-based contiguous; data "
      "port for default case last or additional; diagnostic for default case error or none). "
      "Specified indices and a warning diagnostic are not offered";
  t.params = {{"inputs", ParamKind::kScalar, "2", "number of data inputs u1..un"},
              {"order",
               ParamKind::kWord,
               "one_based",
               "control value of u1: 1 (one_based) or 0 (zero_based)",
               {"one_based", "zero_based"}},
              {"default_port",
               ParamKind::kWord,
               "last",
               "input passed for an out-of-range control with diagnostic none: the last data "
               "input, or an additional input `default`",
               {"last", "additional"}},
              {"diagnostic",
               ParamKind::kWord,
               "error",
               "an out-of-range control stops the run (error) or selects the default (none)",
               {"error", "none"}}};
  t.inputs = {{"control", "the selection, a scalar truncated toward zero"},
              {"u1..un", "the data inputs"},
              {"default", "default_port additional only: passed for an out-of-range control"}};
  t.outputs = {{"y", "the selected data input"}};
  t.create = [](const Params& p) { return std::make_unique<MultiportSwitch>(p); };
  return t;
}

}  // namespace twinblocks::blocks
