#include "solvers/butcher_tableau.h"

#include <cmath>
#include <stdexcept>

namespace twinblocks::solvers {
namespace {

constexpr double kTableauTolerance = 1e-14;

ButcherTableau MakeTableau(std::string name, int order, int stages) {
  ButcherTableau tableau;
  tableau.name = std::move(name);
  tableau.order = order;
  tableau.a = Eigen::MatrixXd::Zero(stages, stages);
  tableau.b = Eigen::VectorXd::Zero(stages);
  tableau.c = Eigen::VectorXd::Zero(stages);
  return tableau;
}

}  // namespace

bool ButcherTableau::is_fsal() const {
  const int s = num_stages();
  if (s < 2 || c(s - 1) != 1.0 || b(s - 1) != 0.0) return false;
  for (int j = 0; j < s; ++j) {
    if (a(s - 1, j) != b(j)) return false;
  }
  return true;
}

double ButcherTableau::RealStabilityBoundary() const {
  const int s = num_stages();
  // R(-y) by forward substitution: g_i = 1 - y sum_{j<i} a_ij g_j, R = 1 - y sum_i b_i g_i.
  Eigen::VectorXd g(s);
  const auto stable = [&](double y) {
    for (int i = 0; i < s; ++i) {
      double sum = 0.0;
      for (int j = 0; j < i; ++j) sum += a(i, j) * g[j];
      g[i] = 1.0 - y * sum;
    }
    return std::abs(1.0 - y * b.dot(g)) <= 1.0;
  };
  // Scan outwards to the first unstable point, then bisect the last interval.
  constexpr double kScan = 1e-3;
  double lo = 0.0;
  while (lo < 1e3 && stable(lo + kScan)) lo += kScan;
  double hi = lo + kScan;
  for (int k = 0; k < 50; ++k) {
    const double mid = 0.5 * (lo + hi);
    (stable(mid) ? lo : hi) = mid;
  }
  return lo;
}

void ButcherTableau::Validate() const {
  const int s = num_stages();
  if (a.rows() != s || a.cols() != s || c.size() != s) {
    throw std::logic_error(name + ": a, b and c sizes disagree");
  }
  for (int i = 0; i < s; ++i) {
    for (int j = i; j < s; ++j) {
      if (a(i, j) != 0.0) throw std::logic_error(name + ": a is not strictly lower triangular");
    }
    if (std::abs(a.row(i).sum() - c(i)) > kTableauTolerance) {
      throw std::logic_error(name + ": c_i != sum_j a_ij in row " + std::to_string(i));
    }
  }
  if (std::abs(b.sum() - 1.0) > kTableauTolerance) {
    throw std::logic_error(name + ": sum of b is not 1");
  }
  if (b_hat.size() != 0 && std::abs(b_hat.sum() - 1.0) > kTableauTolerance) {
    throw std::logic_error(name + ": sum of b_hat is not 1");
  }
}

ButcherTableau EulerTableau() {
  ButcherTableau t = MakeTableau("Euler", 1, 1);
  t.b << 1.0;
  return t;
}

ButcherTableau HeunTableau() {
  ButcherTableau t = MakeTableau("Heun", 2, 2);
  t.a(1, 0) = 1.0;
  t.b << 0.5, 0.5;
  t.c << 0.0, 1.0;
  return t;
}

ButcherTableau BogackiShampineTableau() {
  ButcherTableau t = MakeTableau("Bogacki-Shampine 3(2)", 3, 4);
  t.embedded_order = 2;
  t.c << 0.0, 1.0 / 2.0, 3.0 / 4.0, 1.0;
  t.a(1, 0) = 1.0 / 2.0;
  t.a(2, 1) = 3.0 / 4.0;
  t.a(3, 0) = 2.0 / 9.0;
  t.a(3, 1) = 1.0 / 3.0;
  t.a(3, 2) = 4.0 / 9.0;
  t.b << 2.0 / 9.0, 1.0 / 3.0, 4.0 / 9.0, 0.0;
  t.b_hat.resize(4);
  t.b_hat << 7.0 / 24.0, 1.0 / 4.0, 1.0 / 3.0, 1.0 / 8.0;
  return t;
}

ButcherTableau ClassicRungeKuttaTableau() {
  ButcherTableau t = MakeTableau("Runge-Kutta 4", 4, 4);
  t.c << 0.0, 0.5, 0.5, 1.0;
  t.a(1, 0) = 0.5;
  t.a(2, 1) = 0.5;
  t.a(3, 2) = 1.0;
  t.b << 1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0;
  return t;
}

ButcherTableau DormandPrinceTableau() {
  ButcherTableau t = MakeTableau("Dormand-Prince 5(4)", 5, 7);
  t.embedded_order = 4;
  t.c << 0.0, 1.0 / 5.0, 3.0 / 10.0, 4.0 / 5.0, 8.0 / 9.0, 1.0, 1.0;
  t.a(1, 0) = 1.0 / 5.0;
  t.a(2, 0) = 3.0 / 40.0;
  t.a(2, 1) = 9.0 / 40.0;
  t.a(3, 0) = 44.0 / 45.0;
  t.a(3, 1) = -56.0 / 15.0;
  t.a(3, 2) = 32.0 / 9.0;
  t.a(4, 0) = 19372.0 / 6561.0;
  t.a(4, 1) = -25360.0 / 2187.0;
  t.a(4, 2) = 64448.0 / 6561.0;
  t.a(4, 3) = -212.0 / 729.0;
  t.a(5, 0) = 9017.0 / 3168.0;
  t.a(5, 1) = -355.0 / 33.0;
  t.a(5, 2) = 46732.0 / 5247.0;
  t.a(5, 3) = 49.0 / 176.0;
  t.a(5, 4) = -5103.0 / 18656.0;
  t.b << 35.0 / 384.0, 0.0, 500.0 / 1113.0, 125.0 / 192.0, -2187.0 / 6784.0, 11.0 / 84.0, 0.0;
  t.a.row(6) = t.b.transpose();
  t.b_hat.resize(7);
  t.b_hat << 5179.0 / 57600.0, 0.0, 7571.0 / 16695.0, 393.0 / 640.0, -92097.0 / 339200.0,
      187.0 / 2100.0, 1.0 / 40.0;
  return t;
}

ButcherTableau DropFsalStage(const ButcherTableau& pair) {
  if (!pair.is_fsal()) throw std::logic_error(pair.name + " has no FSAL stage to drop");
  const int s = pair.num_stages() - 1;
  ButcherTableau t;
  t.name = pair.name;
  t.order = pair.order;
  t.a = pair.a.topLeftCorner(s, s);
  t.b = pair.b.head(s);
  t.c = pair.c.head(s);
  return t;
}

}  // namespace twinblocks::solvers
