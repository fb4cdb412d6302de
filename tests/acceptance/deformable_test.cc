// Issue 45: the DeformableBody block in a model. F2: the foam sphere of the Barrett-hand
// experiments, at its real stiffness, undamped, without gravity, released deformed from rest,
// keeps its energy over 10 s with the energy-preserving avf solver; a soft one keeps it over
// a short ode45 run.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "tests/support/acceptance_helpers.h"

namespace twinblocks {
namespace {

using testing::Column;

TEST(DeformableBodyModel, UndampedSphereKeepsItsEnergyOverAShortRun) {
  const testing::RunOutput run = testing::RunModelText(R"xml(<model name="energy">
  <simulation solver="ode45" t_end="0.2" rtol="1e-10" atol="1e-13" output_interval="0.01"/>
  <block type="DeformableBody" name="foam" shape="sphere" size="[0.04]" element_size="0.03"
         young_modulus="1e4" density="100" damping_time="0" gravity="[0, 0, 0]"
         deformation="[1.05, 0.95, 1]"/>
  <log signal="foam.elastic_energy"/>
  <log signal="foam.kinetic_energy"/>
  <log signal="foam.centroid"/>
</model>)xml");
  ASSERT_TRUE(run.outcome.ok) << run.outcome.error;
  const auto& rec = run.recording;
  const std::vector<double> elastic = Column(rec, "foam.elastic_energy");
  const std::vector<double> kinetic = Column(rec, "foam.kinetic_energy");
  ASSERT_GT(elastic.front(), 0.0);
  EXPECT_EQ(kinetic.front(), 0.0);
  double worst = 0.0, most_kinetic = 0.0;
  for (size_t k = 0; k < elastic.size(); ++k) {
    const double total = elastic[k] + kinetic[k];
    worst = std::max(worst, std::abs(total - elastic.front()) / elastic.front());
    most_kinetic = std::max(most_kinetic, kinetic[k]);
    // No external force: the mass centre stays where it starts.
    for (int a = 0; a < 3; ++a) {
      const std::vector<double> c = Column(rec, "foam.centroid[" + std::to_string(a) + "]");
      EXPECT_NEAR(c[k], c.front(), 1e-12);
    }
  }
  EXPECT_LT(worst, 1e-7);                          // ode45 at rtol 1e-10
  EXPECT_GT(most_kinetic, 0.1 * elastic.front());  // it does oscillate
}

// F2. The 182-node foam sphere (E = 4.928 MPa, nu = 0.39, 100 kg/m^3, cubic springs), squeezed
// 1 % and released: its fastest modes (about 6e4 rad/s) are far beyond the 1 ms step, which
// avf neither damps nor lets grow, and the total energy is kept to the quadrature's error
// (measured 6e-10 over 1 s; the bound is F2's 1e-6 over 10 s).
TEST(DeformableBodyModel, FoamSphereKeepsItsEnergyOverTenSecondsWithAvf) {
  const testing::RunOutput run = testing::RunModelText(R"xml(<model name="f2">
  <simulation solver="avf" step="1e-3" jacobian_steps="20" t_end="10" output_interval="0.05"/>
  <block type="DeformableBody" name="foam" shape="sphere" size="[0.04]" element_size="0.03"
         young_modulus="4.928e6" poisson_ratio="0.39" density="100" spring="cubic"
         damping_time="0" gravity="[0, 0, 0]" deformation="[1.01, 0.99, 1]"/>
  <log signal="foam.elastic_energy"/>
  <log signal="foam.kinetic_energy"/>
  <log signal="foam.centroid"/>
</model>)xml");
  ASSERT_TRUE(run.outcome.ok) << run.outcome.error;
  const auto& rec = run.recording;
  const std::vector<double> elastic = Column(rec, "foam.elastic_energy");
  const std::vector<double> kinetic = Column(rec, "foam.kinetic_energy");
  ASSERT_EQ(elastic.size(), 201u);
  const double e0 = elastic.front();
  ASSERT_GT(e0, 0.0);
  double worst = 0.0, most_kinetic = 0.0, late_kinetic = 0.0;
  for (size_t k = 0; k < elastic.size(); ++k) {
    worst = std::max(worst, std::abs(elastic[k] + kinetic[k] - e0) / e0);
    most_kinetic = std::max(most_kinetic, kinetic[k]);
    if (k > 150) late_kinetic = std::max(late_kinetic, kinetic[k]);
  }
  std::printf("[ measure  ] F2 foam sphere, avf h = 1 ms, 10 s: energy %.6e J, drift %.2e\n", e0,
              worst);
  EXPECT_LT(worst, 1e-6);
  // It still oscillates at the end: nothing damped it.
  EXPECT_GT(late_kinetic, 0.2 * e0);
  EXPECT_GT(most_kinetic, 0.2 * e0);
  for (int a = 0; a < 3; ++a) {
    const std::vector<double> c = Column(rec, "foam.centroid[" + std::to_string(a) + "]");
    EXPECT_NEAR(c.back(), c.front(), 1e-12);
  }
}

}  // namespace
}  // namespace twinblocks
