#pragma once

#include <limits>

namespace twinblocks::blocks {

/// When a block runs (Simulink's sample times). Continuous blocks run at every solver
/// evaluation; discrete blocks at t = offset + k * period, where every solver lands exactly;
/// constant blocks once at the start; inherited blocks take the rate of what drives them;
/// triggered blocks (those of a triggered subsystem) run at the major steps where their
/// subsystem's trigger fires, and hold their outputs between.
struct SampleTime {
  enum class Kind { kContinuous, kDiscrete, kInherited, kConstant, kTriggered };

  Kind kind = Kind::kInherited;
  double period = 0.0;  ///< s, discrete only
  double offset = 0.0;  ///< s, discrete only, 0 <= offset < period

  static SampleTime Continuous() { return {Kind::kContinuous, 0.0, 0.0}; }
  static SampleTime Discrete(double period, double offset = 0.0) {
    return {Kind::kDiscrete, period, offset};
  }
  static SampleTime Inherited() { return {Kind::kInherited, 0.0, 0.0}; }
  static SampleTime Constant() { return {Kind::kConstant, 0.0, 0.0}; }
  static SampleTime Triggered() { return {Kind::kTriggered, 0.0, 0.0}; }

  /// Reads Simulink's encoding of a `Ts` parameter: -1 inherited, 0 continuous, inf
  /// constant, a positive number a discrete period.
  static SampleTime FromTs(double ts, double offset = 0.0) {
    if (ts == -1.0) return Inherited();
    if (ts == 0.0) return Continuous();
    if (ts == std::numeric_limits<double>::infinity()) return Constant();
    return Discrete(ts, offset);
  }

  bool is_continuous() const { return kind == Kind::kContinuous; }
  bool is_discrete() const { return kind == Kind::kDiscrete; }
  bool is_inherited() const { return kind == Kind::kInherited; }
  bool is_constant() const { return kind == Kind::kConstant; }
  bool is_triggered() const { return kind == Kind::kTriggered; }

  friend bool operator==(const SampleTime& a, const SampleTime& b) {
    return a.kind == b.kind && a.period == b.period && a.offset == b.offset;
  }
};

}  // namespace twinblocks::blocks
