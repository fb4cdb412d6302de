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

TEST(DiscretePidTest, FirstSamplesByHand) {
  // Kp = 2, Ki = 4, Kd = 0.1, Ts = 0.5:
  // u[k] = 2 e[k] + I[k] + 0.2 (e[k] - e[k-1]),  I[k+1] = I[k] + 2 e[k].
  BlockHarness h("DiscretePID", {{"Kp", "2"}, {"Ki", "4"}, {"Kd", "0.1"}, {"Ts", "0.5"}}, {1});
  h.Initialize();
  const std::vector<double> e = {1.0, 3.0, -1.0};
  std::vector<double> u;
  for (int k = 0; k < 3; ++k) {
    h.SetInput(0, {e[k]});
    h.MajorStep(0.5 * k);
    u.push_back(h.Out());
  }
  // k=0: 2 + 0 + 0.2*1 = 2.2; I=2.  k=1: 6 + 2 + 0.2*2 = 8.4; I=8.  k=2: -2 + 8 - 0.8 = 5.2.
  EXPECT_THAT(u,
              ElementsAre(DoubleNear(2.2, 1e-12), DoubleNear(8.4, 1e-12), DoubleNear(5.2, 1e-12)));
}

TEST(DiscretePidTest, InheritedPeriodIsUsed) {
  BlockHarness::Options o;
  o.inherited_as = SampleTime::Discrete(0.25);
  BlockHarness h("DiscretePID", {{"Kp", "0"}, {"Ki", "1"}}, {1}, o);
  h.Initialize();
  h.SetInput(0, {2});
  h.MajorStep(0.0);
  EXPECT_EQ(h.Out(), 0.0);
  h.MajorStep(0.25);
  EXPECT_DOUBLE_EQ(h.Out(), 0.5);
}

}  // namespace
}  // namespace twinblocks::blocks
