#pragma once

// The force laws of SpatialContactForce: the normal force of one contact point from its
// penetration and penetration rate, and the friction coefficient from its sliding speed.
// Pure functions of numbers, so that each law is tested against its equation on its own.
//
// Normal force models (delta: penetration, m, > 0 in contact; delta_dot its rate, m/s):
//   kelvin_voigt  f = s(delta / w) (k delta + c delta_dot)      (Simscape Spatial Contact Force)
//                 with s(x) = 3 x^2 - 2 x^3 for 0 <= x < 1, 1 beyond: the transition region of
//                 width w over which stiffness and damping ramp in, so that the force does not
//                 jump when contact starts (w = 0: no transition region).
//   hunt_crossley f = k delta^n + c delta^n delta_dot           (Hunt & Crossley 1975; with
//                 c = 3/2 alpha k for an impact-velocity-independent restitution)
//   hertz         f = k delta^n + c delta_dot                   (Zaidi et al. 2020, eq. 4)
//                 optionally k = 2 Psi sqrt(R) (eq. 6), 1/Psi = (1 - nu1^2)/E1 + (1 - nu2^2)/E2
//                 (eq. 7), c = 4 pi R gamma (eq. 8), with R the pair's effective radius.
// Every model is clamped at zero: contact pushes, never pulls (Zaidi et al. 2020, eq. 4). With
// damping, the force reaches zero before the penetration does, and that is where contact ends.
//
// Friction (v: sliding speed at the point, m/s; s = v / v_crit):
//   none               mu = 0
//   smooth_stick_slip  mu = mu_s s (2 - s)                           for s <= 1
//                      mu = mu_s - (mu_s - mu_d) (3 x^2 - 2 x^3)     for 1 < s < 2, x = s - 1
//                      mu = mu_d                                      for s >= 2
//     rises from 0 to its peak mu_s at the critical velocity with zero slope there, falls
//     smoothly to mu_d by 2 v_crit and stays there. Continuous with a continuous slope, so
//     that variable-step solvers step through stick-slip without chattering. A body held by
//     friction creeps at the speed where mu(v) balances the load: below v_crit whenever the
//     load needs less than mu_s. (Simscape does not publish its own curve; this one is ours.)
//   coulomb            mu = mu_d s (2 - s) for s <= 1, mu_d beyond: Coulomb friction
//                      regularized over v_crit, one coefficient.

namespace twinblocks::contact {

enum class NormalForceModel { kKelvinVoigt, kHuntCrossley, kHertz };
enum class FrictionModel { kNone, kSmoothStickSlip, kCoulomb };

/// The parameters of one contact's laws, checked by CheckContactLaw.
struct ContactLaw {
  NormalForceModel model = NormalForceModel::kKelvinVoigt;
  double stiffness = 1e6;          ///< k: N/m (kelvin_voigt), N/m^n (hunt_crossley, hertz)
  double damping = 1e3;            ///< c: N s/m (kelvin_voigt, hertz), N s/m^(n+1) (hunt_crossley)
  double transition_width = 1e-4;  ///< w: m (kelvin_voigt)
  double exponent = 1.5;           ///< n (hunt_crossley, hertz)
  FrictionModel friction = FrictionModel::kNone;
  double mu_s = 0.5, mu_d = 0.3;  ///< static (peak) and dynamic coefficients
  double v_crit = 1e-3;           ///< m/s
};

/// Throws std::invalid_argument naming the parameter as the block calls it ("stiffness",
/// "mu_d", ...) when a law cannot be used: negative stiffness or damping, a transition width
/// below zero, an exponent below 1, mu_d > mu_s, v_crit not positive.
void CheckContactLaw(const ContactLaw& law);

/// The normal force magnitude (N, >= 0) of one point.
double NormalForce(const ContactLaw& law, double delta, double delta_dot);

/// The friction coefficient at sliding speed `speed` (m/s, >= 0).
double FrictionCoefficient(const ContactLaw& law, double speed);

/// The derivative of NormalForce with respect to the penetration rate, d f / d delta_dot
/// (N s/m for kelvin_voigt and hertz): the damping a linearly implicit solver must treat
/// implicitly. Zero where the force is clamped at zero (or out of contact).
double NormalForceRateDerivative(const ContactLaw& law, double delta, double delta_dot);

/// The derivative of NormalForce with respect to the penetration, d f / d delta (N/m for
/// kelvin_voigt): the contact's stiffness, which a linearly implicit solver's Jacobian carries
/// so that its error estimate sees how the force follows the bodies' motion. Zero where the
/// force is clamped at zero (or out of contact).
double NormalForceDepthDerivative(const ContactLaw& law, double delta, double delta_dot);

/// mu(speed) / speed (s/m), with its finite limit at speed 0 (the slope of mu there): the
/// secant of the friction curve, the viscous coefficient per newton of normal force that
/// friction opposes the slip with at this speed.
double FrictionCoefficientPerSpeed(const ContactLaw& law, double speed);

/// Hertz stiffness and damping from materials (Zaidi et al. 2020, "Grasp Planning Pipeline for
/// Robust Manipulation of 3D Deformable Objects", eq. 6-8).
/// @param radius  the effective radius R = 1 / (1/R1 + 1/R2), m, finite and > 0.
/// @throws std::invalid_argument naming the offending argument.
double HertzStiffness(double E1, double nu1, double E2, double nu2, double radius);
double HertzDamping(double gamma, double radius);

}  // namespace twinblocks::contact
