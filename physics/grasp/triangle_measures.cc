#include "physics/grasp/triangle_measures.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

#include "physics/grasp/detail/text.h"

namespace twinblocks::grasp {
namespace {

void CheckVertex(const Eigen::Vector3d& p, const char* name) {
  if (!p.allFinite()) {
    throw std::invalid_argument(std::string("grasp: triangle vertex ") + name + " " +
                                detail::VectorText(p) + " is not finite");
  }
}

// The angle at vertex p between the sides to q and r (rad); -1 when a side has no length.
double AngleAt(const Eigen::Vector3d& p, const Eigen::Vector3d& q, const Eigen::Vector3d& r) {
  const Eigen::Vector3d u = q - p;
  const Eigen::Vector3d v = r - p;
  if (u.squaredNorm() == 0.0 || v.squaredNorm() == 0.0) {
    return -1.0;
  }
  return std::atan2(u.cross(v).norm(), u.dot(v));
}

double Q1Unchecked(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c) {
  const double angles[3] = {AngleAt(a, b, c), AngleAt(b, c, a), AngleAt(c, a, b)};
  double sum = 0.0;
  for (const double angle : angles) {
    if (angle < 0.0) {
      return 2.0;
    }
    sum += std::abs(angle - std::numbers::pi / 3.0);
  }
  return 3.0 / (2.0 * std::numbers::pi) * sum;
}

}  // namespace

double CalcQ1(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c) {
  CheckVertex(a, "a");
  CheckVertex(b, "b");
  CheckVertex(c, "c");
  return Q1Unchecked(a, b, c);
}

double CalcQ2(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c,
              const Eigen::Vector3d& p_WO) {
  CheckVertex(a, "a");
  CheckVertex(b, "b");
  CheckVertex(c, "c");
  if (!p_WO.allFinite()) {
    throw std::invalid_argument("grasp: object centre " + detail::VectorText(p_WO) +
                                " is not finite");
  }
  return (p_WO - (a + b + c) / 3.0).norm();
}

GraspTriangle ChooseGraspTriangle(
    const Eigen::Matrix3Xd& points, const Eigen::Vector3d& p_WO, double q1_max,
    const std::function<bool(const std::array<int, 3>&)>& admissible) {
  const Eigen::Index n = points.cols();
  if (n < 3 || n > kMaxTrianglePoints) {
    throw std::invalid_argument("grasp: " + std::to_string(n) +
                                " candidate points; expected 3 to " +
                                std::to_string(kMaxTrianglePoints));
  }
  for (Eigen::Index i = 0; i < n; ++i) {
    if (!points.col(i).allFinite()) {
      throw std::invalid_argument("grasp: candidate point " + std::to_string(i) + " " +
                                  detail::VectorText(points.col(i)) + " is not finite");
    }
  }
  if (!p_WO.allFinite()) {
    throw std::invalid_argument("grasp: object centre " + detail::VectorText(p_WO) +
                                " is not finite");
  }
  if (!(q1_max >= 0.0 && q1_max <= 2.0)) {
    throw std::invalid_argument("grasp: Q1 margin " + detail::NumberText(q1_max) +
                                "; expected a value in [0, 2]");
  }
  GraspTriangle best;
  if (admissible) {
    // The admissibility test may be costly (a hand placed per triangle): ask it of the
    // near-equilateral triangles in order of Q2 (scan order on a tie), and stop at the first.
    struct Candidate {
      double q2;
      double q1;
      std::array<int, 3> indices;
    };
    std::vector<Candidate> candidates;
    for (int i = 0; i < n; ++i) {
      for (int j = i + 1; j < n; ++j) {
        for (int k = j + 1; k < n; ++k) {
          const double q1 = Q1Unchecked(points.col(i), points.col(j), points.col(k));
          if (q1 > q1_max) continue;
          const double q2 = (p_WO - (points.col(i) + points.col(j) + points.col(k)) / 3.0).norm();
          candidates.push_back({q2, q1, {i, j, k}});
        }
      }
    }
    best.num_near_equilateral = static_cast<long long>(candidates.size());
    std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
      return a.q2 != b.q2 ? a.q2 < b.q2 : a.indices < b.indices;
    });
    for (const Candidate& c : candidates) {
      if (admissible(c.indices)) {
        best.found = true;
        best.indices = c.indices;
        best.q1 = c.q1;
        best.q2 = c.q2;
        break;
      }
    }
    return best;
  }
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      for (int k = j + 1; k < n; ++k) {
        const double q1 = Q1Unchecked(points.col(i), points.col(j), points.col(k));
        if (q1 > q1_max) {
          continue;
        }
        ++best.num_near_equilateral;
        const double q2 = (p_WO - (points.col(i) + points.col(j) + points.col(k)) / 3.0).norm();
        if (!best.found || q2 < best.q2) {
          best.found = true;
          best.indices = {i, j, k};
          best.q1 = q1;
          best.q2 = q2;
        }
      }
    }
  }
  return best;
}

}  // namespace twinblocks::grasp
