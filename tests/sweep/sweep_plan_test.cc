// The plan of a sweep: --set parsing, grid and zip order, Monte Carlo draws that depend on
// (seed, run index) only, and every bad spec as one message.
#include "sweep/sweep_plan.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "common/suggest.h"
#include "sweep/run_random.h"

namespace twinblocks::sweep {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

SweepPlan PlanOf(const std::vector<std::string>& sets, Combination combination = Combination::kGrid,
                 int samples = 0, std::uint64_t seed = 0) {
  SweepSpec spec;
  for (const std::string& s : sets) spec.parameters.push_back(ParseSweepSetting(s));
  spec.combination = combination;
  spec.samples = samples;
  spec.seed = seed;
  return SweepPlan(spec);
}

std::string ErrorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const SweepError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(RunRandomTest, SplitMix64MatchesTheReferenceOutputs) {
  // The first outputs of Vigna's splitmix64.c from state 0.
  std::uint64_t state = 0;
  EXPECT_EQ(SplitMix64(&state), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(SplitMix64(&state), 0x6e789e6aa1b965f4ULL);
  EXPECT_EQ(SplitMix64(&state), 0x06c45d188009454fULL);
}

TEST(RunRandomTest, Xoshiro256StarStarMatchesTheReferenceOutputs) {
  // xoshiro256starstar.c from the state {1, 2, 3, 4}.
  RunRandom r = RunRandom::FromState({1, 2, 3, 4});
  EXPECT_EQ(r.NextBits(), 11520ULL);
  EXPECT_EQ(r.NextBits(), 0ULL);
  EXPECT_EQ(r.NextBits(), 1509978240ULL);
  EXPECT_EQ(r.NextBits(), 1215971899390074240ULL);
  EXPECT_THROW(RunRandom::FromState({0, 0, 0, 0}), std::invalid_argument);
}

TEST(RunRandomTest, UniformAndNormalHaveTheirMoments) {
  RunRandom r(42, 0);
  constexpr int n = 200000;
  double su = 0, su2 = 0, sn = 0, sn2 = 0, lo = 1, hi = 0;
  for (int i = 0; i < n; ++i) {
    const double u = r.Uniform01();
    lo = std::min(lo, u);
    hi = std::max(hi, u);
    su += u;
    su2 += u * u;
    const double z = r.StandardNormal();
    ASSERT_TRUE(std::isfinite(z));
    sn += z;
    sn2 += z * z;
  }
  EXPECT_GE(lo, 0.0);
  EXPECT_LT(hi, 1.0);
  // Means within 5 standard errors; variances within a few percent.
  EXPECT_NEAR(su / n, 0.5, 5 * std::sqrt(1.0 / 12 / n));
  EXPECT_NEAR(su2 / n - (su / n) * (su / n), 1.0 / 12, 0.002);
  EXPECT_NEAR(sn / n, 0.0, 5 / std::sqrt(n));
  EXPECT_NEAR(sn2 / n, 1.0, 0.02);
}

TEST(RunRandomTest, StreamsDependOnSeedAndIndex) {
  auto first = [](std::uint64_t seed, std::uint64_t index) {
    return RunRandom(seed, index).NextBits();
  };
  EXPECT_EQ(first(7, 3), first(7, 3));
  EXPECT_NE(first(7, 3), first(7, 4));
  EXPECT_NE(first(7, 3), first(8, 3));
  EXPECT_NE(first(1, 0), first(0, 1));
}

TEST(SweepSettingTest, ParsesListsVectorsAndDistributions) {
  SweepParameter p = ParseSweepSetting("object.density=160, 700,2300");
  EXPECT_EQ(p.name, "object.density");
  EXPECT_THAT(p.values, ElementsAre("160", "700", "2300"));
  EXPECT_FALSE(p.is_random());

  p = ParseSweepSetting("arm/base.position=[0, 0, 1],[0,0,2]");
  EXPECT_EQ(p.name, "arm/base.position");
  EXPECT_THAT(p.values, ElementsAre("[0, 0, 1]", "[0,0,2]"));

  p = ParseSweepSetting("k=(max(1, 2)),sin(0.5),2*pi");
  EXPECT_THAT(p.values, ElementsAre("(max(1, 2))", "sin(0.5)", "2*pi"));

  p = ParseSweepSetting("k=uniform(1, 2)");
  ASSERT_TRUE(p.is_random());
  EXPECT_EQ(p.distribution->kind, Distribution::Kind::kUniform);
  EXPECT_EQ(p.distribution->a, 1.0);
  EXPECT_EQ(p.distribution->b, 2.0);
  EXPECT_EQ(p.distribution->ToString(), "uniform(1, 2)");
  EXPECT_EQ(ParseSweepSetting("k=normal(0,-0)").distribution->kind, Distribution::Kind::kNormal);
  EXPECT_EQ(ParseSweepSetting("k=lognormal(-1.5e-1,+0.2)").distribution->a, -0.15);
}

TEST(SweepSettingTest, BadSettingsSayWhatIsWrong) {
  EXPECT_THAT(ErrorOf([] { ParseSweepSetting("k"); }), HasSubstr("expected NAME=v1,v2"));
  EXPECT_THAT(ErrorOf([] { ParseSweepSetting("=1,2"); }), HasSubstr("expected NAME=v1,v2"));
  EXPECT_THAT(ErrorOf([] { ParseSweepSetting("k="); }), HasSubstr("an empty value"));
  EXPECT_THAT(ErrorOf([] { ParseSweepSetting("k=1,,2"); }), HasSubstr("an empty value"));
  EXPECT_THAT(ErrorOf([] { ParseSweepSetting("k=[1,2"); }), HasSubstr("'[' is never closed"));
  EXPECT_THAT(ErrorOf([] { ParseSweepSetting("k=1),2"); }), HasSubstr("unbalanced ')'"));
  EXPECT_THAT(ErrorOf([] { ParseSweepSetting("k=[1,2)"); }), HasSubstr("unbalanced ')'"));
  EXPECT_THAT(ErrorOf([] { ParseSweepSetting("k=gamma(1,2)"); }),
              HasSubstr("unknown distribution 'gamma'"));
  EXPECT_THAT(ErrorOf([] { ParseSweepSetting("k=1,uniform(1,2)"); }),
              HasSubstr("must be the parameter's only value"));
  EXPECT_THAT(ErrorOf([] { ParseSweepSetting("k=uniform(1)"); }), HasSubstr("takes two numbers"));
  EXPECT_THAT(ErrorOf([] { ParseSweepSetting("k=normal(0,1,2)"); }),
              HasSubstr("takes two numbers"));
  EXPECT_THAT(ErrorOf([] { ParseSweepSetting("k=uniform(a,2)"); }),
              HasSubstr("must be finite numbers"));
  EXPECT_THAT(ErrorOf([] { ParseSweepSetting("k=uniform(2,1)"); }), HasSubstr("a < b"));
  EXPECT_THAT(ErrorOf([] { ParseSweepSetting("k=normal(0,-1)"); }), HasSubstr("sigma >= 0"));
  EXPECT_THAT(ErrorOf([] { ParseSweepSetting("k=lognormal(0,inf)"); }),
              HasSubstr("must be finite numbers"));
}

TEST(SweepPlanTest, GridVariesTheFirstParameterSlowest) {
  const SweepPlan plan = PlanOf({"a=1,2", "b=x,y,z"});
  ASSERT_EQ(plan.num_runs(), 6);
  EXPECT_THAT(plan.parameter_names(), ElementsAre("a", "b"));
  EXPECT_THAT(plan.Run(0).values, ElementsAre("1", "x"));
  EXPECT_THAT(plan.Run(1).values, ElementsAre("1", "y"));
  EXPECT_THAT(plan.Run(2).values, ElementsAre("1", "z"));
  EXPECT_THAT(plan.Run(3).values, ElementsAre("2", "x"));
  EXPECT_THAT(plan.Run(5).values, ElementsAre("2", "z"));
  EXPECT_EQ(plan.Label(plan.Run(4)), "a=2, b=y");
  EXPECT_THROW(plan.Run(6), std::out_of_range);
  EXPECT_THROW(plan.Run(-1), std::out_of_range);
}

TEST(SweepPlanTest, ZipPairsElementsAndRepeatsSingleValues) {
  const SweepPlan plan = PlanOf({"a=1,2,3", "c=7", "b=x,y,z"}, Combination::kZip);
  ASSERT_EQ(plan.num_runs(), 3);
  EXPECT_THAT(plan.Run(0).values, ElementsAre("1", "7", "x"));
  EXPECT_THAT(plan.Run(2).values, ElementsAre("3", "7", "z"));
  EXPECT_THAT(ErrorOf([] {
                PlanOf({"a=1,2,3", "b=x,y"}, Combination::kZip);
              }),
              HasSubstr("'a' has 3 values but 'b' has 2"));
}

TEST(SweepPlanTest, BadSpecsSayWhatIsWrong) {
  EXPECT_THAT(ErrorOf([] { PlanOf({}); }), HasSubstr("at least one --set"));
  EXPECT_THAT(ErrorOf([] { PlanOf({"a=1", "a=2"}); }), HasSubstr("'a' is set twice"));
  EXPECT_THAT(ErrorOf([] { PlanOf({"a=1,2"}, Combination::kGrid, 5); }),
              HasSubstr("--samples needs a parameter with a distribution"));
  EXPECT_THAT(ErrorOf([] { PlanOf({"a=uniform(0,1)"}); }), HasSubstr("needs --samples N"));
  EXPECT_THAT(ErrorOf([] { PlanOf({"a=uniform(0,1)"}, Combination::kGrid, -2); }),
              HasSubstr("expected a count >= 1"));
  EXPECT_THAT(
      ErrorOf([] {
        PlanOf({"a=1,2,3,4,5,6,7,8,9,10", "b=1,2,3,4,5,6,7,8,9,10", "c=1,2,3,4,5,6,7,8,9,10",
                "d=1,2,3,4,5,6,7,8,9,10", "e=1,2,3,4,5,6,7,8,9,10", "f=1,2,3,4,5,6,7,8,9,10",
                "g=1,2,3,4,5,6,7,8,9,10", "h=1,2,3,4,5,6,7,8,9,10"});
      }),
      HasSubstr("the sweep has 1e+08 runs, over the limit of 1000000 runs"));
}

TEST(SweepPlanTest, MonteCarloDrawsDependOnSeedAndIndexOnly) {
  const SweepPlan plan =
      PlanOf({"m=1,2", "k=uniform(10,20)", "z=normal(5,0.5)", "w=lognormal(0,0.25)"},
             Combination::kGrid, 50, 1234);
  ASSERT_EQ(plan.num_runs(), 100);
  // Runs [0, 50) are m=1, [50, 100) m=2; every run draws its own values.
  EXPECT_EQ(plan.Run(49).values[0], "1");
  EXPECT_EQ(plan.Run(50).values[0], "2");
  EXPECT_NE(plan.Run(0).values[1], plan.Run(50).values[1]);

  // The values of each run, computed in index order, in reverse, and by a fresh plan.
  std::vector<std::vector<std::string>> forward, backward(100);
  for (int i = 0; i < 100; ++i) forward.push_back(plan.Run(i).values);
  const SweepPlan again =
      PlanOf({"m=1,2", "k=uniform(10,20)", "z=normal(5,0.5)", "w=lognormal(0,0.25)"},
             Combination::kGrid, 50, 1234);
  for (int i = 99; i >= 0; --i) backward[i] = again.Run(i).values;
  EXPECT_EQ(forward, backward);

  std::vector<double> k;
  for (const auto& v : forward) {
    const double ki = std::stod(v[1]);
    EXPECT_GE(ki, 10.0);
    EXPECT_LT(ki, 20.0);
    EXPECT_GT(std::stod(v[3]), 0.0);
    // The text reads back to the drawn double: the model gets exactly this value.
    EXPECT_EQ(graph::FormatNumber(ki), v[1]);
    k.push_back(ki);
  }
  std::sort(k.begin(), k.end());
  EXPECT_EQ(std::adjacent_find(k.begin(), k.end()), k.end()) << "100 draws, all different";

  // Another seed, other values.
  const SweepPlan other =
      PlanOf({"m=1,2", "k=uniform(10,20)", "z=normal(5,0.5)", "w=lognormal(0,0.25)"},
             Combination::kGrid, 50, 1235);
  EXPECT_NE(other.Run(0).values[1], forward[0][1]);
}

TEST(SweepPlanTest, ADrawIsTheDocumentedTransformOfTheRunsGenerator) {
  const SweepPlan plan = PlanOf({"k=uniform(10,20)", "z=normal(5,0.5)"}, Combination::kGrid, 3, 9);
  RunRandom r(9, 2);
  const double k = 10.0 + 10.0 * r.Uniform01();
  const double z = 5.0 + 0.5 * r.StandardNormal();
  EXPECT_EQ(plan.Run(2).values[0], graph::FormatNumber(k));
  EXPECT_EQ(plan.Run(2).values[1], graph::FormatNumber(z));
}

}  // namespace
}  // namespace twinblocks::sweep
