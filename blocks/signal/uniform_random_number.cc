#include "blocks/signal/uniform_random_number.h"

#include <memory>
#include <string>

#include "blocks/signal/detail/block_helpers.h"
#include "blocks/signal/detail/param_checks.h"
#include "common/format_value.h"

namespace twinblocks::blocks {

namespace {

internal::RandomSource::Spec ReadSpec(const Params& params) {
  const Eigen::VectorXd lo = params.Vector("minimum");
  const Eigen::VectorXd hi = params.Vector("maximum");
  internal::RandomSource::Spec spec;
  spec.law = internal::RandomSource::Law::kUniform;
  spec.seeds = params.Vector("seed");
  internal::CheckParamValues("minimum", lo, internal::ValueRange::kFinite);
  internal::CheckParamValues("maximum", hi, internal::ValueRange::kFinite);
  const int width =
      internal::CommonParamWidth({{"minimum", &lo}, {"maximum", &hi}, {"seed", &spec.seeds}});
  spec.offset = internal::Expand(lo, width);
  const std::vector<double> upper = internal::Expand(hi, width);
  for (int i = 0; i < width; ++i) {
    if (upper[i] < spec.offset[i]) {
      throw BlockError("parameter 'maximum' must be >= 'minimum', element " + std::to_string(i) +
                           " is " + FormatValue(upper[i]) + " < " + FormatValue(spec.offset[i]),
                       "maximum");
    }
    spec.scale.push_back(upper[i] - spec.offset[i]);
  }
  return spec;
}

}  // namespace

UniformRandomNumber::UniformRandomNumber(const Params& params)
    : RandomSource(params, ReadSpec(params)) {}

BlockType UniformRandomNumberType() {
  BlockType t;
  t.name = "UniformRandomNumber";
  t.category = "Sources";
  t.summary = "Uniformly distributed random numbers, a new one at each sample hit.";
  t.doc =
      "y_i = minimum_i + (maximum_i - minimum_i) u_i(k) from the run's k-th sample hit (k = 0, 1, "
      "...; hits at t = offset + j Ts) to the next; u_i(k) is uniform on [0, 1) (the top 53 bits "
      "of draw k of a counter-based SplitMix64 stream, times 2^-53). Element i draws from the "
      "stream of seed_i; a scalar seed gives element i the seed seed + i. The width is that of "
      "minimum, maximum and seed (scalars expand). The same seed gives the same numbers, bit for "
      "bit, on every run, thread and MPI rank, and after a saved state is restored (the count k "
      "of draws is the block's discrete state).";
  t.reference =
      "Simulink Uniform Random Number (its defaults; MATLAB's generator differs, so the numbers "
      "do; Ts must be positive: no continuous or inherited rate)";
  t.params = {{"minimum", ParamKind::kVector, "-1", "lower bound, per element"},
              {"maximum", ParamKind::kVector, "1", "upper bound (>= minimum), per element"},
              {"seed", ParamKind::kVector, "0", "whole number(s) in [0, 2^53], per element"},
              {"Ts", ParamKind::kScalar, "0.1", internal::kNoiseTsDoc},
              {"offset", ParamKind::kScalar, "0", internal::kNoiseOffsetDoc}};
  t.outputs = {{"y", "the random numbers, width of the parameters"}};
  t.create = [](const Params& p) { return std::make_unique<UniformRandomNumber>(p); };
  return t;
}

}  // namespace twinblocks::blocks
