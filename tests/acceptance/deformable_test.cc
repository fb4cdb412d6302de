// Issue 45: the DeformableBody block in a model. F2: the foam sphere of the Barrett-hand
// experiments, at its real stiffness, undamped, without gravity, released deformed from rest,
// keeps its energy over 10 s with the energy-preserving avf solver; a soft one keeps it over
// a short ode45 run.

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <algorithm>
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

// shape = mesh: the unit cube of tests/data/meshes filled by Gmsh keeps its volume at rest.
TEST(DeformableBodyModel, AClosedSurfaceFromAFileIsFilled) {
  const testing::RunOutput run = testing::RunModelFile("tests/data/xml/deformable_cube_mesh.xml");
  ASSERT_TRUE(run.outcome.ok) << run.outcome.error;
  const std::vector<double> volume = Column(run.recording, "foam.volume");
  ASSERT_FALSE(volume.empty());
  EXPECT_NEAR(volume.front(), 1.0, 1e-12);
  EXPECT_NEAR(volume.back(), 1.0, 1e-12);
}

// F3 in a model. An aluminium sphere (R = 10 mm, on a prismatic joint driven down at 1 mm/s,
// then held) is pressed onto the corner node of a coarse foam block clamped along its base:
// one node touches. At every logged row the normal force the block reports is eq. 4 with
// eq. 6-8's K and C (the flat face's R = R_f), evaluated from the logged positions and
// velocities of the node and the sphere, to 1e-9. The joint's motion is given whole
// ([q, q', q''], no states) or as q alone through the joint's motion filter, whose states then
// push the node: the solver's Jacobian takes their columns across the blocks (Block::
// has_stiff_inputs), without which ode23s took 66,707 steps.
struct TipPress {
  testing::RunOutput run;
  int rows_in_contact = 0;
  double deepest = 0.0, largest_force = 0.0, worst = 0.0;
};

