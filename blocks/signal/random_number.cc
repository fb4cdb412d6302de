#include "blocks/signal/random_number.h"

#include <cmath>
#include <memory>
#include <vector>

#include "blocks/signal/detail/block_helpers.h"
#include "blocks/signal/detail/param_checks.h"

namespace twinblocks::blocks {

namespace {

internal::RandomSource::Spec ReadSpec(const Params& params) {
  const Eigen::VectorXd mean = params.Vector("mean");
  const Eigen::VectorXd variance = params.Vector("variance");
  internal::RandomSource::Spec spec;
  spec.law = internal::RandomSource::Law::kNormal;
  spec.seeds = params.Vector("seed");
  internal::CheckParamValues("mean", mean, internal::ValueRange::kFinite);
  internal::CheckParamValues("variance", variance, internal::ValueRange::kNonNegative);
  const int width =
      internal::CommonParamWidth({{"mean", &mean}, {"variance", &variance}, {"seed", &spec.seeds}});
  spec.offset = internal::Expand(mean, width);
  spec.scale = internal::Expand(variance.cwiseSqrt(), width);
  return spec;
}

}  // namespace

RandomNumber::RandomNumber(const Params& params) : RandomSource(params, ReadSpec(params)) {}

BlockType RandomNumberType() {
  BlockType t;
  t.name = "RandomNumber";
  t.category = "Sources";
  t.summary = "Normally distributed random numbers, a new one at each sample hit.";
  t.doc =
      "y_i = mean_i + sqrt(variance_i) n_i(k) from the run's k-th sample hit (k = 0, 1, ...; hits "
      "at t = offset + j Ts) to the next; n_i(k) is standard normal (Box-Muller on two uniform "
      "draws of a counter-based SplitMix64 stream). Element i draws from the stream of seed_i; a "
      "scalar seed gives element i the seed seed + i, so the elements are independent. The width "
      "is that of mean, variance and seed (scalars expand). The same seed gives the same numbers, "
      "bit for bit, on every run, thread and MPI rank, and after a saved state is restored: the "
      "block keeps only the count k of its draws, as a discrete state. Do not integrate it: "
      "BandLimitedWhiteNoise scales its variance with Ts for that.";
  t.reference =
      "Simulink Random Number (its defaults; its own generator is MATLAB's 'v4', so the numbers "
      "differ; Ts must be positive: no continuous or inherited rate)";
  t.params = {{"mean", ParamKind::kVector, "0", "mean, per element"},
              {"variance", ParamKind::kVector, "1", "variance (>= 0), per element"},
              {"seed", ParamKind::kVector, "0", "whole number(s) in [0, 2^53], per element"},
              {"Ts", ParamKind::kScalar, "0.1", internal::kNoiseTsDoc},
              {"offset", ParamKind::kScalar, "0", internal::kNoiseOffsetDoc}};
  t.outputs = {{"y", "the random numbers, width of the parameters"}};
  t.create = [](const Params& p) { return std::make_unique<RandomNumber>(p); };
  return t;
}

}  // namespace twinblocks::blocks
