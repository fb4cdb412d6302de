#include "physics/multibody/algorithms.h"

#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

#include "physics/multibody/dh.h"
#include "tests/physics/malloc_count.h"
#include "tests/support/test_trees.h"

namespace twinblocks::multibody {
namespace {

using testing::RandomTree;
using testing::RandomVector;
using testing::ReferenceArm;

// Simple pendulum: a point mass m at distance L below a horizontal revolute axis (z), gravity
// along -y. Closed form: tau = m L^2 qdd + m g L sin q.
TEST(AlgorithmsTest, SimplePendulumMatchesClosedForm) {
  const double m = 2.0, L = 0.7, g = 9.81;
  BodySpec bob;
  bob.parent = -1;
  bob.joint = Joint::Revolute(Eigen::Vector3d::UnitZ());
  bob.inertia = SpatialInertia(m, Eigen::Vector3d(0, -L, 0), Eigen::Matrix3d::Zero());
  const KinematicTree tree({bob}, Eigen::Vector3d(0, -g, 0));
  KinematicTreeData data(tree);
  std::mt19937 rng(7);
  for (int trial = 0; trial < 10; ++trial) {
    const Eigen::VectorXd q = RandomVector(rng, 1, 3.0), v = RandomVector(rng, 1, 5.0);
    const Eigen::VectorXd a = RandomVector(rng, 1, 10.0);
    const double tau_expected = m * L * L * a[0] + m * g * L * std::sin(q[0]);
    EXPECT_NEAR(Rnea(tree, &data, q, v, a)[0], tau_expected, 1e-12);
    const Eigen::VectorXd tau = Eigen::VectorXd::Constant(1, 3.0);
    const double qdd_expected = (tau[0] - m * g * L * std::sin(q[0])) / (m * L * L);
    EXPECT_NEAR(Aba(tree, &data, q, v, tau)[0], qdd_expected, 1e-12);
    EXPECT_NEAR(Crba(tree, &data, q)(0, 0), m * L * L, 1e-14);
  }
}

// Double pendulum in the x-y plane, joints about z, gravity -y, angles from the x axis (q2
// relative to link 1), Lagrangian closed form (e.g. Spong, Robot Modeling and Control, 7.4).
TEST(AlgorithmsTest, DoublePendulumMatchesLagrangian) {
  const double m1 = 1.3, m2 = 0.8, L1 = 0.9, lc1 = 0.4, lc2 = 0.35, I1 = 0.05, I2 = 0.02;
  const double g = 9.81;
  BodySpec b1, b2;
  b1.parent = -1;
  b1.inertia =
      SpatialInertia(m1, Eigen::Vector3d(lc1, 0, 0), Eigen::Vector3d(0.01, 0.03, I1).asDiagonal());
  b2.parent = 0;
  b2.X_PJ = Pose::Translation(Eigen::Vector3d(L1, 0, 0));
  b2.inertia =
      SpatialInertia(m2, Eigen::Vector3d(lc2, 0, 0), Eigen::Vector3d(0.02, 0.01, I2).asDiagonal());
  const KinematicTree tree({b1, b2}, Eigen::Vector3d(0, -g, 0));
  KinematicTreeData data(tree);
  std::mt19937 rng(11);
  for (int trial = 0; trial < 20; ++trial) {
    const Eigen::VectorXd q = RandomVector(rng, 2, M_PI), v = RandomVector(rng, 2, 4.0);
    const Eigen::VectorXd tau = RandomVector(rng, 2, 10.0);
    const double c2 = std::cos(q[1]), s2 = std::sin(q[1]);
    Eigen::Matrix2d M;
    M(0, 0) = m1 * lc1 * lc1 + m2 * (L1 * L1 + lc2 * lc2 + 2 * L1 * lc2 * c2) + I1 + I2;
    M(0, 1) = M(1, 0) = m2 * (lc2 * lc2 + L1 * lc2 * c2) + I2;
    M(1, 1) = m2 * lc2 * lc2 + I2;
    const double h = -m2 * L1 * lc2 * s2;
    const Eigen::Vector2d coriolis(h * (2 * v[0] * v[1] + v[1] * v[1]), -h * v[0] * v[0]);
    const Eigen::Vector2d gravity(
        (m1 * lc1 + m2 * L1) * g * std::cos(q[0]) + m2 * lc2 * g * std::cos(q[0] + q[1]),
        m2 * lc2 * g * std::cos(q[0] + q[1]));
    const Eigen::Vector2d qdd_expected = M.ldlt().solve(tau - coriolis - gravity);
    EXPECT_LT((Aba(tree, &data, q, v, tau) - qdd_expected).norm(), 1e-12);
    EXPECT_LT((Crba(tree, &data, q) - M).norm(), 1e-14);
    EXPECT_LT((NonlinearEffects(tree, &data, q, v) - coriolis - gravity).norm(), 1e-12);
  }
}

// The consistency checks between the algorithms, on 20 seeded random states; `scale` is the
// size of M used to make the CRBA tolerance relative for large trees.
void CheckAlgorithmsAgree(const KinematicTree& tree, unsigned seed, double crba_tol,
                          double aba_tol) {
  KinematicTreeData data(tree);
  const int nv = tree.nv();
  std::mt19937 rng(seed);
  double worst_crba = 0.0, worst_aba = 0.0, worst_energy = 0.0;
  for (int trial = 0; trial < 20; ++trial) {
    const Eigen::VectorXd q = RandomVector(rng, tree.nq(), M_PI);
    const Eigen::VectorXd v = RandomVector(rng, nv, 2.0), a = RandomVector(rng, nv, 5.0);

    // M column j = RNEA(q, v, e_j) - RNEA(q, v, 0).
    const Eigen::VectorXd nle = NonlinearEffects(tree, &data, q, v);
    Eigen::MatrixXd M_rnea(nv, nv);
    for (int j = 0; j < nv; ++j) {
      M_rnea.col(j) = Rnea(tree, &data, q, v, Eigen::VectorXd::Unit(nv, j)) - nle;
    }
    const Eigen::MatrixXd M = Crba(tree, &data, q);
    worst_crba = std::max(worst_crba, (M - M_rnea).cwiseAbs().maxCoeff());
    EXPECT_LT((M - M_rnea).cwiseAbs().maxCoeff(), crba_tol);
    EXPECT_EQ(M, M.transpose());
    EXPECT_EQ(M.llt().info(), Eigen::Success);
    EXPECT_GT(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(M).eigenvalues().minCoeff(), 0.0);

    // Forward dynamics undoes inverse dynamics, and agrees with M^-1 (tau - nle).
    const Eigen::VectorXd tau = Rnea(tree, &data, q, v, a);
    const Eigen::VectorXd qdd = Aba(tree, &data, q, v, tau);
    worst_aba = std::max(worst_aba, (qdd - a).cwiseAbs().maxCoeff());
    EXPECT_LT((qdd - a).cwiseAbs().maxCoeff(), aba_tol);
    EXPECT_LT((M.llt().solve(tau - nle) - a).cwiseAbs().maxCoeff(), aba_tol);

    // Kinetic energy: 1/2 v^T M v = sum 1/2 V_i . I_i V_i.
    ForwardKinematics(tree, &data, q, v);
    const double energy_bodies = KineticEnergy(tree, data);
    const double energy_matrix = 0.5 * v.dot(M * v);
    worst_energy = std::max(worst_energy, std::abs(energy_bodies - energy_matrix));
    EXPECT_NEAR(energy_bodies, energy_matrix, 1e-10 * (1.0 + energy_matrix));
  }
  std::printf(
      "  nv %d: max |CRBA - RNEA columns| %.2e, max |ABA(RNEA(a)) - a| %.2e, "
      "max |KE difference| %.2e J\n",
      nv, worst_crba, worst_aba, worst_energy);
}

TEST(AlgorithmsTest, ReferenceArmAlgorithmsAgree) {
  CheckAlgorithmsAgree(ReferenceArm(), 42, 1e-10, 1e-9);
}

TEST(AlgorithmsTest, RandomChain30AlgorithmsAgree) {
  CheckAlgorithmsAgree(RandomTree(30, 2024, /*branched=*/false), 43, 1e-10, 1e-9);
}

TEST(AlgorithmsTest, RandomBranchedTree30AlgorithmsAgree) {
  CheckAlgorithmsAgree(RandomTree(30, 77, /*branched=*/true), 44, 1e-10, 1e-9);
}

// The algorithms pose the bodies once per q (KinematicTreeData::PosedAt): one data used at
// q1, then q2, then q1 again, and a q changed in place, gives each algorithm exactly what a
// fresh data gives; InvalidatePoses makes it pose again.
TEST(AlgorithmsTest, PosesAreReusedOnlyAtTheSameQ) {
  const KinematicTree tree = RandomTree(12, 5, /*branched=*/true);
  std::mt19937 rng(7);
  const int nq = tree.nq(), nv = tree.nv();
  const Eigen::VectorXd q1 = RandomVector(rng, nq, 2.0), q2 = RandomVector(rng, nq, 2.0);
  const Eigen::VectorXd v = RandomVector(rng, nv, 3.0), a = RandomVector(rng, nv, 5.0);
  const Eigen::VectorXd tau = RandomVector(rng, nv, 4.0);
  KinematicTreeData shared(tree);
  Eigen::VectorXd q = q1;
  for (const Eigen::VectorXd* at : {&q1, &q2, &q1, &q2}) {
    q = *at;  // the same storage each time: the values decide
    KinematicTreeData fresh(tree);
    EXPECT_EQ(Crba(tree, &shared, q), Crba(tree, &fresh, q));
    EXPECT_EQ(Rnea(tree, &shared, q, v, a), Rnea(tree, &fresh, q, v, a));
    EXPECT_EQ(Aba(tree, &shared, q, v, tau), Aba(tree, &fresh, q, v, tau));
    ForwardKinematics(tree, &shared, q, v);
    ForwardKinematics(tree, &fresh, q, v);
    for (int i = 0; i < tree.num_bodies(); ++i) {
      EXPECT_EQ(shared.X_WB[i].rotation, fresh.X_WB[i].rotation);
      EXPECT_EQ(shared.X_WB[i].translation, fresh.X_WB[i].translation);
      EXPECT_EQ(shared.V[i], fresh.V[i]);
    }
  }
  // Poses written over (as no algorithm does) count only after InvalidatePoses.
  const Eigen::MatrixXd M = Crba(tree, &shared, q);
  shared.X_PB[1].translation.setConstant(9.0);
  shared.InvalidatePoses();
  EXPECT_EQ(Crba(tree, &shared, q), M);
}

TEST(AlgorithmsTest, KineticEnergyOfFallingArmMatchesEnergyBalance) {
  // Gravity work equals the kinetic energy gained, over a short free fall integrated with
  // ABA (RK4, small step): a check of ABA's gravity and velocity terms together.
  const KinematicTree tree = ReferenceArm();
  KinematicTreeData data(tree);
  const int n = tree.nv();
  auto potential = [&](const Eigen::VectorXd& q) {
    ForwardKinematics(tree, &data, q);
    double u = 0.0;
    for (int i = 0; i < tree.num_bodies(); ++i) {
      const SpatialInertia& I = tree.body(i).inertia;
      u -= I.mass() * tree.gravity().dot(data.X_WB[i].TransformPoint(I.com()));
    }
    return u;
  };
  auto energy = [&](const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
    ForwardKinematics(tree, &data, q, v);
    return KineticEnergy(tree, data) + potential(q);
  };
  Eigen::VectorXd q = Eigen::VectorXd::Constant(n, 0.3), v = Eigen::VectorXd::Zero(n);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(n);
  const double e0 = energy(q, v);
  const double h = 1e-4;
  for (int step = 0; step < 2000; ++step) {
    const Eigen::VectorXd k1q = v, k1v = Aba(tree, &data, q, v, zero);
    const Eigen::VectorXd k2q = v + 0.5 * h * k1v,
                          k2v = Aba(tree, &data, q + 0.5 * h * k1q, k2q, zero);
    const Eigen::VectorXd k3q = v + 0.5 * h * k2v,
                          k3v = Aba(tree, &data, q + 0.5 * h * k2q, k3q, zero);
    const Eigen::VectorXd k4q = v + h * k3v, k4v = Aba(tree, &data, q + h * k3q, k4q, zero);
    q += h / 6 * (k1q + 2 * k2q + 2 * k3q + k4q);
    v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
  }
  EXPECT_GT(v.norm(), 1.0);  // it really fell
  EXPECT_NEAR(energy(q, v), e0, 1e-8 * std::abs(e0));
}

TEST(AlgorithmsTest, ForwardKinematicsMatchesDhProductAtRandomConfigurations) {
  // Written out from Craig's formula, independent of Pose and of the DH builder.
  auto craig = [](double alpha, double a, double theta, double d) {
    const double ca = std::cos(alpha), sa = std::sin(alpha);
    const double ct = std::cos(theta), st = std::sin(theta);
    Eigen::Matrix4d T;
    T << ct, -st, 0, a,                  //
        st * ca, ct * ca, -sa, -sa * d,  //
        st * sa, ct * sa, ca, ca * d,    //
        0, 0, 0, 1;
    return T;
  };
  const std::vector<DhLink> links = testing::ReferenceArmLinks();
  const KinematicTree tree = ReferenceArm();
  KinematicTreeData data(tree);
  std::mt19937 rng(5);
  for (int trial = 0; trial < 21; ++trial) {
    const Eigen::VectorXd q = trial == 0 ? Eigen::VectorXd::Zero(6) : RandomVector(rng, 6, M_PI);
    ForwardKinematics(tree, &data, q);
    Eigen::Matrix4d T = Eigen::Matrix4d::Identity();
    for (int i = 0; i < 6; ++i) {
      T = T * craig(links[i].alpha, links[i].a, q[i], links[i].d);
      EXPECT_LT((data.X_WB[i].rotation - T.topLeftCorner<3, 3>()).norm(), 1e-14);
      EXPECT_LT((data.X_WB[i].translation - T.topRightCorner<3, 1>()).norm(), 1e-14);
    }
    if (trial == 0) {
      // The DH zero pose of the reference arm, by hand: x = a1 + a2 + a3 = 0.65 m; z4 and z6
      // point down (alpha1 + alpha3 = -180 deg, alpha5 + alpha6 = 0), so z = d1 - d4 - d6.
      EXPECT_LT((data.X_WB[5].translation - Eigen::Vector3d(0.65, 0.0, -0.14)).norm(), 1e-14)
          << data.X_WB[5].translation.transpose();
    }
  }
}

TEST(AlgorithmsTest, AlgorithmsDoNotAllocate) {
  if (!twinblocks::testing::kMallocCounted) {
    GTEST_SKIP() << "malloc is not interposed in this build";
  }
  const KinematicTree tree = RandomTree(12, 9, /*branched=*/true);
  KinematicTreeData data(tree);
  std::mt19937 rng(6);
  const Eigen::VectorXd q = RandomVector(rng, tree.nq(), 1.0), v = RandomVector(rng, 12, 1.0);
  const Eigen::VectorXd a = RandomVector(rng, 12, 1.0);
  twinblocks::testing::StartCountingAllocations();
  ForwardKinematics(tree, &data, q, v);
  Rnea(tree, &data, q, v, a);
  NonlinearEffects(tree, &data, q, v);
  Crba(tree, &data, q);
  Aba(tree, &data, q, v, a);
  EXPECT_EQ(twinblocks::testing::StopCountingAllocations(), 0);

  // Multi-DOF joints, external forces, the hybrid ABA and the configuration helpers.
  const KinematicTree mixed = testing::RandomMixedTree(12, 9, /*branched=*/true);
  KinematicTreeData mixed_data(mixed);
  const Eigen::VectorXd qm = testing::RandomConfiguration(mixed, rng, 1.0);
  const Eigen::VectorXd vm = RandomVector(rng, mixed.nv(), 1.0);
  const Eigen::VectorXd am = RandomVector(rng, mixed.nv(), 1.0);
  const std::vector<Vector6d> f_ext(mixed.num_bodies(), Vector6d::Constant(0.5));
  std::vector<unsigned char> prescribed(mixed.num_bodies(), 0);
  for (int i = 0; i < mixed.num_bodies(); i += 2) prescribed[i] = 1;
  Eigen::VectorXd qdot(mixed.nq()), qm_copy = qm;
  const std::vector<bool> all_bodies(mixed.num_bodies(), true);
  twinblocks::testing::StartCountingAllocations();
  ForwardKinematics(mixed, &mixed_data, qm, vm);
  Rnea(mixed, &mixed_data, qm, vm, am, &f_ext);
  Crba(mixed, &mixed_data, qm);
  CrbaOfSubtrees(mixed, &mixed_data, qm, all_bodies);
  Aba(mixed, &mixed_data, qm, vm, am, &f_ext);
  AbaHybrid(mixed, &mixed_data, qm, vm, am, prescribed, &f_ext);
  AbaHybridAfterKinematics(mixed, &mixed_data, vm, am, prescribed, &f_ext);
  AbaHybridAfterKinematics(mixed, &mixed_data, vm, am, prescribed, &f_ext, DrivenForces::kSkip);
  CalcQDot(mixed, qm, vm, qdot);
  NormalizeQuaternions(mixed, qm_copy);
  NeutralConfiguration(mixed, qm_copy);
  EXPECT_EQ(twinblocks::testing::StopCountingAllocations(), 0);
}

// The restricted CRBA gives exactly the full CRBA's rows and columns of the joints in the
// subtrees (their entries with the ancestors' joints included), and zero elsewhere.
TEST(AlgorithmsTest, CrbaOfSubtreesMatchesTheFullMassMatrixOnItsRowsAndColumns) {
  for (const bool branched : {false, true}) {
    const KinematicTree tree = testing::RandomMixedTree(14, branched ? 31 : 32, branched);
    KinematicTreeData full(tree), part(tree);
    std::mt19937 rng(branched ? 5 : 6);
    const Eigen::VectorXd q = testing::RandomConfiguration(tree, rng, 1.0);
    const Eigen::MatrixXd M = Crba(tree, &full, q);
    for (const int top : {0, 3, 7, 13}) {
      // The subtree under `top`, and for the branched tree those under body 1's children too.
      auto is_top = [&](int j) { return j == top || (branched && top > 0 && tree.parent(j) == 1); };
      std::vector<bool> in(tree.num_bodies(), false);
      for (int i = 0; i < tree.num_bodies(); ++i) {
        for (int j = i; j >= 0 && !in[i]; j = tree.parent(j)) in[i] = is_top(j);
      }
      std::vector<bool> counted_v(tree.nv(), false);
      for (int i = 0; i < tree.num_bodies(); ++i) {
        for (int k = 0; k < tree.joint(i).nv(); ++k) counted_v[tree.idx_v(i) + k] = in[i];
      }
      // A joint pair enters when one of the two is in the set and the other on its path to
      // the root (then its column is carried there) or in the set too.
      auto on_path = [&tree](int body, int ancestor) {
        for (int j = body; j >= 0; j = tree.parent(j)) {
          if (j == ancestor) return true;
        }
        return false;
      };
      std::vector<int> body_of_v(tree.nv());
      for (int i = 0; i < tree.num_bodies(); ++i) {
        for (int k = 0; k < tree.joint(i).nv(); ++k) body_of_v[tree.idx_v(i) + k] = i;
      }
      const Eigen::MatrixXd& M_part = CrbaOfSubtrees(tree, &part, q, in);
      int compared = 0;
      for (int r = 0; r < tree.nv(); ++r) {
        for (int c = 0; c < tree.nv(); ++c) {
          const int br = body_of_v[r], bc = body_of_v[c];
          const bool covered = (counted_v[r] && (counted_v[c] || on_path(br, bc))) ||
                               (counted_v[c] && on_path(bc, br));
          if (covered) {
            EXPECT_EQ(M_part(r, c), M(r, c)) << "top " << top << " (" << r << ", " << c << ")";
            ++compared;
          } else {
            EXPECT_EQ(M_part(r, c), 0.0) << "top " << top << " (" << r << ", " << c << ")";
          }
        }
      }
      EXPECT_GT(compared, 0);
    }
  }
}

TEST(AlgorithmsTest, SizeMismatchThrows) {
  const KinematicTree tree = ReferenceArm();
  KinematicTreeData data(tree);
  const Eigen::VectorXd five = Eigen::VectorXd::Zero(5), six = Eigen::VectorXd::Zero(6);
  EXPECT_THROW(Rnea(tree, &data, five, six, six), std::logic_error);
  EXPECT_THROW(Aba(tree, &data, six, six, five), std::logic_error);
  EXPECT_THROW(Crba(tree, &data, five), std::logic_error);
  EXPECT_THROW(CrbaOfSubtrees(tree, &data, six, std::vector<bool>(5, true)), std::logic_error);
}

}  // namespace
}  // namespace twinblocks::multibody
