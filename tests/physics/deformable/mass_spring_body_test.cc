// The mass-spring body (physics/deformable): the statics of F1 of issue 45 against closed
// forms (a regular tetrahedron on its fixed base under a load on its apex: small strain, exact
// geometry, cubic springs; a hanging chain), the small-oscillation frequency from the
// closed-form stiffness, the Jacobians against finite differences, the spring rule, and bad
// input.

#include "physics/deformable/mass_spring_body.h"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <Eigen/SparseCore>
#include <cmath>
#include <random>
#include <stdexcept>

namespace twinblocks::deformable {
namespace {

constexpr double kEdge = 0.04;  // m, the regular tetrahedron of the reference's test

/// The regular tetrahedron: base nodes 0-2 in z = 0 about the origin, apex 3 above it; every
/// edge a spring k (and k3).
MassSpringBody Tetrahedron(double k, double k3, double apex_mass = 0.01) {
  const double r = kEdge / std::sqrt(3.0), h = kEdge * std::sqrt(2.0 / 3.0);
  Eigen::Matrix3Xd x(3, 4);
  for (int i = 0; i < 3; ++i) {
    const double phi = 2.0 * M_PI * i / 3.0;
    x.col(i) << r * std::cos(phi), r * std::sin(phi), 0.0;
  }
  x.col(3) << 0.0, 0.0, h;
  std::vector<Spring> springs;
  for (int a = 0; a < 4; ++a) {
    for (int b = a + 1; b < 4; ++b) springs.push_back({a, b, kEdge, k, k3, 0.0});
  }
  Eigen::VectorXd m = Eigen::VectorXd::Zero(4);
  m[3] = apex_mass;
  return MassSpringBody(x, springs, m);
}

/// The apex's height under a downward load F, exact geometry: 3 (k s + k3 s^3) h / L = F with
/// L = sqrt(r^2 + h^2), s = kEdge - L (compression), solved by bisection to round-off.
double ExactApexHeight(double k, double k3, double F) {
  const double r = kEdge / std::sqrt(3.0);
  const auto balance = [&](double h) {
    const double L = std::hypot(r, h), s = kEdge - L;
    return 3.0 * (k * s + k3 * s * s * s) * h / L - F;
  };
  double lo = 0.5 * kEdge * std::sqrt(2.0 / 3.0), hi = kEdge * std::sqrt(2.0 / 3.0);
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (balance(mid) > 0.0 ? lo : hi) = mid;  // the springs push harder the lower the apex
  }
  return 0.5 * (lo + hi);
}

double StaticApexHeight(const MassSpringBody& body, double F) {
  Eigen::VectorXd external = Eigen::VectorXd::Zero(12);
  external[11] = -F;
  Eigen::VectorXd x = Eigen::Map<const Eigen::VectorXd>(body.rest_positions().data(), 12);
  const double residual = SolveStatics(body, {0, 1, 2}, external, &x);
  EXPECT_LT(residual, 1e-12);
  return x[11];
}

TEST(MassSpringBodyTest, TetrahedronApexSagsByTheSmallStrainClosedForm) {
  // Small strain: the three springs at cos^2 = 2/3 to the vertical give 3 k (2/3) = 2 k.
  const double k = 200.0, F = 1e-6, h = kEdge * std::sqrt(2.0 / 3.0);
  const double sag = h - StaticApexHeight(Tetrahedron(k, 0.0), F);
  EXPECT_NEAR(sag / (F / (2.0 * k)), 1.0, 1e-6);
}

TEST(MassSpringBodyTest, TetrahedronApexUnderOneNewtonMatchesTheExactGeometry) {
  const double k = 200.0, F = 1.0;
  const double exact = ExactApexHeight(k, 0.0, F);
  const double h = kEdge * std::sqrt(2.0 / 3.0);
  EXPECT_NEAR((h - StaticApexHeight(Tetrahedron(k, 0.0), F)) / (h - exact), 1.0, 1e-6);
  // The large-deflection answer differs from small strain by several percent: the test sees
  // the geometry.
  EXPECT_GT(std::abs((h - exact) / (F / (2.0 * k)) - 1.0), 0.02);
}

TEST(MassSpringBodyTest, TetrahedronWithCubicSpringsMatchesItsClosedForm) {
  const double k = 200.0, k3 = 1e7, F = 1.0;
  const double exact = ExactApexHeight(k, k3, F);
  const double h = kEdge * std::sqrt(2.0 / 3.0);
  EXPECT_NEAR((h - StaticApexHeight(Tetrahedron(k, k3), F)) / (h - exact), 1.0, 1e-6);
  EXPECT_LT(h - exact, h - ExactApexHeight(k, 0.0, F));  // stiffening sags less
}

TEST(MassSpringBodyTest, HangingChainSagsByTheClosedForm) {
  // An anchor (node 0, fixed) and four 0.01 kg masses, 100 N/m springs of 0.02 m rest length:
  // the spring above mass j carries the weight of masses j..4.
  const double m = 0.01, k = 100.0, L0 = 0.02, g = 9.81;
  Eigen::Matrix3Xd x0 = Eigen::Matrix3Xd::Zero(3, 5);
  std::vector<Spring> springs;
  for (int i = 1; i <= 4; ++i) {
    x0(2, i) = -L0 * i;
    springs.push_back({i - 1, i, L0, k, 0.0, 0.0});
  }
  Eigen::VectorXd masses = Eigen::VectorXd::Constant(5, m);
  masses[0] = 0.0;
  const MassSpringBody chain(x0, springs, masses);
  Eigen::VectorXd external = Eigen::VectorXd::Zero(15), x(15);
  for (int i = 1; i <= 4; ++i) external[3 * i + 2] = -m * g;
  x = Eigen::Map<const Eigen::VectorXd>(x0.data(), 15);
  EXPECT_LT(SolveStatics(chain, {0}, external, &x), 1e-12);
  double z = 0.0;
  for (int i = 1; i <= 4; ++i) {
    z -= L0 + (5 - i) * m * g / k;
    EXPECT_NEAR(x[3 * i + 2], z, 1e-12) << "mass " << i;
    EXPECT_NEAR(x[3 * i], 0.0, 1e-15);
  }
}

TEST(MassSpringBodyTest, ApexSmallOscillationFrequencyIsTheClosedForm) {
  // About the rest pose, the apex (0.01 kg) on three springs: vertical stiffness 2 k, each
  // horizontal direction k / 2.
  const double k = 200.0, m = 0.01;
  const MassSpringBody body = Tetrahedron(k, 1e7, m);
  const Eigen::VectorXd x = Eigen::Map<const Eigen::VectorXd>(body.rest_positions().data(), 12);
  std::vector<Eigen::Triplet<double>> df_dx;
  body.AddForceJacobians(x, Eigen::VectorXd::Zero(12), &df_dx, nullptr);
  Eigen::SparseMatrix<double> K(12, 12);
  K.setFromTriplets(df_dx.begin(), df_dx.end());
  const Eigen::Matrix3d apex = -Eigen::MatrixXd(K).block<3, 3>(9, 9) / m;
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eig(apex);
  const Eigen::Vector3d w = eig.eigenvalues().cwiseSqrt();
  EXPECT_NEAR(w[2] / std::sqrt(2.0 * k / m), 1.0, 1e-12);
  EXPECT_NEAR(w[0] / std::sqrt(0.5 * k / m), 1.0, 1e-12);
  EXPECT_NEAR(w[1] / std::sqrt(0.5 * k / m), 1.0, 1e-12);
}

TEST(MassSpringBodyTest, JacobiansAreTheDerivativesOfTheForces) {
  TetMesh mesh;
  mesh.nodes.resize(3, 5);
  mesh.nodes << 0, 0.05, 0, 0, 0.04, 0, 0, 0.05, 0, 0.04, 0, 0, 0, 0.05, 0.04;
  mesh.tets = {{0, 1, 2, 3}, {1, 2, 3, 4}};
  const MassSpringBody body = MassSpringBody::FromTetMesh(mesh, {4.928e6, 100.0, 80.0, 1e-3});
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::VectorXd x = Eigen::Map<const Eigen::VectorXd>(mesh.nodes.data(), 15), v(15);
  for (int i = 0; i < 15; ++i) x[i] += 0.004 * u(rng), v[i] = 0.1 * u(rng);
  std::vector<Eigen::Triplet<double>> tx, tv;
  body.AddForceJacobians(x, v, &tx, &tv);
  Eigen::SparseMatrix<double> Kx(15, 15), Kv(15, 15);
  Kx.setFromTriplets(tx.begin(), tx.end());
  Kv.setFromTriplets(tv.begin(), tv.end());
  const auto forces = [&](const Eigen::VectorXd& xx, const Eigen::VectorXd& vv) {
    Eigen::VectorXd f = Eigen::VectorXd::Zero(15);
    body.AddSpringForces(xx, vv, f);
    return f;
  };
  const double h = 1e-7;
  for (int j = 0; j < 15; ++j) {
    Eigen::VectorXd dx = Eigen::VectorXd::Zero(15);
    dx[j] = h;
    const Eigen::VectorXd fx = (forces(x + dx, v) - forces(x - dx, v)) / (2 * h);
    const Eigen::VectorXd fv = (forces(x, v + dx) - forces(x, v - dx)) / (2 * h);
    const double scale = Eigen::MatrixXd(Kx).cwiseAbs().maxCoeff();
    EXPECT_LT((Eigen::MatrixXd(Kx).col(j) - fx).cwiseAbs().maxCoeff(), 1e-6 * scale) << j;
    EXPECT_LT((Eigen::MatrixXd(Kv).col(j) - fv).cwiseAbs().maxCoeff(),
              1e-6 * Eigen::MatrixXd(Kv).cwiseAbs().maxCoeff())
        << j;
  }
  // Energy: the forces are minus its gradient (no damping at v = 0).
  const Eigen::VectorXd f0 = forces(x, Eigen::VectorXd::Zero(15));
  for (int j = 0; j < 15; ++j) {
    Eigen::VectorXd dx = Eigen::VectorXd::Zero(15);
    dx[j] = h;
    const double dE = (body.CalcElasticEnergy(x + dx) - body.CalcElasticEnergy(x - dx)) / (2 * h);
    EXPECT_NEAR(-dE, f0[j], 1e-6 * f0.cwiseAbs().maxCoeff());
  }
}

TEST(MassSpringBodyTest, SpringRuleAndLumpedMassesOfAMesh) {
  TetMesh mesh;
  mesh.nodes = (Eigen::Matrix3Xd(3, 4) << 0, 0.1, 0, 0, 0, 0, 0.1, 0, 0, 0, 0, 0.1).finished();
  mesh.tets = {{0, 1, 2, 3}};
  const double E = 1e6, rho = 100.0, V = 0.1 * 0.1 * 0.1 / 6.0;
  const MassSpringBody body = MassSpringBody::FromTetMesh(mesh, {E, rho, 80.0, 1e-3});
  EXPECT_EQ(body.num_springs(), 6);
  EXPECT_NEAR(body.total_mass(), rho * V, 1e-15);
  for (const Spring& s : body.springs()) {
    EXPECT_NEAR(s.k, E * V / (s.rest_length * s.rest_length), 1e-9 * s.k);
    EXPECT_NEAR(s.k3, 80.0 * s.k / (s.rest_length * s.rest_length), 1e-9 * s.k3);
    EXPECT_NEAR(s.c, 1e-3 * s.k, 1e-12 * s.k);
  }
}

TEST(MassSpringBodyTest, BadMeshesAndBodiesAreRefusedWithTheReason) {
  TetMesh mesh;
  mesh.nodes = (Eigen::Matrix3Xd(3, 4) << 0, 0.1, 0, 0, 0, 0, 0.1, 0, 0, 0, 0, 0.1).finished();
  mesh.tets = {{0, 1, 2, 7}};
  const auto message = [](auto&& f) {
    try {
      f();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(message([&] {
              MassSpringBody::FromTetMesh(mesh, {1e6, 100});
            }).find("names node 7"),
            std::string::npos);
  mesh.tets = {{0, 1, 2, 2}};
  EXPECT_NE(message([&] {
              MassSpringBody::FromTetMesh(mesh, {1e6, 100});
            }).find("no volume"),
            std::string::npos);
  mesh.tets = {{0, 1, 2, 3}};
  EXPECT_NE(message([&] {
              MassSpringBody::FromTetMesh(mesh, {0.0, 100});
            }).find("Young"),
            std::string::npos);
  EXPECT_NE(message([&] {
              MassSpringBody(mesh.nodes, {{0, 0, 1.0, 1.0, 0.0, 0.0}}, Eigen::VectorXd::Ones(4));
            }).find("joins nodes 0 and 0"),
            std::string::npos);
}

}  // namespace
}  // namespace twinblocks::deformable
