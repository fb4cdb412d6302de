#include "physics/multibody/solid_geometry.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <utility>
#include <vector>

#include "physics/multibody/mesh.h"
#include "tests/support/test_trees.h"

// Every closed form is checked against the exact polyhedral integration of MeshProperties: on
// a box mesh (which is the box, so to rounding) and on tessellated surfaces of revolution,
// which converge to the curved solid with the square of the angular step.

namespace twinblocks::multibody {
namespace {

using ::testing::HasSubstr;
using testing::RelativeError;
constexpr double kPi = std::numbers::pi;

// Relative difference of two inertia matrices, against the larger's norm.
// The box [-size/2, size/2] as 12 outward triangles.
TriangleMesh BoxMesh(const Eigen::Vector3d& size) {
  TriangleMesh mesh;
  for (int i = 0; i < 8; ++i) {
    mesh.vertices.push_back(0.5 * Eigen::Vector3d((i & 4) ? size.x() : -size.x(),
                                                  (i & 2) ? size.y() : -size.y(),
                                                  (i & 1) ? size.z() : -size.z()));
  }
  // Vertex i has x = bit 2, y = bit 1, z = bit 0; quads counter-clockwise seen from outside.
  const int quads[6][4] = {{0, 2, 6, 4}, {1, 5, 7, 3}, {0, 4, 5, 1},
                           {2, 3, 7, 6}, {0, 1, 3, 2}, {4, 6, 7, 5}};
  for (const auto& q : quads) {
    mesh.triangles.push_back({q[0], q[1], q[2]});
    mesh.triangles.push_back({q[0], q[2], q[3]});
  }
  return mesh;
}

// The surface swept by turning a profile (rho, z) about z in `segments` steps. The profile
// runs from a point on the axis at the bottom to one on the axis at the top; points on the
// axis become single vertices (poles), the others rings. Triangles face outward.
TriangleMesh RevolutionMesh(const std::vector<std::pair<double, double>>& profile, int segments) {
  TriangleMesh mesh;
  std::vector<int> first;  // first vertex of each profile point's ring (or its pole)
  for (const auto& [rho, z] : profile) {
    first.push_back(static_cast<int>(mesh.vertices.size()));
    if (rho == 0.0) {
      mesh.vertices.emplace_back(0.0, 0.0, z);
      continue;
    }
    for (int j = 0; j < segments; ++j) {
      const double angle = 2.0 * kPi * j / segments;
      mesh.vertices.emplace_back(rho * std::cos(angle), rho * std::sin(angle), z);
    }
  }
  auto at = [&](size_t k, int j) {
    return profile[k].first == 0.0 ? first[k] : first[k] + (j % segments);
  };
  for (size_t k = 0; k + 1 < profile.size(); ++k) {
    for (int j = 0; j < segments; ++j) {
      const int a = at(k, j), b = at(k, j + 1), c = at(k + 1, j + 1), d = at(k + 1, j);
      if (a != b) mesh.triangles.push_back({a, b, c});  // the lower point is not a pole
      if (c != d) mesh.triangles.push_back({a, c, d});  // the upper point is not a pole
    }
  }
  return mesh;
}

// Quarter arcs of radius r centred on the axis at height z0, from the bottom pole up to the
// equator (lower) or from the equator to the top pole (upper), `steps` steps each.
void AppendArc(double r, double z0, bool upper, int steps,
               std::vector<std::pair<double, double>>* profile) {
  for (int i = 0; i <= steps; ++i) {
    const double phi = (upper ? 0.0 : -0.5 * kPi) + 0.5 * kPi * i / steps;
    // Exact zeros at the poles, so that they become single vertices.
    const double rho = (upper ? i == steps : i == 0) ? 0.0 : r * std::cos(phi);
    profile->emplace_back(rho, z0 + r * std::sin(phi));
  }
}

TriangleMesh SphereMesh(double r, int segments) {
  std::vector<std::pair<double, double>> profile;
  AppendArc(r, 0.0, false, segments / 4, &profile);
  profile.pop_back();  // the equator is the upper arc's first point too
  AppendArc(r, 0.0, true, segments / 4, &profile);
  return RevolutionMesh(profile, segments);
}

TriangleMesh CylinderMesh(double r, double length, int segments) {
  return RevolutionMesh(
      {{0.0, -0.5 * length}, {r, -0.5 * length}, {r, 0.5 * length}, {0.0, 0.5 * length}}, segments);
}

TriangleMesh CapsuleMesh(double r, double length, int segments) {
  std::vector<std::pair<double, double>> profile;
  AppendArc(r, -0.5 * length, false, segments / 4, &profile);
  AppendArc(r, 0.5 * length, true, segments / 4, &profile);
  return RevolutionMesh(profile, segments);
}

// The relative errors of a tessellation's volume and inertia against the closed form, at
// `segments` and at twice as many: they must shrink about fourfold (second order), and the
// finer one must be below `tolerance`.
void ExpectConverges(const MassProperties& exact, TriangleMesh (*make)(int), int segments,
                     double tolerance) {
  double previous_volume_error = 0.0, previous_inertia_error = 0.0;
  for (int n : {segments, 2 * segments}) {
    SCOPED_TRACE(n);
    const TriangleMesh mesh = make(n);
    ASSERT_TRUE(IsClosed(mesh));
    const MassProperties p = MeshProperties(mesh, 1000.0);
    const double volume_error = std::abs(p.volume - exact.volume) / exact.volume;
    const double inertia_error = RelativeError(p.inertia_com, exact.inertia_com);
    EXPECT_LT(p.com.norm(), 1e-12);
    if (n == 2 * segments) {
      EXPECT_LT(volume_error, tolerance);
      EXPECT_LT(inertia_error, tolerance);
      EXPECT_NEAR(previous_volume_error / volume_error, 4.0, 0.5);
      EXPECT_NEAR(previous_inertia_error / inertia_error, 4.0, 0.5);
    }
    previous_volume_error = volume_error;
    previous_inertia_error = inertia_error;
  }
}

TEST(SolidGeometryTest, SphereClosedForm) {
  const MassProperties p = SphereProperties(0.5, 2000.0);
  const double volume = 4.0 / 3.0 * kPi * 0.125;
  EXPECT_DOUBLE_EQ(p.volume, volume);
  EXPECT_DOUBLE_EQ(p.mass, 2000.0 * volume);
  EXPECT_EQ(p.com, Eigen::Vector3d::Zero());
  EXPECT_LT(RelativeError(p.inertia_com, Eigen::Matrix3d::Identity() * 0.4 * p.mass * 0.25), 1e-15);
}

// Tolerances: an inscribed tessellation with angular step h = 2 pi / n falls short by about
// h^2 / 6 relative per curved direction, 1e-4 at n = 256 for the cylinder; the sphere and the
// capsule are curved in two directions and their inertia weights the outer layer most, so
// measured 2.5e-4 (volume) and 4.2e-4 (inertia) for the sphere: 1e-3 for those.
TEST(SolidGeometryTest, SphereMatchesTessellatedSphere) {
  ExpectConverges(
      SphereProperties(0.3, 1000.0), [](int n) { return SphereMesh(0.3, n); }, 128, 1e-3);
}

// A box mesh is the box: equal to rounding (1e-14 relative).
TEST(SolidGeometryTest, BoxMatchesBoxMesh) {
  const Eigen::Vector3d size(0.3, 1.7, 0.05);
  const MassProperties exact = BoxProperties(size, 7800.0);
  const MassProperties mesh = MeshProperties(BoxMesh(size), 7800.0);
  EXPECT_NEAR(mesh.volume, exact.volume, 1e-14 * exact.volume);
  EXPECT_NEAR(mesh.mass, exact.mass, 1e-14 * exact.mass);
  EXPECT_LT(mesh.com.norm(), 1e-15);
  EXPECT_LT(RelativeError(mesh.inertia_com, exact.inertia_com), 1e-14);
  EXPECT_NEAR(exact.inertia_com(0, 0), exact.mass * (1.7 * 1.7 + 0.05 * 0.05) / 12.0, 1e-12);
}

TEST(SolidGeometryTest, CylinderMatchesTessellatedPrism) {
  ExpectConverges(
      CylinderProperties(0.2, 0.9, 1000.0), [](int n) { return CylinderMesh(0.2, 0.9, n); }, 128,
      2e-4);
}

// The n-gon prism's volume is known exactly, (n/2) r^2 sin(2 pi / n) L: to rounding.
TEST(SolidGeometryTest, PrismVolumeIsExact) {
  const int n = 7;
  const MassProperties p = MeshProperties(CylinderMesh(0.2, 0.9, n), 1.0);
  EXPECT_NEAR(p.volume, 0.5 * n * 0.04 * std::sin(2.0 * kPi / n) * 0.9, 1e-15);
}

// A capsule is a cylinder plus two hemispheres. A hemisphere has half a sphere's mass and,
// about any axis through the centre of its flat face, half its inertia; its centroid is 3/8 r
// from that face. Assembled here with the parallel axis theorem, to rounding (1e-14).
TEST(SolidGeometryTest, CapsuleIsCylinderPlusTwoHemispheres) {
  const double r = 0.15, length = 0.6, rho = 1200.0;
  const MassProperties cylinder = CylinderProperties(r, length, rho);
  const MassProperties sphere = SphereProperties(r, rho);
  const double m_h = 0.5 * sphere.mass;
  const Eigen::Matrix3d face_inertia = 0.5 * sphere.inertia_com;  // about the flat face centre
  const double c = 3.0 / 8.0 * r;
  const Eigen::Matrix3d shift_z = Eigen::Vector3d(1.0, 1.0, 0.0).asDiagonal();  // ez offsets
  const Eigen::Matrix3d hemisphere_com = face_inertia - m_h * c * c * shift_z;
  const double d = 0.5 * length + c;  // hemisphere centroid from the capsule's centre
  const Eigen::Matrix3d expected =
      cylinder.inertia_com + 2.0 * (hemisphere_com + m_h * d * d * shift_z);

  const MassProperties capsule = CapsuleProperties(r, length, rho);
  EXPECT_NEAR(capsule.volume, cylinder.volume + sphere.volume, 1e-15);
  EXPECT_NEAR(capsule.mass, cylinder.mass + sphere.mass, 1e-12);
  EXPECT_EQ(capsule.com, Eigen::Vector3d::Zero());
  EXPECT_LT(RelativeError(capsule.inertia_com, expected), 1e-14);
}

TEST(SolidGeometryTest, CapsuleMatchesTessellatedCapsule) {
  ExpectConverges(
      CapsuleProperties(0.15, 0.6, 1000.0), [](int n) { return CapsuleMesh(0.15, 0.6, n); }, 128,
      1e-3);
}

// The closed forms are about the shape's own axes; turning the mesh turns the inertia as
// R I R^T, and the principal moments stay (1e-13 relative).
TEST(SolidGeometryTest, RotatedBoxMeshInertiaRotates) {
  const Eigen::Vector3d size(0.4, 0.1, 0.25);
  TriangleMesh mesh = BoxMesh(size);
  const Eigen::Matrix3d R =
      (Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized())).toRotationMatrix();
  for (auto& v : mesh.vertices) v = R * v;
  const MassProperties exact = BoxProperties(size, 500.0);
  const MassProperties p = MeshProperties(mesh, 500.0);
  EXPECT_LT(RelativeError(p.inertia_com, R * exact.inertia_com * R.transpose()), 1e-13);
}

TEST(SolidGeometryTest, ScaledToMassKeepsShape) {
  const MassProperties p = BoxProperties(Eigen::Vector3d(1.0, 2.0, 3.0), 1000.0);
  const MassProperties scaled = ScaledToMass(p, 12.0);
  EXPECT_EQ(scaled.volume, p.volume);
  EXPECT_EQ(scaled.mass, 12.0);
  EXPECT_EQ(scaled.com, p.com);
  // The same as giving the density that makes 12 kg.
  const MassProperties direct = BoxProperties(Eigen::Vector3d(1.0, 2.0, 3.0), 12.0 / 6.0);
  EXPECT_LT(RelativeError(scaled.inertia_com, direct.inertia_com), 1e-15);
}

TEST(SolidGeometryTest, ScaledToMassRejectsBadMass) {
  const MassProperties p = SphereProperties(1.0, 1.0);
  EXPECT_THROW(ScaledToMass(p, 0.0), std::invalid_argument);
  EXPECT_THROW(ScaledToMass(p, -1.0), std::invalid_argument);
  EXPECT_THROW(ScaledToMass(p, std::nan("")), std::invalid_argument);
  EXPECT_THROW(ScaledToMass(MassProperties{}, 1.0), std::invalid_argument);
}

// The messages reach users as "block 'x' (Solid): <message>": they name the dimension, say
// what it must be and give the value.
TEST(SolidGeometryTest, RejectsBadDimensionsByName) {
  auto message = [](auto&& f) {
    try {
      f();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no exception");
  };
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(message([] { SphereProperties(-0.1, 1000.0); }),
            "radius must be finite and > 0 (m), got -0.1");
  EXPECT_THAT(message([] { SphereProperties(1.0, 0.0); }), HasSubstr("density must be"));
  EXPECT_THAT(message([] { BoxProperties(Eigen::Vector3d(1.0, 0.0, 1.0), 1000.0); }),
              HasSubstr("size[1] (y) must be finite and > 0 (m), got 0"));
  EXPECT_THAT(message([&] { BoxProperties(Eigen::Vector3d(1.0, 1.0, inf), 1000.0); }),
              HasSubstr("size[2] (z)"));
  EXPECT_THAT(message([] { CylinderProperties(0.1, std::nan(""), 1000.0); }),
              HasSubstr("length must be finite and > 0 (m), got nan"));
  EXPECT_THAT(message([] { CylinderProperties(0.0, 1.0, 1000.0); }), HasSubstr("radius"));
  EXPECT_THAT(message([] { CapsuleProperties(0.1, -2.0, 1000.0); }), HasSubstr("length"));
  EXPECT_THAT(message([&] { CapsuleProperties(-inf, 1.0, 1000.0); }), HasSubstr("radius"));
}

TEST(SolidGeometryTest, ShapeKindNamesAreTheCatalogs) {
  EXPECT_STREQ(ShapeKindName(ShapeKind::kCapsule), "capsule");
  EXPECT_STREQ(ShapeKindName(ShapeKind::kPlane), "plane");
  EXPECT_STREQ(ShapeKindName(ShapeKind::kNone), "none");
}

}  // namespace
}  // namespace twinblocks::multibody
