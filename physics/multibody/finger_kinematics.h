#pragma once

// Kinematics of a three-joint finger in closed form: an abduction joint, then two parallel
// flexion joints (standard DH: alpha = 90, 0, 0 deg; a = l1, l2, l3; d = 0), the fingertip at
// frame 3's origin. Mattar 2013, "e_GRASP: Robotic Hand Modeling and Simulation Environment",
// eq. 8-16 and 23 (with its misprints repaired: 0H3 entry (1, 2) is -C1 S23, entry (3, 4)
// l3 S23 + l2 S2).

#include <Eigen/Core>
#include <array>

#include "physics/spatial/spatial.h"

namespace twinblocks::multibody {

/// The finger's lengths (m) and joint limits (rad), q = (abduction, proximal, distal).
struct FingerGeometry {
  double l1 = 0.0, l2 = 0.0, l3 = 0.0;
  Eigen::Vector3d lower = Eigen::Vector3d::Constant(-1e300);
  Eigen::Vector3d upper = Eigen::Vector3d::Constant(1e300);
};

/// 0H3: the fingertip frame in the finger's base frame 0 (eq. 16).
Pose FingertipPose(const FingerGeometry& g, const Eigen::Vector3d& q);

/// 0H3's origin alone.
Eigen::Vector3d FingertipPosition(const FingerGeometry& g, const Eigen::Vector3d& q);

/// One inverse-kinematics answer per elbow branch: `branch[0]` with the distal joint bent
/// positively (q3 >= 0), `branch[1]` negatively. A branch is `valid` when it reaches the
/// target and lies within the limits; the angles are then the solution, else zero. Never NaN.
struct FingerIkResult {
  bool reachable = false;  ///< the target lies in the finger's workspace, limits aside
  std::array<Eigen::Vector3d, 2> branch = {Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()};
  std::array<bool, 2> valid = {false, false};
  /// The first valid branch, or -1 when none is.
  int first_valid() const { return valid[0] ? 0 : (valid[1] ? 1 : -1); }
};

/// The geometric inverse (eq. 12-13): a fingertip position p in frame 0 to the joint angles,
/// by the law of cosines in the flexion plane. Within `tolerance` (m) of the workspace's
/// boundary a target counts as reached (the arm stretched or folded).
FingerIkResult FingerInverseGeometric(const FingerGeometry& g, const Eigen::Vector3d& p,
                                      double tolerance = 1e-12);

/// The algebraic inverse (eq. 8-11): a whole fingertip frame to the joint angles. Its
/// orientation fixes q2 + q3 (n_z = S23, o_z = C23), so one branch answers (branch[0], or
/// branch[1] when q3 < 0). A frame the finger cannot take (its position or orientation off by
/// more than `tolerance`, m or rad) is reported unreachable.
FingerIkResult FingerInverseAlgebraic(const FingerGeometry& g, const Pose& X_0tip,
                                      double tolerance = 1e-9);

/// d(fingertip position)/dq in frame 0 (3 x 3).
Eigen::Matrix3d FingertipJacobianInBase(const FingerGeometry& g, const Eigen::Vector3d& q);

/// The same in the fingertip frame 3 (eq. 23): columns (0, 0, -psi), (l2 S3, l3 + l2 C3, 0),
/// (0, l3, 0) with psi = l3 C23 + l2 C2 + l1.
Eigen::Matrix3d FingertipJacobianInTip(const FingerGeometry& g, const Eigen::Vector3d& q);

}  // namespace twinblocks::multibody
