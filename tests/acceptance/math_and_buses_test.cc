// examples/math_and_buses.xml against its closed forms: a point p turned by R(w t), with its
// rotation matrix and lap count carried as a bus into a subsystem that checks them.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "tests/support/acceptance_helpers.h"

namespace twinblocks::testing {
namespace {

TEST(MathAndBusesExample, EveryRowMatchesTheClosedForms) {
  const RunOutput r = RunModelFile("examples/math_and_buses.xml");
  ASSERT_TRUE(r.outcome.ok) << r.outcome.error;
  const double w = 3.0, px = 1.0, py = 0.5, p2 = px * px + py * py;
  const std::vector<double> t = Times(r.recording);
  const auto q = Columns(r.recording, "q", 2);
  const auto back = Columns(r.recording, "p_back", 2);
  const auto solved = Columns(r.recording, "p_solved", 2);
  const std::vector<double> length = Column(r.recording, "length");
  const std::vector<double> dot = Column(r.recording, "q_dot_q");
  const std::vector<double> cross = Column(r.recording, "cross_z");
  const std::vector<double> lap = Column(r.recording, "lap");
  const std::vector<double> angle = Column(r.recording, "angle");
  const auto R = Columns(r.recording, "R", 4);  // the bus's element, logged by its name
  for (size_t i = 0; i < t.size(); ++i) {
    SCOPED_TRACE(t[i]);
    const double th = w * t[i];
    EXPECT_NEAR(q[0][i], std::cos(th) * px - std::sin(th) * py, 1e-12);
    EXPECT_NEAR(q[1][i], std::sin(th) * px + std::cos(th) * py, 1e-12);
    EXPECT_NEAR(R[1][i], -std::sin(th), 1e-15);
    EXPECT_NEAR(back[0][i], px, 1e-12);
    EXPECT_NEAR(back[1][i], py, 1e-12);
    EXPECT_NEAR(solved[0][i], px, 1e-12);
    EXPECT_NEAR(solved[1][i], py, 1e-12);
    EXPECT_NEAR(length[i], std::sqrt(p2), 1e-12);
    EXPECT_NEAR(dot[i], p2, 1e-12);
    EXPECT_NEAR(cross[i], p2 * std::sin(th), 1e-12);
    EXPECT_EQ(lap[i], std::floor(th / (2 * M_PI)));
    EXPECT_NEAR(std::remainder(angle[i] - (th + std::atan2(py, px)), 2 * M_PI), 0.0, 1e-12);
  }
  // Gains 1, 2, 4 over the laps [0, 2 pi / w), [2 pi / w, 4 pi / w), [4 pi / w, 5]: the solver
  // lands on both switches, so the integral is exact to the crossings' location.
  const double t1 = 2 * M_PI / w, t2 = 4 * M_PI / w;
  EXPECT_NEAR(Column(r.recording, "work").back(), t1 + 2 * (t2 - t1) + 4 * (5 - t2), 1e-9);
  EXPECT_EQ(r.stats.solver.zero_crossings, 2);
}

}  // namespace
}  // namespace twinblocks::testing
