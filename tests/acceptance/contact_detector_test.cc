// The contact detector of Pozzi et al. 2022, "Modeling and Simulation of Robotic Grasping in
// Simulink Through Simscape Multibody" (CompareToConstant, 10 Delay blocks, Product; Ts = 1e-4) as
// a reusable define in models/lib/: a short spike is rejected and the output sets exactly 10
// samples after the sustained contact starts.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/support/acceptance_helpers.h"

namespace twinblocks::testing {
namespace {

TEST(ContactDetector, RejectsSpikeAndSetsTenSamplesAfterContact) {
  const RunOutput out = RunModelFile("examples/contact_detection.xml");
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const std::vector<double> t = Times(out.recording);
  const std::vector<double> fn = Column(out.recording, "fn");
  const std::vector<double> contact = Column(out.recording, "contact");
  const double Ts = 1e-4;
  // The spike covers samples 21..23 (t = 2.05 ms .. 2.35 ms): three samples above threshold.
  int spike_samples = 0;
  for (int k = 0; k < 40; ++k) {
    const double tk = k * Ts;
    for (size_t i = 0; i < t.size(); ++i) {
      if (std::abs(t[i] - tk) < 1e-12 && fn[i] > 1.0) ++spike_samples;
    }
  }
  EXPECT_EQ(spike_samples, 3);
  // Contact starts at 5.05 ms: its first sample is k0 = 51; the output must set at k0 + 10.
  double first_set = -1.0;
  for (size_t i = 0; i < t.size(); ++i) {
    if (contact[i] == 1.0) {
      first_set = t[i];
      break;
    }
  }
  EXPECT_NEAR(first_set, 61 * Ts, 1e-12) << "the detector set at t = " << first_set;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i] < 61 * Ts - 1e-12) {
      EXPECT_EQ(contact[i], 0.0) << "t = " << t[i];
    }
    if (t[i] > 61 * Ts + 1e-12) {
      EXPECT_EQ(contact[i], 1.0) << "t = " << t[i];
    }
  }
}

}  // namespace
}  // namespace twinblocks::testing
