// SpatialContactForce's `force` output, as the mechanism computes it: the total force on F's
// side, normal and friction, in W, consistent with its fn, ff and normal outputs (a grasp
// analysis reads it).
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <span>
#include <string>

#include "compiler/compile.h"
#include "runtime/simulator.h"
#include "tests/blocks/multibody/pressed_sphere.h"
#include "xml/model_reader.h"

namespace twinblocks {
namespace {

Eigen::Vector3d Vector(std::span<const double> v) { return {v[0], v[1], v[2]}; }

struct ContactOutputs {
  Eigen::Vector3d force, normal;
  double fn = 0.0, ff = 0.0;
};

ContactOutputs AtTheStart(const std::string& v0, const std::string& friction) {
  const graph::System system = graph::Compile(
      xml::ReadModelString(testing::pressed_sphere::PressedSphere(v0, friction), "pressed.xml"));
  graph::Simulator sim(system, system.settings());
  const graph::SignalHandle force = sim.FindSignal("contact.force");
  const graph::SignalHandle normal = sim.FindSignal("contact.normal");
  const graph::SignalHandle fn = sim.FindSignal("contact.fn");
  const graph::SignalHandle ff = sim.FindSignal("contact.ff");
  sim.Initialize();
  return {Vector(sim.Read(force)), Vector(sim.Read(normal)), sim.Read(fn)[0], sim.Read(ff)[0]};
}

// At rest, pressed 0.1 mm into the plane: the force is the normal force, k * depth = 100 N,
// along the normal from the plane (B) to the ball (F), +z. Tolerances: round-off, 1e-9 of fn.
TEST(ContactForceOutput, AtRestIsTheNormalForce) {
  const ContactOutputs c = AtTheStart("[0, 0, 0]", "");
  EXPECT_NEAR(c.fn, testing::pressed_sphere::kStiffness * testing::pressed_sphere::kDepth,
              1e-9 * c.fn);
  EXPECT_LT((c.normal - Eigen::Vector3d::UnitZ()).norm(), 1e-12);
  EXPECT_LT((c.force - c.fn * c.normal).norm(), 1e-9 * c.fn);
  EXPECT_EQ(c.ff, 0.0);
}

// Sliding along +x with Coulomb friction: the friction part opposes the slip, -mu_d fn along
// x, and the total is normal plus friction, its parts matching fn and ff.
TEST(ContactForceOutput, SlidingAddsTheFrictionOpposingTheSlip) {
  const ContactOutputs c = AtTheStart("[0.5, 0, 0]", R"(friction="coulomb" mu_s="0.3" mu_d="0.3")");
  ASSERT_GT(c.fn, 0.0);
  EXPECT_NEAR(c.force.dot(c.normal), c.fn, 1e-9 * c.fn);
  const Eigen::Vector3d friction = c.force - c.force.dot(c.normal) * c.normal;
  EXPECT_NEAR(friction.norm(), c.ff, 1e-9 * c.fn);
  EXPECT_NEAR(friction.x(), -testing::pressed_sphere::kMuD * c.fn, 1e-9 * c.fn);
  EXPECT_NEAR(friction.y(), 0.0, 1e-12);
}

}  // namespace
}  // namespace twinblocks
