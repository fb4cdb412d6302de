#pragma once

// Random reachable targets for inverse-kinematics tests: each the pose of a frame at a random
// configuration within the limits, solved from one start and checked by the tree's own forward
// kinematics (not the solver's).

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <random>

#include "physics/multibody/algorithms.h"
#include "physics/multibody/chain_ik.h"
#include "physics/multibody/kinematic_tree.h"

namespace twinblocks::multibody::testing {

/// The frame's pose by the tree's forward kinematics (independent of ChainIk's own).
inline Pose TreePose(const KinematicTree& tree, int body, const Pose& X_BF,
                     const Eigen::VectorXd& q) {
  KinematicTreeData data(tree);
  ForwardKinematics(tree, &data, q);
  return data.X_WB[body] * X_BF;
}

inline double RotationAngle(const Eigen::Matrix3d& R) { return Eigen::AngleAxisd(R).angle(); }

inline Eigen::VectorXd RandomWithin(const Eigen::VectorXd& lower, const Eigen::VectorXd& upper,
                                    std::mt19937_64& rng) {
  Eigen::VectorXd q(lower.size());
  for (int i = 0; i < q.size(); ++i) {
    q[i] = std::uniform_real_distribution<double>(lower[i], upper[i])(rng);
  }
  return q;
}

struct Tally {
  int solved = 0;
  double worst_position = 0.0, worst_rotation = 0.0;  // over the solved ones, by tree FK
  int max_iterations = 0;
};

/// 1,000 targets X(q_random), each solved from q = 0 (cold) and checked by the tree's FK.
inline Tally SolveRandomTargets(const KinematicTree& tree, int body, const Pose& X_BF,
                                const Eigen::VectorXd& lower, const Eigen::VectorXd& upper,
                                const IkOptions& options) {
  ChainIk ik(tree, body, X_BF, lower, upper);
  std::mt19937_64 rng(7);
  Tally t;
  Eigen::VectorXd q(tree.nq());
  const Eigen::VectorXd start = Eigen::VectorXd::Zero(tree.nq());
  for (int n = 0; n < 1000; ++n) {
    const Eigen::VectorXd q_true = RandomWithin(lower, upper, rng);
    const Pose target = TreePose(tree, body, X_BF, q_true);
    const IkResult r = ik.Solve(target, start, options, q);
    const Pose reached = TreePose(tree, body, X_BF, q);
    const double dp = (reached.translation - target.translation).norm();
    const double dr =
        options.position_only ? 0.0 : RotationAngle(target.rotation * reached.rotation.transpose());
    EXPECT_TRUE(q.allFinite());
    for (int i = 0; i < q.size(); ++i) {
      EXPECT_GE(q[i], lower[i]);
      EXPECT_LE(q[i], upper[i]);
    }
    if (r.success) {
      ++t.solved;
      t.worst_position = std::max(t.worst_position, dp);
      t.worst_rotation = std::max(t.worst_rotation, dr);
    }
    t.max_iterations = std::max(t.max_iterations, r.iterations);
  }
  return t;
}

}  // namespace twinblocks::multibody::testing
