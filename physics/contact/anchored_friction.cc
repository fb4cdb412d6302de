#include "physics/contact/anchored_friction.h"

#include <cmath>

namespace twinblocks::contact {

namespace {

/// The component of `a` in the plane normal to unit `n`.
Eigen::Vector3d Tangential(const Eigen::Vector3d& a, const Eigen::Vector3d& n) {
  return a - a.dot(n) * n;
}

/// The stick force: a spring-damper from p to the anchor, in the tangent plane.
Eigen::Vector3d StickForce(const AnchoredFrictionParams& params, const Eigen::Vector3d& p,
                           const Eigen::Vector3d& v, const Eigen::Vector3d& n,
                           const Eigen::Vector3d& anchor) {
  const Eigen::Vector3d d = Tangential(p - anchor, n);  // from the anchor to the contact
  const Eigen::Vector3d v_t = Tangential(v, n);
  const double stretch = d.norm();
  if (stretch == 0.0) return -params.damping * v_t;  // at the anchor: the damper alone
  const Eigen::Vector3d u = d / stretch;
  // (k_t v + c_t v') toward the anchor, v' = d|d|/dt.
  return -(params.stiffness * stretch + params.damping * u.dot(v_t)) * u;
}

}  // namespace

AnchoredFriction CalcAnchoredFriction(const AnchoredFrictionParams& params,
                                      const Eigen::Vector3d& p, const Eigen::Vector3d& v,
                                      const Eigen::Vector3d& n, double f_n,
                                      const Eigen::Vector3d& anchor) {
  AnchoredFriction result;
  if (!(f_n > 0.0)) return result;
  const double limit = params.mu * f_n;
  const Eigen::Vector3d stick = StickForce(params, p, v, n, anchor);
  if (stick.norm() <= limit) {
    result.force = stick;
    return result;
  }
  // Sliding (eq. 9): mu f_n, along the stick force's own direction (the spring toward the
  // anchor) rather than eq. 9's -V_t / |V_t|. In steady sliding the two agree (the anchor
  // trails the point along the slip); at the switch this one is continuous, where -V_t's
  // direction jumps, and an implicit solver's step collapsed on that jump (a grasp's contact
  // phase: 81,909 steps for 10 s).
  result.sliding = true;
  result.force = limit * stick.normalized();
  return result;
}

Eigen::Vector3d UpdateAnchor(const AnchoredFrictionParams& params, const Eigen::Vector3d& p,
                             const Eigen::Vector3d& v, const Eigen::Vector3d& n, double f_n,
                             const Eigen::Vector3d& anchor) {
  if (!(f_n > 0.0)) return p;
  const double limit = params.mu * f_n;
  if (StickForce(params, p, v, n, anchor).norm() <= limit) return anchor;
  const Eigen::Vector3d d = Tangential(p - anchor, n);
  const double stretch = d.norm();
  if (stretch == 0.0) return anchor;
  // Trailing p by mu f_n / k_t along the stretch: the spring holds exactly the sliding force.
  return p - d * (limit / params.stiffness / stretch);
}

}  // namespace twinblocks::contact
