#include "physics/multibody/dh.h"

#include <string>
#include <utility>

namespace twinblocks::multibody {

Pose ModifiedDhTransform(double alpha, double a, double theta, double d) {
  return Pose::RotX(alpha) * Pose::Translation({a, 0.0, 0.0}) * Pose::RotZ(theta) *
         Pose::Translation({0.0, 0.0, d});
}

Pose StandardDhTransform(double alpha, double a, double theta, double d) {
  return Pose::RotZ(theta) * Pose::Translation({0.0, 0.0, d}) * Pose::Translation({a, 0.0, 0.0}) *
         Pose::RotX(alpha);
}

KinematicTree BuildModifiedDhTree(const std::vector<DhLink>& links,
                                  const Eigen::Vector3d& gravity_W) {
  std::vector<BodySpec> bodies;
  bodies.reserve(links.size());
  for (std::size_t i = 0; i < links.size(); ++i) {
    const DhLink& l = links[i];
    BodySpec body;
    body.name = "link" + std::to_string(i + 1);
    body.parent = static_cast<int>(i) - 1;
    body.joint = Joint::Revolute(Eigen::Vector3d::UnitZ());
    // Rz(theta) and Dz(d) commute, so the fixed part is Rx Dx Dz Rz(offset), and the joint
    // adds Rz(q) last.
    body.X_PJ = ModifiedDhTransform(l.alpha, l.a, l.theta_offset, l.d);
    body.inertia = SpatialInertia(l.mass, l.com, l.inertia_com);
    bodies.push_back(std::move(body));
  }
  return KinematicTree(std::move(bodies), gravity_W);
}

KinematicTree BuildStandardDhTree(const std::vector<DhLink>& links,
                                  const Eigen::Vector3d& gravity_W) {
  std::vector<BodySpec> bodies;
  bodies.reserve(links.size());
  // X_BF of the previous body: its DH frame in its body frame.
  Pose X_prev = Pose::Identity();
  for (std::size_t i = 0; i < links.size(); ++i) {
    const DhLink& l = links[i];
    const Pose X_BF = Pose::Translation({0.0, 0.0, l.d}) * Pose::Translation({l.a, 0.0, 0.0}) *
                      Pose::RotX(l.alpha);
    BodySpec body;
    body.name = "link" + std::to_string(i + 1);
    body.parent = static_cast<int>(i) - 1;
    body.joint = Joint::Revolute(Eigen::Vector3d::UnitZ());
    body.X_PJ = X_prev * Pose::RotZ(l.theta_offset);
    body.inertia = SpatialInertia(l.mass, l.com, l.inertia_com).TransformedBy(X_BF);
    bodies.push_back(std::move(body));
    X_prev = X_BF;
  }
  return KinematicTree(std::move(bodies), gravity_W);
}

}  // namespace twinblocks::multibody
