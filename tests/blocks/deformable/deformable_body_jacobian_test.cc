// DeformableBody's stiff Jacobian (springs, dashpots and contacts, through
// Simulator::EvaluateStiffJacobian) against central differences of its derivatives, with a
// fingertip sphere pressed onto a node: sticking, at the anchor and away from it.

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <string>

#include "compiler/compile.h"
#include "runtime/simulator.h"
#include "xml/model_reader.h"

namespace twinblocks {
namespace {

// The block's Jacobian and the differences of the derivatives at the start (the tip 0.2 mm
// into the block's corner), every node given a velocity, to `tolerance` of the largest entry.
void Compare(const std::string& extra, double tolerance) {
  const graph::System system = graph::Compile(xml::ReadModelString(R"xml(<model name="j">
  <simulation solver="ode23s" t_end="1"/>
  <block type="Constant" name="tip"
         value="[0.02, 0.02, 0.0198, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.001, 0, -0.002, 0, 0, 0]"/>
  <block type="DeformableBody" name="foam" shape="box" size="[0.04, 0.04, 0.02]"
         element_size="0.05" young_modulus="4.928e6" density="100" spring="cubic"
         fixed_below="[-0.0099]" contact_radius="[0.01]" )xml" + extra +
                                                                   R"xml(/>
  <connect from="tip.y" to="foam.solids"/>
  <log signal="foam.contact_normal_force"/>
</model>)xml"));
  graph::Simulator sim(system, system.settings());
  sim.Initialize();
  Eigen::VectorXd x = sim.state().x;
  const int n = static_cast<int>(x.size());
  // A velocity at every node, so that the dashpots and the contact's damper act.
  for (int i = n / 2; i < n; ++i) x[i] = 1e-3 * std::sin(0.7 * i);
  Eigen::MatrixXd J;
  sim.EvaluateStiffJacobian(sim.time(), x, &J);
  Eigen::MatrixXd D(n, n);
  Eigen::VectorXd plus(n), minus(n);
  for (int b = 0; b < n; ++b) {
    const double h = b < n / 2 ? 1e-9 : 1e-7;
    Eigen::VectorXd xp = x, xm = x;
    xp[b] += h;
    xm[b] -= h;
    sim.EvaluateDerivatives(sim.time(), xp, &plus);
    sim.EvaluateDerivatives(sim.time(), xm, &minus);
    D.col(b) = (plus - minus) / (2.0 * h);
  }
  Eigen::VectorXd f(n);
  sim.EvaluateDerivatives(sim.time(), x, &f);
  const double scale = D.cwiseAbs().maxCoeff();
  EXPECT_GT(scale, 0.0);
  EXPECT_LT((J - D).cwiseAbs().maxCoeff(), tolerance * scale)
      << "largest entry " << scale << ", at the largest difference "
      << (J - D).cwiseAbs().maxCoeff();
}

TEST(DeformableBodyJacobianTest, SpringsAndAStickingContactMatchDifferences) { Compare("", 1e-5); }

TEST(DeformableBodyJacobianTest, FrictionlessContactMatchesDifferences) {
  Compare(R"(contact_mu="0" )", 1e-5);
}

// The tip on a prismatic joint whose motion filter holds states: the body's rows of the
// Jacobian hold the filter's columns too (Block::has_stiff_inputs), and every column of those
// rows matches differences of the derivatives.
TEST(DeformableBodyJacobianTest, ColumnsOfTheTipsStatesAcrossBlocksMatchDifferences) {
  const graph::System system = graph::Compile(xml::ReadModelString(R"xml(<model name="j">
  <simulation solver="ode23s" t_end="1"/>
  <block type="World" name="world" gravity="[0, 0, 0]"/>
  <block type="RigidTransform" name="above" translation="[0.02, 0.02, 0.0198]"/>
  <block type="PrismaticJoint" name="slide" axis="[0, 0, 1]" actuation="motion" q0="0"/>
  <block type="Solid" name="tip" shape="sphere" radius="0.01" mass="0.05"/>
  <block type="TransformSensor" name="sensor"/>
  <block type="Constant" name="q" value="-1e-4"/>
  <block type="Mux" name="motion" inputs="4"/>
  <block type="DeformableBody" name="foam" shape="box" size="[0.04, 0.04, 0.02]"
         element_size="0.05" young_modulus="4.928e6" density="100" spring="cubic"
         fixed_below="[-0.0099]" contact_radius="[0.01]"/>
  <connect from="world.W" to="above.B"/>
  <connect from="above.F" to="slide.B"/>
  <connect from="slide.F" to="tip.R"/>
  <connect from="world.W" to="sensor.B"/>
  <connect from="slide.F" to="sensor.F"/>
  <connect from="q.y" to="slide.motion"/>
  <connect from="sensor.position" to="motion.u1"/>
  <connect from="sensor.rotation" to="motion.u2"/>
  <connect from="sensor.v" to="motion.u3"/>
  <connect from="sensor.w" to="motion.u4"/>
  <connect from="motion.y" to="foam.solids"/>
</model>)xml"));
  graph::Simulator sim(system, system.settings());
  sim.Initialize();
  const Eigen::VectorXd x = sim.state().x;
  const int n = static_cast<int>(x.size());
  const int body = system.block(system.FindBlock("foam")).x_offset();
  const int nb = system.block(system.FindBlock("foam")).num_continuous_states();
  ASSERT_GT(n, nb);  // the filter's states besides the body's
  Eigen::MatrixXd J;
  sim.EvaluateStiffJacobian(sim.time(), x, &J);
  Eigen::VectorXd plus(n), minus(n);
  double scale = 0.0, worst = 0.0, cross = 0.0;
  for (int b = 0; b < n; ++b) {
    const double h = 1e-9;
    Eigen::VectorXd xp = x, xm = x;
    xp[b] += h;
    xm[b] -= h;
    sim.EvaluateDerivatives(sim.time(), xp, &plus);
    sim.EvaluateDerivatives(sim.time(), xm, &minus);
    const Eigen::VectorXd d = ((plus - minus) / (2.0 * h)).segment(body, nb);
    scale = std::max(scale, d.cwiseAbs().maxCoeff());
    worst = std::max(worst, (J.col(b).segment(body, nb) - d).cwiseAbs().maxCoeff());
    if (b < body || b >= body + nb) cross = std::max(cross, d.cwiseAbs().maxCoeff());
  }
  EXPECT_GT(cross, 1e-3 * scale);  // the tip's states do push the node
  EXPECT_LT(worst, 1e-5 * scale);
}

}  // namespace
}  // namespace twinblocks
