#include "physics/grasp/grasp_quality.h"

#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "physics/grasp/detail/text.h"
#include "physics/grasp/detail/wrench_hull.h"
#include "physics/grasp/epsilon_solver.h"
#include "physics/grasp/friction_cone.h"

namespace twinblocks::grasp {
namespace {

constexpr const char* kNotInside =
    "the origin of wrench space is not strictly inside the hull of the wrenches";

// All sums taking one column of each contact's group (the Minkowski sum of the groups).
Eigen::MatrixXd MinkowskiSums(const Eigen::MatrixXd& W, int nc) {
  const Eigen::Index g = W.cols() / nc;
  double count = 1.0;
  for (int i = 0; i < nc; ++i) {
    count *= static_cast<double>(g);
    if (count > kMaxHullPoints) {
      throw std::invalid_argument(
          "grasp: the L-infinity hull of " + std::to_string(nc) + " contacts with " +
          std::to_string(g) + " primitive wrenches each needs " + std::to_string(g) + "^" +
          std::to_string(nc) + " points; at most " + std::to_string(kMaxHullPoints) +
          " are allowed (use fewer cone edges or the L1 quality)");
    }
  }
  const Eigen::Index n = static_cast<Eigen::Index>(count);
  Eigen::MatrixXd sums = Eigen::MatrixXd::Zero(6, n);
  for (Eigen::Index s = 0; s < n; ++s) {
    Eigen::Index rest = s;
    for (int i = 0; i < nc; ++i) {
      sums.col(s) += W.col(i * g + rest % g);
      rest /= g;
    }
  }
  return sums;
}

}  // namespace

GraspQuality CalcGraspQuality(const Eigen::Matrix3Xd& p_W, const Eigen::Matrix3Xd& n_W,
                              const Eigen::Vector3d& p_WO, ContactModel model,
                              const FrictionCone& cone, const QualityOptions& options) {
  CheckContacts(p_W, n_W, p_WO);
  CheckFrictionCone(cone);
  if (!std::isfinite(options.torque_length) || options.torque_length < 0.0) {
    throw std::invalid_argument("grasp: torque scaling length " +
                                detail::NumberText(options.torque_length) +
                                " m; expected a finite length >= 0 (0: the default)");
  }
  GraspQuality out;
  out.torque_length = options.torque_length;
  if (out.torque_length == 0.0) {
    out.torque_length = (p_W.colwise() - p_WO).colwise().norm().maxCoeff();
    if (out.torque_length == 0.0) {
      throw std::invalid_argument(
          "grasp: every contact is at the reference point; the torque scaling length needs "
          "a contact away from it (or give QualityOptions::torque_length)");
    }
  }
  const int nc = static_cast<int>(p_W.cols());
  const Eigen::MatrixXd W = CalcPrimitiveWrenches(p_W, n_W, p_WO, model, cone, out.torque_length);
  if (options.norm == QualityNorm::kLInfinity) {
    out.points = MinkowskiSums(W, nc);
  } else {
    if (W.cols() > kMaxHullPoints) {
      throw std::invalid_argument("grasp: the L1 hull would take " + std::to_string(W.cols()) +
                                  " primitive wrenches; at most " + std::to_string(kMaxHullPoints) +
                                  " are allowed");
    }
    out.points = W;
  }
  // Points spanning fewer than six dimensions make a flat hull: qhull would refuse it.
  const Eigen::MatrixXd spread = out.points.colwise() - out.points.col(0);
  const Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(spread);
  if (out.points.cols() < 7 || qr.rank() < 6) {
    out.message = "the wrenches the contacts can apply span fewer than 6 dimensions";
    return out;
  }
  // The L1 epsilon alone comes from the expanding polytope solver (the same answer to about
  // 1e-13, some 80 times faster, docs/grasp-analysis.md); qhull builds the whole hull when the
  // facets are wanted, for the L-infinity hull, and should the solver's pool run out.
  if (options.norm == QualityNorm::kL1 && !options.keep_facets) {
    const int n = static_cast<int>(out.points.cols());
    EpsilonSolver solver(std::max(n, 7), std::min(EpsilonSolver::DefaultMaxFacets(n), 1 << 16));
    const EpsilonResult result = solver.Solve(out.points);
    if (result.status == EpsilonStatus::kSolved || result.status == EpsilonStatus::kFlat) {
      out.force_closure = result.force_closure;
      out.epsilon = result.epsilon;
      out.weakest_direction = result.weakest_direction;
      if (!out.force_closure) {
        out.message = kNotInside;
      }
      return out;
    }
  }
  const detail::WrenchHull hull = detail::ComputeWrenchHull(out.points, options.keep_facets);
  if (!hull.ok) {
    out.message = "no 6-D hull of the wrenches (" + hull.message + ")";
    return out;
  }
  const double scale = out.points.colwise().norm().maxCoeff();
  const auto nearest = std::min_element(
      hull.facets.begin(), hull.facets.end(),
      [](const HullFacet& a, const HullFacet& b) { return a.distance < b.distance; });
  if (nearest == hull.facets.end() || !(nearest->distance > 1e-10 * scale)) {
    out.message = kNotInside;
  } else {
    out.force_closure = true;
    out.epsilon = nearest->distance;
    out.weakest_direction = nearest->normal;
  }
  if (options.keep_facets) {
    out.facets = hull.facets;
  }
  return out;
}

bool IsForceClosure(const Eigen::Matrix3Xd& p_W, const Eigen::Matrix3Xd& n_W,
                    const Eigen::Vector3d& p_WO, ContactModel model, const FrictionCone& cone) {
  return CalcGraspQuality(p_W, n_W, p_WO, model, cone).force_closure;
}

}  // namespace twinblocks::grasp
