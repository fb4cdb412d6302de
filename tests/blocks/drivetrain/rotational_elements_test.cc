// The drivetrain blocks as elements: parameters, ports, and what they refuse, built directly
// (their networks are tested in tests/blocks/multibody/mechanism_drivetrain_test.cc).
#include "blocks/drivetrain/rotational_elements.h"

#include <gtest/gtest.h>

#include "tests/blocks/block_test_helpers.h"

namespace twinblocks::drivetrain {
namespace {

using blocks::testing::MakeParams;
using blocks::testing::ParamTexts;

std::unique_ptr<blocks::Block> Make(const blocks::BlockType& type, const ParamTexts& texts = {}) {
  return type.create(MakeParams(type, texts));
}

std::string Refusal(const blocks::BlockType& type, const ParamTexts& texts) {
  try {
    Make(type, texts);
  } catch (const blocks::BlockError& e) {
    return e.what();
  }
  return "nothing thrown";
}

TEST(DrivetrainElements, DeclareRotationalPorts) {
  auto gear = Make(SimpleGearType(), {{"ratio", "80"}});
  ASSERT_EQ(gear->num_physical_ports(), 2);
  EXPECT_EQ(gear->physical_port(0).name, "B");
  EXPECT_EQ(gear->physical_port(1).domain, "rotational");
  EXPECT_EQ(dynamic_cast<const SimpleGearElement&>(*gear).ratio, 80.0);
  auto inertia = Make(InertiaType(), {{"J", "3.3e-4"}});
  EXPECT_EQ(inertia->physical_port(0).name, "I");
  auto reference = Make(RotationalReferenceType());
  EXPECT_EQ(reference->num_physical_ports(), 1);
}

TEST(DrivetrainElements, FrictionReadsTheSimscapeParameters) {
  auto f = Make(RotationalFrictionType(), {{"brk_torque", "13"}, {"coulomb_torque", "10"}});
  const auto& e = dynamic_cast<const RotationalFrictionElement&>(*f);
  EXPECT_EQ(e.friction.breakaway_torque, 13.0);
  EXPECT_EQ(e.friction.breakaway_velocity, 0.1);
  EXPECT_EQ(e.friction.viscous, 0.001);
  EXPECT_NE(Refusal(RotationalFrictionType(), {{"brk_torque", "5"}}).find("at least"),
            std::string::npos);
}

TEST(DrivetrainElements, MotorsDeclareTheirSignals) {
  auto dc = Make(DCMotorType(), {{"R", "1"}, {"L", "0.01"}, {"Kt", "0.1"}, {"Ke", "0.1"}});
  EXPECT_EQ(dc->input_port(0).name, "v");
  EXPECT_GE(dc->FindOutput("i"), 0);
  auto foc = Make(PmsmType());
  EXPECT_EQ(foc->input_port(0).name, "tau_ref");
  EXPECT_EQ(foc->output_port(foc->FindOutput("idq")).width, 2);
  auto voltage = Make(PmsmType(), {{"mode", "voltage"}});
  EXPECT_EQ(voltage->input_port(0).name, "vdq");
  EXPECT_EQ(voltage->input_port(0).width, 2);
  EXPECT_NE(Refusal(DCMotorType(), {{"R", "0"}, {"L", "0.01"}, {"Kt", "0.1"}, {"Ke", "0.1"}})
                .find("'R' must be positive"),
            std::string::npos);
  EXPECT_NE(Refusal(SimpleGearType(), {{"ratio", "0"}}).find("non-zero"), std::string::npos);
}

}  // namespace
}  // namespace twinblocks::drivetrain
