#include "blocks/signal/band_limited_white_noise.h"

#include <cmath>
#include <memory>

#include "blocks/signal/detail/block_helpers.h"
#include "blocks/signal/detail/param_checks.h"

namespace twinblocks::blocks {

namespace {

internal::RandomSource::Spec ReadSpec(const Params& params) {
  const Eigen::VectorXd power = params.Vector("power");
  const double ts = params.Scalar("Ts");
  internal::RandomSource::Spec spec;
  spec.law = internal::RandomSource::Law::kNormal;
  spec.seeds = params.Vector("seed");
  internal::CheckParamValues("power", power, internal::ValueRange::kNonNegative);
  const int width = internal::CommonParamWidth({{"power", &power}, {"seed", &spec.seeds}});
  spec.offset.assign(width, 0.0);
  // The sample time is checked by RandomSource; a bad one here makes a NaN it never uses.
  spec.scale = internal::Expand((power / ts).cwiseSqrt(), width);
  return spec;
}

}  // namespace

BandLimitedWhiteNoise::BandLimitedWhiteNoise(const Params& params)
    : RandomSource(params, ReadSpec(params)) {}

BlockType BandLimitedWhiteNoiseType() {
  BlockType t;
  t.name = "BandLimitedWhiteNoise";
  t.category = "Sources";
  t.summary = "White noise of a given power for continuous systems, sampled every Ts.";
  t.doc =
      "y_i = sqrt(power_i / Ts) n_i(k) from the run's k-th sample hit (k = 0, 1, ...; hits at t = "
      "offset + j Ts) to the next, n_i(k) standard normal as in RandomNumber: zero mean and "
      "variance power / Ts, so that the integral of y over one period has the variance power Ts "
      "that white noise of power spectral density `power` gives (the correlation time is Ts: "
      "choose it about 1/100 of the fastest time constant it drives). Element i draws from the "
      "stream of seed_i; a scalar seed gives element i the seed seed + i. The width is that of "
      "power and seed. The same seed gives the same numbers, bit for bit, on every run, thread "
      "and MPI rank, and after a saved state is restored.";
  t.reference =
      "Simulink Band-Limited White Noise (noise power, sample time and seed, with its defaults; "
      "MATLAB's generator differs, so the numbers do)";
  t.params = {{"power", ParamKind::kVector, "0.1", "noise power (PSD, >= 0), per element"},
              {"Ts", ParamKind::kScalar, "0.1", "sample time = correlation time, s (> 0)"},
              {"seed", ParamKind::kVector, "23341", "whole number(s) in [0, 2^53], per element"},
              {"offset", ParamKind::kScalar, "0", internal::kNoiseOffsetDoc}};
  t.outputs = {{"y", "the noise, width of power and seed"}};
  t.create = [](const Params& p) { return std::make_unique<BandLimitedWhiteNoise>(p); };
  return t;
}

}  // namespace twinblocks::blocks
