// Lookup tables: ns per evaluation of a 1-D table of 10,000 unevenly spaced breakpoints,
// against a plain std::upper_bound + linear interpolation over the same breakpoints, timed in
// the same benchmark (the baseline).
//
//   build/bin/lookup_bench
//
// Inputs: random (uniform over the breakpoints, so that the previous interval says nothing
// about the next) and a smooth sweep (a sine over the whole table, 200,000 steps a period,
// about 10 steps per interval: the previous interval is most often the right one; for the
// block, each element of its input follows the sweep, one step per evaluation). Counters:
// ns_per_eval for the table, baseline_ns for std::upper_bound + interpolation over the same
// inputs, ratio_to_upper_bound = ns_per_eval / baseline_ns. Times are the thread's CPU time.
// BM_Lookup*Block runs the LookupTable block itself on a 1000-wide input, as the simulator calls
// it; BM_Lookup*Table the table maths alone (blocks/lookup/detail).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <memory>
#include <random>
#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/lookup/detail/grid_interpolant.h"
#include "blocks/param.h"

namespace {

namespace lookup = twinblocks::blocks::lookup;

// Seconds of CPU time of this thread: on a machine shared with other work (CI, builds), wall
// time counts the time the thread waited for a core.
double ThreadSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

using twinblocks::blocks::Block;
using twinblocks::blocks::Context;
using twinblocks::blocks::Params;
using twinblocks::blocks::ParamValue;

constexpr int kBreakpoints = 10000;
constexpr int kInputs = 1000;  // per pass (the block's input width)

constexpr int kPasses = 200;  // block input vectors, one per CalcOutputs

struct Data {
  std::vector<double> x, y;  // breakpoints, values
  std::vector<double> random, sweep;
  // The block's inputs (kPasses x kInputs): random, or element i following the sweep 200 i
  // steps behind element 0, so that each element moves smoothly from pass to pass.
  std::vector<double> block_random, block_sweep;
};

// Seeded: uneven gaps (exponentially distributed) and a smooth curve of values.
const Data& TheData() {
  static const Data data = [] {
    Data d;
    std::mt19937 rng(2024);
    std::exponential_distribution<double> gap(1.0);
    double x = 0.0;
    for (int i = 0; i < kBreakpoints; ++i) {
      d.x.push_back(x);
      d.y.push_back(std::sin(1e-3 * x) + 1e-4 * x);
      x += 0.05 + gap(rng);
    }
    std::uniform_real_distribution<double> pick(d.x.front(), d.x.back());
    for (int i = 0; i < 20 * kInputs; ++i) d.random.push_back(pick(rng));
    const double mid = 0.5 * (d.x.front() + d.x.back()), half = 0.5 * (d.x.back() - d.x.front());
    const int n = 200 * kInputs;
    auto sweep = [&](int i) { return mid + half * std::sin(2.0 * M_PI * (i % n) / n); };
    for (int i = 0; i < n; ++i) d.sweep.push_back(sweep(i));
    for (int p = 0; p < kPasses; ++p) {
      for (int i = 0; i < kInputs; ++i) {
        d.block_random.push_back(pick(rng));
        d.block_sweep.push_back(sweep(p + 200 * i));
      }
    }
    return d;
  }();
  return data;
}

double UpperBoundLookup(const std::vector<double>& x, const std::vector<double>& y, double u) {
  const std::ptrdiff_t last = static_cast<std::ptrdiff_t>(x.size()) - 2;
  std::ptrdiff_t k = std::upper_bound(x.begin(), x.end(), u) - x.begin() - 1;
  k = std::clamp<std::ptrdiff_t>(k, 0, last);
  const double f = (u - x[k]) / (x[k + 1] - x[k]);
  return y[k] + f * (y[k + 1] - y[k]);
}

// ns per lookup of the baseline over `inputs` (CPU time), best of 5 passes of `rounds` each.
double BaselineNs(const std::vector<double>& inputs, int rounds) {
  const Data& d = TheData();
  double best = 1e300, sum = 0.0;
  for (int rep = 0; rep < 5; ++rep) {
    const double start = ThreadSeconds();
    for (int r = 0; r < rounds; ++r) {
      for (double u : inputs) sum += UpperBoundLookup(d.x, d.y, u);
    }
    const double s = ThreadSeconds() - start;
    best = std::min(best, s * 1e9 / (static_cast<double>(rounds) * inputs.size()));
  }
  benchmark::DoNotOptimize(sum);
  return best;
}

lookup::GridInterpolant MakeTable() {
  const Data& d = TheData();
  std::vector<lookup::Breakpoints> axes;
  axes.emplace_back(d.x, "x", "x");
  return lookup::GridInterpolant(std::move(axes), d.y, lookup::Interpolation::kLinear,
                                 lookup::Extrapolation::kClip);
}

void RunTable(benchmark::State& state, const std::vector<double>& inputs) {
  const lookup::GridInterpolant table = MakeTable();
  int hint = 0;
  double sum = 0.0, seconds = 0.0, evaluations = 0.0;
  for (auto _ : state) {
    const double start = ThreadSeconds();
    for (double u : inputs) sum += table.Evaluate(&u, &hint);
    seconds += ThreadSeconds() - start;
    evaluations += inputs.size();
  }
  benchmark::DoNotOptimize(sum);
  const double ns = seconds * 1e9 / evaluations;
  const double baseline = BaselineNs(inputs, 20);
  state.counters["ns_per_eval"] = ns;
  state.counters["baseline_ns"] = baseline;
  state.counters["ratio_to_upper_bound"] = ns / baseline;
}

void BM_LookupRandomTable(benchmark::State& state) { RunTable(state, TheData().random); }
BENCHMARK(BM_LookupRandomTable);

void BM_LookupSweepTable(benchmark::State& state) { RunTable(state, TheData().sweep); }
BENCHMARK(BM_LookupSweepTable);

// The LookupTable block laid out as the compiler would: input at signals[0, kInputs), output
// after it, one hint per element in dwork.
struct BlockRig {
  std::unique_ptr<Block> block;
  std::vector<double> signals, dwork;
  Context c;
};

std::unique_ptr<BlockRig> MakeRig() {
  const Data& d = TheData();
  Params p;
  p.Set("breakpoints",
        ParamValue::Numeric(Eigen::Map<const Eigen::MatrixXd>(d.x.data(), kBreakpoints, 1)));
  p.Set("table",
        ParamValue::Numeric(Eigen::Map<const Eigen::MatrixXd>(d.y.data(), kBreakpoints, 1)));
  p.Set("interpolation", ParamValue::Text("linear"));
  p.Set("extrapolation", ParamValue::Text("clip"));
  p.Set("spline_ends", ParamValue::Text("not_a_knot"));
  auto rig = std::make_unique<BlockRig>();
  rig->block = twinblocks::blocks::Catalog().Find("LookupTable")->create(p);
  rig->block->Configure({kInputs});
  Block::Layout layout;
  layout.index = 0;
  layout.sample_time = twinblocks::blocks::SampleTime::Continuous();
  rig->block->SetLayout(layout);
  rig->block->SetInputOffset(0, 0);
  rig->block->SetOutputOffset(0, kInputs);
  rig->signals.assign(2 * kInputs, 0.0);
  rig->dwork.assign(rig->block->num_dwork(), 0.0);
  rig->c.signals = rig->signals.data();
  rig->c.dwork = rig->dwork.data();
  rig->c.major = false;  // inside a solver step, as most evaluations are
  rig->block->Initialize(rig->c);
  return rig;
}

void RunBlock(benchmark::State& state, const std::vector<double>& inputs) {
  const auto rig = MakeRig();
  const int passes = kPasses;
  double seconds = 0.0, evaluations = 0.0, sum = 0.0;
  int pass = 0;
  for (auto _ : state) {
    std::copy(inputs.begin() + pass * kInputs, inputs.begin() + (pass + 1) * kInputs,
              rig->signals.begin());
    pass = (pass + 1) % passes;
    const double start = ThreadSeconds();
    rig->block->CalcOutputs(rig->c, 0);
    seconds += ThreadSeconds() - start;
    evaluations += kInputs;
    sum += rig->signals[kInputs];
  }
  benchmark::DoNotOptimize(sum);
  const double ns = seconds * 1e9 / evaluations;
  const double baseline = BaselineNs(inputs, 20);
  state.counters["ns_per_eval"] = ns;
  state.counters["baseline_ns"] = baseline;
  state.counters["ratio_to_upper_bound"] = ns / baseline;
}

void BM_LookupRandomBlock(benchmark::State& state) { RunBlock(state, TheData().block_random); }
BENCHMARK(BM_LookupRandomBlock);

void BM_LookupSweepBlock(benchmark::State& state) { RunBlock(state, TheData().block_sweep); }
BENCHMARK(BM_LookupSweepBlock);

}  // namespace

BENCHMARK_MAIN();
