// PatchMechanism: a built mechanism brought to its elements' new numbers without building it
// again must be what BuildMechanism builds from them, and must decline what changes the tree.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "blocks/multibody/mechanism_builder.h"
#include "tests/blocks/block_test_helpers.h"

namespace twinblocks::blocks {
namespace {

using multibody::MechanismModel;
using multibody::NetworkElement;
using testing::MakeBlock;

using testing::ParamTexts;

// A hinge with a bob, a spring from the world to the bob, a ball-on-floor contact and friction
// on the hinge's shaft: one element of each kind PatchMechanism patches.
struct Network {
  std::vector<std::string> types = {"World",
                                    "RevoluteJoint",
                                    "Solid",
                                    "Solid",
                                    "SpatialContactForce",
                                    "InternalForce",
                                    "RotationalFriction",
                                    "RotationalReference"};
  std::vector<std::string> names = {"world",   "hinge",  "bob",      "floor",
                                    "contact", "spring", "friction", "case"};
  std::vector<ParamTexts> params = {
      {},
      {{"actuation", "port"}, {"damping", "0.05"}, {"stiffness", "0.5"}, {"q0", "0.3"}},
      {{"shape", "sphere"}, {"radius", "0.05"}, {"mass", "1.2"}},
      {{"shape", "plane"}},
      {{"stiffness", "1e4"}, {"damping", "20"}},
      {{"mode", "spring_damper"}, {"k", "30"}, {"c", "0.5"}, {"length0", "0.2"}},
      {{"coulomb_torque", "0.3"}, {"brk_torque", "0.4"}},
      {}};
  // Nodes: 0 the world, 1 the bob's frame, 2 the shaft, 3 the case.
  std::vector<std::vector<int>> nodes = {{0}, {0, 1, 2}, {1}, {0}, {0, 1}, {0, 1}, {2, 3}, {3}};
  std::vector<std::unique_ptr<Block>> blocks;

  std::vector<NetworkElement> Elements() {
    blocks.clear();
    std::vector<NetworkElement> elements;
    for (size_t e = 0; e < types.size(); ++e) {
      blocks.push_back(MakeBlock(types[e], params[e]));
      elements.push_back({blocks.back().get(), names[e], nodes[e]});
    }
    return elements;
  }
};

// One parameter of one element set to another value.
struct PatchCase {
  std::string name;
  int element;
  std::string param, value;
};

void PrintTo(const PatchCase& c, std::ostream* os) { *os << c.name; }

// The network before and after the case's change, the mechanism built from the first, and
// what PatchMechanism makes of it.
class PatchMechanismTest : public ::testing::TestWithParam<PatchCase> {
 protected:
  void SetUp() override {
    const PatchCase& c = GetParam();
    after_network_.params[c.element][c.param] = c.value;
    before_ = before_network_.Elements();
    after_ = after_network_.Elements();
    built_ = multibody::BuildMechanism(before_, 4, "m");
    std::vector<unsigned char> changed(before_.size(), 0);
    changed[c.element] = 1;
    patched_ = multibody::PatchMechanism(built_, before_, after_, changed, 4);
  }

  Network before_network_, after_network_;
  std::vector<NetworkElement> before_, after_;
  MechanismModel built_;
  std::optional<MechanismModel> patched_;
};

using PatchMechanismPatches = PatchMechanismTest;
using PatchMechanismDeclines = PatchMechanismTest;

// Patched, the numbers are bitwise those of a mechanism built from the new elements.
TEST_P(PatchMechanismPatches, WhatBuildMechanismBuilds) {
  ASSERT_TRUE(patched_.has_value());
  const MechanismModel& built = built_;
  const MechanismModel rebuilt = multibody::BuildMechanism(after_, 4, "m");
  const std::optional<MechanismModel>& patched = patched_;

  const auto& law = patched->contacts.at(0).laws.at(0);
  const auto& law_rebuilt = rebuilt.contacts.at(0).laws.at(0);
  EXPECT_EQ(law.stiffness, law_rebuilt.stiffness);
  EXPECT_EQ(law.damping, law_rebuilt.damping);
  const auto& joint = patched->joints.at(0).properties;
  const auto& joint_rebuilt = rebuilt.joints.at(0).properties;
  EXPECT_EQ(joint.damping, joint_rebuilt.damping);
  EXPECT_EQ(joint.stiffness, joint_rebuilt.stiffness);
  EXPECT_EQ(joint.upper, joint_rebuilt.upper);
  const auto& spring = patched->internal_forces.at(0);
  EXPECT_EQ(spring.k, rebuilt.internal_forces.at(0).k);
  EXPECT_EQ(spring.c, rebuilt.internal_forces.at(0).c);
  EXPECT_EQ(spring.length0, rebuilt.internal_forces.at(0).length0);
  ASSERT_EQ(patched->drivetrain.forces.size(), rebuilt.drivetrain.forces.size());
  const auto& friction = patched->drivetrain.forces.at(0).friction;
  const auto& friction_rebuilt = rebuilt.drivetrain.forces.at(0).friction;
  EXPECT_EQ(friction.coulomb_torque, friction_rebuilt.coulomb_torque);
  EXPECT_EQ(friction.breakaway_torque, friction_rebuilt.breakaway_torque);
  // And the change is there: the patched model is not the one it started from.
  EXPECT_FALSE(law.stiffness == built.contacts[0].laws[0].stiffness &&
               law.damping == built.contacts[0].laws[0].damping &&
               joint.damping == built.joints[0].properties.damping &&
               joint.stiffness == built.joints[0].properties.stiffness &&
               joint.upper == built.joints[0].properties.upper &&
               spring.k == built.internal_forces[0].k &&
               friction.coulomb_torque == built.drivetrain.forces[0].friction.coulomb_torque);
}

INSTANTIATE_TEST_SUITE_P(
    NumbersOnly, PatchMechanismPatches,
    ::testing::Values(PatchCase{"ContactStiffness", 4, "stiffness", "3e4"},
                      PatchCase{"ContactDamping", 4, "damping", "35"},
                      PatchCase{"JointDamping", 1, "damping", "0.2"},
                      PatchCase{"JointStiffness", 1, "stiffness", "1.5"},
                      PatchCase{"JointStop", 1, "upper", "1.2"},
                      PatchCase{"SpringConstant", 5, "k", "45"},
                      PatchCase{"CoulombFriction", 6, "coulomb_torque", "0.35"}),
    [](const ::testing::TestParamInfo<PatchCase>& info) { return info.param.name; });

// A change the tree or the coordinates depend on is declined: the caller builds again.
TEST_P(PatchMechanismDeclines, WhatChangesTheTree) { EXPECT_FALSE(patched_.has_value()); }

INSTANTIATE_TEST_SUITE_P(Structure, PatchMechanismDeclines,
                         ::testing::Values(PatchCase{"Mass", 2, "mass", "2.5"},
                                           PatchCase{"JointStart", 1, "q0", "0.4"},
                                           PatchCase{"ShapeRadius", 2, "radius", "0.06"},
                                           PatchCase{"SpringBecomesInput", 5, "mode", "input"}),
                         [](const ::testing::TestParamInfo<PatchCase>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace twinblocks::blocks