TipPress PressTipOnCorner(bool filtered_motion) {
  const std::string motion =
      filtered_motion ? R"(<connect from="hold.y" to="slide.motion"/>)"
                      : R"(<block type="Step" name="stop" time="1" before="-1e-3" after="0"/>
  <block type="Constant" name="zero" value="0"/>
  <block type="Mux" name="slide_motion" inputs="3"/>
  <connect from="hold.y" to="slide_motion.u1"/>
  <connect from="stop.y" to="slide_motion.u2"/>
  <connect from="zero.y" to="slide_motion.u3"/>
  <connect from="slide_motion.y" to="slide.motion"/>)";
  TipPress press;
  press.run = testing::RunModelText(R"xml(<model name="f3">
  <simulation solver="ode23s" t_end="1.5" rtol="1e-6" output_interval="0.01"/>
  <block type="World" name="world" gravity="[0, 0, 0]"/>
  <block type="PrismaticJoint" name="slide" axis="[0, 0, 1]" actuation="motion"/>
  <block type="Solid" name="tip" shape="sphere" radius="0.01" mass="0.05"/>
  <block type="TransformSensor" name="sensor"/>
  <block type="Ramp" name="down" slope="-1e-3"/>
  <block type="Saturation" name="hold" lower="-1e-3" upper="1"/>
  <block type="Mux" name="motion" inputs="4"/>
  <block type="RigidTransform" name="above" translation="[0.02, 0.02, 0.0202]"/>
  <block type="DeformableBody" name="foam" shape="box" size="[0.04, 0.04, 0.02]"
         element_size="0.05" young_modulus="4.928e6" poisson_ratio="0.39" density="100"
         spring="cubic" gravity="[0, 0, 0]" fixed_below="[-0.0099]" contact_radius="[0.01]"/>
  <connect from="world.W" to="above.B"/>
  <connect from="above.F" to="slide.B"/>
  <connect from="slide.F" to="tip.R"/>
  <connect from="world.W" to="sensor.B"/>
  <connect from="slide.F" to="sensor.F"/>
  <connect from="down.y" to="hold.u"/>
  )xml" + motion + R"xml(
  <connect from="sensor.position" to="motion.u1"/>
  <connect from="sensor.rotation" to="motion.u2"/>
  <connect from="sensor.v" to="motion.u3"/>
  <connect from="sensor.w" to="motion.u4"/>
  <connect from="motion.y" to="foam.solids"/>
  <log signal="foam.positions"/>
  <log signal="foam.velocities"/>
  <log signal="foam.contact_normal_force"/>
  <log signal="foam.contact_nodes"/>
  <log signal="sensor.position"/>
  <log signal="sensor.v"/>
</model>)xml");
  if (!press.run.outcome.ok) {
    ADD_FAILURE() << press.run.outcome.error;
    return press;
  }
  const auto& rec = press.run.recording;
  // The corner node under the sphere: the one that starts nearest (0.02, 0.02, 0.01).
  int corner = -1;
  double nearest = 1e9;
  for (int i = 0;; ++i) {
    const auto at = [&](int a) {
      return Column(rec, "foam.positions[" + std::to_string(3 * i + a) + "]").front();
    };
    if (rec.FindColumn("foam.positions[" + std::to_string(3 * i) + "]") < 0) break;
    const double d = Eigen::Vector3d(at(0) - 0.02, at(1) - 0.02, at(2) - 0.01).norm();
    if (d < nearest) {
      nearest = d;
      corner = i;
    }
  }
  EXPECT_LT(nearest, 1e-9);
  const auto node = [&](const char* port, int a) {
    return Column(rec, std::string("foam.") + port + "[" + std::to_string(3 * corner + a) + "]");
  };
  const double R = 0.01, gamma = 50.0;
  const double psi = 1.0 / ((1.0 - 0.39 * 0.39) / 4.928e6 + (1.0 - 0.33 * 0.33) / 70e9);
  const double K = 2.0 * psi * std::sqrt(R), C = 4.0 * M_PI * R * gamma;
  const std::vector<double> fn = Column(rec, "foam.contact_normal_force");
  const std::vector<double> touching = Column(rec, "foam.contact_nodes");
  for (size_t k = 0; k < fn.size(); ++k) {
    Eigen::Vector3d p, v, c, w;
    for (int a = 0; a < 3; ++a) {
      p[a] = node("positions", a)[k];
      v[a] = node("velocities", a)[k];
      c[a] = Column(rec, "sensor.position[" + std::to_string(a) + "]")[k];
      w[a] = Column(rec, "sensor.v[" + std::to_string(a) + "]")[k];
    }
    const Eigen::Vector3d normal = (p - c).normalized();
    const double delta = R - (p - c).norm();
    const double rate = -(v - w).dot(normal);
    const double expected = delta > 0.0 ? std::max(0.0, K * std::pow(delta, 1.5) + C * rate) : 0.0;
    if (expected == 0.0) {
      EXPECT_EQ(fn[k], 0.0) << "row " << k;
      continue;
    }
    EXPECT_EQ(touching[k], 1.0) << "row " << k;  // the corner alone
    press.worst = std::max(press.worst, std::abs(fn[k] - expected) / expected);
    press.deepest = std::max(press.deepest, delta);
    press.largest_force = std::max(press.largest_force, fn[k]);
    ++press.rows_in_contact;
  }
  return press;
}

TEST(DeformableBodyModel, RigidSphereOnOneNodeFollowsTheHertzLaw) {
  for (const bool filtered : {false, true}) {
    SCOPED_TRACE(filtered ? "q through the motion filter" : "[q, q', q''] given");
    const TipPress press = PressTipOnCorner(filtered);
    std::printf(
        "[ measure  ] F3 sphere on one node (%s): %ld steps, %d rows in contact, depth "
        "up to %.3e m, f_n up to %.3f N, largest relative difference from eq. 4-8 "
        "%.2e\n",
        filtered ? "filtered q" : "whole motion", press.run.stats.solver.steps,
        press.rows_in_contact, press.deepest, press.largest_force, press.worst);
    EXPECT_GT(press.rows_in_contact, 50);
    EXPECT_GT(press.deepest, 2e-4);
    EXPECT_LT(press.worst, 1e-9);
    // With the Jacobian's columns across blocks, the filter's states cost ode23s little.
    EXPECT_LT(press.run.stats.solver.steps, 2000);
  }
}

}  // namespace
}  // namespace twinblocks
