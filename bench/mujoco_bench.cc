// The dynamics core against MuJoCo (2.2.2, the Debian package) on the reference 6-DOF arm of
// shared/reference/robot6dof.md, built here a second time as MJCF from the same modified DH
// table (hard-coded below so that the program reads no file).
//
//   build/bin/mujoco_bench
//
// - BM_AbaVsMjForward: ns per call of our Aba and of mj_forward (MuJoCo's whole forward pass:
//   kinematics, inertia, factorization, accelerations) at one random state, timed alternately
//   in one loop so both see the same machine state; counters ns_aba, ns_mj_forward, ratio
//   (ns_aba / ns_mj_forward, < 1: ours is faster). mj_forward does more than ABA (it also
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

#include "blocks/multibody/algorithms.h"
#include "blocks/multibody/dh.h"

namespace {

namespace mb = twinblocks::multibody;

// The reference arm, robot6dof.md: modified (Craig) DH rows and link inertias (SI units).
struct ArmRow {
  double alpha_deg, a, d, mass, com_x, com_y, com_z, inertia;
};
constexpr ArmRow kArm[6] = {
    {0, 0.000, 0.500, 20, 0.075, 0, 0, 0.20},    {-90, 0.150, 0.000, 15, 0.200, 0, 0, 0.15},
    {0, 0.400, 0.000, 10, 0.050, 0.27, 0, 0.10}, {-90, 0.100, 0.540, 5, 0, 0, 0, 0.05},
    {90, 0.000, 0.000, 3, 0, 0.05, 0, 0.03},     {-90, 0.000, 0.100, 1, 0, 0, 0.05, 0.01},
};
constexpr double kGravity = 9.81;

mb::KinematicTree OurArm() {
  std::vector<mb::DhLink> links;
  for (const ArmRow& r : kArm) {
    mb::DhLink l;
    l.alpha = r.alpha_deg * M_PI / 180.0;
    l.a = r.a;
    l.d = r.d;
    l.mass = r.mass;
    l.com = Eigen::Vector3d(r.com_x, r.com_y, r.com_z);
    l.inertia_com = r.inertia * Eigen::Matrix3d::Identity();
    links.push_back(l);
  }
  return mb::BuildModifiedDhTree(links, Eigen::Vector3d(0, 0, -kGravity));
}

// The MJCF arm: body i is DH frame i, placed in its parent by Rx(alpha) Dx(a) Dz(d) (the
// joint's Rz(q) follows), with a hinge about its own z at its origin and one motor (gear 1)
// per joint. No damping, armature, friction, limits or geoms (so no contacts).
std::string ArmMjcf() {
  std::ostringstream x;
  x.precision(17);
  x << "<mujoco model=\"robot6dof\">\n"
       "  <compiler angle=\"radian\"/>\n"
       "  <option timestep=\"1e-4\" integrator=\"RK4\" gravity=\"0 0 "
    << -kGravity << "\"/>\n  <worldbody>\n";
  std::string indent = "    ";
  for (int i = 0; i < 6; ++i) {
    const ArmRow& r = kArm[i];
    const double alpha = r.alpha_deg * M_PI / 180.0;
    // Translation of Rx(alpha) Dx(a) Dz(d): (a, -sin(alpha) d, cos(alpha) d).
    x << indent << "<body name=\"link" << i + 1 << "\" pos=\"" << r.a << ' '
      << -std::sin(alpha) * r.d << ' ' << std::cos(alpha) * r.d << "\" quat=\""
      << std::cos(alpha / 2) << ' ' << std::sin(alpha / 2) << " 0 0\">\n";
    x << indent << "  <joint name=\"j" << i + 1 << "\" type=\"hinge\" axis=\"0 0 1\"/>\n";
    x << indent << "  <inertial pos=\"" << r.com_x << ' ' << r.com_y << ' ' << r.com_z
      << "\" mass=\"" << r.mass << "\" diaginertia=\"" << r.inertia << ' ' << r.inertia << ' '
      << r.inertia << "\"/>\n";
    indent += "  ";
  }
  for (int i = 5; i >= 0; --i) {
    indent.resize(indent.size() - 2);
    x << indent << "</body>\n";
  }
  x << "  </worldbody>\n  <actuator>\n";
  for (int i = 0; i < 6; ++i) {
    x << "    <motor joint=\"j" << i + 1 << "\" gear=\"1\" ctrllimited=\"false\"/>\n";
  }
  x << "  </actuator>\n</mujoco>\n";
  return x.str();
}

[[noreturn]] void Die(const std::string& message) {
  std::fprintf(stderr, "mujoco_bench: %s\n", message.c_str());
  std::abort();
}

// Loads the MJCF from memory through MuJoCo's virtual file system.
mjModel* LoadArm() {
  const std::string xml = ArmMjcf();
  mjVFS vfs;
  mj_defaultVFS(&vfs);
  if (mj_makeEmptyFileVFS(&vfs, "arm.xml", static_cast<int>(xml.size())) != 0) {
    Die("mj_makeEmptyFileVFS failed");
  }
  std::memcpy(vfs.filedata[vfs.nfile - 1], xml.data(), xml.size());
  char error[1000] = "";
  mjModel* m = mj_loadXML("arm.xml", &vfs, error, sizeof(error));
  mj_deleteVFS(&vfs);
  if (m == nullptr) Die(std::string("mj_loadXML: ") + error + "\n" + xml);
  return m;
}

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
  using Clock = std::chrono::steady_clock;
  Twins t;
  t.CheckSameArm();
  constexpr int kInner = 200;
  double aba_ns = 0.0, mj_ns = 0.0, calls = 0.0;
  for (auto _ : state) {
    const auto t0 = Clock::now();
    for (int k = 0; k < kInner; ++k) {
      benchmark::DoNotOptimize(mb::Aba(t.tree, &t.data, t.q, t.v, t.tau)[0]);
    }
    const auto t1 = Clock::now();
    for (int k = 0; k < kInner; ++k) {
      mj_forward(t.m, t.d);
      benchmark::DoNotOptimize(t.d->qacc[0]);
    }
    const auto t2 = Clock::now();
    aba_ns += std::chrono::duration<double, std::nano>(t1 - t0).count();
    mj_ns += std::chrono::duration<double, std::nano>(t2 - t1).count();
    calls += kInner;
  }
  state.counters["ns_aba"] = aba_ns / calls;
  state.counters["ns_mj_forward"] = mj_ns / calls;
  state.counters["ratio"] = aba_ns / mj_ns;
}

// E1's torque, 5 sin(2 pi t / 2) N m on every joint, set as the motors' controls from d->time.
// As mjcb_control it runs at every stage of MuJoCo's RK4 (mj_forwardSkip calls it, and
// mj_RungeKutta sets d->time to each stage's time), so the torque is the continuous function
// of time, not held over the step.
void E1Control(const mjModel* m, mjData* d) {
  const double tau = 5.0 * std::sin(M_PI * d->time);
  for (int k = 0; k < m->nu; ++k) d->ctrl[k] = tau;
}

// MuJoCo's E1 reference at t = 1 s (shared/reference/arm_e1_mujoco.csv, made the same way).
constexpr double kE1ReferenceAt1s[6] = {1.055869782951,  1.705582124814, 0.623574127311,
                                        -2.489946324008, 0.117983168086, 162.740179544740};

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
