#pragma once

// Small systems with known solutions for the solver tests.

#include <Eigen/Core>
#include <cmath>
#include <limits>

#include "solvers/ode_problem.h"

namespace twinblocks::solvers::testing {

/// x'' = -w^2 x as (x, v); x(t) = x0 cos(w t) + v0/w sin(w t).
class HarmonicOscillator : public OdeProblem {
 public:
  explicit HarmonicOscillator(double omega = 2.0) : omega_(omega) {}
  int num_states() const override { return 2; }
  int CalcDerivatives(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                      Eigen::Ref<Eigen::VectorXd> xdot) override {
    xdot[0] = x[1];
    xdot[1] = -omega_ * omega_ * x[0];
    return 0;
  }
  Eigen::Vector2d Exact(double t, const Eigen::Vector2d& x0) const {
    const double c = std::cos(omega_ * t);
    const double s = std::sin(omega_ * t);
    return {x0[0] * c + x0[1] / omega_ * s, -x0[0] * omega_ * s + x0[1] * c};
  }

 private:
  double omega_;
};

/// Two decoupled non-autonomous equations, one nonlinear in the state:
/// x' = -2 t x^2 (x = 1 / (1 + t^2) for x(0) = 1) and y' = y cos t (y = exp(sin t)).
class NonlinearPair : public OdeProblem {
 public:
  int num_states() const override { return 2; }
  int CalcDerivatives(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                      Eigen::Ref<Eigen::VectorXd> xdot) override {
    xdot[0] = -2.0 * t * x[0] * x[0];
    xdot[1] = x[1] * std::cos(t);
    return 0;
  }
  static Eigen::Vector2d Exact(double t) { return {1.0 / (1.0 + t * t), std::exp(std::sin(t))}; }
};

/// NonlinearPair with its exact Jacobian scaled by `scale`: 1 the exact one, anything else a
/// wrong one (a W-method keeps its order with it).
class NonlinearPairWithJacobian : public NonlinearPair {
 public:
  explicit NonlinearPairWithJacobian(double scale) : scale_(scale) {}
  bool has_jacobian() const override { return true; }
  int CalcJacobian(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                   Eigen::Ref<Eigen::MatrixXd> J) override {
    J.setZero();
    J(0, 0) = scale_ * -4.0 * t * x[0];
    J(1, 1) = scale_ * std::cos(t);
    return 0;
  }

 private:
  double scale_;
};

/// A ball falling from rest at height h0: x' = v, v' = -g, zero crossing g = x.
/// It reaches the ground at t = sqrt(2 h0 / g).
class FallingBall : public OdeProblem {
 public:
  static constexpr double kGravity = 9.81;  // m/s^2
  int num_states() const override { return 2; }
  int CalcDerivatives(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                      Eigen::Ref<Eigen::VectorXd> xdot) override {
    xdot[0] = x[1];
    xdot[1] = -kGravity;
    return 0;
  }
  int num_zero_crossings() const override { return 1; }
  int CalcZeroCrossings(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                        Eigen::Ref<Eigen::VectorXd> g) override {
    g[0] = x[0];
    return 0;
  }
};

/// Van der Pol's oscillator y1' = y2, y2' = mu (1 - y1^2) y2 - y1: stiff for large mu.
class VanDerPol : public OdeProblem {
 public:
  explicit VanDerPol(double mu) : mu_(mu) {}
  int num_states() const override { return 2; }
  int CalcDerivatives(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                      Eigen::Ref<Eigen::VectorXd> xdot) override {
    xdot[0] = x[1];
    xdot[1] = mu_ * (1.0 - x[0] * x[0]) * x[1] - x[0];
    return 0;
  }

