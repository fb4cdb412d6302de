#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/blocks/block_test_helpers.h"

namespace twinblocks::blocks {
namespace {

using testing::BlockHarness;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(TrigonometricFunctionTest, EveryOneInputFunctionIsTheLibrarys) {
  const std::vector<std::pair<std::string, std::function<double(double)>>> functions = {
      {"sin", [](double u) { return std::sin(u); }},
      {"cos", [](double u) { return std::cos(u); }},
      {"tan", [](double u) { return std::tan(u); }},
      {"asin", [](double u) { return std::asin(u); }},
      {"acos", [](double u) { return std::acos(u); }},
      {"atan", [](double u) { return std::atan(u); }},
      {"sinh", [](double u) { return std::sinh(u); }},
      {"cosh", [](double u) { return std::cosh(u); }},
      {"tanh", [](double u) { return std::tanh(u); }},
      {"asinh", [](double u) { return std::asinh(u); }},
      {"atanh", [](double u) { return std::atanh(u); }}};
  const std::vector<double> u = {-0.9, -0.25, 0.0, 0.5, 0.75};
  for (const auto& [name, f] : functions) {
    SCOPED_TRACE(name);
    BlockHarness h("TrigonometricFunction", {{"function", name}}, {5});
    h.SetInput(0, u);
    h.MajorStep(0.0);
    for (int i = 0; i < 5; ++i) EXPECT_EQ(h.Out(0, i), f(u[i]));
  }
  BlockHarness acosh("TrigonometricFunction", {{"function", "acosh"}}, {2});
  acosh.SetInput(0, {1.0, 2.0});
  acosh.MajorStep(0.0);
  EXPECT_THAT(acosh.Output(), ElementsAre(0.0, std::log(2.0 + std::sqrt(3.0))));
}

TEST(TrigonometricFunctionTest, Atan2IsFourQuadrantAndSincosGivesBoth) {
  BlockHarness h("TrigonometricFunction", {{"function", "atan2"}}, {4, 1});
  h.SetInput("u1", {1, 1, -1, -1});
  h.SetInput("u2", {-1});  // scalar x expands
  h.MajorStep(0.0);
  EXPECT_THAT(h.Output(), ElementsAre(3 * M_PI / 4, 3 * M_PI / 4, -3 * M_PI / 4, -3 * M_PI / 4));
  BlockHarness sc("TrigonometricFunction", {{"function", "sincos"}}, {2});
  sc.SetInput(0, {0.0, M_PI / 6});
  sc.MajorStep(0.0);
  EXPECT_THAT(sc.Output("sin"), ElementsAre(0.0, std::sin(M_PI / 6)));
  EXPECT_THAT(sc.Output("cos"), ElementsAre(1.0, std::cos(M_PI / 6)));
}

TEST(TrigonometricFunctionTest, OutsideTheDomainStopsAtMajorStepsOnly) {
  BlockHarness h("TrigonometricFunction", {{"function", "asin"}}, {2});
  h.Initialize();
  h.SetInput(0, {0.5, 2.0});
  h.MinorOutputs(0.0);  // inside a solver step: NaN, left to the solver
  EXPECT_TRUE(std::isnan(h.Out(0, 1)));
  try {
    h.MajorStep(0.0);
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "asin of u[1] = 2 is not a real number (asin needs -1 <= u <= 1)");
  }
  // An infinite result is no error: atanh(1) = inf.
  BlockHarness atanh("TrigonometricFunction", {{"function", "atanh"}}, {1});
  atanh.SetInput(0, {1.0});
  atanh.MajorStep(0.0);
  EXPECT_EQ(atanh.Out(), std::numeric_limits<double>::infinity());
}

}  // namespace
}  // namespace twinblocks::blocks
