// The dynamics core against MuJoCo (2.2.2, the Debian package) on the reference 6-DOF arm of
// Boschetti & Sinico 2024 (Table 1), built here a second time as MJCF from the same modified DH
// table (hard-coded below so that the program reads no file).
//
//   build/bin/mujoco_bench
//
// - BM_AbaVsMjForward: ns per call of our ForwardKinematics, Rnea, Crba and Aba and of
//   mj_forward (MuJoCo's whole forward pass: kinematics, inertia, factorization,
//   accelerations) at one random state, timed in turn in one loop so all see the same machine
//   state; counters ns_fk, ns_rnea, ns_crba, ns_aba, ns_mj_forward, ratio (ns_aba /
//   ns_mj_forward, < 1: ours is faster). mj_forward does more than ABA (it also
//   forms and factors M), which is the point: it is what a MuJoCo user pays per evaluation.
// - BM_MujocoE1: MuJoCo's own run of experiment E1 (tau_i = 5 sin(pi t) on every joint,
//   q0 = qd0 = 0, RK4, dt = 1e-4, 4 s): the wall time per run and q at t = 1 s (counters
//   q1..q6), the figures to compare twinblocks' E1 run with.
//
// At startup the MJCF arm is checked against our tree: mj_forward's qacc at a random state
// must equal our Aba to 1e-8 (relative), otherwise the program aborts with a message.
#include <benchmark/benchmark.h>
#include <mujoco/mujoco.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "bench/mujoco_arm.h"
#include "physics/multibody/algorithms.h"

namespace {

namespace mb = twinblocks::multibody;
using namespace twinblocks::bench;
using Clock = std::chrono::steady_clock;

// Our tree and MuJoCo's model and data at one seeded random state (q, v, tau).
struct Twins {
  Twins() : tree(OurArm()), data(tree), m(LoadArm()), d(mj_makeData(m)) {
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    q = Eigen::VectorXd::NullaryExpr(6, [&] { return M_PI * u(rng); });
    v = Eigen::VectorXd::NullaryExpr(6, [&] { return 2.0 * u(rng); });
    tau = Eigen::VectorXd::NullaryExpr(6, [&] { return 5.0 * u(rng); });
    for (int k = 0; k < 6; ++k) {
      d->qpos[k] = q[k];
      d->qvel[k] = v[k];
      d->ctrl[k] = tau[k];
    }
  }
  ~Twins() {
    mj_deleteData(d);
    mj_deleteModel(m);
  }
  Twins(const Twins&) = delete;
  Twins& operator=(const Twins&) = delete;

  // The two must be one arm: MuJoCo's qacc equals our Aba at the random state.
  void CheckSameArm() {
    if (m->nq != 6 || m->nv != 6 || m->nu != 6) Die("the MJCF arm does not have 6 joints");
    mj_forward(m, d);
    const Eigen::VectorXd& qdd = mb::Aba(tree, &data, q, v, tau);
    double error = 0.0, scale = 1.0;
    for (int k = 0; k < 6; ++k) {
      error = std::max(error, std::abs(d->qacc[k] - qdd[k]));
      scale = std::max(scale, std::abs(qdd[k]));
    }
    if (!(error <= 1e-8 * scale)) {
      std::ostringstream s;
      s << "the MJCF arm differs from the tree: max |qacc - Aba| = " << error << " (scale " << scale
        << ")\n  mujoco:";
      for (int k = 0; k < 6; ++k) s << ' ' << d->qacc[k];
      s << "\n  aba:   ";
      for (int k = 0; k < 6; ++k) s << ' ' << qdd[k];
      Die(s.str());
    }
    std::printf("MJCF arm matches the tree: max |qacc - Aba| = %.2e (|qdd| up to %.2e)\n", error,
                scale);
  }

  mb::KinematicTree tree;
  mb::KinematicTreeData data;
  mjModel* m;
  mjData* d;
  Eigen::VectorXd q, v, tau;
};

void BM_AbaVsMjForward(benchmark::State& state) {
  Twins t;
  t.CheckSameArm();
  constexpr int kInner = 200;
  // Each algorithm in turn, kInner calls each, so all see the same machine state.
  double fk_ns = 0.0, rnea_ns = 0.0, crba_ns = 0.0, aba_ns = 0.0, mj_ns = 0.0, calls = 0.0;
  auto time = [](auto&& body) {
    const auto t0 = Clock::now();
    for (int k = 0; k < kInner; ++k) body();
    return std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
  };
  for (auto _ : state) {
    fk_ns += time([&] {
      mb::ForwardKinematics(t.tree, &t.data, t.q);
      benchmark::DoNotOptimize(t.data.X_WB.back());
    });
    rnea_ns +=
        time([&] { benchmark::DoNotOptimize(mb::Rnea(t.tree, &t.data, t.q, t.v, t.tau)[0]); });
    crba_ns += time([&] { benchmark::DoNotOptimize(mb::Crba(t.tree, &t.data, t.q)(0, 0)); });
    aba_ns += time([&] { benchmark::DoNotOptimize(mb::Aba(t.tree, &t.data, t.q, t.v, t.tau)[0]); });
    mj_ns += time([&] {
      mj_forward(t.m, t.d);
      benchmark::DoNotOptimize(t.d->qacc[0]);
    });
    calls += kInner;
  }
  state.counters["ns_fk"] = fk_ns / calls;
  state.counters["ns_rnea"] = rnea_ns / calls;
  state.counters["ns_crba"] = crba_ns / calls;
  state.counters["ns_aba"] = aba_ns / calls;
  state.counters["ns_mj_forward"] = mj_ns / calls;
  state.counters["ratio"] = aba_ns / mj_ns;
}

void BM_MujocoE1(benchmark::State& state) {
  Twins t;
  t.CheckSameArm();
  constexpr int kSteps = 40000;  // 4 s at 1e-4 s
  constexpr int kStepsTo1s = 10000;
  double q_at_1s[6] = {};
  mjcb_control = E1Control;
  for (auto _ : state) {
    mj_resetData(t.m, t.d);
    for (int step = 0; step < kSteps; ++step) {
      mj_step(t.m, t.d);
      if (step + 1 == kStepsTo1s) std::memcpy(q_at_1s, t.d->qpos, sizeof(q_at_1s));
    }
    benchmark::DoNotOptimize(t.d->qpos[0]);
  }
  mjcb_control = nullptr;
  double worst = 0.0;
  static const char* const kNames[6] = {"q1_at_1s", "q2_at_1s", "q3_at_1s",
                                        "q4_at_1s", "q5_at_1s", "q6_at_1s"};
  for (int k = 0; k < 6; ++k) {
    state.counters[kNames[k]] = q_at_1s[k];
    worst = std::max(worst, std::abs(q_at_1s[k] - kE1ReferenceAt1s[k]));
  }
  state.counters["max_diff_to_reference_csv"] = worst;
  state.counters["t_end"] = t.d->time;
}

BENCHMARK(BM_AbaVsMjForward);
BENCHMARK(BM_MujocoE1)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

BENCHMARK_MAIN();
