#include "physics/grasp/object_surface.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

#include "physics/grasp/detail/text.h"
#include "physics/grasp/grasp_input.h"
#include "physics/grasp/triangle_measures.h"

namespace twinblocks::grasp {
namespace {

constexpr double kSurfacePi = std::numbers::pi;

void CheckSurfacePositive(double value, const char* name) {
  if (!std::isfinite(value) || value <= 0.0) {
    throw std::invalid_argument(std::string("grasp: surface sampling ") + name + " " +
                                detail::NumberText(value) + " must be positive and finite");
  }
}

void CheckSurfaceFinite(const Eigen::Vector3d& v, const char* name) {
  if (!v.allFinite()) {
    throw std::invalid_argument(std::string("grasp: surface sampling ") + name + " " +
                                detail::VectorText(v) + " is not finite");
  }
}

// Collects the points above z_min; refuses more than Algorithm 1 takes, since a caller would
// otherwise learn of it only when the triangles are chosen.
class SurfaceCollector {
 public:
  SurfaceCollector(double z_min, double spacing) : z_min_(z_min), spacing_(spacing) {
    if (!std::isfinite(z_min)) {
      throw std::invalid_argument("grasp: surface sampling z_min " + detail::NumberText(z_min) +
                                  " is not finite");
    }
  }

  void Add(const Eigen::Vector3d& p, const Eigen::Vector3d& n) {
    if (p.z() > z_min_) {
      points_.push_back(p);
      normals_.push_back(n);
    }
  }

  SurfaceSamples Finish(const char* shape) const {
    const int n = static_cast<int>(points_.size());
    if (n > kMaxTrianglePoints) {
      throw std::invalid_argument(std::string("grasp: sampling the ") + shape + " at spacing " +
                                  detail::NumberText(spacing_) + " m gives " + std::to_string(n) +
                                  " points, more than " + std::to_string(kMaxTrianglePoints) +
                                  " (kMaxTrianglePoints); use a larger spacing");
    }
    SurfaceSamples samples{Eigen::Matrix3Xd(3, n), Eigen::Matrix3Xd(3, n)};
    for (int i = 0; i < n; ++i) {
      samples.p_W.col(i) = points_[i];
      samples.n_W.col(i) = normals_[i];
    }
    return samples;
  }

 private:
  double z_min_;
  double spacing_;
  std::vector<Eigen::Vector3d> points_;
  std::vector<Eigen::Vector3d> normals_;
};

int SurfaceDivisions(double length, double spacing, int at_least) {
  return std::max(at_least, static_cast<int>(std::lround(length / spacing)));
}

// A ring of n points of radius r about the vertical through c, from longitude 0.
void AddSurfaceRing(const Eigen::Vector3d& c, double r, int n, const Eigen::Vector3d& flat_normal,
                    bool radial_normal, SurfaceCollector* out) {
  for (int i = 0; i < n; ++i) {
    const double phi = 2.0 * kSurfacePi * i / n;
    const Eigen::Vector3d radial(std::cos(phi), std::sin(phi), 0.0);
    out->Add(c + r * radial, radial_normal ? radial : flat_normal);
  }
}

}  // namespace

SurfaceSamples SampleSphereSurface(const Eigen::Vector3d& p_WC, double radius, double spacing,
                                   double z_min) {
  CheckSurfaceFinite(p_WC, "centre");
  CheckSurfacePositive(radius, "radius");
  CheckSurfacePositive(spacing, "spacing");
  SurfaceCollector out(z_min, spacing);
  const int m = SurfaceDivisions(kSurfacePi * radius, spacing, 2);
  for (int k = 0; k <= m; ++k) {
    const double theta = kSurfacePi * k / m;
    const int n = (k == 0 || k == m)
                      ? 1
                      : SurfaceDivisions(2.0 * kSurfacePi * radius * std::sin(theta), spacing, 1);
    for (int i = 0; i < n; ++i) {
      const double phi = 2.0 * kSurfacePi * i / n;
      const Eigen::Vector3d normal(std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi),
                                   std::cos(theta));
      out.Add(p_WC + radius * normal, normal);
    }
  }
  return out.Finish("sphere");
}

