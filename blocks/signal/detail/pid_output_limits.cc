#include "blocks/signal/detail/pid_output_limits.h"

#include <cmath>

#include "blocks/block_error.h"

namespace twinblocks::blocks::internal {

bool PidOutputLimits::limited() const { return std::isfinite(lower) || std::isfinite(upper); }

PidOutputLimits PidOutputLimits::Read(const Params& params, bool has_integral) {
  PidOutputLimits l;
  l.lower = params.Scalar("lower");
  l.upper = params.Scalar("upper");
  if (std::isnan(l.lower) || std::isnan(l.upper) || !(l.lower < l.upper)) {
    throw BlockError("parameter 'lower' must be below 'upper' (the output limits)", "lower");
  }
  const std::string& word = params.Word("anti_windup");
  if (word == "clamping") l.anti_windup = AntiWindup::kClamping;
  if (word == "back-calculation") l.anti_windup = AntiWindup::kBackCalculation;
  l.kb = params.Scalar("Kb");
  if (!(l.kb >= 0.0 && std::isfinite(l.kb))) {
    throw BlockError("parameter 'Kb' must be a finite back-calculation gain >= 0, in 1/s", "Kb");
  }
  if (l.anti_windup != AntiWindup::kNone) {
    if (!l.limited()) {
      throw BlockError(
          "anti_windup = " + word + " needs output limits: set a finite 'lower' or 'upper'",
          "anti_windup");
    }
    if (!has_integral) {
      throw BlockError("anti_windup = " + word + " needs an integral term: set Ki != 0",
                       "anti_windup");
    }
  }
  return l;
}

std::vector<ParamSpec> PidOutputLimits::Specs() {
  return {{"upper", ParamKind::kScalar, "inf", "upper limit of the output u (inf: none)"},
          {"lower", ParamKind::kScalar, "-inf", "lower limit of the output u (-inf: none)"},
          {"anti_windup", ParamKind::kWord, "none",
           "what stops the integrator winding up at a limit", Words()},
          {"Kb", ParamKind::kScalar, "1", "back-calculation gain, 1/s"}};
}

}  // namespace twinblocks::blocks::internal
