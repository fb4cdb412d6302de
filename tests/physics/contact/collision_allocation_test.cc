// Collide allocates nothing for pairs of primitives (it runs inside the simulation loop),
// except while EPA measures an overlap of two of box, cylinder and capsule (documented in
// collision.h): the GJK pairs allocate nothing while apart.

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <vector>

#include "physics/contact/collision.h"

// Counts heap allocations while g_count_allocations is set, by interposing malloc (operator
// new and Eigen both end there; glibc only, not under sanitizers, which own malloc). Weak, in
// case another test of this program interposes malloc too; then the count may not be ours, and
// the test checks first that it sees an allocation it makes.
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#define TB_COLLISION_COUNT_MALLOC 1
#endif
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#undef TB_COLLISION_COUNT_MALLOC
#endif
#endif

namespace {
std::atomic<bool> g_count_allocations{false};
std::atomic<long> g_allocations{0};
}  // namespace

#ifdef TB_COLLISION_COUNT_MALLOC
extern "C" void* __libc_malloc(std::size_t size);
extern "C" __attribute__((weak)) void* malloc(std::size_t size) {
  if (g_count_allocations.load(std::memory_order_relaxed)) ++g_allocations;
  return __libc_malloc(size);
}
#endif

namespace twinblocks::contact {
namespace {

using multibody::Pose;

TEST(CollisionAllocation, PrimitivePairsDoNotAllocate) {
#ifndef TB_COLLISION_COUNT_MALLOC
  GTEST_SKIP() << "malloc cannot be counted in this build";
#else
  g_allocations = 0;
  g_count_allocations = true;
  volatile void* probe = std::malloc(16);
  g_count_allocations = false;
  std::free(const_cast<void*>(probe));
  if (g_allocations == 0) GTEST_SKIP() << "another malloc interposer counts instead of this one";

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
        g_allocations = 0;
        g_count_allocations = true;
        const PairGeometry g = Collide(a, Pose::Identity(), b, X);
        g_count_allocations = false;
        EXPECT_EQ(g_allocations.load(), 0)
            << static_cast<int>(a.type) << " against " << static_cast<int>(b.type);
        ++queries;
        points += g.num_points;
      }
    }
  }
  EXPECT_GT(queries, 50);
  EXPECT_GT(points, 50);
#endif
}

}  // namespace
}  // namespace twinblocks::contact
