#include "physics/grasp/barrett_finger_ik.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "physics/grasp/barrett_hand.h"
#include "physics/grasp/detail/text.h"

namespace twinblocks::grasp {
namespace {

constexpr double kIkMaxTheta2 = kBarrettMaxTheta2;
// Theta2 this far outside [0, 140] deg (rounding) still counts as within the range.
constexpr double kIkLimitSlack = 1e-12;
constexpr int kIkScanIntervals = 280;                         // 0.5 deg steps over [0, 140] deg
constexpr double kIkTipArm = kBarrettA3 - kBarrettTipRadius;  // distal joint to sphere centre (m)

// The tip-sphere centre in the proximal base frame B (frame 2 at theta_2 = 0), where the finger
// moves in the x-y plane, and its first two derivatives with respect to Theta2 (Theta3 =
// Theta2 / 3 turns the distal link 4/3 as fast as the proximal one in B).
struct IkPlanarTip {
  Eigen::Vector2d p, dp, ddp;
};

IkPlanarTip IkTipAt(double theta2) {
  const double a = theta2 + kBarrettPhi2;
  const double b = a + theta2 / 3.0 + kBarrettPhi3;
  const Eigen::Vector2d ea(std::cos(a), std::sin(a));
  const Eigen::Vector2d eb(std::cos(b), std::sin(b));
  const Eigen::Vector2d na(-ea.y(), ea.x());  // d ea / da
  const Eigen::Vector2d nb(-eb.y(), eb.x());
  const double k = 4.0 / 3.0;
  return {kBarrettA2 * ea + kIkTipArm * eb, kBarrettA2 * na + k * kIkTipArm * nb,
          -kBarrettA2 * ea - k * k * kIkTipArm * eb};
}

double IkSquaredDistance(double theta2, const Eigen::Vector2d& t) {
  return (IkTipAt(theta2).p - t).squaredNorm();
}

// Half the derivative of the squared distance: zero at the nearest point.
double IkSlope(double theta2, const Eigen::Vector2d& t) {
  const IkPlanarTip tip = IkTipAt(theta2);
  return tip.dp.dot(tip.p - t);
}

// A root of Slope in [lo, hi] with IkSlope(lo) < 0 < IkSlope(hi): Newton steps kept inside a
// shrinking bracket, bisection when a step would leave it.
double IkNewtonInBracket(double lo, double hi, const Eigen::Vector2d& t) {
  double x = 0.5 * (lo + hi);
  for (int it = 0; it < 100 && hi - lo > 1e-15; ++it) {
    const IkPlanarTip tip = IkTipAt(x);
    const Eigen::Vector2d e = tip.p - t;
    const double g = tip.dp.dot(e);
    if (g == 0.0) {
      return x;
    }
    (g < 0.0 ? lo : hi) = x;
    const double dg = tip.dp.squaredNorm() + tip.ddp.dot(e);
    const double newton = dg > 0.0 ? x - g / dg : lo - 1.0;
    const double next = (newton > lo && newton < hi) ? newton : 0.5 * (lo + hi);
    if (std::abs(next - x) < 1e-16) {
      return next;
    }
    x = next;
  }
  return x;
}

// Golden-section search for the smallest squared distance in [lo, hi], when the slope does not
// bracket a root (a minimum on a limit, or a flat stretch).
double IkGoldenSection(double lo, double hi, const Eigen::Vector2d& t) {
  const double r = (std::sqrt(5.0) - 1.0) / 2.0;
  double x1 = hi - r * (hi - lo);
  double x2 = lo + r * (hi - lo);
  double f1 = IkSquaredDistance(x1, t);
  double f2 = IkSquaredDistance(x2, t);
  for (int it = 0; it < 80; ++it) {
    if (f1 < f2) {
      hi = x2;
      x2 = x1;
      f2 = f1;
      x1 = hi - r * (hi - lo);
      f1 = IkSquaredDistance(x1, t);
    } else {
      lo = x1;
      x1 = x2;
      f1 = f2;
      x2 = lo + r * (hi - lo);
      f2 = IkSquaredDistance(x2, t);
    }
  }
  return 0.5 * (lo + hi);
}

void CheckIkTarget(const Eigen::Vector3d& p_WG_W) {
  if (!p_WG_W.allFinite()) {
    throw std::invalid_argument("grasp: Barrett finger IK target " + detail::VectorText(p_WG_W) +
                                " is not finite");
  }
}

}  // namespace

Eigen::Vector3d CalcBarrettTipTarget(const Eigen::Vector3d& p_W, const Eigen::Vector3d& n_W) {
  if (!p_W.allFinite() || !n_W.allFinite()) {
    throw std::invalid_argument("grasp: tip target from point " + detail::VectorText(p_W) +
                                " and normal " + detail::VectorText(n_W) +
                                ": a value is not finite");
  }
  if (std::abs(n_W.norm() - 1.0) > 1e-6) {
    throw std::invalid_argument("grasp: tip target normal " + detail::VectorText(n_W) +
                                " has length " + detail::NumberText(n_W.norm()) +
                                "; expected a unit vector");
  }
  return p_W + kBarrettTipRadius * n_W;
}

BarrettFingerIk SolveBarrettFingerIk(int finger, double spread, const Eigen::Vector3d& p_WG_W) {
  CheckIkTarget(p_WG_W);
  const multibody::Pose X_WB = CalcBarrettProximalBase(finger, spread);
  const Eigen::Vector3d p_BG = X_WB.Inverse().TransformPoint(p_WG_W);
  const Eigen::Vector2d t = p_BG.head<2>();
  const double a2 = kBarrettA2;
  const double l = kIkTipArm;
  const double rho = t.norm();

  BarrettFingerIk ik;
  ik.plane_distance = std::abs(p_BG.z());
  ik.reach_excess = std::max({0.0, rho - (a2 + l), std::abs(a2 - l) - rho});
  ik.reachable = ik.reach_excess == 0.0;
  // Law of cosines for the distal joint's angle b = Theta3 + Phi3 in [0, pi]; out of reach the
  // cosine is clamped (the chain stretched or folded along the projection).
  const double c = std::clamp((rho * rho - a2 * a2 - l * l) / (2.0 * a2 * l), -1.0, 1.0);
  const double b = std::atan2(std::sqrt(std::max(0.0, 1.0 - c * c)), c);
  // The proximal link's angle a = Theta2 + Phi2: the direction to the target less the angle
  // the distal link adds at the proximal joint.
  const double a = std::atan2(t.y(), t.x()) - std::atan2(l * std::sin(b), a2 + l * std::cos(b));
  ik.theta2 = std::remainder(a - kBarrettPhi2, 2.0 * std::numbers::pi);
  ik.theta3 = b - kBarrettPhi3;
  ik.coupling_error_deg = std::abs(ik.theta3 - ik.theta2 / 3.0) / kBarrettRadPerDeg;
  const Eigen::Vector2d tip = a2 * Eigen::Vector2d(std::cos(a), std::sin(a)) +
                              l * Eigen::Vector2d(std::cos(a + b), std::sin(a + b));
  ik.p_WS_W = X_WB.TransformPoint({tip.x(), tip.y(), 0.0});
  return ik;
}

bool BarrettFingerMeets(const BarrettFingerIk& ik, const BarrettFingerTolerance& tolerance) {
  return ik.reachable && ik.theta2 >= -kIkLimitSlack &&
         ik.theta2 <= kBarrettMaxTheta2 + kIkLimitSlack &&
         ik.coupling_error_deg <= tolerance.max_coupling_error_deg &&
         ik.plane_distance <= tolerance.max_plane_distance;
}

BarrettCoupledFinger SolveBarrettCoupledFinger(int finger, double spread,
                                               const Eigen::Vector3d& p_WG_W) {
  CheckIkTarget(p_WG_W);
  const multibody::Pose X_WB = CalcBarrettProximalBase(finger, spread);
  const Eigen::Vector3d p_BG = X_WB.Inverse().TransformPoint(p_WG_W);
  // The out-of-plane part p_BG.z() adds the same amount to every squared distance, so the
  // nearest point depends on the in-plane part only.
  const Eigen::Vector2d t = p_BG.head<2>();

  const double step = kIkMaxTheta2 / kIkScanIntervals;
  int best_k = 0;
  double best_f = IkSquaredDistance(0.0, t);
  for (int k = 1; k <= kIkScanIntervals; ++k) {
    const double f = IkSquaredDistance(k * step, t);
    if (f < best_f) {
      best_f = f;
      best_k = k;
    }
  }
  const double lo = std::max(0.0, (best_k - 1) * step);
  const double hi = std::min(kIkMaxTheta2, (best_k + 1) * step);
  double theta2 = (IkSlope(lo, t) < 0.0 && IkSlope(hi, t) > 0.0) ? IkNewtonInBracket(lo, hi, t)
                                                                 : IkGoldenSection(lo, hi, t);
  // The refinement must not do worse than the scan (it cannot, short of rounding).
  if (IkSquaredDistance(theta2, t) > best_f) {
    theta2 = best_k * step;
  }

  BarrettCoupledFinger coupled;
  coupled.theta2 = theta2;
  coupled.theta3 = theta2 / 3.0;
  const Eigen::Vector2d tip = IkTipAt(theta2).p;
  coupled.p_WS_W = X_WB.TransformPoint({tip.x(), tip.y(), 0.0});
  coupled.distance = (coupled.p_WS_W - p_WG_W).norm();
  return coupled;
}

}  // namespace twinblocks::grasp
