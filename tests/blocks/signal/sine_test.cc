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

TEST(SineTest, TimeBasedFormula) {
  BlockHarness h("Sine", {{"amplitude", "2"}, {"frequency", "3"}, {"phase", "0.5"}, {"bias", "1"}},
                 {});
  h.Initialize();
  for (double t : {0.0, 0.1, 1.7}) {
    h.MinorOutputs(t);
    EXPECT_DOUBLE_EQ(h.Out(), 2.0 * std::sin(3.0 * t + 0.5) + 1.0);
  }
  EXPECT_TRUE(h.block().sample_time().is_continuous());
}

TEST(SineTest, VectorParametersExpand) {
  BlockHarness h("Sine", {{"amplitude", "[1, 2]"}, {"phase", "pi/2"}}, {});
  h.Initialize();
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(DoubleNear(1.0, 1e-15), DoubleNear(2.0, 1e-15)));
}

}  // namespace
}  // namespace twinblocks::blocks
