// Collide allocates nothing for pairs of primitives (it runs inside the simulation loop),
// except while EPA measures an overlap of two of box, cylinder and capsule (documented in
// collision.h): the GJK pairs allocate nothing while apart.

#include <gtest/gtest.h>

#include <vector>

#include "physics/contact/collision.h"
#include "tests/physics/malloc_count.h"

namespace twinblocks::contact {
namespace {

using multibody::Pose;

TEST(CollisionAllocation, PrimitivePairsDoNotAllocate) {
  if (!twinblocks::testing::kMallocCounted) {
    GTEST_SKIP() << "malloc cannot be counted in this build";
  }

  const std::vector<Shape> shapes = {
      Shape::Sphere(0.1), Shape::Box(Eigen::Vector3d(0.2, 0.15, 0.1)), Shape::Cylinder(0.08, 0.2),
      Shape::Capsule(0.05, 0.2), Shape::Plane()};
  // Each pair overlapping, touching face to face (several points) and apart.
  const std::vector<Pose> poses = {
      Pose(multibody::Rx(0.3) * multibody::Rz(0.2), {0.03, 0.02, 0.05}),
      Pose::Translation({0.0, 0.0, 0.099}), Pose(multibody::Ry(0.4), {0.05, 0.0, 0.4})};
  // The documented exception: a box, cylinder or capsule overlapping a box or cylinder goes
  // through libccd's EPA, which allocates its polytope.
  const auto by_epa = [](const Shape& a, const Shape& b, const PairGeometry& g) {
    const auto gjk = [](ShapeType t) {
      return t == ShapeType::kBox || t == ShapeType::kCylinder || t == ShapeType::kCapsule;
    };
    return gjk(a.type) && gjk(b.type) &&
           !(a.type == ShapeType::kCapsule && b.type == ShapeType::kCapsule) && g.distance < 0.0;
  };
  int queries = 0, points = 0;
  for (const Shape& a : shapes) {
    for (const Shape& b : shapes) {
      for (const Pose& X : poses) {
        if (by_epa(a, b, Collide(a, Pose::Identity(), b, X))) continue;
        twinblocks::testing::StartCountingAllocations();
        const PairGeometry g = Collide(a, Pose::Identity(), b, X);
        EXPECT_EQ(twinblocks::testing::StopCountingAllocations(), 0)
            << static_cast<int>(a.type) << " against " << static_cast<int>(b.type);
        ++queries;
        points += g.num_points;
      }
    }
  }
  EXPECT_GT(queries, 50);
  EXPECT_GT(points, 50);
}

}  // namespace
}  // namespace twinblocks::contact
