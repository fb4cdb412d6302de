#include "blocks/discrete/discrete_filter.h"

#include <memory>

#include "blocks/discrete/discrete_transfer_function.h"

namespace twinblocks::blocks {

BlockType DiscreteFilterType() {
  BlockType t;
  t.name = "DiscreteFilter";
  t.category = "Discrete and logic";
  t.summary = "A discrete filter (IIR or FIR) in powers of z^-1.";
  t.doc =
      "Y(z)/U(z) = (b0 + b1 z^-1 + ... + bm z^-m) / (a0 + a1 z^-1 + ... + an z^-n), "
      "coefficients in ascending powers of z^-1, so that a0 y[k] = b0 u[k] + ... + bm u[k-m] "
      "- a1 y[k-1] - ... - an y[k-n] at each hit t_k = offset + k Ts. a0 must be nonzero; "
      "any lengths are allowed (always causal). Multiplied by z^N, N = max(m, n), it is the "
      "DiscreteTransferFunction of num = [b0, ..., bm, 0, ...] and den = [a0, ..., an, 0, "
      "...] (N + 1 coefficients each) and realized the same way (controllable canonical "
      "form, N states per element, zero initial state). Direct feedthrough only when b0 != "
      "0. Element-wise over u. Ts = -1 inherits the input's rate.";
  t.reference = "Simulink Discrete Filter (zero initial states; element-wise over a vector input)";
  t.params = {
      {"num", ParamKind::kVector, "1", "numerator coefficients, ascending powers of z^-1"},
      {"den", ParamKind::kVector, "[1, 0.5]", "denominator coefficients, ascending powers of z^-1"},
      {"Ts", ParamKind::kScalar, "-1", "sample time, s; -1 inherits"},
      {"offset", ParamKind::kScalar, "0", "sample time offset, s, 0 <= offset < Ts"}};
  t.inputs = {{"u", "input, any width"}};
  t.outputs = {{"y", "output, width of u"}};
  t.create = [](const Params& p) {
    return std::make_unique<DiscreteTransferFunction>(
        p, DiscreteTransferFunction::Form::kPowersOfZInverse);
  };
  return t;
}

}  // namespace twinblocks::blocks
