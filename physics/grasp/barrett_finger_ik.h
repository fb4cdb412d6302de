#pragma once

// Inverse kinematics of one Barrett finger, the second step of Algorithm 2 of Zaidi et al. 2020
// ("Grasp Planning Pipeline for Robust Manipulation of 3D Deformable Objects with Industrial
// Robotic Hand + Arm Systems"). For a given spread the finger moves in a plane; in it, the
// proximal link (A2, joint 2 to joint 3) and the distal link up to the centre of the tip's
// contact sphere (A3 - R_f) form a planar two-link chain. SolveBarrettFingerIk solves that chain
// exactly for the target's projection onto the plane, with Theta2 and Theta3 free; how far the
// solution is from the motor's fixed coupling Theta3 = Theta2 / 3 (eq. 3) is the coupling error,
// the paper's "within 2 degrees". SolveBarrettCoupledFinger is the finger the motor can actually
// set: the Theta2 of the coupled finger whose tip-sphere centre is nearest the target.

#include <Eigen/Core>

#include "physics/grasp/barrett_hand.h"

namespace twinblocks::grasp {

/// The largest proximal angle Theta2 (rad): 140 deg, q_Mk = 17500 counts (eq. 3).
inline constexpr double kBarrettMaxTheta2 =
    kBarrettMaxFingerCounts / kBarrettProximalCountsPerDeg * kBarrettRadPerDeg;

/// The target of a fingertip for a contact at a surface point: the tip's contact sphere
/// (radius R_f = kBarrettTipRadius) touches the surface at p when its centre is at
/// p + R_f n, n the outward unit normal there.
/// @param p_W, n_W  the contact point (m) and the outward unit normal at it.
/// @throws std::invalid_argument if a value is not finite or |n| differs from 1 by more than
///         1e-6.
Eigen::Vector3d CalcBarrettTipTarget(const Eigen::Vector3d& p_W, const Eigen::Vector3d& n_W);

/// The exact in-plane solution of one finger for a target.
struct BarrettFingerIk {
  /// Whether the target's projection onto the finger's plane lies in the chain's annulus,
  /// |A2 - l| <= rho <= A2 + l (l = A3 - R_f, rho its distance from the proximal joint).
  bool reachable = false;
  /// How far the projection lies outside the annulus (m); 0 when reachable. Out of reach the
  /// angles below are those of the chain stretched or folded towards the projection.
  double reach_excess = 0.0;
  double theta2 = 0.0;  ///< proximal angle (rad), in (-180, 180] deg; not limited to [0, 140]
  /// Distal angle (rad), on the branch Theta3 + Phi3 in [0, 180] deg: the distal link bent the
  /// way the finger closes (towards the palm normal), as the coupled finger always is.
  double theta3 = 0.0;
  double coupling_error_deg = 0.0;  ///< |Theta3 - Theta2 / 3| (deg)
  double plane_distance = 0.0;      ///< the target's distance from the finger's plane (m)
  /// The tip-sphere centre at (Theta2, Theta3), in W (m): the target's projection onto the
  /// plane when reachable.
  Eigen::Vector3d p_WS_W = Eigen::Vector3d::Zero();
};

/// The planar two-link inverse kinematics of finger `finger` for the tip-sphere centre: the
/// target is projected onto the finger's plane (the x-y plane of the proximal joint's frame),
/// and (Theta2, Theta3) put the centre exactly on the projection (to rounding, ~1e-15 m) by the
/// law of cosines, on the branch Theta3 + Phi3 >= 0.
/// @param finger  0, 1, 2 for F1, F2, F3.
/// @param spread  Theta1 (rad); F3 ignores it.
/// @param p_WG_W  the target for the tip-sphere centre, in the wrist frame W (m).
/// @throws std::invalid_argument on a bad finger index or a value that is not finite.
BarrettFingerIk SolveBarrettFingerIk(int finger, double spread, const Eigen::Vector3d& p_WG_W);

/// The tolerances of "the finger meets its target within 2 degrees".
struct BarrettFingerTolerance {
  double max_coupling_error_deg = 2.0;  ///< the paper's 2 deg, > 0
  double max_plane_distance = 0.001;    ///< the target's distance from the plane (m), > 0
};

/// Whether an IK solution meets its target: reachable, Theta2 in [0, 140] deg (to 1e-12 rad),
/// coupling error and out-of-plane distance within the tolerances.
bool BarrettFingerMeets(const BarrettFingerIk& ik, const BarrettFingerTolerance& tolerance = {});

/// The coupled finger's nearest approach to a target.
struct BarrettCoupledFinger {
  double theta2 = 0.0;                               ///< Theta2c (rad), in [0, 140 deg]
  double theta3 = 0.0;                               ///< theta2 / 3 (rad)
  double distance = 0.0;                             ///< |reached - target| (m)
  Eigen::Vector3d p_WS_W = Eigen::Vector3d::Zero();  ///< the reached tip centre, in W (m)
};

/// The proximal angle Theta2c in [0, 140] deg (the range of q_Mk) whose tip-sphere centre, with
/// Theta3 = Theta2c / 3, is nearest the target. The distance is minimised over a scan of Theta2
/// in 0.5 deg steps, then refined by a safeguarded Newton iteration on its derivative (the
/// nearest point of the curve to a target on it is found to ~1e-15 rad).
/// @throws std::invalid_argument as SolveBarrettFingerIk.
BarrettCoupledFinger SolveBarrettCoupledFinger(int finger, double spread,
                                               const Eigen::Vector3d& p_WG_W);

}  // namespace twinblocks::grasp
