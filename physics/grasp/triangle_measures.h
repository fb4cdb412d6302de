#pragma once

// The grasp-triangle measures of Zaidi et al. 2020 ("Grasp Planning Pipeline for Robust
// Manipulation of 3D Deformable Objects with Industrial Robotic Hand + Arm Systems"), taken
// from Roa & Suarez's review of grasp quality measures, and their Algorithm 1, which picks the
// three contact points of a three-fingered grasp among candidate surface points.

#include <Eigen/Core>
#include <array>
#include <functional>

namespace twinblocks::grasp {

/// The most candidate points ChooseGraspTriangle takes: it scans all C(n, 3) triangles
/// (about 4.5 million at the limit, well under a second).
inline constexpr int kMaxTrianglePoints = 300;

/// Q1, how far a triangle is from equilateral (Zaidi et al. 2020, eq. 1):
///   Q1 = 3 / (2 pi) (|alpha - pi/3| + |beta - pi/3| + |gamma - pi/3|),
/// alpha, beta, gamma the triangle's interior angles (rad). 0 for an equilateral triangle,
/// 0.5 for a right isosceles one (pi/6 + 2 pi/12 = pi/3), 2 for a flat one (angles pi, 0, 0:
/// 4 pi / 3), the largest value. A triangle with two coincident vertices has no angles and
/// counts as flat: 2. Angles are computed as atan2(|u x v|, u . v), accurate near 0 and pi.
/// @param a, b, c  the vertices (m).
/// @throws std::invalid_argument if a vertex is not finite.
double CalcQ1(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c);

/// Q2, the distance (m) from the object's centre C_O to the triangle's centroid
/// C_T = (a + b + c) / 3 (Zaidi et al. 2020, eq. 2): Q2 = |C_O - C_T|.
/// @throws std::invalid_argument if a value is not finite.
double CalcQ2(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c,
              const Eigen::Vector3d& p_WO);

/// The triangle Algorithm 1 chose.
struct GraspTriangle {
  bool found = false;            ///< false when no triangle has Q1 <= q1_max
  std::array<int, 3> indices{};  ///< the candidate points' columns, increasing
  double q1 = 0.0;
  double q2 = 0.0;                     ///< (m)
  long long num_near_equilateral = 0;  ///< |Psi|, the triangles with Q1 <= q1_max
};

/// Algorithm 1 of Zaidi et al. 2020: over every triangle of three candidate points (the set
/// Gamma), keep those with Q1 <= q1_max (Psi; the paper's margin is 0.3), and return the one
/// of Psi with the smallest Q2; among equal Q2 the first in the order (i < j < k) scanned.
/// @param points  candidate contact points (3 x n, m), 3 <= n <= kMaxTrianglePoints.
/// @param p_WO  the object's centre (m).
/// @param q1_max  the margin on Q1, in [0, 2].
/// @throws std::invalid_argument on too few or too many points, a value that is not finite or
///         q1_max outside [0, 2].
/// @param admissible  if given, a triangle counts only when admissible(indices) is true
///        (e.g. force closure of its three contacts: an extension of the paper's algorithm for
///        rigid objects, where a near-equilateral triangle about the centre may still not hold
///        the object); asked of the triangles with Q1 <= q1_max in order of Q2, up to the
///        first that passes.
GraspTriangle ChooseGraspTriangle(
    const Eigen::Matrix3Xd& points, const Eigen::Vector3d& p_WO, double q1_max = 0.3,
    const std::function<bool(const std::array<int, 3>&)>& admissible = {});

}  // namespace twinblocks::grasp
