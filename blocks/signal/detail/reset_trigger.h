#pragma once

#include <string>
#include <vector>

namespace twinblocks::blocks::internal {

/// The external reset of Simulink's integrators (Integrator, Second-Order Integrator): when a
/// `reset` input fires, read at major steps.
class ResetTrigger {
 public:
  enum class Kind { kNone, kRising, kFalling, kEither, kLevel };

  /// The parameter's words, in the order the block's doc lists them.
  static std::vector<std::string> Words() {
    return {"none", "rising", "falling", "either", "level"};
  }

  /// From the parameter's word (checked against Words() by the parameter's spec).
  explicit ResetTrigger(const std::string& word) {
    if (word == "rising") kind_ = Kind::kRising;
    if (word == "falling") kind_ = Kind::kFalling;
    if (word == "either") kind_ = Kind::kEither;
    if (word == "level") kind_ = Kind::kLevel;
  }

  bool enabled() const { return kind_ != Kind::kNone; }
  bool level() const { return kind_ == Kind::kLevel; }

  /// Whether the reset fires at a major step where the input is `now`, having been `prev` at
  /// the last one (`first`: there was none). Rising means from < 0 to >= 0 or from 0 to > 0,
  /// falling the mirror, either both; level fires while the input is nonzero. When the
  /// variable-step solver `located` the input's crossing in the step just ended
  /// (Context::zc_crossed), the edge is taken in the direction `now` shows: the step ends on
  /// the far side, and the previous major step's value alone misses the edge when it was a
  /// rounding error past 0 (the last reset's own crossing, a bounce). Where it does not, both
  /// say the same.
  bool Fires(double prev, double now, bool first, bool located) const {
    if (kind_ == Kind::kLevel) return now != 0.0;
    bool rising = false, falling = false;
    if (located) {
      falling = now < 0.0 || (now == 0.0 && prev > 0.0);
      rising = !falling;
    } else if (!first) {  // an edge needs a previous value
      rising = (prev < 0.0 && now >= 0.0) || (prev == 0.0 && now > 0.0);
      falling = (prev > 0.0 && now <= 0.0) || (prev == 0.0 && now < 0.0);
    }
    switch (kind_) {
      case Kind::kRising:
        return rising;
      case Kind::kFalling:
        return falling;
      case Kind::kEither:
        return rising || falling;
      default:
        return false;
    }
  }

 private:
  Kind kind_ = Kind::kNone;
};

}  // namespace twinblocks::blocks::internal
