#include "physics/grasp/object_surface.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "physics/grasp/triangle_measures.h"

namespace twinblocks::grasp {
namespace {

// Signed distance of p from the reference object's surface (m), and its outward normal there.
double ReferenceSurfaceDistance(ReferenceObject object, const Eigen::Vector3d& p) {
  const Eigen::Vector3d d = p - ReferenceObjectCentre(object);
  switch (object) {
    case ReferenceObject::kSphere:
      return d.norm() - 0.040;
    case ReferenceObject::kCube:
      return d.cwiseAbs().maxCoeff() - 0.040;
    case ReferenceObject::kCylinder:
      return std::max(d.head<2>().norm() - 0.035, std::abs(d.z()) - 0.070);
  }
  return NAN;
}

// Every point on the surface (1e-15 m), above z = 0.005, with a unit normal pointing out
// (a point moved 1 mm along it is outside, 1 mm against it inside); the counts are those the
// header promises, within kMaxTrianglePoints.
TEST(ObjectSurfaceTest, ReferenceObjectsAreSampledOnTheirSurfaces) {
  const struct {
    ReferenceObject object;
    int count;
  } cases[] = {{ReferenceObject::kSphere, 126},
               {ReferenceObject::kCube, 245},
               {ReferenceObject::kCylinder, 239}};
  for (const auto& c : cases) {
    SCOPED_TRACE(ReferenceObjectName(c.object));
    const SurfaceSamples s = SampleReferenceObject(c.object);
    EXPECT_EQ(s.p_W.cols(), c.count);
    EXPECT_LE(s.p_W.cols(), kMaxTrianglePoints);
    ASSERT_EQ(s.n_W.cols(), s.p_W.cols());
    for (Eigen::Index i = 0; i < s.p_W.cols(); ++i) {
      const Eigen::Vector3d p = s.p_W.col(i);
      const Eigen::Vector3d n = s.n_W.col(i);
      EXPECT_NEAR(ReferenceSurfaceDistance(c.object, p), 0.0, 1e-15) << i;
      EXPECT_GT(p.z(), kTableClearance) << i;
      EXPECT_NEAR(n.norm(), 1.0, 1e-15) << i;
      EXPECT_NEAR(ReferenceSurfaceDistance(c.object, p + 0.001 * n), 0.001, 1e-4) << i;
      EXPECT_LT(ReferenceSurfaceDistance(c.object, p - 0.001 * n), 0.0) << i;
    }
  }
}

// The sphere's equator (a ring of round(2 pi 0.04 / 0.012) = 21 points) is sampled from
// longitude 0; the poles are single points and the lower one is dropped with the ring
// below z = 0.005.
TEST(ObjectSurfaceTest, SphereRingsAndTableCut) {
  const SurfaceSamples all = SampleSphereSurface({0, 0, 0}, 0.04, 0.012, -1.0);
  int equator = 0;
  int poles = 0;
  for (Eigen::Index i = 0; i < all.p_W.cols(); ++i) {
    equator += std::abs(all.p_W(2, i)) < 1e-15 ? 1 : 0;
    poles += std::abs(std::abs(all.p_W(2, i)) - 0.04) < 1e-15 ? 1 : 0;
  }
  EXPECT_EQ(equator, 21);
  EXPECT_EQ(poles, 2);
  const SurfaceSamples above = SampleSphereSurface({0, 0, 0.04}, 0.04, 0.012);
  EXPECT_EQ(all.p_W.cols() - above.p_W.cols(), 1 + 6);  // the pole and the ring at z = 0.002
}

TEST(ObjectSurfaceTest, BadInputIsRefused) {
  using ::testing::HasSubstr;
  EXPECT_THROW(SampleSphereSurface({0, 0, 0}, 0.0, 0.01), std::invalid_argument);
  EXPECT_THROW(SampleSphereSurface({0, 0, 0}, 0.04, -0.01), std::invalid_argument);
  EXPECT_THROW(SampleSphereSurface({0, 0, NAN}, 0.04, 0.01), std::invalid_argument);
  EXPECT_THROW(SampleBoxSurface({0, 0, 0}, {0.04, 0.0, 0.04}, 0.01), std::invalid_argument);
  EXPECT_THROW(SampleCylinderSurface({0, 0, 0}, 0.035, -0.1, 0.01), std::invalid_argument);
  EXPECT_THROW(SampleCylinderSurface({0, 0, 0}, 0.035, 0.14, INFINITY), std::invalid_argument);
  try {
    SampleReferenceObject(ReferenceObject::kCube, 0.005);
    ADD_FAILURE() << "no throw";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("more than 300 (kMaxTrianglePoints)"));
  }
}

}  // namespace
}  // namespace twinblocks::grasp
