// The L1 Ferrari-Canny epsilon of random hard-finger grasps (contacts at random points of a
// sphere of radius 5 cm, normals to its centre, Coulomb mu = 0.5 linearized with 8 edges), by
// qhull and by the expanding polytope solver, on the same grasps in the same run.
//
//   build/bin/grasp_bench
//
// - BM_EpsilonQhull/<contacts>: CalcGraspQuality with keep_facets (which always builds the
//   whole hull with qhull), ms per call.
// - BM_EpsilonSolver/<contacts>: FillPrimitiveWrenches and EpsilonSolver::Solve into storage
//   made before the loop (no allocation), ms per call. Counters: solver_ms and qhull_ms (the
//   least over 3 passes over the grasps, timed here by the clock), ratio = solver_ms /
//   qhull_ms, agree (1 when force closure matches and epsilon is within 1e-9 relative on
//   every grasp), closed (the fraction of force-closure grasps), points_added and
//   peak_facets (the largest over the grasps), facets_made (per call), qr_planes (new facets per
//   call whose plane needed QR).
// Target: well under 1 ms for 13 contacts (qhull: about 106 ms).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "physics/grasp/epsilon_solver.h"
#include "physics/grasp/friction_cone.h"
#include "physics/grasp/grasp_quality.h"

namespace {

using namespace twinblocks::grasp;
using Clock = std::chrono::steady_clock;

constexpr int kGrasps = 20;
constexpr double kRadius = 0.05;
const FrictionCone kCone{0.5, 0.0, 8};

struct Grasp {
  Eigen::Matrix3Xd p, n;
};

std::vector<Grasp> RandomGrasps(int nc) {
  std::mt19937 rng(1000 + nc);
  std::normal_distribution<double> normal;
  std::vector<Grasp> grasps(kGrasps);
  for (Grasp& g : grasps) {
    g.p.resize(3, nc);
    g.n.resize(3, nc);
    for (int i = 0; i < nc; ++i) {
      const Eigen::Vector3d u = Eigen::Vector3d(normal(rng), normal(rng), normal(rng)).normalized();
      g.p.col(i) = kRadius * u;
      g.n.col(i) = -u;
    }
  }
  return grasps;
}

GraspQuality ByQhull(const Grasp& g) {
  QualityOptions options;
  options.keep_facets = true;
  return CalcGraspQuality(g.p, g.n, Eigen::Vector3d::Zero(), ContactModel::kHardFinger, kCone,
                          options);
}

EpsilonResult BySolver(const Grasp& g, EpsilonSolver* solver,
                       Eigen::Matrix<double, 6, Eigen::Dynamic>* W) {
  const int count = FillPrimitiveWrenches(g.p, g.n, Eigen::Vector3d::Zero(),
                                          ContactModel::kHardFinger, kCone, kRadius, *W);
  return solver->Solve(W->leftCols(count));
}

// The least time per grasp (ms) over `passes` passes over all grasps.
template <typename F>
double LeastMsPerCall(const std::vector<Grasp>& grasps, int passes, F&& call) {
  double best = 1e300;
  for (int pass = 0; pass < passes; ++pass) {
    const auto start = Clock::now();
    for (const Grasp& g : grasps) call(g);
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    best = std::min(best, ms / static_cast<double>(grasps.size()));
  }
  return best;
}

void BM_EpsilonQhull(benchmark::State& state) {
  const std::vector<Grasp> grasps = RandomGrasps(static_cast<int>(state.range(0)));
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(ByQhull(grasps[i++ % grasps.size()]).epsilon);
  }
}

void BM_EpsilonSolver(benchmark::State& state) {
  const int nc = static_cast<int>(state.range(0));
  const std::vector<Grasp> grasps = RandomGrasps(nc);
  const int points = nc * NumConeGenerators(ContactModel::kHardFinger, kCone);
  EpsilonSolver solver(points);
  Eigen::Matrix<double, 6, Eigen::Dynamic> W(6, points);
  // Agreement and sizes, then both timed by the clock in this run.
  bool agree = true;
  int closed = 0, added = 0, peak = 0, fallbacks = 0;
  double made = 0.0;
  for (const Grasp& g : grasps) {
    const GraspQuality q = ByQhull(g);
    const EpsilonResult r = BySolver(g, &solver, &W);
    agree = agree && r.status != EpsilonStatus::kFacetPoolExhausted &&
            r.force_closure == q.force_closure &&
            std::abs(r.epsilon - q.epsilon) <= 1e-9 * std::max(q.epsilon, 1e-300);
    closed += r.force_closure ? 1 : 0;
    added = std::max(added, r.points_added);
    peak = std::max(peak, r.peak_facets);
    fallbacks += r.plane_fallbacks;
    made += r.facets_made;
  }
  const double qhull_ms = LeastMsPerCall(
      grasps, 3, [](const Grasp& g) { benchmark::DoNotOptimize(ByQhull(g).epsilon); });
  const double solver_ms = LeastMsPerCall(grasps, 3, [&](const Grasp& g) {
    benchmark::DoNotOptimize(BySolver(g, &solver, &W).epsilon);
  });
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(BySolver(grasps[i++ % grasps.size()], &solver, &W).epsilon);
  }
  state.counters["solver_ms"] = solver_ms;
  state.counters["qhull_ms"] = qhull_ms;
  state.counters["ratio"] = solver_ms / qhull_ms;
  state.counters["agree"] = agree ? 1.0 : 0.0;
  state.counters["closed"] = static_cast<double>(closed) / kGrasps;
  state.counters["points_added"] = added;
  state.counters["peak_facets"] = peak;
  state.counters["facets_made"] = made / kGrasps;
  state.counters["qr_planes"] = static_cast<double>(fallbacks) / kGrasps;
  state.SetLabel("new/qhull = " + std::to_string(solver_ms / qhull_ms));
}

BENCHMARK(BM_EpsilonQhull)->Arg(5)->Arg(7)->Arg(13)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EpsilonSolver)->Arg(5)->Arg(7)->Arg(13)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
