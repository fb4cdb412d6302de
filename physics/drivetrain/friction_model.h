#pragma once

// Rotational friction as Simscape's Rotational Friction block models it (Boschetti & Sinico
// 2024, "Designing Digital Twins of Robots Using Simscape Multibody", eq. 25-26): the sum of a
// Stribeck peak, Coulomb friction smoothed by a tanh, and viscous friction, all functions of the
// relative velocity, so the torque is smooth through zero velocity and a variable-step solver does
// not crawl there.

namespace twinblocks::drivetrain {

struct FrictionParameters {
  double breakaway_torque = 25.0;   ///< T_brk, N m: the peak at breakaway
  double breakaway_velocity = 0.1;  ///< w_brk, rad/s
  double coulomb_torque = 20.0;     ///< T_C, N m
  double viscous = 0.001;           ///< f, N m s/rad
};

/// T(w) = sqrt(2e) (T_brk - T_C) exp(-(w/w_St)^2) (w/w_St) + T_C tanh(w/w_Coul) + f w, with
/// w_St = w_brk sqrt(2) and w_Coul = w_brk / 10: the torque that resists a relative velocity
/// w (rad/s), N m. The Stribeck term peaks at w = w_St / sqrt(2) = w_brk, where the sum is
/// very nearly T_brk.
double FrictionTorque(const FrictionParameters& p, double w);

}  // namespace twinblocks::drivetrain
