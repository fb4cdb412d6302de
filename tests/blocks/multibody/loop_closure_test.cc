// The constraint of a cut joint (loop_constraint.h) and the loop solves (loop_closure.h),
// checked against finite differences on random trees with every joint type: G v is the rate
// of phi, G qdd + bias its second derivative; the rank-deficient solve handles duplicated
// constraints; the projections land on the constraint manifold.
#include "blocks/multibody/loop_closure.h"

#include <gtest/gtest.h>

#include <random>

#include "physics/multibody/algorithms.h"
#include "tests/support/test_trees.h"

namespace twinblocks::multibody {
namespace {

/// Two loops on a random mixed tree, of `kind`: one between bodies 3 and 6, one between the
/// world and body 5, with F placed where B is at q (so that phi(q) = 0).
std::vector<LoopConstraint> MakeLoops(const KinematicTree& tree, JointKind kind,
                                      const Eigen::VectorXd& q, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  KinematicTreeData data(tree);
  ForwardKinematics(tree, &data, q);
  std::vector<LoopConstraint> loops;
  int row = 0;
  for (auto [b, f] : {std::pair{3, 6}, std::pair{-1, 5}}) {
    LoopConstraint l;
    l.name = "cut";
    l.kind = kind;
    l.num_rows = LoopConstraintRows(kind);
    l.row = row;
    row += l.num_rows;
    l.axis = Eigen::Vector3d(u(rng), u(rng), u(rng)).normalized();
    const Eigen::Vector3d t =
        std::abs(l.axis.x()) < 0.9 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitY();
    l.n1 = (t - t.dot(l.axis) * l.axis).normalized();
    l.n2 = l.axis.cross(l.n1);
    l.B.body = b;
    l.B.X_BF = Pose(Eigen::AngleAxisd(u(rng), l.n1).toRotationMatrix(),
                    Eigen::Vector3d(u(rng), u(rng), u(rng)) * 0.2);
    const Pose X_WB = b < 0 ? l.B.X_BF : data.X_WB[b] * l.B.X_BF;
    l.F.body = f;
    l.F.X_BF = data.X_WB[f].Inverse() * X_WB;
    loops.push_back(l);
  }
  return loops;
}

Eigen::VectorXd Phi(const KinematicTree& tree, const std::vector<LoopConstraint>& loops,
                    const Eigen::VectorXd& q) {
  KinematicTreeData data(tree);
  LoopClosureData ld(tree, loops, {});
  ForwardKinematics(tree, &data, q);
  CalcLoopPositions(tree, loops, data, &ld);
  return ld.phi;
}

class LoopConstraintTest : public ::testing::TestWithParam<JointKind> {};

TEST_P(LoopConstraintTest, JacobianAndBiasMatchFiniteDifferences) {
  for (unsigned seed = 1; seed <= 4; ++seed) {
    SCOPED_TRACE(seed);
    std::mt19937 rng(seed);
    const KinematicTree tree = testing::RandomMixedTree(7, seed, /*branched=*/true);
    const Eigen::VectorXd q0 = testing::RandomConfiguration(tree, rng, 1.0);
    const std::vector<LoopConstraint> loops = MakeLoops(tree, GetParam(), q0, rng);
    // Away from the closed configuration, where the rows are general.
    Eigen::VectorXd q = q0;
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    Eigen::VectorXd v(tree.nv()), a(tree.nv()), shift(tree.nv());
    for (int k = 0; k < tree.nv(); ++k) {
      v[k] = u(rng);
      a[k] = u(rng);
      shift[k] = 0.1 * u(rng);
    }
    // The free base stands still: q (+) (t v + t^2 a / 2) is then a path with velocity v and
    // acceleration a for every other joint type.
    v.head<6>().setZero();
    a.head<6>().setZero();
    IntegrateConfiguration(tree, shift, q);

    KinematicTreeData data(tree);
    LoopClosureData ld(tree, loops, {});
    ForwardKinematics(tree, &data, q, v);
    CalcLoopVelocityTerms(tree, loops, data, &ld);
    auto at = [&](double t) {
      Eigen::VectorXd qt = q;
      IntegrateConfiguration(tree, t * v + 0.5 * t * t * a, qt);
      return Phi(tree, loops, qt);
    };
    const double h = 1e-4;
    const Eigen::VectorXd rate = (at(h) - at(-h)) / (2 * h);
    const Eigen::VectorXd second = (at(h) - 2 * at(0) + at(-h)) / (h * h);
    EXPECT_LT((ld.G * v - rate).cwiseAbs().maxCoeff(), 1e-7);
    EXPECT_LT((ld.G * a + ld.bias - second).cwiseAbs().maxCoeff(), 1e-5);
    EXPECT_GT(rate.cwiseAbs().maxCoeff(), 1e-2);  // the check is not trivially zero
  }
}

TEST_P(LoopConstraintTest, ProjectionsLandOnTheConstraintsEvenWhenRedundant) {
  std::mt19937 rng(7);
  const KinematicTree tree = testing::RandomMixedTree(7, 7, /*branched=*/true);
  const Eigen::VectorXd q0 = testing::RandomConfiguration(tree, rng, 1.0);
  std::vector<LoopConstraint> loops = MakeLoops(tree, GetParam(), q0, rng);
  // The same loop twice: K is singular, the solve must not blow up.
  LoopConstraint twin = loops[1];
  twin.row = loops[1].row + loops[1].num_rows;
  loops.push_back(twin);
  std::vector<int> movable;
  for (int k = 6; k < tree.nv(); ++k) movable.push_back(k);  // not the free base
  KinematicTreeData data(tree);
  LoopClosureData ld(tree, loops, movable);
  Eigen::VectorXd q = q0, shift = Eigen::VectorXd::Zero(tree.nv());
  std::uniform_real_distribution<double> u(-0.05, 0.05);
  for (int k : movable) shift[k] = u(rng);
  IntegrateConfiguration(tree, shift, q);
  ASSERT_GT(Phi(tree, loops, q).cwiseAbs().maxCoeff(), 1e-3);
  for (LoopMetric metric : {LoopMetric::kMass, LoopMetric::kIdentity}) {
    Eigen::VectorXd qp = q;
    const double residual =
        ProjectPositions(tree, loops, movable, metric, 1e-13, 20, &data, &ld, qp);
    EXPECT_LT(residual, 1e-12);
    EXPECT_LT(Phi(tree, loops, qp).cwiseAbs().maxCoeff(), 1e-12);
    EXPECT_TRUE(qp.head<7>().isApprox(q.head<7>()));  // the base did not move
    Eigen::VectorXd v = Eigen::VectorXd::Zero(tree.nv());
    for (int k : movable) v[k] = 10 * u(rng);
    ProjectVelocities(tree, loops, movable, metric, qp, &data, &ld, v);
    ForwardKinematics(tree, &data, qp);
    CalcLoopPositions(tree, loops, data, &ld);
    EXPECT_LT((ld.G * v).cwiseAbs().maxCoeff(), 1e-12);
    EXPECT_TRUE(ld.lambda.allFinite());
  }
}

INSTANTIATE_TEST_SUITE_P(EveryCutKind, LoopConstraintTest,
                         ::testing::Values(JointKind::kRevolute, JointKind::kPrismatic,
                                           JointKind::kSpherical),
                         [](const auto& info) {
                           switch (info.param) {
                             case JointKind::kRevolute:
                               return std::string("Revolute");
                             case JointKind::kPrismatic:
                               return std::string("Prismatic");
                             default:
                               return std::string("Spherical");
                           }
                         });

TEST(LoopConstraintRowsTest, SixMinusTheDegreesOfFreedom) {
  EXPECT_EQ(LoopConstraintRows(JointKind::kRevolute), 5);
  EXPECT_EQ(LoopConstraintRows(JointKind::kPrismatic), 5);
  EXPECT_EQ(LoopConstraintRows(JointKind::kSpherical), 3);
  // Free and bushing joints lock nothing: their loops stay for their outputs and forces.
  EXPECT_EQ(LoopConstraintRows(JointKind::kFree), 0);
  EXPECT_EQ(LoopConstraintRows(JointKind::kBushing), 0);
}

// A cut bushing's coordinates are the tree bushing's: build the tree's chain (prismatic x, y, z,
// revolute x, y, z, as mechanism_builder.cc does) on a moving body, move it, and read the
// coordinates and rates back from F's motion relative to B.
TEST(BushingCoordinatesTest, InvertTheTreeBushingsChain) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const Pose X_PJ(Rx(0.4) * Rz(-0.7), Eigen::Vector3d(0.1, -0.2, 0.3));
  std::vector<BodySpec> bodies(7);
  SpatialInertia none;
  const SpatialInertia some(1.0, Eigen::Vector3d::Zero(), 0.01 * Eigen::Matrix3d::Identity());
  bodies[0].joint = Joint::Revolute(Eigen::Vector3d(1, 2, 3).normalized());
  bodies[0].inertia = some;
  for (int k = 0; k < 6; ++k) {
    BodySpec& b = bodies[1 + k];
    b.parent = k;
    b.joint = k < 3 ? Joint::Prismatic(Eigen::Vector3d::Unit(k))
                    : Joint::Revolute(Eigen::Vector3d::Unit(k - 3));
    b.X_PJ = k == 0 ? X_PJ : Pose();
    b.inertia = k == 5 ? some : none;
  }
  const KinematicTree tree(bodies, Eigen::Vector3d(0, 0, -9.81));
  KinematicTreeData data(tree);
  const FrameLocation B{0, X_PJ}, F{6, Pose()};
  for (int trial = 0; trial < 20; ++trial) {
    Eigen::VectorXd q(7), v(7);
    for (int i = 0; i < 7; ++i) {
      q[i] = 3.0 * unit(rng);
      v[i] = unit(rng);
    }
    q[5] = 1.5 * unit(rng);  // the middle rotation stays within +-pi/2
    ForwardKinematics(tree, &data, q, v);
    const RelativeMotion rel =
        CalcRelativeMotion(CalcFrameMotionW(data, nullptr, B), CalcFrameMotionW(data, nullptr, F));
    double got_q[6], got_qd[6];
    CalcBushingCoordinates(rel, got_q, got_qd);
    for (int k = 0; k < 6; ++k) {
      EXPECT_NEAR(got_q[k], q[1 + k], 1e-12) << "trial " << trial << " coordinate " << k;
      EXPECT_NEAR(got_qd[k], v[1 + k], 1e-12) << "trial " << trial << " rate " << k;
    }
  }
}

}  // namespace
}  // namespace twinblocks::multibody
