#include "physics/deformable/node_contact.h"

#include <algorithm>
#include <cmath>

namespace twinblocks::deformable {

NodeContact CalcNodeContact(const NodeContactLaw& law, const contact::Shape& shape,
                            const SolidMotion& solid, const Eigen::Vector3d& p,
                            const Eigen::Vector3d& v, const Eigen::Vector3d& anchor_S) {
  NodeContact c;
  // The node as a sphere of no radius: the pair's closed forms give its depth, the normal
  // (from the node towards the Solid) and the Solid's surface point.
  const contact::PairGeometry g = contact::Collide(
      contact::Shape::Sphere(0.0), multibody::Pose::Translation(p), shape, solid.X_WS);
  if (!(g.distance < 0.0)) return c;
  c.depth = -g.distance;
  c.normal = -g.normal;
  // The node's velocity relative to the Solid's material point at the node.
  const Eigen::Vector3d v_solid = solid.v_WSo + solid.w_WS.cross(p - solid.X_WS.translation);
  c.slip_velocity = v - v_solid;
  c.depth_rate = -c.slip_velocity.dot(c.normal);
  const double elastic = law.stiffness * std::pow(c.depth, law.exponent);
  const double f_n = elastic + law.damping * c.depth_rate;
  if (!(f_n > 0.0)) return c;  // eq. 4's max(0, .): the surfaces part faster than they spring
  c.touching = true;
  c.normal_force = f_n;
  const Eigen::Vector3d anchor_W = solid.X_WS.rotation * anchor_S + solid.X_WS.translation;
  const contact::AnchoredFriction friction =
      contact::CalcAnchoredFriction(law.friction, p, c.slip_velocity, c.normal, f_n, anchor_W);
  c.sliding = friction.sliding;
  c.force = f_n * c.normal + friction.force;

  // Slopes. The depth falls as the node moves along the normal (out of the Solid): d delta/dp
  // = -n, d delta'/dv = -n.
  const Eigen::Matrix3d nn = c.normal * c.normal.transpose();
  const double stiffness = law.exponent * law.stiffness * std::pow(c.depth, law.exponent - 1.0);
  c.dforce_dvelocity = -law.damping * nn;
  // The normal turns as the node moves across a curved surface: inside a sphere of centre o,
  // n = (p - o) / |p - o| and dn/dp = (I - n n^T) / |p - o|, which turns f_n n and the
  // depth's rate -(V . n) with it. Flat faces (a box's, a plane) do not turn it.
  Eigen::Matrix3d turning = Eigen::Matrix3d::Zero();
  if (shape.type == contact::ShapeType::kSphere) {
    const double distance = (p - solid.X_WS.translation).norm();
    if (distance > 0.0) turning = (Eigen::Matrix3d::Identity() - nn) / distance;
  }
  // d f_n / dp = -K' n - C (dn/dp) V (dn/dp symmetric); d(f_n n)/dp = n (d f_n/dp)^T + f_n dn/dp.
  const Eigen::Vector3d dfn_dp = -stiffness * c.normal - law.damping * (turning * c.slip_velocity);
  c.dforce_dposition = c.normal * dfn_dp.transpose() + f_n * turning;
  const Eigen::Matrix3d tangent = Eigen::Matrix3d::Identity() - nn;
  if (!c.sliding) {
    // The spring pulls the whole tangential stretch back; the damper acts along the stretch
    // (eq. 10's v' = d|P_c - P_s|/dt), or across the whole plane at the anchor itself.
    c.dforce_dposition -= law.friction.stiffness * tangent;
    const Eigen::Vector3d stretch = tangent * (p - anchor_W);
    const double length = stretch.norm();
    if (length > 0.0) {
      const Eigen::Vector3d u = stretch / length;
      c.dforce_dvelocity -= law.friction.damping * (u * u.transpose());
    } else {
      c.dforce_dvelocity -= law.friction.damping * tangent;
    }
  } else if (law.friction.mu * f_n > 0.0) {
    // F_t = -mu f_n u, u the stretch's direction from the anchor: it follows f_n, and turns as
    // the node moves across the stretch (du/dp = (T - u u^T) / |stretch|).
    const double mu = law.friction.mu;
    const Eigen::Vector3d u = -friction.force / (mu * f_n);
    c.dforce_dposition -= mu * u * dfn_dp.transpose();
    c.dforce_dvelocity += mu * law.damping * u * c.normal.transpose();
    // The stretch s = T (p - a), T = I - n n^T turning with the normal too:
    // ds/dp = T - (n . (p - a)) dn/dp - n ((dn/dp) (p - a))^T; du/dp = (I - u u^T) ds/dp / |s|.
    const Eigen::Vector3d r = p - anchor_W;
    const double length = (tangent * r).norm();
    if (length > 0.0) {
      const Eigen::Matrix3d ds_dp =
          tangent - c.normal.dot(r) * turning - c.normal * (turning * r).transpose();
      c.dforce_dposition -=
          (mu * f_n / length) * ((Eigen::Matrix3d::Identity() - u * u.transpose()) * ds_dp);
    }
  }
  return c;
}

Eigen::Vector3d UpdateNodeAnchor(const NodeContactLaw& law, const SolidMotion& solid,
                                 const NodeContact& c, const Eigen::Vector3d& p,
                                 const Eigen::Vector3d& anchor_S) {
  const Eigen::Matrix3d& R = solid.X_WS.rotation;
  const Eigen::Vector3d& o = solid.X_WS.translation;
  if (!c.touching) return R.transpose() * (p - o);
  const Eigen::Vector3d anchor_W = R * anchor_S + o;
  const Eigen::Vector3d moved =
      contact::UpdateAnchor(law.friction, p, c.slip_velocity, c.normal, c.normal_force, anchor_W);
  return R.transpose() * (moved - o);
}

}  // namespace twinblocks::deformable