SurfaceSamples SampleBoxSurface(const Eigen::Vector3d& p_WC, const Eigen::Vector3d& half_extents,
                                double spacing, double z_min) {
  CheckSurfaceFinite(p_WC, "centre");
  CheckSurfacePositive(half_extents.x(), "half extent x");
  CheckSurfacePositive(half_extents.y(), "half extent y");
  CheckSurfacePositive(half_extents.z(), "half extent z");
  CheckSurfacePositive(spacing, "spacing");
  SurfaceCollector out(z_min, spacing);
  // Faces in the order -x, +x, -y, +y, -z, +z; on each, axes u and v span the face.
  for (int axis = 0; axis < 3; ++axis) {
    const int u = (axis + 1) % 3;
    const int v = (axis + 2) % 3;
    const int nu = SurfaceDivisions(2.0 * half_extents[u], spacing, 1);
    const int nv = SurfaceDivisions(2.0 * half_extents[v], spacing, 1);
    for (const double side : {-1.0, 1.0}) {
      Eigen::Vector3d normal = Eigen::Vector3d::Zero();
      normal[axis] = side;
      for (int iu = 0; iu < nu; ++iu) {
        for (int iv = 0; iv < nv; ++iv) {
          Eigen::Vector3d p = p_WC;
          p[axis] += side * half_extents[axis];
          p[u] += half_extents[u] * (2.0 * (iu + 0.5) / nu - 1.0);
          p[v] += half_extents[v] * (2.0 * (iv + 0.5) / nv - 1.0);
          out.Add(p, normal);
        }
      }
    }
  }
  return out.Finish("box");
}

SurfaceSamples SampleCylinderSurface(const Eigen::Vector3d& p_WC, double radius, double height,
                                     double spacing, double z_min) {
  CheckSurfaceFinite(p_WC, "centre");
  CheckSurfacePositive(radius, "radius");
  CheckSurfacePositive(height, "height");
  CheckSurfacePositive(spacing, "spacing");
  SurfaceCollector out(z_min, spacing);
  const int bands = SurfaceDivisions(height, spacing, 1);
  const int around = SurfaceDivisions(2.0 * kSurfacePi * radius, spacing, 3);
  for (int k = 0; k < bands; ++k) {
    const Eigen::Vector3d c = p_WC + Eigen::Vector3d(0.0, 0.0, height * ((k + 0.5) / bands - 0.5));
    AddSurfaceRing(c, radius, around, Eigen::Vector3d::Zero(), true, &out);
  }
  const int rings = SurfaceDivisions(radius / spacing - 0.5, 1.0, 0);
  const double step = radius / (rings + 0.5);
  for (const double side : {-1.0, 1.0}) {
    const Eigen::Vector3d normal(0.0, 0.0, side);
    const Eigen::Vector3d c = p_WC + 0.5 * height * normal;
    out.Add(c, normal);
    for (int j = 1; j <= rings; ++j) {
      AddSurfaceRing(c, j * step, SurfaceDivisions(2.0 * kSurfacePi * j * step, spacing, 3), normal,
                     false, &out);
    }
  }
  return out.Finish("cylinder");
}

Eigen::Vector3d ReferenceObjectCentre(ReferenceObject object) {
  switch (object) {
    case ReferenceObject::kSphere:
      return {kReferenceObjectX, 0.0, kReferenceSphereRadius};
    case ReferenceObject::kCube:
      return {kReferenceObjectX, 0.0, 0.5 * kReferenceCubeEdge};
    case ReferenceObject::kCylinder:
      return {kReferenceObjectX, 0.0, 0.5 * kReferenceCylinderHeight};
  }
  throw std::invalid_argument("grasp: unknown reference object");
}

