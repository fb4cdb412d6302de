#include "physics/grasp/grasp_monitor.h"

#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "physics/grasp/epsilon_solver.h"
#include "physics/grasp/friction_cone.h"

namespace twinblocks::grasp {

namespace {

using Matrix6d = Eigen::Matrix<double, 6, 6>;
using Vector6d = Eigen::Matrix<double, 6, 1>;

bool Finite(const double* v, int n) {
  for (int i = 0; i < n; ++i) {
    if (!std::isfinite(v[i])) return false;
  }
  return true;
}

}  // namespace

GraspMonitor::GraspMonitor(int max_contacts, const GraspMonitorOptions& options)
    : max_contacts_(max_contacts), options_(options) {
  if (max_contacts < 1 || max_contacts > kMaxContacts) {
    throw std::invalid_argument("a grasp monitor takes 1 to " + std::to_string(kMaxContacts) +
                                " contacts, got " + std::to_string(max_contacts));
  }
  CheckFrictionCone(options.cone);
  if (options.model != ContactModel::kPointWithoutFriction && options.cone.mu == 0.0) {
    throw std::invalid_argument(
        "mu must be positive for contacts with friction (mu = 0 is the point contact without "
        "friction)");
  }
  if (!std::isfinite(options.torque_length) || options.torque_length < 0.0) {
    throw std::invalid_argument("the torque length must be >= 0 (0: automatic), got " +
                                std::to_string(options.torque_length));
  }
  if (!std::isfinite(options.threshold) || options.threshold < 0.0) {
    throw std::invalid_argument("the contact threshold must be >= 0 N, got " +
                                std::to_string(options.threshold));
  }
  p_.resize(3, max_contacts);
  n_.resize(3, max_contacts);
  f_.resize(3, max_contacts);
  const int max_points = max_contacts * NumConeGenerators(options.model, options.cone);
  wrenches_.resize(6, max_points);
  // The solver needs room for at least a simplex; a grasp with fewer points is flat anyway.
  epsilon_solver_ = std::make_unique<EpsilonSolver>(std::max(max_points, 7));
}

GraspMonitor::~GraspMonitor() = default;

const GraspMeasures& GraspMonitor::Evaluate(const double* contacts, int num_contacts,
                                            const Eigen::Vector3d& p_WO) {
  if (num_contacts > max_contacts_) {
    throw std::runtime_error("a grasp monitor sized for " + std::to_string(max_contacts_) +
                             " contacts was given " + std::to_string(num_contacts));
  }
  if (!p_WO.allFinite()) throw std::runtime_error("the object's reference point is not finite");
  measures_ = GraspMeasures{};
  CollectActive(contacts, num_contacts);
  if (measures_.num_active == 0) return measures_;
  CalcMatrixMeasures(p_WO);
  CalcSlip();
  CalcEpsilon(p_WO);
  return measures_;
}

void GraspMonitor::CollectActive(const double* contacts, int num_contacts) {
  int k = 0;
  for (int i = 0; i < num_contacts; ++i) {
    const double* c = contacts + kMeasuredContactSize * i;
    const Eigen::Map<const Eigen::Vector3d> p(c), n(c + 3), f(c + 6);
    // A contact with no force is inactive whatever its point and normal say (an unused
    // contact reads zeros); a NaN force is not "no force", and is refused below.
    const double fn = f.dot(n);
    if (!(fn > options_.threshold) && f.allFinite() && n.allFinite()) continue;
    if (!Finite(c, kMeasuredContactSize)) {
      throw std::runtime_error("contact " + std::to_string(i + 1) +
                               ": its point, normal or force is not finite");
    }
    if (std::abs(n.norm() - 1.0) > kUnitNormalTolerance) {
      throw std::runtime_error("contact " + std::to_string(i + 1) +
                               ": its normal is not a unit vector (length " +
                               std::to_string(n.norm()) + ")");
    }
    p_.col(k) = p;
    n_.col(k) = n;
    f_.col(k) = f;
    ++k;
  }
  measures_.num_active = k;
}

void GraspMonitor::CalcMatrixMeasures(const Eigen::Vector3d& p_WO) {
  // G^T (m x 6) is reduced row by row, by Givens rotations, to a 6 x 6 triangle R with
  // R^T R = G G^T: R has G's singular values, found to working accuracy where the
  // eigenvalues of G G^T would lose half the digits of the small ones (a rank-deficient G
  // then gives 1e-8 instead of 0). Fixed sizes throughout: nothing is allocated.
  const int k = measures_.num_active;
  const ContactModel model = options_.model;
  Matrix6d R = Matrix6d::Zero();
  Vector6d Gf = Vector6d::Zero();
  auto add_row = [&R](Vector6d a) {
    for (int j = 0; j < 6; ++j) {
      if (a[j] == 0.0) continue;
      const double h = std::hypot(R(j, j), a[j]);
      const double c = R(j, j) / h, s = a[j] / h;
      for (int l = j; l < 6; ++l) {
        const double rl = R(j, l);
        R(j, l) = c * rl + s * a[l];
        a[l] = -s * rl + c * a[l];
      }
    }
  };
  for (int i = 0; i < k; ++i) {
    const Eigen::Vector3d r = p_.col(i) - p_WO;
    const Eigen::Vector3d n = n_.col(i);
    const Eigen::Vector3d f = f_.col(i);
    Vector6d row;
    if (model == ContactModel::kPointWithoutFriction) {
      row << n, r.cross(n);
      add_row(row);
      Gf += row * f.dot(n);
      continue;
    }
    for (int j = 0; j < 3; ++j) {
      const Eigen::Vector3d e = Eigen::Vector3d::Unit(j);
      row << e, r.cross(e);
      add_row(row);
    }
    if (model == ContactModel::kSoftFinger) {
      row << Eigen::Vector3d::Zero(), n;
      add_row(row);
    }
    Gf.head<3>() += f;
    Gf.tail<3>() += r.cross(f);
  }
  const Eigen::JacobiSVD<Matrix6d> svd(R, Eigen::ComputeFullV);
  const Vector6d& sigma = svd.singularValues();  // descending
  const int columns = k * NumContactComponents(model);
  measures_.min_singular_value = columns < 6 ? 0.0 : sigma[5];

  // f_int = f - G^T (G G^T)^+ G f, G G^T = V S^2 V^T. The rank is decided as
  // CalcInternalForceBasis decides it: singular values above max(6, m) eps sigma_1.
  const double cutoff = std::max(6, columns) * std::numeric_limits<double>::epsilon() * sigma[0];
  Vector6d y = Vector6d::Zero();
  for (int j = 0; j < 6; ++j) {
    if (sigma[j] > cutoff) {
      const auto v = svd.matrixV().col(j);
      y += v * (v.dot(Gf) / (sigma[j] * sigma[j]));
    }
  }
  if (columns >= 6 && !(sigma[5] > cutoff)) measures_.min_singular_value = 0.0;
  const Eigen::Vector3d y_f = y.head<3>(), y_tau = y.tail<3>();
  double sum = 0.0;
  for (int i = 0; i < k; ++i) {
    const Eigen::Vector3d r = p_.col(i) - p_WO;
    const Eigen::Vector3d n = n_.col(i);
    const Eigen::Vector3d f = f_.col(i);
    if (model == ContactModel::kPointWithoutFriction) {
      const double e = f.dot(n) - (n.dot(y_f) + r.cross(n).dot(y_tau));
      sum += e * e;
    } else {
      // G_i^T y = y_f + S(r)^T y_tau = y_f + y_tau x r.
      sum += (f - (y_f + y_tau.cross(r))).squaredNorm();
      if (model == ContactModel::kSoftFinger) {
        const double m = n.dot(y_tau);  // the measured torsional moment is not known: 0
        sum += m * m;
      }
    }
  }
  measures_.internal_force = std::sqrt(sum);
}

void GraspMonitor::CalcSlip() {
  if (options_.model == ContactModel::kPointWithoutFriction) return;
  double slip = 0.0;
  for (int i = 0; i < measures_.num_active; ++i) {
    const double fn = f_.col(i).dot(n_.col(i));
    const double ft = (f_.col(i) - fn * n_.col(i)).norm();
    slip = std::max(slip, ft / (options_.cone.mu * fn));
  }
  measures_.slip = slip;
}

void GraspMonitor::CalcEpsilon(const Eigen::Vector3d& p_WO) {
  const int k = measures_.num_active;
  if (k < 2) return;
  double L = options_.torque_length;
  if (L == 0.0) {
    for (int i = 0; i < k; ++i) L = std::max(L, (p_.col(i) - p_WO).norm());
    if (!(L > 0.0)) return;  // every contact at the reference point: no torque, no closure
  }
  // Blocks of the preallocated columns: contiguous, so the Refs below copy nothing.
  const int n = FillPrimitiveWrenches(p_.leftCols(k), n_.leftCols(k), p_WO, options_.model,
                                      options_.cone, L, wrenches_);
  const EpsilonResult r = epsilon_solver_->Solve(wrenches_.leftCols(n));
  if (r.status != EpsilonStatus::kSolved && r.status != EpsilonStatus::kFlat) {
    throw std::runtime_error(std::string("the epsilon of ") + std::to_string(k) +
                             " active contacts has no answer: " + EpsilonStatusName(r.status));
  }
  measures_.force_closure = r.force_closure;
  measures_.epsilon = r.epsilon;
}

}  // namespace twinblocks::grasp
