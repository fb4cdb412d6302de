#include "blocks/conditional/conditional_output.h"

#include <algorithm>
#include <string>
#include <utility>

namespace twinblocks::blocks {

ConditionalOutput::ConditionalOutput(bool reset, Eigen::VectorXd initial)
    : reset_(reset), initial_(std::move(initial)) {
  DeclareInput("u");
  DeclareInput("active", 1);
  DeclareInput("enabled", 1);
  DeclareOutput("y");
}

void ConditionalOutput::DoConfigure(const std::vector<int>& input_widths) {
  const int width = input_widths[0];
  if (initial_.size() != 1 && initial_.size() != width) {
    throw BlockError("the initial output has " + std::to_string(initial_.size()) +
                     " values, but the signal at the outport has width " + std::to_string(width) +
                     "; expected one value or one per element");
  }
  SetOutputWidth(0, width);
}

void ConditionalOutput::DoInitialize(Context& c) const {
  double* y = out(c, 0);
  for (int i = 0; i < out_width(0); ++i) y[i] = initial_.size() == 1 ? initial_[0] : initial_[i];
}

void ConditionalOutput::DoCalcOutputs(Context& c, int) const {
  double* y = out(c, 0);
  if (in(c, 1)[0] != 0.0) {
    const double* u = in(c, 0);
    std::copy_n(u, out_width(0), y);
  } else if (reset_ && in(c, 2)[0] == 0.0) {
    for (int i = 0; i < out_width(0); ++i) y[i] = initial_.size() == 1 ? initial_[0] : initial_[i];
  }
}

const BlockType& ConditionalOutportType() {
  static const BlockType type = [] {
    BlockType t;
    t.name = "outport";
    t.category = "Routing and structure";
    t.summary = "An outport of a conditional subsystem.";
    t.doc =
        "y = the signal at the outport while the subsystem runs; while it is disabled, held or "
        "reset to `initial`.";
    t.reference = "Simulink Outport (Output when disabled, Initial output)";
    return t;
  }();
  return type;
}

}  // namespace twinblocks::blocks
