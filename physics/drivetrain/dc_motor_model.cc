#include "physics/drivetrain/dc_motor_model.h"

namespace twinblocks::drivetrain {

double CurrentRate(const DCMotorParameters& p, double i, double v, double w) {
  return (v - p.R * i - p.Ke * w) / p.L;
}

double Torque(const DCMotorParameters& p, double i) { return p.Kt * i; }

}  // namespace twinblocks::drivetrain
