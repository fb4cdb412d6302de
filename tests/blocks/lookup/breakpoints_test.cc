#include "blocks/lookup/detail/breakpoints.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "blocks/block_error.h"
#include "tests/blocks/block_test_helpers.h"

namespace twinblocks::blocks::lookup {
namespace {

using ::testing::HasSubstr;

// The interval as a plain bisection over all breakpoints defines it.
int Reference(const std::vector<double>& x, double u) {
  const int last = static_cast<int>(x.size()) - 2;
  const int k = static_cast<int>(std::upper_bound(x.begin(), x.end(), u) - x.begin()) - 1;
  return std::clamp(k, 0, last);
}

void ExpectSameAsBisection(const std::vector<double>& x, int probes, unsigned seed) {
  const Breakpoints b(x, "x", "x");
  std::mt19937 rng(seed);
  const double lo = x.front(), hi = x.back(), span = hi - lo;
  if (!std::isfinite(span)) probes = 0;  // no distribution over an infinite span
  std::uniform_real_distribution<double> pick(lo - 0.1 * span, hi + 0.1 * span);
  int hint = 0;
  for (int i = 0; i < probes; ++i) {
    const double u = pick(rng);
    ASSERT_EQ(b.Find(u), Reference(x, u)) << "u = " << u;
    hint = b.Find(u, hint);
    ASSERT_EQ(hint, Reference(x, u)) << "u = " << u;
  }
  // Exactly at every breakpoint, and one ulp to each side of it.
  for (int i = 0; i < static_cast<int>(x.size()); ++i) {
    for (double u : {x[i], std::nextafter(x[i], -1e308), std::nextafter(x[i], 1e308)}) {
      ASSERT_EQ(b.Find(u), Reference(x, u)) << "u = " << u << " near x[" << i << "]";
      ASSERT_EQ(b.Find(u, i % 7), Reference(x, u)) << "u = " << u;
    }
  }
}

TEST(BreakpointsTest, FindsTheIntervalOfUnevenBreakpointsAsBisectionDoes) {
  std::mt19937 rng(42);
  std::exponential_distribution<double> gap(1.0);
  std::vector<double> x = {-3.0};
  for (int i = 0; i < 999; ++i) x.push_back(x.back() + 1e-3 + gap(rng));
  ExpectSameAsBisection(x, 20000, 1);
}

TEST(BreakpointsTest, FindsTheIntervalOfEvenAndCrowdedBreakpoints) {
  std::vector<double> even, decades;
  for (int i = 0; i <= 500; ++i) even.push_back(0.1 * i);  // rounding at every bucket edge
  for (int i = 0; i <= 600; ++i) decades.push_back(std::pow(10.0, -3.0 + 0.01 * i));  // 1e-3..1e3
  ExpectSameAsBisection(even, 20000, 2);
  ExpectSameAsBisection(decades, 20000, 3);
  ExpectSameAsBisection({1.0, 2.0}, 100, 4);
  ExpectSameAsBisection({-1.0, 0.0, 5.0}, 100, 5);
  // Ranges that overflow the bucket arithmetic either way still bisect correctly.
  ExpectSameAsBisection({-1e308, 0.0, 1e308}, 0, 6);
  ExpectSameAsBisection({0.0, 1e-310, 2e-310, 3e-310}, 100, 7);
}

TEST(BreakpointsTest, EndIntervalsExtendOutwardAndHintsAnywhereGiveTheSameInterval) {
  const Breakpoints b({0.0, 1.0, 3.0, 4.0}, "x", "x");
  EXPECT_EQ(b.Find(-100.0), 0);
  EXPECT_EQ(b.Find(100.0), 2);
  EXPECT_EQ(b.Find(4.0), 2);
  EXPECT_EQ(b.Find(3.0), 2);
  EXPECT_EQ(b.Find(2.999), 1);
  EXPECT_EQ(b.Find(std::numeric_limits<double>::quiet_NaN()), 0);
  EXPECT_EQ(b.Find(-std::numeric_limits<double>::infinity()), 0);
  EXPECT_EQ(b.Find(std::numeric_limits<double>::infinity()), 2);
  for (int hint : {-5, 0, 1, 2, 3, 1000}) {
    EXPECT_EQ(b.Find(2.0, hint), 1) << hint;
    EXPECT_EQ(b.Find(-7.0, hint), 0) << hint;
    EXPECT_EQ(b.Find(9.0, hint), 2) << hint;
  }
  EXPECT_DOUBLE_EQ(b.Fraction(2.0, 1), 0.5);
  EXPECT_DOUBLE_EQ(b.Fraction(-1.0, 0), -1.0);
  EXPECT_DOUBLE_EQ(b.Fraction(6.0, 2), 3.0);
}

TEST(BreakpointsTest, RefusesTooFewNonFiniteOrNonIncreasingBreakpoints) {
  auto message = [](std::vector<double> x) {
    return testing::CatchBlockError([&] { Breakpoints b(x, "parameter 'bp'", "bp"); });
  };
  EXPECT_THAT(message({1.0}).what(), HasSubstr("parameter 'bp' must hold at least 2 breakpoints"));
  EXPECT_EQ(message({1.0}).param(), "bp");
  EXPECT_THAT(message({0.0, 1.0, 1.0}).what(),
              HasSubstr("must be strictly increasing: breakpoint 3 (1) is not above breakpoint 2"));
  EXPECT_THAT(message({0.0, 2.0, 1.0}).what(), HasSubstr("strictly increasing"));
  EXPECT_THAT(message({0.0, std::numeric_limits<double>::quiet_NaN()}).what(),
              HasSubstr("breakpoint 2 is nan, not a finite number"));
  EXPECT_THAT(message({-std::numeric_limits<double>::infinity(), 0.0}).what(),
              HasSubstr("breakpoint 1 is -inf"));
}

}  // namespace
}  // namespace twinblocks::blocks::lookup