SurfaceSamples SampleReferenceObject(ReferenceObject object, double spacing) {
  const Eigen::Vector3d c = ReferenceObjectCentre(object);
  switch (object) {
    case ReferenceObject::kSphere:
      return SampleSphereSurface(c, kReferenceSphereRadius, spacing);
    case ReferenceObject::kCube:
      return SampleBoxSurface(c, Eigen::Vector3d::Constant(0.5 * kReferenceCubeEdge), spacing);
    case ReferenceObject::kCylinder:
      return SampleCylinderSurface(c, kReferenceCylinderRadius, kReferenceCylinderHeight, spacing);
  }
  throw std::invalid_argument("grasp: unknown reference object");
}

const char* ReferenceObjectName(ReferenceObject object) {
  switch (object) {
    case ReferenceObject::kSphere:
      return "sphere";
    case ReferenceObject::kCube:
      return "cube";
    case ReferenceObject::kCylinder:
      return "cylinder";
  }
  return "unknown";
}

ReferenceObject ParseReferenceObject(const std::string& name) {
  for (const ReferenceObject object :
       {ReferenceObject::kSphere, ReferenceObject::kCube, ReferenceObject::kCylinder}) {
    if (name == ReferenceObjectName(object)) {
      return object;
    }
  }
  throw std::invalid_argument("grasp: reference object '" + name +
                              "'; expected 'sphere', 'cube' or 'cylinder'");
}

void CheckOnReferenceObject(ReferenceObject object, const Eigen::Matrix3Xd& p_W, double tolerance) {
  const Eigen::Vector3d c = ReferenceObjectCentre(object);
  switch (object) {
    case ReferenceObject::kSphere:
      CheckContactsOnSphere(p_W, c, kReferenceSphereRadius, tolerance);
      return;
    case ReferenceObject::kCube:
      CheckContactsOnBox(p_W, multibody::Pose::Translation(c),
                         Eigen::Vector3d::Constant(0.5 * kReferenceCubeEdge), tolerance);
      return;
    case ReferenceObject::kCylinder:
      CheckContactsOnCylinder(p_W, multibody::Pose::Translation(c), kReferenceCylinderRadius,
                              kReferenceCylinderHeight, tolerance);
      return;
  }
  throw std::invalid_argument("grasp: unknown reference object");
}

SurfaceSamples KeepAwayFromEdges(ReferenceObject object, const SurfaceSamples& samples,
                                 double margin) {
  if (!(std::isfinite(margin) && margin >= 0.0)) {
    throw std::invalid_argument("grasp: edge margin " + detail::NumberText(margin) +
                                " m; expected a value >= 0");
  }
  const Eigen::Vector3d centre = ReferenceObjectCentre(object);
  auto edge_distance = [&](const Eigen::Vector3d& p, const Eigen::Vector3d& n) {
    const Eigen::Vector3d r = p - centre;
    switch (object) {
      case ReferenceObject::kSphere:
        return std::numeric_limits<double>::infinity();
      case ReferenceObject::kCube: {
        double d = std::numeric_limits<double>::infinity();
        for (int axis = 0; axis < 3; ++axis) {
          if (std::abs(n[axis]) < 0.5)
            d = std::min(d, 0.5 * kReferenceCubeEdge - std::abs(r[axis]));
        }
        return d;
      }
      case ReferenceObject::kCylinder:
        return std::abs(n.z()) > 0.5 ? kReferenceCylinderRadius - r.head<2>().norm()
                                     : 0.5 * kReferenceCylinderHeight - std::abs(r.z());
    }
    return 0.0;
  };
  SurfaceSamples kept;
  kept.p_W.resize(3, samples.p_W.cols());
  kept.n_W.resize(3, samples.p_W.cols());
  int k = 0;
  for (Eigen::Index i = 0; i < samples.p_W.cols(); ++i) {
    if (edge_distance(samples.p_W.col(i), samples.n_W.col(i)) < margin) continue;
    kept.p_W.col(k) = samples.p_W.col(i);
    kept.n_W.col(k) = samples.n_W.col(i);
    ++k;
  }
  kept.p_W.conservativeResize(3, k);
  kept.n_W.conservativeResize(3, k);
  return kept;
}

}  // namespace twinblocks::grasp
