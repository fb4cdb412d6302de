#include "blocks/delay/memory.h"

#include <limits>
#include <memory>

#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

Memory::Memory(const Params& params)
    : initial_condition_param_(params.Vector("initial_condition")) {
  if (initial_condition_param_.size() == 0) {
    throw BlockError("parameter 'initial_condition' is empty", "initial_condition");
  }
  if (!initial_condition_param_.allFinite()) {
    throw BlockError("parameter 'initial_condition' must be finite", "initial_condition");
  }
  // The output is the last major step's input: the block breaks algebraic loops.
  DeclareInput("u", kDynamicWidth, kNoFeedthrough);
  DeclareOutput("y");
  DeclareSampleTime(params.Bool("inherit_sample_time") ? SampleTime::Inherited()
                                                       : SampleTime::Continuous());
  DeclareUpdate();  // keeps u at every major step (at every hit when it inherits a rate)
}

void Memory::DoConfigure(const std::vector<int>& input_widths) {
  const int wu = input_widths[0];
  const int n0 = static_cast<int>(initial_condition_param_.size());
  if (n0 > 1 && wu != 1) internal::CheckParamFitsWidth("initial_condition", n0, wu, "u");
  width_ = n0 > 1 ? n0 : wu;
  u_stride_ = internal::StrideOf(wu);
  initial_condition_ = internal::Expand(initial_condition_param_, width_);
  SetOutputWidth(0, width_);
  DeclareDWork(1 + 2 * width_);
}

void Memory::DoInitialize(Context& c) const {
  double* dw = dwork(c);
  dw[0] = -std::numeric_limits<double>::infinity();
  for (int i = 0; i < width_; ++i) dw[1 + width_ + i] = initial_condition_[i];
}

void Memory::DoCalcOutputs(Context& c, int stage) const {
  double* dw = dwork(c);
  double* held = dw + 1;
  // A new major step takes the input kept at the last; another evaluation at the same time
  // (after an input changed there) keeps it, and the solver's steps hold it.
  if (c.major && c.t > dw[0]) {
    dw[0] = c.t;
    for (int i = 0; i < width_; ++i) held[i] = dw[1 + width_ + i];
  }
  double* y = out(c, 0);
  for (int i = 0; i < width_; ++i) y[i] = held[i];
}

void Memory::DoUpdate(Context& c) const {
  double* kept = dwork(c) + 1 + width_;
  const double* u = in(c, 0);
  for (int i = 0; i < width_; ++i) kept[i] = u[i * u_stride_];
}

BlockType MemoryType() {
  BlockType t;
  t.name = "Memory";
  t.category = "Delays";
  t.summary = "Outputs its input of the previous major step.";
  t.doc =
      "y(t_k) = u(t_(k-1)) at each major step t_k, and y = initial_condition at the first; y "
      "is held through the solver's steps in between. u is not direct feedthrough, so the "
      "block breaks an algebraic loop (as a delay of one major step, which depends on the "
      "steps the solver takes: prefer a TransportDelay or a filter in continuous loops). "
      "Continuous sample time (every major step); with inherit_sample_time = true it takes "
      "the rate of its input, and on a discrete rate it is a unit delay at that rate.";
  t.reference = "Simulink Memory (InitialCondition, Inherit sample time)";
  t.params = {{"initial_condition", ParamKind::kVector, "0",
               "output at the first major step, scalar or per element"},
              {"inherit_sample_time",
               ParamKind::kWord,
               "false",
               "false: every major step; true: the input's rate",
               {"false", "true"}}};
  t.inputs = {{"u", "input, any width"}};
  t.outputs = {{"y",
                "u at the previous major step, width of u (or of a vector "
                "initial_condition)"}};
  t.create = [](const Params& p) { return std::make_unique<Memory>(p); };
  return t;
}

}  // namespace twinblocks::blocks
