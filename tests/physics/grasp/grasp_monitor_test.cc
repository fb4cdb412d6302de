// GraspMonitor against closed forms and against the quasi-static library (grasp matrix,
// internal-force basis, qhull's epsilon), on contacts laid out as a simulation measures them.

#include "physics/grasp/grasp_monitor.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <stdexcept>
#include <vector>

#include "physics/grasp/contact_forces.h"
#include "physics/grasp/grasp_matrix.h"
#include "physics/grasp/grasp_quality.h"
#include "tests/physics/grasp/grasp_test_helpers.h"
#include "tests/physics/malloc_count.h"

namespace twinblocks::grasp {
namespace {

using testing::EquatorGrasp;
using testing::kSphereRadius;
using testing::RandomSphereGrasp;

/// The 9-value rows [p, n, f] of contacts with forces f (3 x nc).
std::vector<double> Measured(const Eigen::Matrix3Xd& p, const Eigen::Matrix3Xd& n,
                             const Eigen::Matrix3Xd& f) {
  std::vector<double> v;
  for (int i = 0; i < p.cols(); ++i) {
    for (const Eigen::Matrix3Xd* m : {&p, &n, &f}) {
      for (int r = 0; r < 3; ++r) v.push_back((*m)(r, i));
    }
  }
  return v;
}

GraspMonitorOptions Options(ContactModel model, double mu) {
  GraspMonitorOptions o;
  o.model = model;
  o.cone.mu = mu;
  o.cone.torsional_mu = model == ContactModel::kSoftFinger ? 0.01 : 0.0;
  return o;
}

TEST(GraspMonitorTest, ThreeFingersSqueezingTheEquatorHoldAndSqueezeRootThreeTimesTheirForce) {
  Eigen::Matrix3Xd p, n;
  EquatorGrasp(3, kSphereRadius, &p, &n);
  const double F = 4.0;  // N, along each normal: the forces cancel, all of f is internal
  const Eigen::Matrix3Xd f = F * n;
  GraspMonitor monitor(3, Options(ContactModel::kHardFinger, 0.5));
  const GraspMeasures& m = monitor.Evaluate(Measured(p, n, f).data(), 3, Eigen::Vector3d::Zero());
  EXPECT_EQ(m.num_active, 3);
  EXPECT_NEAR(m.internal_force, std::sqrt(3.0) * F, 1e-12);
  EXPECT_NEAR(m.slip, 0.0, 1e-15);
  EXPECT_TRUE(m.force_closure);
  const GraspQuality q = CalcGraspQuality(p, n, Eigen::Vector3d::Zero(), ContactModel::kHardFinger,
                                          FrictionCone{0.5, 0.0, 8});
  EXPECT_NEAR(m.epsilon, q.epsilon, 1e-12 * q.epsilon);
  // G G^T = [[3 I, ...], ...]: sigma_min of the library's G.
  const GraspMatrix G = CalcGraspMatrix(p, n, Eigen::Vector3d::Zero(), ContactModel::kHardFinger);
  EXPECT_NEAR(m.min_singular_value, G.min_singular_value, 1e-12);
}

TEST(GraspMonitorTest, TheSlipMarginIsTheTangentialForceOverMuTimesTheNormalForce) {
  Eigen::Matrix3Xd p, n;
  EquatorGrasp(3, kSphereRadius, &p, &n);
  Eigen::Matrix3Xd f = 2.0 * n;
  f.col(1) += Eigen::Vector3d(0, 0, 0.3);  // 0.3 N tangential on 2 N normal
  f.col(2) += Eigen::Vector3d(0, 0, -0.6);
  GraspMonitor monitor(3, Options(ContactModel::kHardFinger, 0.4));
  const GraspMeasures& m = monitor.Evaluate(Measured(p, n, f).data(), 3, Eigen::Vector3d::Zero());
  EXPECT_NEAR(m.slip, 0.6 / (0.4 * 2.0), 1e-12);
}

TEST(GraspMonitorTest, ContactsWithoutForceAreLeftOut) {
  Eigen::Matrix3Xd p, n;
  EquatorGrasp(4, kSphereRadius, &p, &n);
  Eigen::Matrix3Xd f = 3.0 * n;
  f.col(1).setZero();  // apart: a zero force, whatever its point and normal
  std::vector<double> v = Measured(p, n, f);
  for (int k = 9; k < 15; ++k) v[k] = 0.0;  // an unused contact reads zeros
  GraspMonitor monitor(4, Options(ContactModel::kHardFinger, 0.5));
  EXPECT_EQ(monitor.Evaluate(v.data(), 4, Eigen::Vector3d::Zero()).num_active, 3);
  GraspMonitorOptions strict = Options(ContactModel::kHardFinger, 0.5);
  strict.threshold = 3.5;  // above every force: nothing is active
  GraspMonitor none(4, strict);
  const GraspMeasures& m = none.Evaluate(v.data(), 4, Eigen::Vector3d::Zero());
  EXPECT_EQ(m.num_active, 0);
  EXPECT_FALSE(m.force_closure);
  EXPECT_EQ(m.epsilon, 0.0);
}

// On random grasps with random forces, each measure against the library's own computation:
// sigma_6 of G, the projection of the forces onto G's null space (the internal-force basis,
// in contact-frame components), and epsilon (qhull).
TEST(GraspMonitorTest, RandomGraspsAgreeWithTheQuasiStaticLibrary) {
  std::mt19937 rng(41);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const Eigen::Vector3d p_WO(0.01, -0.02, 0.03);
  for (ContactModel model : {ContactModel::kHardFinger, ContactModel::kSoftFinger,
                             ContactModel::kPointWithoutFriction}) {
    for (int trial = 0; trial < 20; ++trial) {
      const int nc = 2 + trial % 6;
      Eigen::Matrix3Xd p, n, f(3, nc);
      RandomSphereGrasp(nc, kSphereRadius, &rng, &p, &n);
      p.colwise() += p_WO;
      for (int i = 0; i < nc; ++i) {
        f.col(i) = (1.0 + unit(rng)) * 2.0 * n.col(i) +
                   0.5 * Eigen::Vector3d(unit(rng), unit(rng), unit(rng));
        const double fn = f.col(i).dot(n.col(i));
        if (fn < 0.1) f.col(i) += (0.1 - fn) * n.col(i);  // pressing: every contact active
      }
      GraspMonitor monitor(nc, Options(model, 0.6));
      const GraspMeasures& m = monitor.Evaluate(Measured(p, n, f).data(), nc, p_WO);
      ASSERT_EQ(m.num_active, nc);

      const GraspMatrix G = CalcGraspMatrix(p, n, p_WO, model);
      const double sigma = nc * NumContactComponents(model) < 6 ? 0.0 : G.min_singular_value;
      EXPECT_NEAR(m.min_singular_value, sigma, 1e-9 * G.singular_values[0]) << trial;

      // The measured forces in the library's contact components (torsional moments 0).
      const int c = NumContactComponents(model);
      Eigen::VectorXd fc = Eigen::VectorXd::Zero(c * nc);
      for (int i = 0; i < nc; ++i) {
        const Eigen::Vector3d local = G.R_WC[i].transpose() * f.col(i);
        fc.segment(c * i, std::min(c, 3)) = local.head(std::min(c, 3));
      }
      const Eigen::MatrixXd E = CalcInternalForceBasis(G.G);
      const double internal = E.cols() == 0 ? 0.0 : (E * (E.transpose() * fc)).norm();
      EXPECT_NEAR(m.internal_force, internal, 1e-9 * fc.norm()) << trial;

      const FrictionCone cone = Options(model, 0.6).cone;
      const GraspQuality q = CalcGraspQuality(p, n, p_WO, model, cone);
      EXPECT_EQ(m.force_closure, q.force_closure) << trial;
      EXPECT_NEAR(m.epsilon, q.epsilon, 1e-9 * std::max(q.epsilon, 1e-3)) << trial;
    }
  }
}

// The monitor runs in a simulation's step loop: once made, an evaluation allocates nothing
// (malloc, calloc and realloc counted), with every contact model and 13 contacts, active or
// not, force closure or not.
TEST(GraspMonitorTest, AnEvaluationDoesNotAllocate) {
  if (!twinblocks::testing::kMallocCounted) GTEST_SKIP() << "allocations are not counted here";
  std::mt19937 rng(7);
  for (ContactModel model : {ContactModel::kHardFinger, ContactModel::kSoftFinger,
                             ContactModel::kPointWithoutFriction}) {
    const int nc = 13;
    Eigen::Matrix3Xd p, n;
    RandomSphereGrasp(nc, kSphereRadius, &rng, &p, &n);
    Eigen::Matrix3Xd f = 2.0 * n;
    f.col(4).setZero();  // one inactive contact
    const std::vector<double> all = Measured(p, n, f);
    std::vector<double> two = all;
    for (size_t k = 18; k < two.size(); ++k) two[k] = 0.0;  // only contacts 1 and 2 active
    GraspMonitor monitor(nc, Options(model, 0.5));
    twinblocks::testing::StartCountingAllocations();
    const GraspMeasures& m = monitor.Evaluate(all.data(), nc, Eigen::Vector3d::Zero());
    const bool closure = m.force_closure;
    monitor.Evaluate(two.data(), nc, Eigen::Vector3d::Zero());
    const long allocations = twinblocks::testing::StopCountingAllocations();
    EXPECT_EQ(allocations, 0) << static_cast<int>(model);
    EXPECT_EQ(closure, model != ContactModel::kPointWithoutFriction || closure);
  }
}

TEST(GraspMonitorTest, BadValuesOfAnActiveContactStopWithTheContactNamed) {
  Eigen::Matrix3Xd p, n;
  EquatorGrasp(3, kSphereRadius, &p, &n);
  const Eigen::Matrix3Xd f = 2.0 * n;
  GraspMonitor monitor(3, Options(ContactModel::kHardFinger, 0.5));
  std::vector<double> nan_point = Measured(p, n, f);
  nan_point[9] = std::nan("");
  try {
    monitor.Evaluate(nan_point.data(), 3, Eigen::Vector3d::Zero());
    FAIL() << "a NaN point was taken";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "contact 2: its point, normal or force is not finite");
  }
  std::vector<double> nan_force = Measured(p, n, f);
  nan_force[6] = std::nan("");  // not "no force": refused
  EXPECT_THROW(monitor.Evaluate(nan_force.data(), 3, Eigen::Vector3d::Zero()), std::runtime_error);
  std::vector<double> long_normal = Measured(p, 1.1 * n, f);
  EXPECT_THROW(monitor.Evaluate(long_normal.data(), 3, Eigen::Vector3d::Zero()),
               std::runtime_error);
  EXPECT_THROW(monitor.Evaluate(Measured(p, n, f).data(), 3, Eigen::Vector3d(NAN, 0, 0)),
               std::runtime_error);
  EXPECT_THROW(monitor.Evaluate(Measured(p, n, f).data(), 4, Eigen::Vector3d::Zero()),
               std::runtime_error);
}

TEST(GraspMonitorTest, BadOptionsAreRefusedAtConstruction) {
  EXPECT_THROW(GraspMonitor(0, Options(ContactModel::kHardFinger, 0.5)), std::invalid_argument);
  EXPECT_THROW(GraspMonitor(kMaxContacts + 1, Options(ContactModel::kHardFinger, 0.5)),
               std::invalid_argument);
  EXPECT_THROW(GraspMonitor(3, Options(ContactModel::kHardFinger, -0.1)), std::invalid_argument);
  EXPECT_THROW(GraspMonitor(3, Options(ContactModel::kHardFinger, 0.0)), std::invalid_argument);
  EXPECT_NO_THROW(GraspMonitor(3, Options(ContactModel::kPointWithoutFriction, 0.0)));
  GraspMonitorOptions o = Options(ContactModel::kHardFinger, 0.5);
  o.threshold = -1.0;
  EXPECT_THROW(GraspMonitor(3, o), std::invalid_argument);
  o = Options(ContactModel::kHardFinger, 0.5);
  o.torque_length = NAN;
  EXPECT_THROW(GraspMonitor(3, o), std::invalid_argument);
}

}  // namespace
}  // namespace twinblocks::grasp
