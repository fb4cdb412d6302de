#include "blocks/signal/detail/random_source.h"

#include <cmath>
#include <string>
#include <utility>

#include "blocks/signal/detail/block_helpers.h"
#include "blocks/signal/detail/counter_random.h"
#include "common/format_value.h"

namespace twinblocks::blocks::internal {

namespace {

// Seeds are whole numbers a double holds exactly, so that the text of a seed names one stream.
constexpr double kLargestSeed = 9007199254740992.0;  // 2^53

SampleTime NoiseSampleTime(const Params& params) {
  const double ts = params.Scalar("Ts");
  // A noise source needs a rate of its own: drawn at every solver step (continuous) its values
  // would depend on the solver's steps, and it has no input to inherit a rate from.
  if (!(ts > 0.0) || !std::isfinite(ts)) {
    throw BlockError("parameter 'Ts' must be a positive, finite sample time in s", "Ts");
  }
  return DiscreteSampleTime(ts, params.Scalar("offset"));
}

}  // namespace

std::vector<std::uint64_t> SeedKeys(const Eigen::VectorXd& seeds, int width) {
  if (seeds.size() != 1 && seeds.size() != width) {
    throw BlockError("parameter 'seed' has " + std::to_string(seeds.size()) +
                         " elements, but the output has width " + std::to_string(width) +
                         " (give one seed, or one per element)",
                     "seed");
  }
  for (Eigen::Index i = 0; i < seeds.size(); ++i) {
    const double s = seeds(i);
    if (!(s >= 0.0 && s <= kLargestSeed) || s != std::floor(s)) {
      throw BlockError("parameter 'seed' must hold whole numbers in [0, 2^53], element " +
                           std::to_string(i) + " is " + FormatValue(s),
                       "seed");
    }
  }
  std::vector<std::uint64_t> keys(width);
  for (int i = 0; i < width; ++i) {
    const double s = seeds.size() == 1 ? seeds(0) + i : seeds(i);
    keys[i] = StreamKey(static_cast<std::uint64_t>(s));
  }
  return keys;
}

RandomSource::RandomSource(const Params& params, Spec spec)
    : law_(spec.law),
      offset_(std::move(spec.offset)),
      scale_(std::move(spec.scale)),
      keys_(SeedKeys(spec.seeds, static_cast<int>(offset_.size()))) {
  const int width = static_cast<int>(offset_.size());
  DeclareOutput("y", width);
  DeclareSampleTime(NoiseSampleTime(params));
  DeclareDiscreteStates(1);  // k, the samples drawn so far
}

void RandomSource::DoInitialize(Context& c) const { xd(c)[0] = 0.0; }

void RandomSource::DoCalcOutputs(Context& c, int stage) const {
  const auto k = static_cast<std::uint64_t>(xd(c)[0]);
  double* y = out(c, 0);
  const int n = out_width(0);
  for (int i = 0; i < n; ++i) {
    const double r = law_ == Law::kNormal ? StreamNormal(keys_[i], k) : StreamUniform(keys_[i], k);
    y[i] = offset_[i] + scale_[i] * r;
  }
}

void RandomSource::DoUpdate(Context& c) const { xd(c)[0] += 1.0; }

}  // namespace twinblocks::blocks::internal
