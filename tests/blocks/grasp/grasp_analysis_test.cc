// GraspAnalysis in a diagram: three fingers squeezing a sphere's equator given as constants
// (the closed forms of physics/grasp), its sample time, and its bad input: each one line
// with file:line and the block, exit status 2.

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <sstream>
#include <string>

#include "physics/grasp/grasp_quality.h"
#include "tests/support/acceptance_helpers.h"

namespace twinblocks {
namespace {

using testing::Column;
using testing::RunModelText;

constexpr double kRadius = 0.05;
constexpr double kForce = 4.0;  // N, along each inward normal

/// [p, n, f] of three contacts 120 degrees apart on the equator, the first at 10 degrees,
/// pressing with kForce; `normal_scale` stretches the normals (1: unit).
std::string EquatorContacts(double normal_scale = 1.0) {
  std::ostringstream s;
  s.precision(17);
  s << "[";
  for (int i = 0; i < 3; ++i) {
    const double a = (10.0 + 120.0 * i) * std::numbers::pi / 180.0;
    const double c = std::cos(a), d = std::sin(a);
    s << (i ? ", " : "") << kRadius * c << ", " << kRadius * d << ", 0, " << -c * normal_scale
      << ", " << -d * normal_scale << ", 0, " << -kForce * c << ", " << -kForce * d << ", 0";
  }
  s << "]";
  return s.str();
}

std::string Model(const std::string& contacts, const std::string& analysis_params) {
  return R"(<?xml version="1.0" encoding="UTF-8"?>
<model name="grasp_analysis" format="1">
  <simulation solver="ode3" step="1e-3" t_end="0.01"/>
  <block type="Constant" name="contacts" value=")" +
         contacts + R"("/>
  <block type="Constant" name="center" value="[0, 0, 0]"/>
  <block type="GraspAnalysis" name="grasp" )" +
         analysis_params + R"(/>
  <connect from="contacts.y" to="grasp.contacts"/>
  <connect from="center.y" to="grasp.center"/>
  <log signal="grasp.n_active"/>
  <log signal="grasp.closure"/>
  <log signal="grasp.epsilon"/>
  <log signal="grasp.sigma_min"/>
  <log signal="grasp.internal_force"/>
  <log signal="grasp.slip"/>
</model>
)";
}

TEST(GraspAnalysisBlock, ThreeFingersOnTheEquatorGiveTheClosedForms) {
  const auto out = RunModelText(Model(EquatorContacts(), R"(mu="0.5" Ts="2e-3")"));
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  Eigen::Matrix3Xd p(3, 3), n(3, 3);
  for (int i = 0; i < 3; ++i) {
    const double a = (10.0 + 120.0 * i) * std::numbers::pi / 180.0;
    n.col(i) = -Eigen::Vector3d(std::cos(a), std::sin(a), 0.0);
    p.col(i) = -kRadius * n.col(i);
  }
  const double epsilon =
      grasp::CalcGraspQuality(p, n, Eigen::Vector3d::Zero(), grasp::ContactModel::kHardFinger,
                              grasp::FrictionCone{0.5, 0.0, 8})
          .epsilon;
  ASSERT_GT(epsilon, 0.0);
  // G G^T = [[3 I, 0], [0, r^2 diag(1.5, 1.5, 3)]] for contacts on a circle of radius r about
  // the centre (sum of S(r_i) S(r_i)^T): sigma_min = r sqrt(1.5).
  const double sigma_min = kRadius * std::sqrt(1.5);
  for (double v : Column(out.recording, "grasp.n_active")) EXPECT_EQ(v, 3.0);
  for (double v : Column(out.recording, "grasp.closure")) EXPECT_EQ(v, 1.0);
  for (double v : Column(out.recording, "grasp.epsilon")) EXPECT_NEAR(v, epsilon, 1e-12);
  for (double v : Column(out.recording, "grasp.sigma_min")) EXPECT_NEAR(v, sigma_min, 1e-14);
  for (double v : Column(out.recording, "grasp.internal_force")) {
    EXPECT_NEAR(v, std::sqrt(3.0) * kForce, 1e-12);  // the forces cancel: all internal
  }
  for (double v : Column(out.recording, "grasp.slip")) EXPECT_NEAR(v, 0.0, 1e-15);
}

TEST(GraspAnalysisBlock, FrictionlessContactsOnAnEquatorAreNotForceClosure) {
  const auto out = RunModelText(Model(EquatorContacts(), R"(contact_model="frictionless")"));
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  for (double v : Column(out.recording, "grasp.closure")) EXPECT_EQ(v, 0.0);
  for (double v : Column(out.recording, "grasp.epsilon")) EXPECT_EQ(v, 0.0);
  for (double v : Column(out.recording, "grasp.sigma_min")) EXPECT_EQ(v, 0.0);  // 3 columns
}

TEST(GraspAnalysisBlock, AContactThatIsNotAUnitNormalStopsTheRunSayingWhenAndWhere) {
  const auto out = RunModelText(Model(EquatorContacts(2.0), R"(Ts="1e-3")"));
  ASSERT_FALSE(out.outcome.ok);
  EXPECT_NE(out.outcome.error.find("simulation failed at t = 0 s"), std::string::npos)
      << out.outcome.error;
  EXPECT_NE(out.outcome.error.find("grasp"), std::string::npos) << out.outcome.error;
  EXPECT_NE(out.outcome.error.find("contact 1: its normal is not a unit vector"), std::string::npos)
      << out.outcome.error;
}

struct BadAnalysis {
  const char* name;
  std::string contacts;
  const char* params;
  const char* says;
};

class GraspAnalysisBadInput : public ::testing::TestWithParam<BadAnalysis> {};

TEST_P(GraspAnalysisBadInput, OneLineWithFileLineAndStatus2) {
  const BadAnalysis& c = GetParam();
  const auto dir = testing::FreshDirectory("twinblocks_grasp_analysis_", c.name);
  const std::string file = std::string(c.name) + ".xml";
  testing::WriteText(dir / file, Model(c.contacts, c.params));
  // Line 6 of Model's text is the GraspAnalysis block, line 4 the contacts.
  testing::ExpectOneLineBadInput((dir / file).string(), file, 6, {"grasp", c.says});
}

INSTANTIATE_TEST_SUITE_P(
    EveryCase, GraspAnalysisBadInput,
    ::testing::Values(
        BadAnalysis{"one_contact", "[0.05, 0, 0, -1, 0, 0, -4, 0, 0]", "",
                    "expected 9 k values ([point, normal, force] of each contact) with 2 <= k"},
        BadAnalysis{"not_nine_per_contact", "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]", "",
                    "input 'contacts' has width 10"},
        BadAnalysis{"negative_mu", EquatorContacts(), R"(mu="-0.2")",
                    "parameter 'mu' must be >= 0"},
        BadAnalysis{"zero_mu_with_friction", EquatorContacts(), R"(mu="0")",
                    "mu = 0 is contact_model 'frictionless'"},
        BadAnalysis{"two_edges", EquatorContacts(), R"(edges="2")",
                    "parameter 'edges' must be a whole number from 3 to 64"},
        BadAnalysis{"negative_torque_length", EquatorContacts(), R"(torque_length="-1")",
                    "parameter 'torque_length' must be >= 0 m"},
        BadAnalysis{"unknown_model", EquatorContacts(), R"(contact_model="sticky")",
                    "contact_model"}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace twinblocks
