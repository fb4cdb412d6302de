// Memory: the previous major step's input, at a continuous rate and on an inherited discrete
// one; in a loop it closes without an algebraic loop; no allocation while stepping.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "tests/blocks/block_test_helpers.h"
#include "tests/blocks/step_allocations.h"
#include "tests/support/acceptance_helpers.h"

namespace twinblocks::blocks {
namespace {

using testing::BlockHarness;
using ::testing::ElementsAre;

TEST(MemoryTest, OutputsTheInputOfThePreviousMajorStep) {
  BlockHarness h("Memory", {{"initial_condition", "[1, 2]"}}, {2});
  EXPECT_EQ(h.block().input_port(0).feedthrough, kNoFeedthrough);
  EXPECT_TRUE(h.block().sample_time().is_continuous());
  h.Initialize();
  h.SetInput(0, {5.0, 6.0});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(1.0, 2.0));
  h.SetInput(0, {7.0, 8.0});
  h.MinorOutputs(0.05);  // held inside the step
  EXPECT_THAT(h.Output(), ElementsAre(1.0, 2.0));
  h.MajorStep(0.1);
  EXPECT_THAT(h.Output(), ElementsAre(5.0, 6.0));
  h.MajorStep(0.13);
  EXPECT_THAT(h.Output(), ElementsAre(7.0, 8.0));
}

TEST(MemoryTest, InheritingADiscreteRateIsAUnitDelay) {
  testing::BlockHarness::Options options;
  options.inherited_as = SampleTime::Discrete(0.1);
  BlockHarness h("Memory", {{"inherit_sample_time", "true"}, {"initial_condition", "-1"}}, {1},
                 options);
  h.Initialize();
  std::vector<double> y;
  for (int k = 0; k < 5; ++k) {
    h.SetInputs({10.0 * k});
    h.MajorStep(0.1 * k);
    h.MajorStep(0.1 * k + 0.05);  // between hits: nothing runs
    y.push_back(h.Out());
  }
  EXPECT_THAT(y, ElementsAre(-1.0, 0.0, 10.0, 20.0, 30.0));
}

// x' = -m, m = x at the previous major step: a loop through Memory alone, and each row's m is
// the x of the row before (a row per major step).
TEST(MemoryTest, ClosesALoopAndHoldsTheRowBefore) {
  const std::string model = R"(<?xml version="1.0" encoding="UTF-8"?>
<model name="memory_loop" format="1">
  <simulation solver="ode45" t_end="1"/>
  <block type="Integrator" name="x" x0="1"/>
  <block type="Memory" name="m" initial_condition="0.5"/>
  <block type="Gain" name="minus" k="-1"/>
  <connect from="x.y" to="m.u"/>
  <connect from="m.y" to="minus.u"/>
  <connect from="minus.y" to="x.u"/>
  <log signal="x.y" as="x"/>
  <log signal="m.y" as="m"/>
</model>
)";
  const auto out = twinblocks::testing::RunModelText(model);
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const std::vector<double> x = twinblocks::testing::Column(out.recording, "x");
  const std::vector<double> m = twinblocks::testing::Column(out.recording, "m");
  ASSERT_GT(x.size(), 5u);
  EXPECT_EQ(m[0], 0.5);
  for (size_t k = 1; k < x.size(); ++k) EXPECT_EQ(m[k], x[k - 1]) << k;
}

TEST(MemoryTest, AllocatesNothingWhileStepping) {
  BlockHarness h("Memory", {}, {4});
  h.Initialize();
  std::vector<double> u(4);
  const long allocations = testing::AllocationsWhileStepping(h, 200, 0.01, [&](double t) {
    for (int i = 0; i < 4; ++i) u[i] = t * i;
    h.SetInput(0, u);
  });
  if (allocations < 0) GTEST_SKIP() << "allocations are not counted here";
  EXPECT_EQ(allocations, 0);
}

}  // namespace
}  // namespace twinblocks::blocks
