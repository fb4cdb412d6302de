#pragma once

// The closed-form step response of a DC motor driving its rotor (and a rigidly coupled
// load), shared by the motor model tests and the motor block tests.

#include <Eigen/Core>
#include <complex>

#include "physics/drivetrain/dc_motor_model.h"

namespace twinblocks::testing {

/// x = [i (A), w (rad/s)] of
///   L di/dt = v - R i - Ke w,   J dw/dt = Kt i - b w,
/// from rest with v applied at t = 0, by hand. The system matrix [[-R/L, -Ke/L], [Kt/J, -b/J]]
/// has trace T = -(R/L + b/J) and determinant D = (R b + Ke Kt)/(L J), eigenvalues
/// l = T/2 +- sqrt(T^2/4 - D) (a complex pair when underdamped). Steady state:
/// w_ss = Kt v / (R b + Ke Kt). With w(0) = 0 and w'(0) = Kt i(0)/J = 0:
///   w(t) = w_ss (1 + (l2 e^{l1 t} - l1 e^{l2 t}) / (l1 - l2)),
///   w'(t) = w_ss l1 l2 (e^{l1 t} - e^{l2 t}) / (l1 - l2),   i(t) = (J w' + b w) / Kt,
/// real for a complex pair too (the imaginary parts cancel). J is everything the rotor turns.
inline Eigen::Vector2d DCMotorStepResponse(const drivetrain::DCMotorParameters& p, double v,
                                           double t) {
  using C = std::complex<double>;
  const double T = -(p.R / p.L + p.b / p.J);
  const double D = (p.R * p.b + p.Ke * p.Kt) / (p.L * p.J);
  const C root = std::sqrt(C(T * T / 4.0 - D, 0.0));
  const C l1 = T / 2.0 + root, l2 = T / 2.0 - root;
  const double w_ss = p.Kt * v / (p.R * p.b + p.Ke * p.Kt);
  const C e1 = std::exp(l1 * t), e2 = std::exp(l2 * t);
  const double w = w_ss * (1.0 + ((l2 * e1 - l1 * e2) / (l1 - l2)).real());
  const double wdot = w_ss * (l1 * l2 * (e1 - e2) / (l1 - l2)).real();
  return {(p.J * wdot + p.b * w) / p.Kt, w};
}

}  // namespace twinblocks::testing
