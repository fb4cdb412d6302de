#include "blocks/nonlinear/hit_crossing.h"

#include <algorithm>
#include <memory>

#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

namespace {

constexpr double kUnseen = 2.0;  // no side seen yet: before the first major step

int SideOf(double v) { return v > 0.0 ? 1 : (v < 0.0 ? -1 : 0); }

}  // namespace

HitCrossing::HitCrossing(const Params& params) : offset_param_(params.Vector("offset")) {
  const std::string& d = params.Word("direction");
  direction_ = d == "rising" ? Direction::kRising
                             : (d == "falling" ? Direction::kFalling : Direction::kEither);
  if (offset_param_.size() == 0) throw BlockError("parameter 'offset' is empty", "offset");
  if (!offset_param_.allFinite()) throw BlockError("parameter 'offset' must be finite", "offset");
  DeclareInput("u");
  DeclareOutput("y");
  DeclareUpdate();  // remembers the side of the offset u was on
}

void HitCrossing::DoConfigure(const std::vector<int>& input_widths) {
  const int wu = input_widths[0];
  const int wp = static_cast<int>(offset_param_.size());
  if (wp != 1 && wu != 1) internal::CheckParamFitsWidth("offset", wp, wu, "u");
  width_ = std::max(wu, wp);
  u_stride_ = internal::StrideOf(wu);
  offset_ = internal::Expand(offset_param_, width_);
  SetOutputWidth(0, width_);
  DeclareDWork(width_);
  DeclareModes(width_);
  DeclareZeroCrossings(width_);
}

void HitCrossing::DoInitialize(Context& c) const {
  std::fill(dwork(c), dwork(c) + width_, kUnseen);
  std::fill(modes(c), modes(c) + width_, 0);
}

void HitCrossing::DoCalcOutputs(Context& c, int stage) const {
  const double* prev = dwork(static_cast<const Context&>(c));
  const double* u = in(c, 0);
  double* y = out(c, 0);
  int* hit = modes(c);
  if (c.major) {
    for (int i = 0; i < width_; ++i) {
      const int now = SideOf(u[i * u_stride_] - offset_[i]);
      const int before = static_cast<int>(prev[i]);
      int edge = 0;  // +1 rising, -1 falling
      if (prev[i] == kUnseen) {
        // Starting on the offset counts only for either direction (Simulink).
        edge = now == 0 && direction_ == Direction::kEither ? 1 : 0;
      } else if (zc_crossed(c, i) && now != 0) {
        // The solver located the crossing: the step ends a hair past it, on the side it
        // went to, even where the last major step was itself a rounding error past 0.
        edge = now;
      } else if (now == 0) {
        edge = -before;  // reached exactly; staying there is no new edge
      } else if (before != 0 && now != before) {
        edge = now;  // passed it between major steps
      }
      // Leaving the offset after reaching it (before == 0) is no crossing.
      const bool counts = (edge > 0 && direction_ != Direction::kFalling) ||
                          (edge < 0 && direction_ != Direction::kRising);
      // Simulink: the output stays 1 while the input stays exactly on the offset after a hit.
      hit[i] = counts || (hit[i] != 0 && now == 0 && before == 0) ? 1 : 0;
    }
  }
  for (int i = 0; i < width_; ++i) y[i] = hit[i];
}

void HitCrossing::DoUpdate(Context& c) const {
  double* prev = dwork(c);
  const double* u = in(c, 0);
  for (int i = 0; i < width_; ++i) prev[i] = SideOf(u[i * u_stride_] - offset_[i]);
}

void HitCrossing::DoCalcZeroCrossings(Context& c) const {
  const double* u = in(c, 0);
  double* z = zc(c);
  const bool active = internal::ZeroCrossingsActive(*this);
  for (int i = 0; i < width_; ++i) z[i] = active ? u[i * u_stride_] - offset_[i] : 1.0;
}

BlockType HitCrossingType() {
  BlockType t;
  t.name = "HitCrossing";
  t.category = "Discontinuities";
  t.summary = "Outputs 1 at the step where its input reaches an offset.";
  t.doc =
      "y = 1 at the major step where u reaches or crosses offset in the chosen direction "
      "(rising: from below, falling: from above, either), 0 at every other major step, and "
      "held inside the solver's steps; element-wise. On a continuous rate u - offset is a "
      "zero-crossing function, so a variable-step solver ends a step on the crossing and "
      "that major step outputs 1; a fixed-step solver (or a discrete rate) sees it at the "
      "first major step past it. As in Simulink, y stays 1 while u stays exactly on the "
      "offset after a hit, and an input that starts on the offset gives 1 only for "
      "direction either. Inherited sample time; direct feedthrough.";
  t.reference =
      "Simulink Hit Crossing (HitCrossingOffset, HitCrossingDirection, output port shown)";
  t.params = {{"offset", ParamKind::kVector, "0", "the value to detect, scalar or per element"},
              {"direction",
               ParamKind::kWord,
               "either",
               "which crossings count",
               {"rising", "falling", "either"}}};
  t.inputs = {{"u", "input, any width"}};
  t.outputs = {{"y", "1 at the crossing's major step, else 0"}};
  t.create = [](const Params& p) { return std::make_unique<HitCrossing>(p); };
  return t;
}

}  // namespace twinblocks::blocks
