#include "physics/multibody/chain_ik.h"

#include <Eigen/Cholesky>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>

namespace twinblocks::multibody {

namespace {

/// The rotation vector (axis times angle, rad) of R, robust up to and at pi.
Eigen::Vector3d RotationVector(const Eigen::Matrix3d& R) {
  const Eigen::Vector3d v(0.5 * (R(2, 1) - R(1, 2)), 0.5 * (R(0, 2) - R(2, 0)),
                          0.5 * (R(1, 0) - R(0, 1)));  // sin(angle) axis
  const double c = 0.5 * (R.trace() - 1.0);
  const double s = v.norm();
  // Away from pi the skew part gives the axis to full precision; near pi it vanishes and the
  // symmetric part must (Eigen's AngleAxis reads it through the quaternion).
  if (c > -0.9) return s > 0.0 ? Eigen::Vector3d(v * (std::atan2(s, c) / s)) : v;
  const Eigen::AngleAxisd aa(R);
  return aa.angle() * aa.axis();
}

}  // namespace

ChainIk::ChainIk(const KinematicTree& tree, int tip_body, const Pose& X_BF,
                 const Eigen::VectorXd& lower, const Eigen::VectorXd& upper, int base_body)
    : nq_(tree.nq()), X_tipF_(X_BF) {
  if (tip_body < -1 || tip_body >= tree.num_bodies() || base_body < -1 ||
      base_body >= tree.num_bodies()) {
    throw std::invalid_argument("chain bodies " + std::to_string(base_body) + " to " +
                                std::to_string(tip_body) + " are not bodies of the tree (-1 to " +
                                std::to_string(tree.num_bodies() - 1) + ")");
  }
  if (lower.size() != nq_ || upper.size() != nq_) {
    throw std::invalid_argument("joint limits need nq = " + std::to_string(nq_) + " entries, got " +
                                std::to_string(lower.size()) + " and " +
                                std::to_string(upper.size()));
  }
  std::vector<int> path;  // tip to base
  int b = tip_body;
  for (; b != base_body && b >= 0; b = tree.parent(b)) path.push_back(b);
  if (b != base_body) {
    throw std::invalid_argument("the chain does not connect its frames: body '" +
                                tree.body(base_body).name + "' is not between the root and body '" +
                                tree.body(tip_body).name + "'");
  }
  for (auto it = path.rbegin(); it != path.rend(); ++it) {
    const Joint& joint = tree.joint(*it);
    const std::string& name = tree.body(*it).name;
    if (joint.type() != JointType::kRevolute && joint.type() != JointType::kPrismatic) {
      throw std::invalid_argument("the chain's joint of body '" + name +
                                  "' is neither revolute nor prismatic");
    }
    const int iq = tree.idx_q(*it);
    if (std::isnan(lower[iq]) || std::isnan(upper[iq]) || lower[iq] > upper[iq]) {
      throw std::invalid_argument("the limits of the joint of body '" + name +
                                  "' need lower <= upper, got " + std::to_string(lower[iq]) +
                                  " and " + std::to_string(upper[iq]));
    }
    const bool revolute = joint.type() == JointType::kRevolute;
    joints_.push_back({tree.body(*it).X_PJ, joint.axis(), revolute, iq, lower[iq], upper[iq],
                       revolute && upper[iq] - lower[iq] >= 2.0 * std::numbers::pi});
    q_index_.push_back(iq);
  }
  num_joints_ = static_cast<int>(joints_.size());
  const int n = num_joints_;
  q_chain_.resize(n);
  q_trial_.resize(n);
  q_best_.resize(n);
  step_.resize(n);
  gradient_.resize(n);
  J_w_.resize(6, n);
  J_trial_.resize(6, n);
  axis_W_.resize(n);
  origin_W_.resize(n);
  const int m = std::min(n, 6);
  normal_.resize(m, m);
  rhs_.resize(n <= 6 ? n : 6);
  J_free_.resize(6, n);
  // Sized by a first factorization: the solves then allocate nothing. (Eigen's sized
  // constructor leaves the factorization's status unset, which a copy reads.)
  normal_.setIdentity();
  llt_.compute(normal_);
}

Pose ChainIk::CalcPose(const Eigen::Ref<const Eigen::VectorXd>& q) {
  for (int k = 0; k < num_joints_; ++k) q_chain_[k] = q[q_index_[k]];
  Pose X = Pose::Identity();
  for (int k = 0; k < num_joints_; ++k) {
    const ChainJoint& j = joints_[k];
    X = X * j.X_PJ;
    if (j.revolute) {
      X.rotation = X.rotation * Eigen::AngleAxisd(q_chain_[k], j.axis).toRotationMatrix();
    } else {
      X.translation += X.rotation * (j.axis * q_chain_[k]);
    }
  }
  return X * X_tipF_;
}

double ChainIk::Evaluate(const Eigen::VectorXd& q_chain, const Pose& target, Vector6d* e_w,
                         Eigen::Matrix<double, 6, Eigen::Dynamic>* J_w, double* pos_err,
                         double* rot_err) {
  Pose X = Pose::Identity();
  for (int k = 0; k < num_joints_; ++k) {
    const ChainJoint& j = joints_[k];
    X = X * j.X_PJ;
    axis_W_[k].noalias() = X.rotation * j.axis;
    origin_W_[k] = X.translation;
    if (j.revolute) {
      X.rotation = X.rotation * Eigen::AngleAxisd(q_chain[k], j.axis).toRotationMatrix();
    } else {
      X.translation += axis_W_[k] * q_chain[k];
    }
  }
  X = X * X_tipF_;
  const Eigen::Vector3d position_error = target.translation - X.translation;
  const Eigen::Vector3d rotation_error =
      rotation_active_ ? RotationVector(target.rotation * X.rotation.transpose())
                       : Eigen::Vector3d::Zero();
  e_w->head<3>() = rotation_weight_.cwiseProduct(rotation_error);
  e_w->tail<3>() = position_weight_.cwiseProduct(position_error);
  *pos_err = position_mask_.cwiseProduct(position_error).norm();
  *rot_err = rotation_mask_.cwiseProduct(rotation_error).norm();
  for (int k = 0; k < num_joints_; ++k) {
    if (joints_[k].revolute) {
      J_w->col(k).head<3>() = rotation_weight_.cwiseProduct(axis_W_[k]);
      J_w->col(k).tail<3>() =
          position_weight_.cwiseProduct(axis_W_[k].cross(X.translation - origin_W_[k]));
    } else {
      J_w->col(k).head<3>().setZero();
      J_w->col(k).tail<3>() = position_weight_.cwiseProduct(axis_W_[k]);
    }
  }
  return 0.5 * e_w->squaredNorm();
}

bool ChainIk::Converged(const IkOptions& options, double pos_err, double rot_err) const {
  return pos_err <= options.position_tolerance && rot_err <= options.rotation_tolerance;
}

void ChainIk::SolveStep(double mu) {
  const int n = num_joints_;
  // A joint on a limit that the descent direction pushes further out is held there for this
  // step (its column removed): projecting a step that wanted to move it would cut the other
  // joints' share too, and the solver would crawl along the limit.
  J_free_ = J_w_;
  for (int k = 0; k < n; ++k) {
    const bool held =
        !joints_[k].wraps && ((q_chain_[k] <= joints_[k].lower && gradient_[k] < 0.0) ||
                              (q_chain_[k] >= joints_[k].upper && gradient_[k] > 0.0));
    if (held) J_free_.col(k).setZero();
  }
  if (n <= 6) {
    // (J^T J + mu I) h = J^T e
    normal_.noalias() = J_free_.transpose() * J_free_;
    normal_.diagonal().array() += mu;
    llt_.compute(normal_);
    rhs_.noalias() = J_free_.transpose() * e_w_;
    step_ = llt_.solve(rhs_);
  } else {
    // The same step through the 6 x 6 system: h = J^T (J J^T + mu I)^-1 e.
    normal_.noalias() = J_free_ * J_free_.transpose();
    normal_.diagonal().array() += mu;
    llt_.compute(normal_);
    rhs_ = llt_.solve(e_w_);
    step_.noalias() = J_free_.transpose() * rhs_;
  }
}

bool ChainIk::Attempt(const Pose& target, const IkOptions& options, int* iterations,
                      double* cost_out) {
  double pos_err = 0.0, rot_err = 0.0;
  double cost = Evaluate(q_chain_, target, &e_w_, &J_w_, &pos_err, &rot_err);
  *cost_out = cost;
  if (Converged(options, pos_err, rot_err)) return true;
  // Levenberg-Marquardt with the damping update of Madsen, Nielsen and Tingleff (2004,
  // "Methods for Non-Linear Least Squares Problems", sec. 3.2): mu starts at 1e-3 of J^T J's
  // largest diagonal entry and shrinks by the gain ratio, so that far from the target the
  // step is a short gradient step and near it the Gauss-Newton step that converges
  // quadratically.
  gradient_.noalias() = J_w_.transpose() * e_w_;
  double largest = 0.0;  // of diag(J^T J), without a temporary row
  for (int k = 0; k < num_joints_; ++k) largest = std::max(largest, J_w_.col(k).squaredNorm());
  double mu = 1e-3 * largest;
  double nu = 2.0;
  for (int it = 0; it < options.max_iterations; ++it) {
    ++*iterations;
    SolveStep(mu);
    // Joint limits: the step is projected onto the box, and the gain ratio judged on the
    // step taken.
    for (int k = 0; k < num_joints_; ++k) q_trial_[k] = Limited(k, q_chain_[k] + step_[k]);
    step_ = q_trial_ - q_chain_;
    if (step_.norm() <= 1e-14 * (q_chain_.norm() + 1e-14)) return false;  // stalled
    double trial_pos = 0.0, trial_rot = 0.0;
    const double trial_cost =
        Evaluate(q_trial_, target, &e_trial_, &J_trial_, &trial_pos, &trial_rot);
    const double predicted = step_.dot(gradient_) - 0.5 * (J_w_ * step_).squaredNorm();
    if (trial_cost < cost) {
      // A local minimum (the residual cannot vanish): the linear model promises almost
      // nothing more and the step kept its promise. Cheaper to restart than to crawl.
      if (predicted < 1e-6 * cost && cost - trial_cost < 1e-6 * cost) return false;
      q_chain_.swap(q_trial_);
      J_w_.swap(J_trial_);
      e_w_ = e_trial_;
      const double rho = predicted > 0.0 ? (cost - trial_cost) / predicted : 1.0;
      cost = trial_cost;
      *cost_out = cost;
      if (Converged(options, trial_pos, trial_rot)) return true;
      gradient_.noalias() = J_w_.transpose() * e_w_;
      mu *= std::max(1.0 / 3.0, 1.0 - std::pow(2.0 * rho - 1.0, 3));
      nu = 2.0;
    } else {
      mu *= nu;
      nu *= 2.0;
      if (!(mu < 1e300)) return false;
    }
  }
  return false;
}

double ChainIk::Limited(int k, double q) const {
  const ChainJoint& j = joints_[k];
  if (j.wraps) {
    // A whole turn lies within the limits: the same pose, brought back inside them.
    constexpr double kTurn = 2.0 * std::numbers::pi;
    if (q > j.upper) q -= kTurn * std::ceil((q - j.upper) / kTurn);
    if (q < j.lower) q += kTurn * std::ceil((j.lower - q) / kTurn);
  }
  return std::clamp(q, j.lower, j.upper);
}

void ChainIk::RandomStart(std::mt19937_64* rng) {
  for (int k = 0; k < num_joints_; ++k) {
    const ChainJoint& j = joints_[k];
    const double span = j.revolute ? std::numbers::pi : 1.0;
    const double lo = std::max(j.lower, -span), hi = std::min(j.upper, span);
    std::uniform_real_distribution<double> u(lo <= hi ? lo : j.lower, lo <= hi ? hi : j.lower);
    q_chain_[k] = lo <= hi ? u(*rng) : std::clamp(0.0, j.lower, j.upper);
  }
}

IkResult ChainIk::Solve(const Pose& target, const Eigen::Ref<const Eigen::VectorXd>& q_start,
                        const IkOptions& options, Eigen::Ref<Eigen::VectorXd> q) {
  if (q_start.size() != nq_ || q.size() != nq_) {
    throw std::invalid_argument(
        "ChainIk::Solve needs q_start and q of nq = " + std::to_string(nq_) + " entries");
  }
  rotation_active_ = !options.position_only;
  for (int i = 0; i < 3; ++i) {
    rotation_weight_[i] = options.position_only ? 0.0 : options.weights[i];
    position_weight_[i] = options.weights[3 + i];
    rotation_mask_[i] = rotation_weight_[i] != 0.0 ? 1.0 : 0.0;
    position_mask_[i] = position_weight_[i] != 0.0 ? 1.0 : 0.0;
  }
  if (q.data() != q_start.data()) q = q_start;
  for (int k = 0; k < num_joints_; ++k) {
    q_chain_[k] = Limited(k, q_start[q_index_[k]]);
  }
  IkResult result;
  std::mt19937_64 rng(options.seed);
  double best_cost = std::numeric_limits<double>::infinity();
  for (int attempt = 0; attempt <= options.restarts; ++attempt) {
    if (attempt > 0) RandomStart(&rng);
    ++result.attempts;
    double cost = 0.0;
    result.success = Attempt(target, options, &result.iterations, &cost);
    if (result.success || cost < best_cost) {
      best_cost = cost;
      q_best_ = q_chain_;
    }
    if (result.success) break;
  }
  for (int k = 0; k < num_joints_; ++k) q[q_index_[k]] = q_best_[k];
  Evaluate(q_best_, target, &e_trial_, &J_trial_, &result.position_error, &result.rotation_error);
  return result;
}

}  // namespace twinblocks::multibody
