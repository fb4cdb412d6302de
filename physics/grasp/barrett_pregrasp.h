#pragma once

// The pregrasp of the Barrett hand, Algorithm 2 of Zaidi et al. 2020 ("Grasp Planning Pipeline
// for Robust Manipulation of 3D Deformable Objects with Industrial Robotic Hand + Arm
// Systems"), with the choices the paper leaves open fixed as follows:
//   1. The grasp triangle is Algorithm 1's (ChooseGraspTriangle, Q1 <= 0.3, least Q2).
//   2. The TCP line runs through the triangle's centroid C_T along its unit normal n, signed so
//      that n . z >= 0 (z up); for a vertical triangle (|n . z| <= 1e-9) n . x < 0, and if n is
//      also horizontal in x (|n . x| <= 1e-9), n . y < 0. The palm faces the object: z_W = -n.
//   3. F3 takes the vertex opposite the triangle's shortest edge; F1 and F2 the other two.
//   4. The roll of the hand about the TCP line and the spread Theta1 minimise the sum of the
//      squared distances of the three tip targets (vertex + R_f normal) from their fingers'
//      planes, with each target ahead of its knuckle; the planes contain z_W, so the distance L
//      does not change them. Both ways of giving the two other vertices to F1 and F2 are tried.
//   5. L is the distance along the TCP line from C_T to the palm's face (the knuckle plane
//      z_W = Dw): W = C_T + (Dw + L) n. It grows from 0 in steps of 1 mm until every finger
//      meets its target "within 2 deg" (the paper's tolerance), read as: the exact planar IK
//      of the finger (SolveBarrettFingerIk, Theta2 and Theta3 free) reaches the target's
//      projection onto the finger's plane with Theta2 in [0, 140] deg, a coupling error
//      |Theta3 - Theta2 / 3| of at most 2 deg, and the target at most 1 mm off the plane
//      (BarrettFingerMeets).
// The motor sets the coupled finger only: per finger, the coupled closing angle Theta2c
// (SolveBarrettCoupledFinger, Theta3 = Theta2c / 3, nearest the target) and its tip's distance
// from the target are reported, and the encoder counts are the inverse of eq. 3 of Theta2c.

#include <Eigen/Core>
#include <array>
#include <string>

#include "physics/spatial/spatial.h"

namespace twinblocks::grasp {

/// The tolerances and the search range of PlanBarrettPregrasp.
struct BarrettPregraspOptions {
  double q1_max = 0.3;                  ///< Algorithm 1's margin on Q1, in [0, 2]
  double max_coupling_error_deg = 2.0;  ///< |Theta3 - Theta2 / 3| accepted (deg), > 0
  double max_plane_distance = 0.001;    ///< a target's distance from its plane (m), > 0
  double l_step = 0.001;                ///< step of the palm distance L (m), > 0
  double l_max = 0.3;                   ///< the largest L tried (m), >= 0; at most 1e6 steps
  /// 0: Algorithm 1 as published. > 0: only triangles whose three points, as hard-finger
  /// contacts with this friction coefficient (8-edge cones, the normals' opposites pushing
  /// in), are force closure: on a rigid box or cylinder Algorithm 1's triangle may not hold.
  double closure_mu = 0.0;
};

/// The pregrasp found (or why none was). Positions and directions are in the frame O the
/// candidate points are given in (the object's or the world frame, z up).
/// When no L lets every finger meet its target but some L has every target reachable with
/// Theta2 in range, found is false and the fields from palm_distance on describe the nearest
/// miss: the first such L with the least worst coupling error (the plane distance is not
/// ranked, only reported).
struct BarrettPregrasp {
  bool found = false;
  std::string message;  ///< why nothing was found; empty when found
  /// Whether the fields from palm_distance on are filled: found, or the nearest miss.
  bool has_hand = false;

  std::array<int, 3> triangle{};       ///< Algorithm 1's candidate columns, increasing
  std::array<int, 3> finger_vertex{};  ///< the candidate column of F1, F2, F3
  double q1 = 0.0;
  double q2 = 0.0;                                 ///< (m)
  Eigen::Vector3d p_OT = Eigen::Vector3d::Zero();  ///< C_T, the triangle's centroid (m)
  Eigen::Vector3d n_O = Eigen::Vector3d::Zero();   ///< n, the signed unit normal of the triangle
  /// Squared distances of the targets from their fingers' planes, summed, at the chosen roll
  /// and spread (m^2): 0 when every finger can lie in its target's plane.
  double plane_residual = 0.0;

  double palm_distance = 0.0;  ///< L (m), C_T to the palm's face along the TCP line
  int num_l_steps = 0;         ///< L / l_step: the steps taken from L = 0
  multibody::Pose X_OW;        ///< the wrist frame W (palm base) in O
  /// The palm's face beyond every candidate point along n (m): L - max_i (p_i - C_T) . n;
  /// negative when the face's plane cuts through the sampled object.
  double palm_clearance = 0.0;

  double spread = 0.0;  ///< Theta1 (rad)
  /// The exact planar IK per finger F1, F2, F3 at L (SolveBarrettFingerIk).
  std::array<double, 3> theta2{};              ///< Theta2 (rad)
  std::array<double, 3> theta3{};              ///< Theta3 (rad), free of the coupling
  std::array<double, 3> coupling_error_deg{};  ///< |Theta3 - Theta2 / 3| (deg)
  std::array<double, 3> plane_distance{};      ///< target from the finger's plane (m)
  std::array<Eigen::Vector3d, 3> p_OG;         ///< tip targets, vertex + R_f normal (m)
  std::array<Eigen::Vector3d, 3> p_OS;         ///< the exact IK's tip centres (m)
  /// The coupled finger per F1, F2, F3 (SolveBarrettCoupledFinger): what the motor sets.
  std::array<double, 3> coupled_theta2{};         ///< Theta2c (rad); Theta3 = Theta2c / 3
  std::array<double, 3> coupled_tip_distance{};   ///< |coupled tip centre - target| (m)
  std::array<Eigen::Vector3d, 3> coupled_p_OS;    ///< the coupled tip centres (m)
  Eigen::Vector4d q_M = Eigen::Vector4d::Zero();  ///< encoder counts of Theta2c and Theta1
};

/// Algorithm 2 of Zaidi et al. 2020 as fixed at the top of this file.
/// @param p_O  candidate contact points (3 x n, m), 3 <= n <= kMaxTrianglePoints.
/// @param n_O  their outward unit normals (3 x n).
/// @param p_OC  the object's mass centre C_O (m).
/// @returns found = false with a message when no triangle has Q1 <= q1_max or no L up to
///          l_max lets every finger meet its target (then with the nearest miss, see
///          BarrettPregrasp).
/// @throws std::invalid_argument (one line naming the point and what is wrong) on fewer than 3
///         or more than kMaxTrianglePoints points, mismatched sizes, values that are not
///         finite, normals not of unit length (within kUnitNormalTolerance) or options out of
///         range.
BarrettPregrasp PlanBarrettPregrasp(const Eigen::Matrix3Xd& p_O, const Eigen::Matrix3Xd& n_O,
                                    const Eigen::Vector3d& p_OC,
                                    const BarrettPregraspOptions& options = {});

}  // namespace twinblocks::grasp
