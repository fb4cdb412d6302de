#include "physics/drivetrain/friction_model.h"

#include <cmath>
#include <numbers>

namespace twinblocks::drivetrain {

double FrictionTorque(const FrictionParameters& p, double w) {
  const double w_st = p.breakaway_velocity * std::numbers::sqrt2;
  const double w_coul = p.breakaway_velocity / 10.0;
  const double x = w / w_st;
  return std::sqrt(2.0 * std::numbers::e) * (p.breakaway_torque - p.coulomb_torque) *
             std::exp(-x * x) * x +
         p.coulomb_torque * std::tanh(w / w_coul) + p.viscous * w;
}

}  // namespace twinblocks::drivetrain
