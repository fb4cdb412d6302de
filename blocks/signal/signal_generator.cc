#include "blocks/signal/signal_generator.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <numbers>

#include "blocks/signal/detail/block_helpers.h"
#include "blocks/signal/detail/counter_random.h"
#include "blocks/signal/detail/param_checks.h"
#include "blocks/signal/detail/random_source.h"

namespace twinblocks::blocks {

namespace {

SignalGenerator::Waveform ParseWaveform(const std::string& word) {
  if (word == "square") return SignalGenerator::Waveform::kSquare;
  if (word == "sawtooth") return SignalGenerator::Waveform::kSawtooth;
  if (word == "random") return SignalGenerator::Waveform::kRandom;
  return SignalGenerator::Waveform::kSine;
}

}  // namespace

SignalGenerator::SignalGenerator(const Params& params)
    : waveform_(ParseWaveform(params.Word("waveform"))) {
  const Eigen::VectorXd a = params.Vector("amplitude");
  const Eigen::VectorXd f = params.Vector("frequency");
  const Eigen::VectorXd seed = params.Vector("seed");
  const bool hz = params.Word("units") == "Hz";
  internal::CheckParamValues("amplitude", a, internal::ValueRange::kFinite);
  internal::CheckParamValues("frequency", f, internal::ValueRange::kPositive, hz ? "Hz" : "rad/s");
  const int w = internal::CommonParamWidth({{"amplitude", &a}, {"frequency", &f}});
  amplitude_ = internal::Expand(a, w);
  for (double fi : internal::Expand(f, w)) {
    const double omega = hz ? 2.0 * std::numbers::pi * fi : fi;
    const double period = hz ? 1.0 / fi : 2.0 * std::numbers::pi / fi;
    omega_.push_back(omega);
    interval_.push_back(waveform_ == Waveform::kSquare ? 0.5 * period : period);
  }
  // Checked for every waveform, so that a bad seed is found before the waveform is changed.
  keys_ = internal::SeedKeys(seed, w);
  DeclareOutput("y", w);
  DeclareSampleTime(SampleTime::Continuous());
  if (waveform_ == Waveform::kSine || waveform_ == Waveform::kSawtooth) DeclareTimeDependence();
  if (waveform_ != Waveform::kSine) {
    DeclareBreakpoints();
    DeclareDWork(w);  // per element, the index k of the interval held since the major step
  }
}

double SignalGenerator::IntervalIndex(int i, double t) const {
  double k = std::floor(t / interval_[i]);
  // The quotient may round across an edge; settle it against the edge expression itself (a
  // few ulps at most: bounded, since past 2^53 intervals k + 1 is k).
  for (int n = 0; n < 4 && Edge(i, k + 1.0) <= t; ++n) k += 1.0;
  for (int n = 0; n < 4 && Edge(i, k) > t; ++n) k -= 1.0;
  return k;
}

void SignalGenerator::TakeIntervals(Context& c) const {
  double* k = dwork(c);
  const int n = static_cast<int>(interval_.size());
  for (int i = 0; i < n; ++i) k[i] = IntervalIndex(i, c.t);
}

void SignalGenerator::DoInitialize(Context& c) const {
  if (waveform_ != Waveform::kSine) TakeIntervals(c);
}

void SignalGenerator::DoCalcOutputs(Context& c, int stage) const {
  const double t = c.t;
  double* y = out(c, 0);
  const int n = static_cast<int>(amplitude_.size());
  if (waveform_ == Waveform::kSine) {
    for (int i = 0; i < n; ++i) y[i] = amplitude_[i] * std::sin(omega_[i] * t);
    return;
  }
  // Inside a solver step the intervals chosen at the major step hold: a stage that lands on
  // the next edge still sees the left limit, and the major step there switches.
  if (c.major) TakeIntervals(c);
  const double* k = dwork(c);
  for (int i = 0; i < n; ++i) {
    switch (waveform_) {
      case Waveform::kSquare:
        y[i] = std::fmod(k[i], 2.0) == 0.0 ? amplitude_[i] : -amplitude_[i];
        break;
      case Waveform::kSawtooth:
        y[i] = amplitude_[i] * (2.0 * (t - Edge(i, k[i])) / interval_[i] - 1.0);
        break;
      case Waveform::kRandom: {
        // Period k's value is draw k of the stream: the same whatever the steps taken.
        const auto draw = static_cast<std::uint64_t>(static_cast<std::int64_t>(k[i]));
        y[i] = amplitude_[i] * (2.0 * internal::StreamUniform(keys_[i], draw) - 1.0);
        break;
      }
      case Waveform::kSine:
        break;
    }
  }
}

double SignalGenerator::DoNextBreakpoint(const Context& c, double t) const {
  double next = std::numeric_limits<double>::infinity();
  const int n = static_cast<int>(interval_.size());
  for (int i = 0; i < n; ++i) next = std::min(next, Edge(i, IntervalIndex(i, t) + 1.0));
  return next;
}

BlockType SignalGeneratorType() {
  BlockType t;
  t.name = "SignalGenerator";
  t.category = "Sources";
  t.summary = "A sine, square, sawtooth or random wave.";
  t.doc =
      "With w the angular frequency (frequency in rad/s, or 2 pi frequency in Hz) and c = w t / "
      "(2 pi) the cycles since t = 0: sine: y = amplitude sin(w t); square: y = amplitude for "
      "frac(c) < 1/2, -amplitude otherwise (the sign of the sine); sawtooth: y = amplitude (2 "
      "frac(c) - 1), rising from -amplitude to amplitude over each period; random: a value "
      "uniform on [-amplitude, amplitude) drawn anew at the start of each period, from the "
      "counter-based stream of `seed` (as UniformRandomNumber's: period k takes draw k, whatever "
      "the solver's steps). The jumps of square, sawtooth and random are breakpoints that solvers "
      "land on; the output at a major step on a jump has the new value, while solver stages "
      "inside a step keep the interval the step started in. Vector amplitude or frequency give "
      "several waves (scalars expand).";
  t.reference =
      "Simulink Signal Generator (waveform, amplitude, frequency, units; time from the "
      "simulation). Its random wave is Simulink's noise of every step; here it is a new uniform "
      "value each period, the same for every solver";
  t.params = {
      {"waveform", ParamKind::kWord, "sine", "the wave", {"sine", "square", "sawtooth", "random"}},
      {"amplitude", ParamKind::kVector, "1", "peak value, per element"},
      {"frequency", ParamKind::kVector, "1", "frequency (> 0) in `units`, per element"},
      {"units", ParamKind::kWord, "rad/s", "of frequency", {"rad/s", "Hz"}},
      {"seed", ParamKind::kVector, "0", "random: whole number(s) in [0, 2^53], per element"}};
  t.outputs = {{"y", "the wave, width of amplitude and frequency"}};
  t.create = [](const Params& p) { return std::make_unique<SignalGenerator>(p); };
  return t;
}

}  // namespace twinblocks::blocks
