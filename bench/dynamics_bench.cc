// Speed of the multibody dynamics core: ns per call of ForwardKinematics, Rnea, Crba, Aba and
// AbaHybrid on the reference 6-DOF arm (Boschetti & Sinico 2024, Table 1) and on a 30-body random
// chain, against the naive forward dynamics in the same run: Crba + NonlinearEffects + a
// Cholesky (LLT) solve of M qdd = tau - nle. BM_AbaHybrid's second argument is how many joints
// are prescribed: 0 (the Aba problem, plus the joint forces F and tau it also fills) or every
// other joint. bench/mujoco_bench.cc compares with MuJoCo.
//
//   build/bin/dynamics_bench
//
// BM_AbaVsNaive reports ns_aba, ns_naive and ratio_aba_to_naive (< 1: ABA is faster), timed
// alternately in one loop so both see the same machine state.
#include <benchmark/benchmark.h>

#include <Eigen/Cholesky>
#include <chrono>
#include <random>
#include <vector>

#include "physics/multibody/algorithms.h"
#include "tests/support/test_trees.h"

namespace {

using twinblocks::multibody::KinematicTree;
using twinblocks::multibody::KinematicTreeData;
namespace mb = twinblocks::multibody;

// range(0): 0 for the reference arm, otherwise the number of bodies of a random chain.
KinematicTree MakeTree(int which) {
  return which == 0 ? mb::testing::ReferenceArm()
                    : mb::testing::RandomTree(which, 2024, /*branched=*/false);
}

struct State {
  explicit State(int which) : tree(MakeTree(which)), data(tree) {
    std::mt19937 rng(1);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    q = Eigen::VectorXd::NullaryExpr(tree.nq(), [&] { return u(rng); });
    v = Eigen::VectorXd::NullaryExpr(tree.nv(), [&] { return u(rng); });
    a = Eigen::VectorXd::NullaryExpr(tree.nv(), [&] { return u(rng); });
    tau = Eigen::VectorXd::NullaryExpr(tree.nv(), [&] { return 5.0 * u(rng); });
  }
  KinematicTree tree;
  KinematicTreeData data;
  Eigen::VectorXd q, v, a, tau;
};

void BM_ForwardKinematics(benchmark::State& state) {
  State s(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    mb::ForwardKinematics(s.tree, &s.data, s.q);
    benchmark::DoNotOptimize(s.data.X_WB.back());
  }
}

void BM_Rnea(benchmark::State& state) {
  State s(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(mb::Rnea(s.tree, &s.data, s.q, s.v, s.a)[0]);
}

void BM_Crba(benchmark::State& state) {
  State s(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(mb::Crba(s.tree, &s.data, s.q)(0, 0));
}

void BM_Aba(benchmark::State& state) {
  State s(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(mb::Aba(s.tree, &s.data, s.q, s.v, s.tau)[0]);
}

// range(1): 0 prescribes no joint, 1 every other joint (a motion-driven joint's u is its
// acceleration).
void BM_AbaHybrid(benchmark::State& state) {
  State s(static_cast<int>(state.range(0)));
  std::vector<unsigned char> prescribed(s.tree.num_bodies(), 0);
  if (state.range(1) != 0) {
    for (std::size_t i = 0; i < prescribed.size(); i += 2) prescribed[i] = 1;
  }
  for (auto _ : state) {
    benchmark::DoNotOptimize(
        mb::AbaHybrid(s.tree, &s.data, s.q, s.v, s.tau, prescribed, nullptr)[0]);
  }
}

// The naive forward dynamics; the LLT and the result are preallocated so that it does not
// allocate either.
struct Naive {
  explicit Naive(int nv) : llt(nv), qdd(nv) {}
  const Eigen::VectorXd& Solve(State& s) {
    qdd = s.tau - mb::NonlinearEffects(s.tree, &s.data, s.q, s.v);
    llt.compute(mb::Crba(s.tree, &s.data, s.q));
    llt.solveInPlace(qdd);
    return qdd;
  }
  Eigen::LLT<Eigen::MatrixXd> llt;
  Eigen::VectorXd qdd;
};

void BM_CrbaLltForwardDynamics(benchmark::State& state) {
  State s(static_cast<int>(state.range(0)));
  Naive naive(s.tree.nv());
  for (auto _ : state) benchmark::DoNotOptimize(naive.Solve(s)[0]);
}

void BM_AbaVsNaive(benchmark::State& state) {
  using Clock = std::chrono::steady_clock;
  State s(static_cast<int>(state.range(0)));
  Naive naive(s.tree.nv());
  constexpr int kInner = 200;
  double aba_ns = 0.0, naive_ns = 0.0, max_difference = 0.0, calls = 0.0;
  for (auto _ : state) {
    const auto t0 = Clock::now();
    for (int k = 0; k < kInner; ++k) {
      benchmark::DoNotOptimize(mb::Aba(s.tree, &s.data, s.q, s.v, s.tau)[0]);
    }
    const auto t1 = Clock::now();
    for (int k = 0; k < kInner; ++k) benchmark::DoNotOptimize(naive.Solve(s)[0]);
    const auto t2 = Clock::now();
    aba_ns += std::chrono::duration<double, std::nano>(t1 - t0).count();
    naive_ns += std::chrono::duration<double, std::nano>(t2 - t1).count();
    calls += kInner;
  }
  max_difference = (Eigen::VectorXd(mb::Aba(s.tree, &s.data, s.q, s.v, s.tau)) - naive.Solve(s))
                       .cwiseAbs()
                       .maxCoeff();
  state.counters["ns_aba"] = aba_ns / calls;
  state.counters["ns_naive"] = naive_ns / calls;
  state.counters["ratio_aba_to_naive"] = aba_ns / naive_ns;
  state.counters["max_qdd_difference"] = max_difference;
}

BENCHMARK(BM_ForwardKinematics)->Arg(0)->Arg(30);
BENCHMARK(BM_Rnea)->Arg(0)->Arg(30);
BENCHMARK(BM_Crba)->Arg(0)->Arg(30);
BENCHMARK(BM_Aba)->Arg(0)->Arg(30);
BENCHMARK(BM_AbaHybrid)->Args({0, 0})->Args({0, 1})->Args({30, 0})->Args({30, 1});
BENCHMARK(BM_CrbaLltForwardDynamics)->Arg(0)->Arg(30);
BENCHMARK(BM_AbaVsNaive)->Arg(0)->Arg(30);

}  // namespace

BENCHMARK_MAIN();
