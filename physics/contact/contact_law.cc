#include "physics/contact/contact_law.h"

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "common/format_value.h"

namespace twinblocks::contact {

namespace {

void Require(bool ok, const char* param, const std::string& what) {
  if (!ok) throw std::invalid_argument(std::string(param) + ": " + what);
}

/// 3 x^2 - 2 x^3 on [0, 1], 0 below, 1 above: a ramp with zero slope at both ends.
double SmoothStep(double x) {
  if (x <= 0.0) return 0.0;
  if (x >= 1.0) return 1.0;
  return x * x * (3.0 - 2.0 * x);
}

/// d SmoothStep / dx.
double SmoothStepSlope(double x) { return x <= 0.0 || x >= 1.0 ? 0.0 : 6.0 * x * (1.0 - x); }

/// s (2 - s) up to s = 1, then 1: rises with slope 2 to a flat peak.
double Rise(double s) { return s >= 1.0 ? 1.0 : s * (2.0 - s); }

}  // namespace

void CheckContactLaw(const ContactLaw& law) {
  Require(std::isfinite(law.stiffness) && law.stiffness >= 0.0, "stiffness",
          "must be zero or positive, got " + blocks::FormatValue(law.stiffness));
  Require(std::isfinite(law.damping) && law.damping >= 0.0, "damping",
          "must be zero or positive, got " + blocks::FormatValue(law.damping));
  Require(std::isfinite(law.transition_width) && law.transition_width >= 0.0, "transition_width",
          "must be zero or positive, got " + blocks::FormatValue(law.transition_width));
  Require(std::isfinite(law.exponent) && law.exponent >= 1.0, "exponent",
          "must be at least 1, got " + blocks::FormatValue(law.exponent));
  if (law.friction == FrictionModel::kNone) return;
  Require(std::isfinite(law.mu_s) && law.mu_s >= 0.0, "mu_s",
          "must be zero or positive, got " + blocks::FormatValue(law.mu_s));
  Require(std::isfinite(law.mu_d) && law.mu_d >= 0.0, "mu_d",
          "must be zero or positive, got " + blocks::FormatValue(law.mu_d));
  if (law.friction == FrictionModel::kSmoothStickSlip) {
    Require(law.mu_d <= law.mu_s, "mu_d",
            "the dynamic coefficient " + blocks::FormatValue(law.mu_d) +
                " exceeds the static one mu_s = " + blocks::FormatValue(law.mu_s) +
                "; sliding friction cannot exceed sticking friction");
  }
  Require(std::isfinite(law.v_crit) && law.v_crit > 0.0, "v_crit",
          "must be positive, got " + blocks::FormatValue(law.v_crit));
}

double NormalForce(const ContactLaw& law, double delta, double delta_dot) {
  if (!(delta > 0.0)) return 0.0;
  double f = 0.0;
  switch (law.model) {
    case NormalForceModel::kKelvinVoigt: {
      const double ramp =
          law.transition_width > 0.0 ? SmoothStep(delta / law.transition_width) : 1.0;
      f = ramp * (law.stiffness * delta + law.damping * delta_dot);
      break;
    }
    case NormalForceModel::kHuntCrossley: {
      const double dn = std::pow(delta, law.exponent);
      f = law.stiffness * dn + law.damping * dn * delta_dot;
      break;
    }
    case NormalForceModel::kHertz:
      f = law.stiffness * std::pow(delta, law.exponent) + law.damping * delta_dot;
      break;
  }
  return f > 0.0 ? f : 0.0;
}

double FrictionCoefficient(const ContactLaw& law, double speed) {
  const double s = speed / law.v_crit;
  switch (law.friction) {
    case FrictionModel::kNone:
      return 0.0;
    case FrictionModel::kCoulomb:
      return law.mu_d * Rise(s);
    case FrictionModel::kSmoothStickSlip:
      if (s <= 1.0) return law.mu_s * Rise(s);
      return law.mu_s - (law.mu_s - law.mu_d) * SmoothStep(s - 1.0);
  }
  return 0.0;
}

double NormalForceRateDerivative(const ContactLaw& law, double delta, double delta_dot) {
  if (!(NormalForce(law, delta, delta_dot) > 0.0)) return 0.0;
  switch (law.model) {
    case NormalForceModel::kKelvinVoigt:
      return law.damping *
             (law.transition_width > 0.0 ? SmoothStep(delta / law.transition_width) : 1.0);
    case NormalForceModel::kHuntCrossley:
      return law.damping * std::pow(delta, law.exponent);
    case NormalForceModel::kHertz:
      return law.damping;
  }
  return 0.0;
}

double NormalForceDepthDerivative(const ContactLaw& law, double delta, double delta_dot) {
  if (!(NormalForce(law, delta, delta_dot) > 0.0)) return 0.0;
  switch (law.model) {
    case NormalForceModel::kKelvinVoigt: {
      const double w = law.transition_width;
      if (!(w > 0.0)) return law.stiffness;
      // f = ramp(delta / w) (k delta + c delta_dot)
      return SmoothStepSlope(delta / w) / w * (law.stiffness * delta + law.damping * delta_dot) +
             SmoothStep(delta / w) * law.stiffness;
    }
    case NormalForceModel::kHuntCrossley:
      return law.exponent * std::pow(delta, law.exponent - 1.0) *
             (law.stiffness + law.damping * delta_dot);
    case NormalForceModel::kHertz:
      return law.stiffness * law.exponent * std::pow(delta, law.exponent - 1.0);
  }
  return 0.0;
}

double FrictionCoefficientPerSpeed(const ContactLaw& law, double speed) {
  const double s = speed / law.v_crit;
  switch (law.friction) {
    case FrictionModel::kNone:
      return 0.0;
    case FrictionModel::kCoulomb:
      // mu_d s (2 - s) / speed without the division, so that speed 0 gives the limit.
      if (s <= 1.0) return law.mu_d * (2.0 - s) / law.v_crit;
      return law.mu_d / speed;
    case FrictionModel::kSmoothStickSlip:
      if (s <= 1.0) return law.mu_s * (2.0 - s) / law.v_crit;
      return FrictionCoefficient(law, speed) / speed;
  }
  return 0.0;
}

double HertzStiffness(double E1, double nu1, double E2, double nu2, double radius) {
  Require(std::isfinite(E1) && E1 > 0.0, "E", "Young's moduli must be positive");
  Require(std::isfinite(E2) && E2 > 0.0, "E", "Young's moduli must be positive");
  Require(nu1 > -1.0 && nu1 < 0.5 && nu2 > -1.0 && nu2 < 0.5, "nu",
          "Poisson's ratios must lie in (-1, 0.5)");
  Require(std::isfinite(radius) && radius > 0.0, "radius",
          "the effective radius must be finite and positive, got " + blocks::FormatValue(radius));
  const double psi = 1.0 / ((1.0 - nu1 * nu1) / E1 + (1.0 - nu2 * nu2) / E2);
  return 2.0 * psi * std::sqrt(radius);
}

double HertzDamping(double gamma, double radius) {
  Require(std::isfinite(gamma) && gamma >= 0.0, "gamma", "must be zero or positive");
  Require(std::isfinite(radius) && radius > 0.0, "radius",
          "the effective radius must be finite and positive, got " + blocks::FormatValue(radius));
  return 4.0 * std::numbers::pi * radius * gamma;
}

}  // namespace twinblocks::contact
