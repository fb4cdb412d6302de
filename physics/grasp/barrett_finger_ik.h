#pragma once

// Inverse kinematics of one Barrett finger closing with its fixed coupling Theta3 = Theta2 / 3
// (eq. 3 of Zaidi et al. 2020, "Grasp Planning Pipeline for Robust Manipulation of 3D
// Deformable Objects with Industrial Robotic Hand + Arm Systems"), the second step of their
// Algorithm 2. One motor drives both joints, so for a given spread the centre of the tip's
// contact sphere moves on a curve in the finger's plane, one point per Theta2 in [0, 140] deg;
// a target is generally off that curve, and the IK returns the nearest point of it and how far
// it misses, as an angle seen from the proximal joint (the paper accepts 2 deg).

#include <Eigen/Core>

namespace twinblocks::grasp {

/// The target of a fingertip for a contact at a surface point: the tip's contact sphere
/// (radius R_f = kBarrettTipRadius) touches the surface at p when its centre is at
/// p + R_f n, n the outward unit normal there.
/// @param p_W, n_W  the contact point (m) and the outward unit normal at it.
/// @throws std::invalid_argument if a value is not finite or |n| differs from 1 by more than
///         1e-6.
Eigen::Vector3d CalcBarrettTipTarget(const Eigen::Vector3d& p_W, const Eigen::Vector3d& n_W);

/// The coupled finger's best reach of a target.
struct BarrettFingerIk {
  double theta2 = 0.0;  ///< proximal angle (rad), in [0, 140 deg]
  double theta3 = 0.0;  ///< distal angle (rad), theta2 / 3
  /// The angle (deg) at the proximal joint's origin between the direction to the target and
  /// the direction to the reached tip centre, in 3-D: it includes a target's distance from the
  /// finger's plane. 180 when the target is at the joint's origin (no direction). The distance
  /// from the joint is not part of it: a target nearer or farther along the same ray is missed
  /// by 0 deg (see `distance`).
  double miss_deg = 0.0;
  double distance = 0.0;                             ///< |reached - target| (m)
  Eigen::Vector3d p_WS_W = Eigen::Vector3d::Zero();  ///< the reached tip centre, in W (m)
};

/// The proximal angle Theta2 in [0, 140] deg (the range of q_Mk) whose tip-sphere centre, with
/// Theta3 = Theta2 / 3, is nearest the target, and the angular miss. The distance is minimised
/// over a scan of Theta2 in 0.5 deg steps, then refined by a safeguarded Newton iteration on
/// its derivative (the nearest point of the curve to a target on it is found to ~1e-15 rad).
/// @param finger  0, 1, 2 for F1, F2, F3.
/// @param spread  Theta1 (rad); F3 ignores it.
/// @param p_WG_W  the target for the tip-sphere centre, in the wrist frame W (m).
/// @throws std::invalid_argument on a bad finger index or a value that is not finite.
BarrettFingerIk SolveBarrettFingerIk(int finger, double spread, const Eigen::Vector3d& p_WG_W);

}  // namespace twinblocks::grasp
