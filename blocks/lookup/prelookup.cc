#include "blocks/lookup/prelookup.h"

#include <algorithm>
#include <memory>

namespace twinblocks::blocks {

namespace {

lookup::Breakpoints PrelookupBreakpoints(const Params& p) {
  const Eigen::VectorXd x = p.Vector("breakpoints");
  return lookup::Breakpoints(std::vector<double>(x.data(), x.data() + x.size()),
                             "parameter 'breakpoints'", "breakpoints");
}

}  // namespace

Prelookup::Prelookup(const Params& params)
    : breakpoints_(PrelookupBreakpoints(params)), clip_(params.Word("extrapolation") == "clip") {
  DeclareInput("u");
  DeclareOutput("k");
  DeclareOutput("f");
}

void Prelookup::DoConfigure(const std::vector<int>& input_widths) {
  Block::DoConfigure(input_widths);
  DeclareDWork(input_widths[0]);  // per element, the interval found last: a search hint
}

void Prelookup::DoInitialize(Context& c) const { std::fill(dwork(c), dwork(c) + num_dwork(), 0.0); }

void Prelookup::DoCalcOutputs(Context& c, int stage) const {
  const double* u = in(c, 0);
  double* k = out(c, 0);
  double* f = out(c, 1);
  double* hints = dwork(c);
  const int w = out_width(0);
  for (int i = 0; i < w; ++i) {
    const int ki = breakpoints_.Find(u[i], static_cast<int>(hints[i]));
    hints[i] = ki;
    double fi = breakpoints_.Fraction(u[i], ki);
    if (clip_) fi = fi < 0.0 ? 0.0 : (fi > 1.0 ? 1.0 : fi);
    k[i] = ki;
    f[i] = fi;
  }
}

BlockType PrelookupType() {
  BlockType t;
  t.name = "Prelookup";
  t.category = "Lookup tables";
  t.summary = "Finds the interval and the fraction of its input among breakpoints.";
  t.doc =
      "For each element of u: k, the 0-based index of the interval [x_k, x_k+1) of "
      "`breakpoints` that holds u (0 below the first, n - 2 at or above the last breakpoint), "
      "and f = (u - x_k) / (x_k+1 - x_k), which InterpolationUsingPrelookup blocks take to "
      "interpolate tables on these breakpoints without searching again. extrapolation=clip "
      "keeps f in [0, 1] (k = n - 2, f = 1 at or above the last breakpoint); linear lets f "
      "go below 0 or above 1 outside. Finding the interval costs O(1) for all but very "
      "uneven breakpoints and starts from the one found before (LookupTable's search). k and "
      "f jump where u crosses a breakpoint, but (k, 1) and (k + 1, 0) are the same point, so "
      "an interpolation of them is continuous: no zero crossings are declared (nor does "
      "Simulink's Prelookup); a block that uses k alone at continuous rate sees the jumps "
      "where the solver's steps happen to fall. Inherited sample time; direct feedthrough.";
  t.reference =
      "Simulink Prelookup (index and fraction as two outputs, breakpoints from the dialog). "
      "Differs: double data only, no 'use last breakpoint for input at or above upper "
      "limit' (k stops at n - 2 with f = 1), no out-of-range diagnostic.";
  t.params = {
      {"breakpoints", ParamKind::kVector, "", "strictly increasing, finite, n >= 2", {}, true},
      {"extrapolation",
       ParamKind::kWord,
       "linear",
       "outside the breakpoints: clip (f in [0, 1]) or linear (f below 0 or above 1)",
       {"linear", "clip"}}};
  t.inputs = {{"u", "input, any width"}};
  t.outputs = {{"k", "interval index, 0 to n - 2, as a double (width of u)"},
               {"f", "fraction in the interval (width of u)"}};
  t.create = [](const Params& p) { return std::make_unique<Prelookup>(p); };
  return t;
}

}  // namespace twinblocks::blocks
