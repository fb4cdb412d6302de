// The history of the transport delays: the ring buffer in work memory, and the ENO quintic
// that reads it (exact on quintics, without overshoot at a jump).
#include "blocks/delay/detail/delay_history.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace twinblocks::blocks::internal {
namespace {

// Uneven times, as a variable-step solver leaves them: long, short, restarts.
const std::vector<double> kTimes = {0.0, 0.1, 0.35, 0.4, 0.41, 0.6, 0.95, 1.0, 1.3, 1.32, 1.7};

std::vector<double> WorkMemory(const DelayHistory& h) {
  return std::vector<double>(DelayHistory::WorkSize(h.capacity(), h.width()), std::nan(""));
}

double Quintic(double t) { return 1.0 - 2.0 * t + 0.5 * t * t + t * t * t - 0.7 * std::pow(t, 5); }

TEST(DelayHistoryTest, QuinticsAreReadExactlyBetweenUnevenSamples) {
  const DelayHistory h(32, 2);
  std::vector<double> dw = WorkMemory(h);
  h.Clear(dw.data());
  for (double t : kTimes) {
    const double u[2] = {Quintic(t), 3.0 * t - 1.0};
    ASSERT_TRUE(h.Append(dw.data(), t, u, 1, 0.0));
  }
  ASSERT_EQ(h.count(dw.data()), static_cast<int>(kTimes.size()));
  // Every stencil ENO may choose holds six samples: each reproduces a quintic.
  for (double q = 0.0; q <= 1.7; q += 0.0123) {
    double y[2];
    h.Read(dw.data(), q, y);
    EXPECT_NEAR(y[0], Quintic(q), 1e-12) << q;
    EXPECT_NEAR(y[1], 3.0 * q - 1.0, 1e-13) << q;
    EXPECT_EQ(h.ReadElement(dw.data(), q, 0), y[0]);
  }
  // At the samples themselves, their values.
  for (double t : kTimes) EXPECT_NEAR(h.ReadElement(dw.data(), t, 0), Quintic(t), 1e-14);
}

TEST(DelayHistoryTest, AJumpIsDelayedWithoutOvershoot) {
  const DelayHistory h(32, 1);
  std::vector<double> dw = WorkMemory(h);
  h.Clear(dw.data());
  // 0 until the sample at 0.95 (the major step that ended on an event), 1 from there.
  for (double t : kTimes) {
    const double u = t < 0.95 ? 0.0 : 1.0;
    ASSERT_TRUE(h.Append(dw.data(), t, &u, 0, 0.0));
  }
  double last = 0.0;
  for (double q = 0.0; q <= 1.7; q += 0.001) {
    const double y = h.ReadElement(dw.data(), q, 0);
    if (q <= 0.6) {
      EXPECT_EQ(y, 0.0) << q;  // the stencils of every interval before stay left of it
    } else if (q >= 0.95) {
      EXPECT_EQ(y, 1.0) << q;
    } else {
      // The jump's own interval: a rise from one level to the other, within them.
      EXPECT_GE(y, last) << q;
      EXPECT_LE(y, 1.0) << q;
    }
    last = y;
  }
}

// A jump between the two newest samples' neighbours, read in the newest interval: the
// stencil cannot grow to the right, and growing left across the jump (an event's short step
// before a long one) would amplify it sevenfold. It keeps the degree it had.
TEST(DelayHistoryTest, AJumpNearTheNewestSampleIsNotCarriedIntoTheLastInterval) {
  const DelayHistory h(16, 1);
  std::vector<double> dw = WorkMemory(h);
  h.Clear(dw.data());
  for (double t : {0.0, 0.2, 0.4, 0.59, 0.6, 0.9}) {
    const double u = t < 0.6 ? 0.0 : 1.0;
    ASSERT_TRUE(h.Append(dw.data(), t, &u, 0, 0.0));
  }
  for (double q = 0.6; q <= 0.9; q += 0.01) EXPECT_EQ(h.ReadElement(dw.data(), q, 0), 1.0) << q;
  for (double q = 0.0; q <= 0.59; q += 0.01) EXPECT_EQ(h.ReadElement(dw.data(), q, 0), 0.0) << q;
}

// A pulse three samples long, sampled at uneven steps: every six-sample stencil crosses one
// of its edges. The read stays within the two levels, and on the plateaus exactly on them.
TEST(DelayHistoryTest, APulseNarrowerThanTheStencilDoesNotOvershoot) {
  const DelayHistory h(32, 1);
  std::vector<double> dw = WorkMemory(h);
  h.Clear(dw.data());
  const std::vector<double> times = {3.2218, 3.6218, 4.0, 4.4, 4.7124, 5.0, 5.1634, 5.5634, 5.9634};
  for (double t : times) {
    const double u = t >= 4.0 && t < 5.0 ? 1.0 : 0.0;
    ASSERT_TRUE(h.Append(dw.data(), t, &u, 0, 0.0));
  }
  for (double q = 3.2218; q <= 5.9634; q += 0.001) {
    const double y = h.ReadElement(dw.data(), q, 0);
    EXPECT_GE(y, 0.0) << q;
    EXPECT_LE(y, 1.0) << q;
    if (q >= 4.0 && q <= 4.7124) {
      EXPECT_EQ(y, 1.0) << q;
    } else if (q >= 5.0 || q <= 3.6218) {
      EXPECT_EQ(y, 0.0) << q;
    }
  }
}

TEST(DelayHistoryTest, PastTheNewestSampleTheLineThroughTheLastTwo) {
  const DelayHistory h(8, 1);
  std::vector<double> dw = WorkMemory(h);
  h.Clear(dw.data());
  const double u0 = 1.0, u1 = 2.0, u2 = 4.0;
  ASSERT_TRUE(h.Append(dw.data(), 0.0, &u0, 0, 0.0));
  EXPECT_EQ(h.ReadElement(dw.data(), 5.0, 0), 1.0);  // one sample: held
  ASSERT_TRUE(h.Append(dw.data(), 1.0, &u1, 0, 0.0));
  ASSERT_TRUE(h.Append(dw.data(), 2.0, &u2, 0, 0.0));
  EXPECT_EQ(h.ReadElement(dw.data(), 2.0, 0), 4.0);
  EXPECT_DOUBLE_EQ(h.ReadElement(dw.data(), 2.5, 0), 5.0);
  EXPECT_EQ(h.ReadElement(dw.data(), -1.0, 0), 1.0);  // before the oldest: held
}

TEST(DelayHistoryTest, ASampleAtTheSameTimeReplacesTheLast) {
  const DelayHistory h(8, 1);
  std::vector<double> dw = WorkMemory(h);
  h.Clear(dw.data());
  const double a = 1.0, b = 2.0, c = 3.0;
  ASSERT_TRUE(h.Append(dw.data(), 0.0, &a, 0, 0.0));
  ASSERT_TRUE(h.Append(dw.data(), 1.0, &b, 0, 0.0));
  ASSERT_TRUE(h.Append(dw.data(), 1.0, &c, 0, 0.0));
  EXPECT_EQ(h.count(dw.data()), 2);
  EXPECT_EQ(h.values(dw.data(), 1)[0], 3.0);
}

TEST(DelayHistoryTest, AFullRingDropsOnlySamplesNoReadCanNeed) {
  const DelayHistory h(6, 1);
  std::vector<double> dw = WorkMemory(h);
  h.Clear(dw.data());
  for (int k = 0; k < 6; ++k) {
    const double u = k;
    ASSERT_TRUE(h.Append(dw.data(), k, &u, 0, -1.0));
  }
  const double u = 6.0;
  // Reads from t = 0.5 on need the samples at 0 and 1 (the interval [0, 1] holds 0.5).
  EXPECT_FALSE(h.Append(dw.data(), 6.0, &u, 0, 0.5));
  EXPECT_EQ(h.count(dw.data()), 6);
  EXPECT_EQ(h.time(dw.data(), 5), 5.0);  // unchanged
  // From t = 1 on the sample at 0 is needed by none: it makes room.
  ASSERT_TRUE(h.Append(dw.data(), 6.0, &u, 0, 1.0));
  EXPECT_EQ(h.count(dw.data()), 6);
  EXPECT_EQ(h.time(dw.data(), 0), 1.0);
  EXPECT_EQ(h.time(dw.data(), 5), 6.0);
  // Around the ring many times: the values stay in order.
  for (int k = 7; k < 40; ++k) {
    const double v = k;
    ASSERT_TRUE(h.Append(dw.data(), k, &v, 0, k - 4.0));
  }
  for (int j = 0; j < 6; ++j) {
    EXPECT_EQ(h.time(dw.data(), j), 34.0 + j);
    EXPECT_EQ(h.values(dw.data(), j)[0], 34.0 + j);
  }
  EXPECT_NEAR(h.ReadElement(dw.data(), 36.5, 0), 36.5, 1e-12);
}

TEST(DelayHistoryTest, BufferSizeIsAWholeNumberFromSix) {
  EXPECT_EQ(DelayBufferSize(6.0), 6);
  EXPECT_EQ(DelayBufferSize(1024.0), 1024);
  for (double bad : {5.0, 6.5, -1.0, 2e9, std::nan("")}) {
    EXPECT_THROW(DelayBufferSize(bad), BlockError) << bad;
  }
}

}  // namespace
}  // namespace twinblocks::blocks::internal
