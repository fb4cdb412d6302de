#include "blocks/nonlinear/coulomb_viscous_friction.h"

#include <algorithm>
#include <memory>

#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

CoulombViscousFriction::CoulombViscousFriction(const Params& params)
    : offset_param_(params.Vector("offset")), gain_param_(params.Vector("gain")) {
  internal::CommonParamWidth({{"offset", &offset_param_}, {"gain", &gain_param_}});
  if (!offset_param_.allFinite()) throw BlockError("parameter 'offset' must be finite", "offset");
  if (!gain_param_.allFinite()) throw BlockError("parameter 'gain' must be finite", "gain");
  DeclareInput("u");
  DeclareOutput("y");
}

void CoulombViscousFriction::DoConfigure(const std::vector<int>& input_widths) {
  const int wu = input_widths[0];
  const int wp = static_cast<int>(std::max(offset_param_.size(), gain_param_.size()));
  if (wp != 1 && wu != 1) {
    internal::CheckParamFitsWidth(offset_param_.size() > 1 ? "offset" : "gain", wp, wu, "u");
  }
  width_ = std::max(wu, wp);
  u_stride_ = internal::StrideOf(wu);
  offset_ = internal::Expand(offset_param_, width_);
  gain_ = internal::Expand(gain_param_, width_);
  SetOutputWidth(0, width_);
  DeclareModes(width_);
  DeclareZeroCrossings(width_);
}

void CoulombViscousFriction::DoInitialize(Context& c) const {
  std::fill(modes(c), modes(c) + width_, 0);
}

void CoulombViscousFriction::DoCalcOutputs(Context& c, int stage) const {
  const double* u = in(c, 0);
  double* y = out(c, 0);
  int* sign = modes(c);
  if (c.major) {
    for (int i = 0; i < width_; ++i) {
      const double ui = u[i * u_stride_];
      sign[i] = ui > 0.0 ? 1 : (ui < 0.0 ? -1 : 0);
    }
  }
  // sign(u) (offset + gain |u|) = sign offset + gain u wherever the sign is u's.
  for (int i = 0; i < width_; ++i) y[i] = sign[i] * offset_[i] + gain_[i] * u[i * u_stride_];
}

void CoulombViscousFriction::DoCalcZeroCrossings(Context& c) const {
  const double* u = in(c, 0);
  double* z = zc(c);
  const bool active = internal::ZeroCrossingsActive(*this);
  for (int i = 0; i < width_; ++i) z[i] = active ? u[i * u_stride_] : 1.0;
}

BlockType CoulombViscousFrictionType() {
  BlockType t;
  t.name = "CoulombViscousFriction";
  t.category = "Discontinuities";
  t.summary = "Coulomb and viscous friction of a velocity signal.";
  t.doc =
      "y = sign(u) (offset + gain |u|), element-wise: a Coulomb friction level offset and a "
      "viscous coefficient gain, y = 0 at u = 0. Zero crossing (continuous rate): sign(u) is "
      "a mode chosen at major steps and held inside the solver's steps (y = sign offset + "
      "gain u there), and the function u lands the solver on each change of sign, where y "
      "jumps by 2 offset. Inherited sample time; direct feedthrough.";
  t.reference =
      "Simulink Coulomb & Viscous Friction (Offset, Gain; Simulink's default offset is the "
      "example vector [1 3 2 0], here 1)";
  t.params = {
      {"offset", ParamKind::kVector, "1", "Coulomb friction, units of y, scalar or per element"},
      {"gain", ParamKind::kVector, "1",
       "viscous coefficient, units of y per unit of u, scalar or per element"}};
  t.inputs = {{"u", "input (a velocity), any width"}};
  t.outputs = {{"y", "the friction"}};
  t.create = [](const Params& p) { return std::make_unique<CoulombViscousFriction>(p); };
  return t;
}

}  // namespace twinblocks::blocks
