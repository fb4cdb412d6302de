#include "physics/drivetrain/pmsm_model.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace twinblocks::drivetrain {

double TorqueConstant(const PmsmParameters& p) { return 1.5 * p.pole_pairs * p.psi; }

double MaxVoltage(const PmsmParameters& p) { return p.Vdc / std::numbers::sqrt3; }

Eigen::Vector2d CurrentRates(const PmsmParameters& p, const Eigen::Vector2d& idq,
                             const Eigen::Vector2d& vdq, double w) {
  const double we = p.pole_pairs * w;
  const double id = idq[0], iq = idq[1];
  return {(vdq[0] - p.Rs * id + we * p.Lq * iq) / p.Ld,
          (vdq[1] - p.Rs * iq - we * (p.Ld * id + p.psi)) / p.Lq};
}

double Torque(const PmsmParameters& p, const Eigen::Vector2d& idq) {
  return 1.5 * p.pole_pairs * (p.psi * idq[1] + (p.Ld - p.Lq) * idq[0] * idq[1]);
}

FocOutput Foc(const PmsmParameters& p, double tau_ref, const Eigen::Vector2d& idq, double w,
              const Eigen::Vector2d& integrators) {
  FocOutput out;
  out.idq_ref = {0.0, std::clamp(tau_ref / TorqueConstant(p), -p.i_max, p.i_max)};
  const Eigen::Vector2d error = out.idq_ref - idq;
  const double wc = 2.0 * std::numbers::pi * p.bandwidth;  // rad/s
  const double we = p.pole_pairs * w;
  const Eigen::Vector2d kp(p.Ld * wc, p.Lq * wc);  // V/A
  const double ki = p.Rs * wc;                     // V/(A s)
  const Eigen::Vector2d feed_forward(-we * p.Lq * idq[1], we * (p.Ld * idq[0] + p.psi));
  const Eigen::Vector2d v =
      kp.cwiseProduct(error) + ki * integrators + feed_forward;  // unlimited command, V
  out.integrator_rates = error;
  const double v_max = MaxVoltage(p);
  const double norm = v.norm();
  if (norm > v_max) {
    out.voltage_limited = true;
    out.vdq = v * (v_max / norm);
    // Integrating e_k moves v_k by Ki e_k: with the same sign as v_k it lengthens |v|.
    for (int k = 0; k < 2; ++k) {
      if (error[k] * v[k] > 0.0) out.integrator_rates[k] = 0.0;
    }
  } else {
    out.vdq = v;
  }
  return out;
}

}  // namespace twinblocks::drivetrain