 private:
  double mu_;
};

/// x' = 1 until t = 1, then NaN: a model that goes bad at a known time.
class NanAfterOne : public OdeProblem {
 public:
  int num_states() const override { return 1; }
  int CalcDerivatives(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                      Eigen::Ref<Eigen::VectorXd> xdot) override {
    xdot[0] = t < 1.0 ? 1.0 : std::numeric_limits<double>::quiet_NaN();
    return 0;
  }
};

/// A model whose evaluation fails fatally (returns -1) from t = 0.5 on.
class FailsAtHalf : public OdeProblem {
 public:
  int num_states() const override { return 1; }
  int CalcDerivatives(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                      Eigen::Ref<Eigen::VectorXd> xdot) override {
    xdot[0] = -x[0];
    return t < 0.5 ? 0 : -1;
  }
  const char* last_error() const override { return "block 'Gain1': division by zero"; }
};

/// The planar pendulum (unit mass, length L) in its angle: theta'' = -(g/L) sin(theta).
class AnglePendulum : public OdeProblem {
 public:
  AnglePendulum(double length, double gravity) : length_(length), gravity_(gravity) {}
  int num_states() const override { return 2; }
  int CalcDerivatives(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                      Eigen::Ref<Eigen::VectorXd> xdot) override {
    xdot[0] = x[1];
    xdot[1] = -gravity_ / length_ * std::sin(x[0]);
    return 0;
  }

 private:
  double length_;
  double gravity_;
};

/// The same pendulum in Cartesian coordinates (x, y, vx, vy, lambda), index 1: the length
/// constraint differentiated twice (acceleration level) gives the algebraic equation
///   vx^2 + vy^2 - lambda (x^2 + y^2) - g y = 0,
/// and x' = vx, y' = vy, vx' = -lambda x, vy' = -lambda y - g. The position constraint
/// x^2 + y^2 = L^2 is not enforced and drifts.
class CartesianPendulum : public DaeProblem {
 public:
  explicit CartesianPendulum(double gravity) : gravity_(gravity) {}
  int num_states() const override { return 5; }
  int CalcResidual(double t, const Eigen::Ref<const Eigen::VectorXd>& y,
                   const Eigen::Ref<const Eigen::VectorXd>& yp,
                   Eigen::Ref<Eigen::VectorXd> r) override {
    const double px = y[0], py = y[1], vx = y[2], vy = y[3], lambda = y[4];
    r[0] = yp[0] - vx;
    r[1] = yp[1] - vy;
    r[2] = yp[2] + lambda * px;
    r[3] = yp[3] + lambda * py + gravity_;
    r[4] = vx * vx + vy * vy - lambda * (px * px + py * py) - gravity_ * py;
    return 0;
  }
  void GetDifferentialMask(Eigen::Ref<Eigen::VectorXd> is_differential) const override {
    is_differential << 1.0, 1.0, 1.0, 1.0, 0.0;
  }
  // Crossing of the vertical (x = 0), to exercise IDA's rootfinding.
  int num_zero_crossings() const override { return 1; }
  int CalcZeroCrossings(double t, const Eigen::Ref<const Eigen::VectorXd>& y,
                        const Eigen::Ref<const Eigen::VectorXd>& yp,
                        Eigen::Ref<Eigen::VectorXd> g) override {
    g[0] = y[0];
    return 0;
  }

 private:
  double gravity_;
};

/// Prothero and Robinson's problem, x' = lambda (x - cos t) - sin t with lambda = -1e4: stiff,
/// and driven through t. x = cos t + (x0 - 1) e^(lambda t).
class ProtheroRobinson : public OdeProblem {
 public:
  static constexpr double kLambda = -1e4;
  int num_states() const override { return 1; }
  int CalcDerivatives(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                      Eigen::Ref<Eigen::VectorXd> xdot) override {
    xdot[0] = kLambda * (x[0] - std::cos(t)) - std::sin(t);
    return 0;
  }
  static double Exact(double t, double x0) {
    return std::cos(t) + (x0 - 1.0) * std::exp(kLambda * t);
  }
};

/// The same problem claiming not to depend on t: ode23s and ros2 then leave T = df/dt out.
class ProtheroRobinsonWithoutT : public ProtheroRobinson {
 public:
  bool is_autonomous() const override { return true; }
};

}  // namespace twinblocks::solvers::testing
