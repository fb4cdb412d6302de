#pragma once

// The BarrettHand BH8-262 of Zaidi et al. 2020 ("Grasp Planning Pipeline for Robust
// Manipulation of 3D Deformable Objects with Industrial Robotic Hand + Arm Systems"): its
// geometry (the modified DH table of the BarrettHand BH8-262 manual, Table 9), the coupling of
// the four motor encoders to the joint angles (the paper's eq. 3) and the forward kinematics of
// each finger in the wrist frame W.
//
// Frames of finger f (F1, F2, F3), numbered as in the manual: W (frame 0) at the palm base with
// z_W the palm normal (the TCP line, pointing away from the palm towards the object); frame 1
// the knuckle (turned by the spread), frame 2 the proximal link, frame 3 the distal link,
// frame 4 the fingertip frame. The contact sphere of the tip (radius R_f) is centred at
// (A3 - R_f, 0, 0) in frame 3. Modified DH rows (a_{i-1}, alpha_{i-1}, d_i, theta_i):
//   1 (spread):   (r Aw, 0,       Dw, r Theta1 - j 90 deg)
//   2 (proximal): (A1,   90 deg,  0,  Theta2 + Phi2)
//   3 (distal):   (A2,   0,       0,  Theta3 + Phi3)
//   4 (tip):      (A3,   -90 deg, D3, 0)
// with (r, j) = (-1, 1), (1, 1), (0, -1) for F1, F2, F3. F1 and F2 are mirror images of each
// other in the plane x_W = 0; F3 lies in that plane and does not spread.

#include <Eigen/Core>
#include <array>
#include <numbers>

#include "physics/spatial/spatial.h"

namespace twinblocks::grasp {

/// Radians per degree: the coupling and the reference table are in degrees.
inline constexpr double kBarrettRadPerDeg = std::numbers::pi / 180.0;

/// Lengths of the BH8-262 (m), BarrettHand manual Table 9.
inline constexpr double kBarrettAw = 0.025;   ///< knuckle offset of F1, F2 from the palm axis
inline constexpr double kBarrettA1 = 0.050;   ///< knuckle to proximal joint
inline constexpr double kBarrettA2 = 0.070;   ///< proximal link: proximal to distal joint
inline constexpr double kBarrettA3 = 0.050;   ///< distal link: distal joint to the tip
inline constexpr double kBarrettDw = 0.084;   ///< palm base (W) to the knuckle plane
inline constexpr double kBarrettD3 = 0.0095;  ///< tip frame offset from the distal link's axis
/// The fixed angle offsets of the proximal and distal joints (rad): 2.46 deg and 50 deg.
inline constexpr double kBarrettPhi2 = 2.46 * std::numbers::pi / 180.0;
inline constexpr double kBarrettPhi3 = 50.0 * std::numbers::pi / 180.0;
/// Radius of the hemispherical fingertip's contact sphere (m), centred at (A3 - R_f, 0, 0) in
/// frame 3 so that it ends where the distal link ends.
inline constexpr double kBarrettTipRadius = 0.010;

/// Encoder ranges of eq. 3 (counts): q_Mk in [0, 17500] closes finger k = 1..3, q_M4 in
/// [0, 3150] spreads F1 and F2.
inline constexpr double kBarrettMaxFingerCounts = 17500.0;
inline constexpr double kBarrettMaxSpreadCounts = 3150.0;
/// Counts per degree of eq. 3: Theta2 = q_Mk / 125, Theta3 = q_Mk / 375, Theta1 = 2 q_M4 / 35.
inline constexpr double kBarrettProximalCountsPerDeg = 125.0;
inline constexpr double kBarrettDistalCountsPerDeg = 375.0;
inline constexpr double kBarrettSpreadCountsPerDeg = 35.0 / 2.0;

inline constexpr int kBarrettNumFingers = 3;
/// The (r, j) signs of the spread row, per finger F1, F2, F3.
inline constexpr std::array<int, 3> kBarrettSpreadSign = {-1, 1, 0};
inline constexpr std::array<int, 3> kBarrettQuarterTurns = {1, 1, -1};

/// The joint angles of the hand (rad).
struct BarrettJointAngles {
  double spread = 0.0;                  ///< Theta1 (F1 and F2; F3 has none)
  std::array<double, 3> proximal = {};  ///< Theta2 of F1, F2, F3
  std::array<double, 3> distal = {};    ///< Theta3 of F1, F2, F3
};

/// Eq. 3 of Zaidi et al. 2020: the joint angles from the encoder counts q_M = (q_M1, q_M2,
/// q_M3, q_M4): Theta2_k = q_Mk / 125 deg, Theta3_k = q_Mk / 375 deg (k = 1..3, so Theta3 =
/// Theta2 / 3), Theta1 = 2 q_M4 / 35 deg. The paper's +-Theta1 of F1 and F2 is the sign r of
/// the DH spread row, so one spread angle is returned.
/// @param q_M  encoder counts (4 x 1).
/// @throws std::invalid_argument if a count is not finite or outside [0, 17500] (k = 1..3) or
///         [0, 3150] (q_M4).
BarrettJointAngles CalcBarrettJointAngles(const Eigen::Vector4d& q_M);

/// The inverse of eq. 3: the counts (4 x 1) that set the spread Theta1 (rad) and the proximal
/// angles Theta2 (rad) of F1, F2, F3; the distal angles follow as Theta2 / 3.
/// @throws std::invalid_argument if an angle is not finite or its counts leave the ranges of
///         CalcBarrettJointAngles (Theta2 in [0, 140] deg, Theta1 in [0, 180] deg).
Eigen::Vector4d CalcBarrettEncoderCounts(double spread, const std::array<double, 3>& proximal);

/// The poses of one finger's frames in W.
struct BarrettFingerFrames {
  multibody::Pose X_WK;    ///< frame 1, the knuckle (after the spread joint)
  multibody::Pose X_WP;    ///< frame 2, the proximal link
  multibody::Pose X_WD;    ///< frame 3, the distal link
  multibody::Pose X_WT;    ///< frame 4, the fingertip frame
  Eigen::Vector3d p_WS_W;  ///< centre of the tip's contact sphere (m)
};

/// Forward kinematics of finger `finger` (0, 1, 2 for F1, F2, F3) in W, composed from the
/// modified DH rows at the top of this file (multibody::ModifiedDhTransform). The angles need
/// not satisfy the coupling or the joint limits.
/// @param spread, theta2, theta3  Theta1, Theta2, Theta3 (rad); F3 ignores the spread.
/// @throws std::invalid_argument if finger is not 0, 1 or 2 or an angle is not finite.
BarrettFingerFrames CalcBarrettFingerFrames(int finger, double spread, double theta2,
                                            double theta3);

/// The pose in W of the proximal joint's frame at Theta2 = -Phi2 (frame 2 with theta_2 = 0):
/// the finger moves in its x-y plane, and the proximal joint turns about its z axis.
/// @throws std::invalid_argument as CalcBarrettFingerFrames.
multibody::Pose CalcBarrettProximalBase(int finger, double spread);

}  // namespace twinblocks::grasp
