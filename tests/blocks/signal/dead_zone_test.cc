#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "tests/blocks/block_test_helpers.h"

namespace twinblocks::blocks {
namespace {

using testing::BlockHarness;
using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(DeadZoneTest, SimulinkOutput) {
  BlockHarness h("DeadZone", {}, {4});  // start -0.5, end 0.5
  h.Initialize();
  h.SetInput(0, {-2, -0.2, 0.3, 1.5});
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(-1.5, 0.0, 0.0, 1.0));
  // Per element: u - end, then u - start.
  const std::vector<double> z = h.ZeroCrossings();
  EXPECT_THAT(z, ::testing::Pointwise(DoubleNear(1e-12), std::vector<double>{-2.5, -1.5, -0.7, 0.3,
                                                                             -0.2, 0.8, 1.0, 2.0}));
}

TEST(DeadZoneTest, RegionHeldInMinorSteps) {
  BlockHarness h("DeadZone", {{"start", "-1"}, {"end", "1"}}, {1});
  h.Initialize();
  h.SetInput(0, {0.0});
  h.MajorStep(0.0);
  h.SetInput(0, {1.5});
  h.MinorOutputs(0.1);
  EXPECT_EQ(h.Out(), 0.0);
  h.MajorStep(0.1);
  EXPECT_EQ(h.Out(), 0.5);
}

}  // namespace
}  // namespace twinblocks::blocks
