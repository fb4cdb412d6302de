#pragma once

// Grasps the grasp library's tests share.

#include <Eigen/Core>
#include <cmath>
#include <numbers>
#include <random>

#include "physics/multibody/algorithms.h"
#include "physics/multibody/kinematic_tree.h"

namespace twinblocks::grasp::testing {

/// The test sphere's radius (m).
inline constexpr double kSphereRadius = 0.05;
/// m g of the test object (N): 0.2 kg.
inline constexpr double kWeight = 0.2 * 9.81;

/// nc contacts spaced 2 pi / nc apart on the equator (z = 0) of a sphere of radius r centred
/// at the origin, the first at angle `phase` (rad) from +x; normals point to the centre.
/// The default, 10 degrees, keeps every normal's x and y nonzero, so that each contact
/// frame's t1 is z (CalcContactFrame: the axis of the smallest |n_k|, without a tie).
inline void EquatorGrasp(int nc, double r, Eigen::Matrix3Xd* p_W, Eigen::Matrix3Xd* n_W,
                         double phase = 10.0 * std::numbers::pi / 180.0) {
  p_W->resize(3, nc);
  n_W->resize(3, nc);
  for (int i = 0; i < nc; ++i) {
    const double theta = phase + 2.0 * std::numbers::pi * i / nc;
    const Eigen::Vector3d radial(std::cos(theta), std::sin(theta), 0.0);
    p_W->col(i) = r * radial;
    n_W->col(i) = -radial;
  }
}

/// The pose of `body` at q.
inline multibody::Pose BodyPoseAt(const multibody::KinematicTree& tree, const Eigen::VectorXd& q,
                                  int body) {
  multibody::KinematicTreeData data(tree);
  multibody::ForwardKinematics(tree, &data, q);
  return data.X_WB[body];
}

/// The velocity (W) of the point p_B fixed in `body` per unit velocity of coordinate k (a
/// revolute joint's, v = qdot), by central differences of its position with step h.
inline Eigen::Vector3d PointVelocityByDifferences(const multibody::KinematicTree& tree,
                                                  const Eigen::VectorXd& q, int k, int body,
                                                  const Eigen::Vector3d& p_B, double h) {
  Eigen::VectorXd qp = q, qm = q;
  qp[k] += h;
  qm[k] -= h;
  return (BodyPoseAt(tree, qp, body).TransformPoint(p_B) -
          BodyPoseAt(tree, qm, body).TransformPoint(p_B)) /
         (2 * h);
}

/// nc contacts at random directions on the sphere of radius r about the origin (normals to the
/// centre), drawn from `rng`.
inline void RandomSphereGrasp(int nc, double r, std::mt19937* rng, Eigen::Matrix3Xd* p_W,
                              Eigen::Matrix3Xd* n_W) {
  std::normal_distribution<double> normal;
  p_W->resize(3, nc);
  n_W->resize(3, nc);
  for (int i = 0; i < nc; ++i) {
    const Eigen::Vector3d u =
        Eigen::Vector3d(normal(*rng), normal(*rng), normal(*rng)).normalized();
    p_W->col(i) = r * u;
    n_W->col(i) = -u;
  }
}

}  // namespace twinblocks::grasp::testing
