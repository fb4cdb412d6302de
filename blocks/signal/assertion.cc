#include "blocks/signal/assertion.h"

#include <memory>

namespace twinblocks::blocks {

Assertion::Assertion(const Params& params) : enabled_(params.Bool("enabled")) {
  DeclareInput("u");
  DeclareDWork(1);  // the element found zero, for the message
}

void Assertion::DoCalcOutputs(Context& c, int stage) const {
  if (!enabled_ || !c.major) return;
  const double* u = in(c, 0);
  const int n = in_width(0);
  for (int i = 0; i < n; ++i) {
    if (u[i] == 0.0) {
      dwork(c)[0] = i;
      RequestStop(c, /*failed=*/true);
      return;
    }
  }
}

std::string Assertion::DoStopReason(const Context& c) const {
  const int i = static_cast<int>(dwork(c)[0]);
  const std::string element = in_width(0) == 1 ? "u" : "u[" + std::to_string(i) + "]";
  return "assertion failed: " + element + " is 0";
}

BlockType AssertionType() {
  BlockType t;
  t.name = "Assertion";
  t.category = "Sinks and verification";
  t.summary = "Fails the run when an element of its input is zero.";
  t.doc =
      "At each major step (each sample hit of its rate, which it inherits from u) the block "
      "checks that every element of u is non-zero (true). When one is 0, the run completes that "
      "step, records its row and fails there: `twinblocks run` exits with status 3 (results up to "
      "that time written) and says `simulation failed at t = T s: block 'PATH' (Assertion): "
      "assertion failed: u[i] is 0`. Drive it with a comparison (CompareToConstant, "
      "RelationalOperator, LogicalOperator) that states what must hold. enabled=false turns the "
      "check off.";
  t.reference =
      "Simulink Assertion (Model Verification; it stops the simulation, as Simulink's default "
      "'Stop simulation when assertion fails' does)";
  t.params = {{"enabled", ParamKind::kWord, "true", "check the assertion", {"true", "false"}}};
  t.inputs = {{"u", "what must hold: fails where an element is 0, any width"}};
  t.create = [](const Params& p) { return std::make_unique<Assertion>(p); };
  return t;
}

}  // namespace twinblocks::blocks
