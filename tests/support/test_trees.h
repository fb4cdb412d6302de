#pragma once

// Trees shared by the multibody tests and benchmark: the reference arm of
// docs/multibody.md (Boschetti & Sinico 2024, "Designing Digital Twins of Robots Using
// Simscape Multibody", Table 1) and seeded random trees, with the random vectors and relative
// errors the tests compare them by.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "physics/multibody/dh.h"
#include "physics/multibody/kinematic_tree.h"

namespace twinblocks::multibody::testing {

inline constexpr double kDeg = M_PI / 180.0;

/// The modified DH table and link inertias of the reference 6-DOF arm.
inline std::vector<DhLink> ReferenceArmLinks() {
  struct Row {
    double alpha_deg, a, d, mass;
    Eigen::Vector3d com;
    double inertia;
  };
  const Row rows[6] = {
      {0, 0.000, 0.500, 20, {0.075, 0, 0}, 0.20},    {-90, 0.150, 0.000, 15, {0.200, 0, 0}, 0.15},
      {0, 0.400, 0.000, 10, {0.050, 0.27, 0}, 0.10}, {-90, 0.100, 0.540, 5, {0, 0, 0}, 0.05},
      {90, 0.000, 0.000, 3, {0, 0.05, 0}, 0.03},     {-90, 0.000, 0.100, 1, {0, 0, 0.05}, 0.01},
  };
  std::vector<DhLink> links;
  for (const Row& r : rows) {
    DhLink l;
    l.alpha = r.alpha_deg * kDeg;
    l.a = r.a;
    l.d = r.d;
    l.mass = r.mass;
    l.com = r.com;
    l.inertia_com = r.inertia * Eigen::Matrix3d::Identity();
    links.push_back(l);
  }
  return links;
}

inline KinematicTree ReferenceArm() {
  return BuildModifiedDhTree(ReferenceArmLinks(), Eigen::Vector3d(0, 0, -9.81));
}

/// A seeded random tree of n bodies: joints revolute or (every fifth) prismatic about a random
/// one of x, y, z; random X_PJ (rotation and translation up to 0.5 m); random physical
/// inertias (mass 0.5..5 kg, a box of random size). If `branched`, parents are random earlier
/// bodies; otherwise it is a chain.
inline KinematicTree RandomTree(int n, unsigned seed, bool branched) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::uniform_int_distribution<int> axis_pick(0, 2);
  std::vector<BodySpec> bodies;
  for (int i = 0; i < n; ++i) {
    BodySpec b;
    b.name = std::to_string(i);  // GCC 12 warns (-Wrestrict) on "b" + to_string
    if (branched && i > 0) {
      b.parent = std::uniform_int_distribution<int>(-1, i - 1)(rng);
    } else {
      b.parent = i - 1;
    }
    const Eigen::Vector3d axis = Eigen::Vector3d::Unit(axis_pick(rng));
    b.joint = (i % 5 == 4) ? Joint::Prismatic(axis) : Joint::Revolute(axis);
    const Eigen::Quaterniond rot =
        Eigen::Quaterniond(unit(rng), unit(rng), unit(rng), unit(rng)).normalized();
    b.X_PJ = Pose(rot.toRotationMatrix(), 0.5 * Eigen::Vector3d(unit(rng), unit(rng), unit(rng)));
    const double mass = 2.75 + 2.25 * unit(rng);
    const Eigen::Vector3d box =
        0.3 * Eigen::Vector3d(1.1 + unit(rng), 1.1 + unit(rng), 1.1 + unit(rng));
    const Eigen::Vector3d principal = mass / 12.0 *
                                      Eigen::Vector3d(box.y() * box.y() + box.z() * box.z(),
                                                      box.x() * box.x() + box.z() * box.z(),
                                                      box.x() * box.x() + box.y() * box.y());
    const Eigen::Matrix3d R = Eigen::Quaterniond(unit(rng), unit(rng), unit(rng), unit(rng))
                                  .normalized()
                                  .toRotationMatrix();
    b.inertia = SpatialInertia(mass, 0.2 * Eigen::Vector3d(unit(rng), unit(rng), unit(rng)),
                               R * principal.asDiagonal() * R.transpose());
    bodies.push_back(std::move(b));
  }
  return KinematicTree(std::move(bodies), Eigen::Vector3d(0.3, -0.2, -9.81));
}

/// A seeded random tree of n bodies with every joint type: body 0 hangs from the world by a
/// free joint (a floating base), every third body after it by a spherical joint, the others by
/// revolute or (every fifth) prismatic joints about random unit axes, so that the general-axis
/// paths are covered too. Frames and inertias as in RandomTree; branched if asked.
inline KinematicTree RandomMixedTree(int n, unsigned seed, bool branched) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const KinematicTree base = RandomTree(n, seed + 1000, branched);
  std::vector<BodySpec> bodies;
  for (int i = 0; i < n; ++i) {
    BodySpec b = base.body(i);
    const Eigen::Vector3d axis =
        Eigen::Vector3d(unit(rng), unit(rng), unit(rng)) + Eigen::Vector3d(0.0, 0.0, 1e-3);
    if (i == 0) {
      b.joint = Joint::Free();
    } else if (i % 3 == 0) {
      b.joint = Joint::Spherical();
    } else if (i % 5 == 4) {
      b.joint = Joint::Prismatic(axis);
    } else {
      b.joint = Joint::Revolute(axis);
    }
    bodies.push_back(std::move(b));
  }
  return KinematicTree(std::move(bodies), base.gravity());
}

/// A seeded random configuration (nq x 1): joint coordinates in [-scale, scale], quaternions
/// random and of unit length.
inline Eigen::VectorXd RandomConfiguration(const KinematicTree& tree, std::mt19937& rng,
                                           double scale) {
  std::uniform_real_distribution<double> u(-scale, scale);
  Eigen::VectorXd q(tree.nq());
  for (int k = 0; k < tree.nq(); ++k) q[k] = u(rng);
  for (int i = 0; i < tree.num_bodies(); ++i) {
    const int iq = tree.idx_q(i);
    if (tree.joint(i).type() == JointType::kSpherical) q.segment<4>(iq).normalize();
    if (tree.joint(i).type() == JointType::kFree) q.segment<4>(iq + 3).normalize();
  }
  return q;
}

/// A seeded random vector (n x 1) with entries in [-scale, scale]: velocities, accelerations,
/// forces.
inline Eigen::VectorXd RandomVector(std::mt19937& rng, int n, double scale) {
  std::uniform_real_distribution<double> u(-scale, scale);
  Eigen::VectorXd x(n);
  for (int k = 0; k < n; ++k) x[k] = u(rng);
  return x;
}

/// |a - b| / max(|a|, |b|) in the Frobenius norm: inertias compared whatever their size.
inline double RelativeError(const Eigen::Matrix3d& a, const Eigen::Matrix3d& b) {
  return (a - b).norm() / std::max(a.norm(), b.norm());
}

}  // namespace twinblocks::multibody::testing
