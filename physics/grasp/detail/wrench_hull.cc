#include "physics/grasp/detail/wrench_hull.h"

extern "C" {
#include <libqhull_r/qhull_ra.h>
}

#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace twinblocks::grasp::detail {

WrenchHull ComputeWrenchHull(const Eigen::MatrixXd& points, bool keep_vertices) {
  WrenchHull out;
  if (points.rows() != 6 || points.cols() < 7) {
    out.message = "fewer than 7 points cannot span a 6-D hull";
    return out;
  }
  // qhull's messages are kept in memory: a library must not write to the terminal.
  char* buffer = nullptr;
  size_t length = 0;
  FILE* errors = open_memstream(&buffer, &length);
  if (errors == nullptr) {
    out.message = "no memory stream for qhull's messages";
    return out;
  }
  Eigen::MatrixXd coordinates = points;  // qhull may scale its input in place
  qhT qh_storage;
  qhT* qh = &qh_storage;
  qh_zero(qh, errors);
  char command[] = "qhull Qt";
  const int code = qh_new_qhull(qh, 6, static_cast<int>(coordinates.cols()), coordinates.data(),
                                False, command, nullptr, errors);
  if (code == 0) {
    qh_triangulate(qh);
    facetT* facet;
    FORALLfacets {
      HullFacet hull_facet;
      for (int k = 0; k < 6; ++k) {
        hull_facet.normal[k] = facet->normal[k];
      }
      hull_facet.distance = -facet->offset;
      if (keep_vertices) {
        vertexT* vertex;
        vertexT** vertexp;
        FOREACHvertex_(facet->vertices) {
          hull_facet.vertices.push_back(qh_pointid(qh, vertex->point));
        }
      }
      out.facets.push_back(std::move(hull_facet));
    }
    out.ok = true;
  }
  qh_freeqhull(qh, !qh_ALL);
  int still_long = 0;
  int still_total = 0;
  qh_memfreeshort(qh, &still_long, &still_total);
  std::fclose(errors);
  if (!out.ok) {
    std::istringstream text(length > 0 ? std::string(buffer, length) : std::string());
    std::string line;
    while (std::getline(text, line) && line.empty()) {
    }
    out.message = "qhull: " + (line.empty() ? "error " + std::to_string(code) : line);
  }
  std::free(buffer);
  return out;
}

}  // namespace twinblocks::grasp::detail
