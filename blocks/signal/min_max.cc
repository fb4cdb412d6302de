#include "blocks/signal/min_max.h"

#include <cstdint>
#include <memory>

#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

MinMax::MinMax(const Params& params) : max_(params.Word("op") == "max") {
  const int n = params.Integer("inputs");
  if (n < 1) throw BlockError("parameter 'inputs' must be at least 1", "inputs");
  CheckPortCountParam(n, "inputs");
  DeclareOperands(n);
}

void MinMax::DoConfigure(const std::vector<int>& input_widths) {
  const int m = num_inputs();
  reduce_ = m == 1;
  num_candidates_ = reduce_ ? input_widths[0] : m;
  const int w = ConfigureOperands(input_widths);
  DeclareModes(w);  // index of the winning candidate
  // Per output element: the other candidates minus the winner; a sign change means another
  // candidate took over.
  DeclareZeroCrossings(std::int64_t{w} * (num_candidates_ - 1));
}

void MinMax::DoInitialize(Context& c) const {
  int* mode = modes(c);
  for (int i = 0; i < num_modes(); ++i) mode[i] = 0;
}

void MinMax::DoCalcOutputs(Context& c, int stage) const {
  double* y = out(c, 0);
  int* mode = modes(c);
  const int n = out_width(0);
  if (c.major) {
    for (int i = 0; i < n; ++i) {
      int best = 0;
      double v = Candidate(c, 0, i);
      for (int j = 1; j < num_candidates_; ++j) {
        const double cj = Candidate(c, j, i);
        if (max_ ? cj > v : cj < v) {
          v = cj;
          best = j;
        }
      }
      mode[i] = best;
    }
  }
  for (int i = 0; i < n; ++i) y[i] = Candidate(c, mode[i], i);
}

void MinMax::DoCalcZeroCrossings(Context& c) const {
  double* z = zc(c);
  const int* mode = modes(c);
  const int n = out_width(0);
  const bool active = internal::ZeroCrossingsActive(*this);
  int k = 0;
  for (int i = 0; i < n; ++i) {
    const double winner = Candidate(c, mode[i], i);
    for (int j = 0; j < num_candidates_; ++j) {
      if (j == mode[i]) continue;
      z[k++] = active ? Candidate(c, j, i) - winner : 1.0;
    }
  }
}

BlockType MinMaxType() {
  BlockType t;
  t.name = "MinMax";
  t.category = "Math and continuous";
  t.summary = "Minimum or maximum of the inputs.";
  t.doc =
      "With several inputs: y_i = min_j uj_i (or max), element-wise, scalars expand. With "
      "inputs = 1: y = min or max over the elements of u1 (scalar). Zero crossings "
      "(continuous rate): the winning candidate is a mode per output element, chosen at "
      "major steps (the first one wins a tie) and held inside solver steps; the "
      "zero-crossing functions are each other candidate minus the winner. Inherited sample "
      "time; direct feedthrough.";
  t.reference = "Simulink MinMax (zero-crossing detection on)";
  t.params = {{"op", ParamKind::kWord, "min", "which extreme", {"min", "max"}},
              {"inputs", ParamKind::kScalar, "2", "number of inputs"}};
  t.inputs = {{"u1..un", "candidates, equal widths or scalars"}};
  t.outputs = {{"y", "the extreme"}};
  t.create = [](const Params& p) { return std::make_unique<MinMax>(p); };
  return t;
}

}  // namespace twinblocks::blocks
