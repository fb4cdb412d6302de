#pragma once

// The electrical side of a permanent-magnet DC motor (Simscape's DC Motor, `twinblocks
// blocks DCMotor`): the armature circuit as one state, the armature current i, and the torque it
// makes. The rotor's own inertia J and viscous friction b are mechanical: the rotational
// network that holds the motor treats them as an Inertia on the rotor and a viscous torque
// -b w between R and C, and supplies the rotor's speed w relative to the case; these
// functions do not use them. Plain functions of the parameters and the present values, no
// allocation, so they can run inside a derivative evaluation.

namespace twinblocks::drivetrain {

/// The parameters of a DC motor, all as the DCMotor block names them. The block requires
/// R, L, Kt, Ke positive and J, b non-negative; zero defaults here mean "not set".
struct DCMotorParameters {
  double R = 0.0;   ///< armature resistance, ohm
  double L = 0.0;   ///< armature inductance, H
  double Kt = 0.0;  ///< torque constant, N m/A
  double Ke = 0.0;  ///< back-emf constant, V s/rad (equal to Kt in SI when power-conserving)
  double J = 0.0;   ///< rotor inertia about its axis, kg m^2 (used by the network, not here)
  double b = 0.0;   ///< rotor viscous friction, N m s/rad (used by the network, not here)
};

/// The armature circuit, Kirchhoff's voltage law around the loop:
///   L di/dt = v - R i - Ke w,
/// so di/dt = (v - R i - Ke w) / L, in A/s.
/// @param i armature current, A (positive into the + terminal).
/// @param v terminal voltage, V.
/// @param w rotor speed relative to the case (port R minus port C), rad/s; Ke w is the
///          back-emf, V.
/// @pre p.L > 0.
double CurrentRate(const DCMotorParameters& p, double i, double v, double w);

/// The electromagnetic torque Kt i, N m, that the rotor (port R) receives and the case (port
/// C) reacts. It is the air-gap torque only: the shaft torque is Kt i - J dw/dt - b w, the
/// rest being the network's Inertia and viscous element built from p.J and p.b.
/// @param i armature current, A.
double Torque(const DCMotorParameters& p, double i);

}  // namespace twinblocks::drivetrain
