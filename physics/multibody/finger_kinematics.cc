#include "physics/multibody/finger_kinematics.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace twinblocks::multibody {

namespace {

// An angle in (-pi, pi].
double Wrap(double a) {
  a = std::remainder(a, 2.0 * std::numbers::pi);
  return a <= -std::numbers::pi ? a + 2.0 * std::numbers::pi : a;
}

bool WithinLimits(const FingerGeometry& g, const Eigen::Vector3d& q) {
  for (int k = 0; k < 3; ++k) {
    if (!(q[k] >= g.lower[k] && q[k] <= g.upper[k])) return false;
  }
  return true;
}

}  // namespace

Pose FingertipPose(const FingerGeometry& g, const Eigen::Vector3d& q) {
  const double c1 = std::cos(q[0]), s1 = std::sin(q[0]);
  const double c23 = std::cos(q[1] + q[2]), s23 = std::sin(q[1] + q[2]);
  Eigen::Matrix3d R;
  R << c1 * c23, -c1 * s23, s1,  //
      s1 * c23, -s1 * s23, -c1,  //
      s23, c23, 0.0;
  return {R, FingertipPosition(g, q)};
}

Eigen::Vector3d FingertipPosition(const FingerGeometry& g, const Eigen::Vector3d& q) {
  const double c2 = std::cos(q[1]), s2 = std::sin(q[1]);
  const double c23 = std::cos(q[1] + q[2]), s23 = std::sin(q[1] + q[2]);
  // psi: the tip's distance from the abduction axis, in the flexion plane.
  const double psi = g.l3 * c23 + g.l2 * c2 + g.l1;
  return {std::cos(q[0]) * psi, std::sin(q[0]) * psi, g.l3 * s23 + g.l2 * s2};
}

FingerIkResult FingerInverseGeometric(const FingerGeometry& g, const Eigen::Vector3d& p,
                                      double tolerance) {
  FingerIkResult result;
  if (!p.allFinite()) return result;
  // The flexion plane through the abduction axis and p (eq. 12). On the axis itself every
  // plane holds p: the one nearest q1 = 0 within the limits.
  const double r = std::hypot(p.x(), p.y());
  const double q1 = r > 0.0 ? std::atan2(p.y(), p.x()) : std::clamp(0.0, g.lower[0], g.upper[0]);
  // In that plane, the two links from the proximal joint (at l1 from the axis) to p: the
  // triangle of sides l2, l3 and the distance d (eq. 13).
  const double pq = r - g.l1, z = p.z();
  const double d = std::hypot(pq, z);
  if (d > g.l2 + g.l3 + tolerance || d < std::abs(g.l2 - g.l3) - tolerance) return result;
  result.reachable = true;
  const double c3 =
      std::clamp((d * d - g.l2 * g.l2 - g.l3 * g.l3) / (2.0 * g.l2 * g.l3), -1.0, 1.0);
  const double bend = std::acos(c3);
  for (int b = 0; b < 2; ++b) {
    const double q3 = b == 0 ? bend : -bend;
    const double q2 =
        Wrap(std::atan2(z, pq) - std::atan2(g.l3 * std::sin(q3), g.l2 + g.l3 * std::cos(q3)));
    const Eigen::Vector3d q(q1, q2, q3);
    result.valid[b] = WithinLimits(g, q);
    if (result.valid[b]) result.branch[b] = q;
  }
  return result;
}

FingerIkResult FingerInverseAlgebraic(const FingerGeometry& g, const Pose& X_0tip,
                                      double tolerance) {
  FingerIkResult result;
  const Eigen::Matrix3d& R = X_0tip.rotation;
  const Eigen::Vector3d& p = X_0tip.translation;
  if (!R.allFinite() || !p.allFinite()) return result;
  // q1 from the approach vector a = (S1, -C1, 0), which the position's direction (eq. 8)
  // would leave undefined on the abduction axis; q2 + q3 from n_z = S23 and o_z = C23 (eq. 11);
  // q2 from the position in the flexion plane (eq. 10, with C1 Px + S1 Py for Px / C1, which
  // fails at C1 = 0).
  const double q1 = std::atan2(R(0, 2), -R(1, 2));
  const double q23 = std::atan2(R(2, 0), R(2, 1));
  const double c1 = std::cos(q1), s1 = std::sin(q1);
  const double r = c1 * p.x() + s1 * p.y();
  const double q2 = std::atan2(p.z() - g.l3 * std::sin(q23), r - g.l3 * std::cos(q23) - g.l1);
  const Eigen::Vector3d q(q1, q2, Wrap(q23 - q2));
  // The frame is the finger's only if the angles give it back.
  const Pose back = FingertipPose(g, q);
  if ((back.translation - p).cwiseAbs().maxCoeff() > tolerance ||
      (back.rotation - R).cwiseAbs().maxCoeff() > tolerance) {
    return result;
  }
  result.reachable = true;
  const int b = q[2] >= 0.0 ? 0 : 1;
  result.valid[b] = WithinLimits(g, q);
  if (result.valid[b]) result.branch[b] = q;
  return result;
}

Eigen::Matrix3d FingertipJacobianInBase(const FingerGeometry& g, const Eigen::Vector3d& q) {
  const double c1 = std::cos(q[0]), s1 = std::sin(q[0]);
  const double c2 = std::cos(q[1]), s2 = std::sin(q[1]);
  const double c23 = std::cos(q[1] + q[2]), s23 = std::sin(q[1] + q[2]);
  const double psi = g.l3 * c23 + g.l2 * c2 + g.l1;
  // d psi / d q2 and / d q3, and the height's.
  const double psi2 = -(g.l3 * s23 + g.l2 * s2), psi3 = -g.l3 * s23;
  Eigen::Matrix3d J;
  J << -s1 * psi, c1 * psi2, c1 * psi3,  //
      c1 * psi, s1 * psi2, s1 * psi3,    //
      0.0, g.l3 * c23 + g.l2 * c2, g.l3 * c23;
  return J;
}

Eigen::Matrix3d FingertipJacobianInTip(const FingerGeometry& g, const Eigen::Vector3d& q) {
  return FingertipPose(g, q).rotation.transpose() * FingertipJacobianInBase(g, q);
}

}  // namespace twinblocks::multibody
