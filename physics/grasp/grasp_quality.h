#pragma once

// Force closure and the Ferrari-Canny epsilon quality (Ferrari & Canny 1992, "Planning
// optimal grasps"): the radius of the largest ball about the origin of wrench space inside the
// set of wrenches the contacts can apply with a unit budget of normal force. The L1 epsilon
// alone is computed by EpsilonSolver (epsilon_solver.h), whole hulls (keep_facets, the
// L-infinity norm) by qhull (Barber, Dobkin & Huhdanpaa 1996, "The Quickhull algorithm for
// convex hulls"); the two agree to about 1e-13.
//
// The wrenches are the primitive wrenches of friction_cone.h: for each contact and each edge
// of its linearized cone, [force; torque / L] (N), the torque about the reference point divided
// by a characteristic length L (m) so that the six components share a unit and the quality
// does not change with the unit of length. L defaults to the largest distance from the
// reference point to a contact.
//
//   L1 (the sum of the normal forces <= 1): W1 = hull(union over contacts i of the primitive
//     wrenches w_i,j).
//   L-infinity (each normal force <= 1): Winf = hull(Minkowski sum over i of {w_i,j}), computed
//     as the hull of all g_1 g_2 ... g_nc sums that take one primitive wrench of each contact,
//     refused (std::invalid_argument) when that count exceeds kMaxHullPoints.
//
// The grasp is force closure when the origin is strictly inside the hull; epsilon is then the
// distance from the origin to the nearest facet's hyperplane, otherwise 0. Since the cones are
// inscribed in Coulomb's, both are conservative.

#include <Eigen/Core>
#include <string>
#include <vector>

#include "physics/grasp/grasp_input.h"

namespace twinblocks::grasp {

/// The most points a hull is built from (L1: all primitive wrenches; L-infinity: all sums):
/// a 6-D hull's facets grow fast with its points, and this keeps a call within about a second
/// and some hundred megabytes.
inline constexpr int kMaxHullPoints = 4096;

enum class QualityNorm { kL1, kLInfinity };

struct QualityOptions {
  QualityNorm norm = QualityNorm::kL1;
  /// L (m), the torque scaling length; 0 for the default, the largest distance from the
  /// reference point to a contact.
  double torque_length = 0.0;
  /// Keep every facet of the hull in GraspQuality::facets (for checks and plots).
  bool keep_facets = false;
};

/// One facet of the hull: the points x on its hyperplane satisfy normal . x = distance.
struct HullFacet {
  Eigen::Matrix<double, 6, 1> normal;  ///< outward unit normal
  double distance = 0.0;      ///< the origin's distance from the hyperplane (> 0: origin inside)
  std::vector<int> vertices;  ///< the columns of GraspQuality::points the facet is made of
};

struct GraspQuality {
  bool force_closure = false;
  /// The Ferrari-Canny epsilon (N per N of normal force budget, torques scaled by L): 0 when
  /// not force closure.
  double epsilon = 0.0;
  double torque_length = 0.0;  ///< L used (m)
  Eigen::MatrixXd points;      ///< (6 x N) the points the hull was built from
  /// The nearest facet's outward unit normal: the wrench direction the grasp resists least.
  /// Zero when not force closure.
  Eigen::Matrix<double, 6, 1> weakest_direction = Eigen::Matrix<double, 6, 1>::Zero();
  std::vector<HullFacet> facets;  ///< every facet, when QualityOptions::keep_facets
  std::string message;            ///< why the grasp is not force closure
};

/// The quality of a grasp. The origin counts as strictly inside when its distance from every
/// facet exceeds 1e-10 times the largest |point|. Flat hulls (points spanning fewer than six
/// dimensions, which qhull refuses) are not force closure; qhull prints nothing.
/// @param p_W  contact points (3 x nc, m, world).
/// @param n_W  inward unit normals (3 x nc, world).
/// @param p_WO  reference point of the object (m, world).
/// @throws std::invalid_argument on bad contacts or cone, a bad torque length, or more
///         than kMaxHullPoints points.
GraspQuality CalcGraspQuality(const Eigen::Matrix3Xd& p_W, const Eigen::Matrix3Xd& n_W,
                              const Eigen::Vector3d& p_WO, ContactModel model,
                              const FrictionCone& cone, const QualityOptions& options = {});

/// CalcGraspQuality(...).force_closure with the L1 hull.
bool IsForceClosure(const Eigen::Matrix3Xd& p_W, const Eigen::Matrix3Xd& n_W,
                    const Eigen::Vector3d& p_WO, ContactModel model, const FrictionCone& cone);

}  // namespace twinblocks::grasp
