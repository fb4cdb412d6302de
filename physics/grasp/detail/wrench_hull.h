#pragma once

// The convex hull of points in 6-D by qhull (the one place the grasp library calls qhull; no
// qhull type leaves wrench_hull.cc).

#include <Eigen/Core>
#include <string>
#include <vector>

#include "physics/grasp/grasp_quality.h"

namespace twinblocks::grasp::detail {

struct WrenchHull {
  bool ok = false;
  std::string message;  ///< qhull's first error line when not ok (e.g. a flat input)
  std::vector<HullFacet> facets;
};

/// The hull of the columns of `points` (6 x N), triangulated (qhull's Qt): each facet has six
/// vertices. qhull's messages go to a memory buffer, never to stdout or stderr.
/// @param keep_vertices  fill each facet's vertices.
WrenchHull ComputeWrenchHull(const Eigen::MatrixXd& points, bool keep_vertices);

}  // namespace twinblocks::grasp::detail
