// Experiment RH1 (the Pisa/IIT SoftHand grasps a sphere and lifts it, models/hands/
// rh1_grasp_lift.xml; Rocchi & Hauser 2016, "A Generic Simulator for Underactuated Compliant
// Hands", Sec. V, Fig. 6): the hand holds the sphere through the lift, and the joints settle
// on the adaptive-synergy model's predicted equilibrium (SynergyEquilibrium).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "tests/support/acceptance_helpers.h"

namespace twinblocks::testing {
namespace {

/// One run of RH1 for both tests (2.5 s of wall time).
const RunOutput& Rh1() {
  static const RunOutput out = RunModelFile("models/hands/rh1_grasp_lift.xml");
  return out;
}

TEST(SoftHandRh1, HoldsTheSphereThroughTheLift) {
  const RunOutput& out = Rh1();
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const std::vector<double> t = Times(out.recording);
  std::vector<std::vector<double>> in_hand, position;
  for (int k = 0; k < 3; ++k) {
    in_hand.push_back(Column(out.recording, "sphere_in_hand[" + std::to_string(k) + "]"));
    position.push_back(Column(out.recording, "sphere_position[" + std::to_string(k) + "]"));
  }
  // The lift runs on [0.5, 2.0] s: the sphere's displacement relative to the palm (H) from the
  // lift's start, at most 5 mm (measured: 0.7 mm).
  size_t start = 0;
  while (t[start] < 0.5) ++start;
  double slip = 0.0;
  for (size_t i = start; i < t.size() && t[i] <= 2.0 + 1e-12; ++i) {
    double d2 = 0.0;
    for (int k = 0; k < 3; ++k) d2 += std::pow(in_hand[k][i] - in_hand[k][start], 2);
    slip = std::max(slip, std::sqrt(d2));
  }
  EXPECT_LT(slip, 0.005) << "slip " << Figure(slip) << " m";
  // Lifted with the hand: 0.1 m up, within the slip.
  EXPECT_NEAR(position[2].back() - 0.035, 0.1, 0.005);
}

TEST(SoftHandRh1, DistalJointsSettleOnThePredictedEquilibrium) {
  const RunOutput& out = Rh1();
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  // q (33): per finger abd, j1, j1', j2, j2'[, j3, j3']; q_predicted (19): the tendon joints,
  // per finger abd, j1, j2[, j3]. The distal joints: the thumb's j2, the fingers' j3.
  struct Pair {
    const char* finger;
    int q, predicted;
  };
  const Pair distal[] = {
      {"thumb", 3, 2}, {"index", 10, 6}, {"middle", 17, 10}, {"ring", 24, 14}, {"little", 31, 18}};
  const std::vector<double> t = Times(out.recording);
  // The paper reports that the index's distal joint "converges to the computed equilibrium"
  // (Fig. 6), with no figure; here every distal joint is within 2e-3 rad (0.11 deg) of the
  // prediction once the hand has settled after the lift (from 0.2 s after its stop at 2.0 s,
  // which jolts the fingers for a few ms). Measured: the fingers' within 4e-4 rad; the thumb's
  // 1.3e-3, as it still creeps on the sphere (0.014 rad/s, the smooth stick-slip law's creep)
  // and its damping (0.05 N m s/rad) holds it that far behind the quasi-static balance.
  for (const Pair& p : distal) {
    const std::vector<double> q = Column(out.recording, "q[" + std::to_string(p.q) + "]");
    const std::vector<double> predicted =
        Column(out.recording, "q_predicted[" + std::to_string(p.predicted) + "]");
    for (size_t i = 0; i < t.size(); ++i) {
      if (t[i] < 2.2) continue;
      ASSERT_NEAR(q[i], predicted[i], 2e-3) << p.finger << " at t = " << t[i];
    }
  }
  // The tension the dynamics hold and the one predicted, at the end: 1e-3 relative.
  const double f = Column(out.recording, "tension").back();
  EXPECT_NEAR(Column(out.recording, "f_predicted").back(), f, 1e-3 * f);
}

}  // namespace
}  // namespace twinblocks::testing
