#pragma once

// The electrical side and the current control of a permanent-magnet synchronous motor
// (`twinblocks blocks PMSM`; Boschetti & Sinico 2024, "Designing Digital Twins of Robots Using
// Simscape Multibody", section 4.3), surface-mounted (Ld = Lq) or interior (Ld != Lq), in the
// rotor's dq frame: d along the magnet's flux, q 90 electrical degrees ahead, both turning with the
// rotor at the electrical speed w_e = p w. Amplitude-invariant Park transform, hence the 1.5 in the
// torque. The inverter is averaged (no PWM switching): it applies the commanded dq voltage
// as long as its magnitude stays within the linear range of space-vector modulation,
// |v_dq| <= Vdc / sqrt(3).
//
// States the caller integrates: the stator currents i_dq (A, 2 x 1) and, in FOC mode, the two
// PI integrators z_dq (A s, 2 x 1, the time integrals of the current errors). The rotor's
// inertia J and viscous friction b are mechanical and belong to the rotational network, which
// also supplies the rotor's speed w relative to the case; the functions here do not use them.
// All are plain functions on fixed-size Eigen vectors: no allocation.

#include <Eigen/Core>

namespace twinblocks::drivetrain {

/// The motor and drive of the reference arm (Boschetti & Sinico 2024, section 4.3) as defaults.
struct PmsmParameters {
  int pole_pairs = 4;         ///< p, electrical per mechanical revolution
  double Rs = 0.5;            ///< stator phase resistance, ohm
  double Ld = 1.5e-3;         ///< d-axis inductance, H
  double Lq = 1.5e-3;         ///< q-axis inductance, H
  double psi = 0.05;          ///< permanent-magnet flux linkage (peak, per phase), Wb
  double J = 3.3e-4;          ///< rotor inertia, kg m^2 (joints 1-2 of the arm; network only)
  double b = 0.0;             ///< rotor viscous friction, N m s/rad (network only)
  double Vdc = 300.0;         ///< DC bus voltage, V
  double i_max = 20.0;        ///< current limit on |i_dq|, A
  double bandwidth = 2000.0;  ///< closed-loop bandwidth of each current loop, Hz
};

/// 1.5 p psi, N m/A: the torque per ampere of i_q at i_d = 0 (0.3 N m/A for the defaults).
double TorqueConstant(const PmsmParameters& p);

/// Vdc / sqrt(3), V: the largest |v_dq| the averaged inverter can apply (173.2 V at 300 V).
double MaxVoltage(const PmsmParameters& p);

/// The stator voltage equations in the rotor dq frame, w_e = p w (electrical rad/s):
///   Ld did/dt = vd - Rs id + w_e Lq iq
///   Lq diq/dt = vq - Rs iq - w_e (Ld id + psi)
/// where w_e Lq iq and w_e Ld id are the speed voltages (cross coupling) and w_e psi the
/// back-emf, all in V.
/// @param idq stator currents [i_d, i_q], A, rotor dq frame.
/// @param vdq applied stator voltages [v_d, v_q], V, rotor dq frame.
/// @param w rotor speed relative to the stator (port R minus port C), mechanical rad/s.
/// @return [di_d/dt, di_q/dt], A/s.
/// @pre p.Ld > 0 and p.Lq > 0.
Eigen::Vector2d CurrentRates(const PmsmParameters& p, const Eigen::Vector2d& idq,
                             const Eigen::Vector2d& vdq, double w);

/// The electromagnetic torque on the rotor (port R; the stator, C, reacts), N m:
///   tau = 1.5 p (psi i_q + (Ld - Lq) i_d i_q),
/// magnet torque plus reluctance torque (zero for a surface PMSM).
/// @param idq stator currents [i_d, i_q], A, rotor dq frame.
double Torque(const PmsmParameters& p, const Eigen::Vector2d& idq);

/// What the field-oriented controller commands at one instant.
struct FocOutput {
  Eigen::Vector2d idq_ref = Eigen::Vector2d::Zero();  ///< [i_d*, i_q*], A, rotor dq frame
  /// [v_d, v_q] the inverter applies, V, rotor dq frame: the PI outputs plus the decoupling
  /// feed-forward, scaled down along their own direction to |v_dq| <= Vdc / sqrt(3).
  Eigen::Vector2d vdq = Eigen::Vector2d::Zero();
  /// d/dt of the PI integrators [z_d, z_q], A: the current errors i* - i, or zero for an axis
  /// whose integration would push the voltage further into the limit (anti-windup).
  Eigen::Vector2d integrator_rates = Eigen::Vector2d::Zero();
  bool voltage_limited = false;  ///< the unlimited command exceeded Vdc / sqrt(3)
};

/// Field-oriented current control with PI loops, as Boschetti & Sinico 2024, section 4.3 describes
/// it.
///
/// References: i_d* = 0 (no field weakening, no MTPA) and i_q* = tau_ref / (1.5 p psi),
/// clamped to [-i_max, i_max], so |i_dq*| <= i_max and the torque command saturates at
/// 1.5 p psi i_max (6 N m for the defaults). Errors e = i* - i, A.
///
/// Each axis: v = Kp e + Ki z + feed-forward, with Kp = L 2 pi bw (V/A; Ld for d, Lq for q)
/// and Ki = Rs 2 pi bw (V/(A s)). The decoupling feed-forward
///   v_d += -w_e Lq i_q,   v_q += w_e (Ld i_d + psi)
/// cancels the speed voltages and the back-emf of CurrentRates, which leaves each axis the
/// first-order plant L di/dt = v_PI - Rs i. Then Ki/Kp = Rs/L puts the PI zero on the plant's
/// pole, the loop gain is 2 pi bw / s, and the closed loop is exactly i/i* =
/// 1 / (1 + s / (2 pi bw)): the bandwidth is what the parameter says, at any speed, and the
/// axes do not disturb each other. Without it the back-emf would act as a ramp disturbance
/// only the slow integrator rejects, and the d and q loops would couple through w_e L.
///
/// Averaged inverter: when |v| > Vdc / sqrt(3) the command is scaled by Vdc / (sqrt(3) |v|),
/// keeping its direction. Anti-windup by conditional integration: while limited, an axis k
/// with e_k v_k > 0 (its integrator would increase |v|) stops integrating. After a limited
/// transient the integrator is short of its steady value Rs i* / Ki, and the rest of the error
/// decays with the plant's own pole Rs / L (333 1/s for the defaults) instead of 2 pi bw.
///
/// @param tau_ref torque command, N m.
/// @param idq measured stator currents [i_d, i_q], A, rotor dq frame.
/// @param w rotor speed relative to the stator, mechanical rad/s.
/// @param integrators PI integrator states [z_d, z_q], A s.
FocOutput Foc(const PmsmParameters& p, double tau_ref, const Eigen::Vector2d& idq, double w,
              const Eigen::Vector2d& integrators);

}  // namespace twinblocks::drivetrain
