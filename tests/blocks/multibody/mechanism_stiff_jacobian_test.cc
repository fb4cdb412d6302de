// The Jacobian of a mechanism with contacts (Mechanism::DoCalcStiffJacobian, through
// Simulator::EvaluateStiffJacobian) against central differences of its derivatives: a free
// sphere pressed 0.1 mm into a plane, with smooth stick-slip friction.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "compiler/compile.h"
#include "runtime/simulator.h"
#include "tests/blocks/multibody/pressed_sphere.h"
#include "xml/model_reader.h"

namespace twinblocks {
namespace {

using namespace testing::pressed_sphere;

struct Jacobians {
  Eigen::MatrixXd stiff;        // the mechanism's, on the velocity states
  Eigen::MatrixXd differenced;  // central differences of the derivatives, the same block
  Eigen::MatrixXd stiff_all;    // the mechanism's, every state (positions, quaternion, v)
  Eigen::MatrixXd differenced_all;
};

// Both Jacobians at the start of the run: every state, and the block of the velocity rows
// and columns.
Jacobians AtStart(const std::string& xml) {
  const graph::System system = graph::Compile(xml::ReadModelString(xml));
  graph::Simulator sim(system, system.settings());
  sim.Initialize();
  const Eigen::VectorXd x = sim.state().x;
  const int n = static_cast<int>(x.size());
  EXPECT_EQ(n, 13);  // position (3), quaternion (4), angular and linear velocity (6)
  std::vector<int> v;
  for (int i = 0; i < n; ++i) {
    if (system.DescribeState(i).find("velocity") != std::string::npos) v.push_back(i);
  }
  EXPECT_EQ(v.size(), 6u);
  Jacobians out;
  sim.EvaluateStiffJacobian(sim.time(), x, &out.stiff_all);
  out.differenced_all.resize(n, n);
  // m, rad or m/s, rad/s: far below v_crit (where mu(v) is smooth) and the depth.
  const double delta = 1e-8;
  Eigen::VectorXd plus(n), minus(n);
  for (int b = 0; b < n; ++b) {
    Eigen::VectorXd xp = x, xm = x;
    xp[b] += delta;
    xm[b] -= delta;
    sim.EvaluateDerivatives(sim.time(), xp, &plus);
    sim.EvaluateDerivatives(sim.time(), xm, &minus);
    out.differenced_all.col(b) = (plus - minus) / (2.0 * delta);
  }
  out.stiff.resize(6, 6);
  out.differenced.resize(6, 6);
  for (int b = 0; b < 6; ++b) {
    for (int a = 0; a < 6; ++a) {
      out.stiff(a, b) = out.stiff_all(v[a], v[b]);
      out.differenced(a, b) = out.differenced_all(v[a], v[b]);
    }
  }
  return out;
}

// At rest (zero slip) the friction's secant and tangent agree: on the velocities the
// Jacobian is the whole velocity Jacobian (the gyroscopic terms vanish at zero spin), entry
// by entry.
TEST(StiffJacobianTest, AtRestMatchesDifferencesOfTheDerivatives) {
  const Jacobians j = AtStart(PressedSphere(
      "[0, 0, 0]", R"(friction="smooth_stick_slip" mu_s="0.5" mu_d="0.3" v_crit="1e-3")"));
  const double scale = j.differenced.cwiseAbs().maxCoeff();
  // The normal damping alone: -c / m on the vertical velocity.
  EXPECT_GT(scale, kDamping / kMass);
  // mu(s) = mu_s s (2 - s) bends within the difference: its error is delta / (2 v_crit) =
  // 5e-6 relative on the friction terms.
  EXPECT_LT((j.stiff - j.differenced).cwiseAbs().maxCoeff(), 1e-5 * scale)
      << "stiff:\n"
      << j.stiff << "\ndifferenced:\n"
      << j.differenced;
}

// Over every state: the kinematic rows (p' = R v, the quaternion's rate) and the contact's
// stiffness, -k / m on the vertical position. What is left out is the turning of the body
// frame in which the free joint's velocities are expressed: the contact force seen from a
// turned frame, f_n / m = k depth / m per radian (2 f_n / m per unit of a quaternion
// component, whose change turns the body by twice as much), 1e-4 of k / m here.
TEST(StiffJacobianTest, AtRestCarriesTheContactStiffnessAndTheKinematics) {
  const Jacobians j = AtStart(PressedSphere(
      "[0, 0, 0]", R"(friction="smooth_stick_slip" mu_s="0.5" mu_d="0.3" v_crit="1e-3")"));
  // Position z (state 2) on the vertical velocity (state 12): the contact's stiffness.
  EXPECT_NEAR(j.stiff_all(12, 2), -kStiffness / kMass, 1e-9 * kStiffness);
  EXPECT_NEAR(j.differenced_all(12, 2), -kStiffness / kMass, 1e-6 * kStiffness);
  // p' = R v_B, R = I: the linear velocities (states 10-12) on the positions (0-2).
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(j.stiff_all(k, 10 + k), 1.0, 1e-15);
  const double fn_per_mass = kStiffness * kDepth / kMass;
  EXPECT_LT((j.stiff_all - j.differenced_all).cwiseAbs().maxCoeff(), 2.01 * fn_per_mass)
      << "stiff:\n"
      << j.stiff_all << "\ndifferenced:\n"
      << j.differenced_all;
  // Rows other than the velocities' (the kinematics) are exact.
  EXPECT_LT((j.stiff_all - j.differenced_all).topRows(7).cwiseAbs().maxCoeff(), 1e-6);
}

// Without friction only the normal damping is stiff: -c / m along the normal.
TEST(StiffJacobianTest, FrictionlessContactIsItsNormalDamping) {
  const Jacobians j = AtStart(PressedSphere("[0, 0, 0]", ""));
  EXPECT_LT((j.stiff - j.differenced).cwiseAbs().maxCoeff(), 1e-6 * kDamping / kMass)
      << "stiff:\n"
      << j.stiff << "\ndifferenced:\n"
      << j.differenced;
  // The sphere's body-frame velocity coordinates are aligned with W at the start.
  EXPECT_NEAR(j.stiff.cwiseAbs().maxCoeff(), kDamping / kMass, 1e-9 * kDamping);
}

// Sliding at 10 v_crit (mu = mu_d, flat): across the slip the two agree, along it the stiff
// Jacobian keeps the secant mu_d f_n / speed where the tangent is zero, so that an implicit
// step slows the slip without ever reversing it.
TEST(StiffJacobianTest, SlidingKeepsTheSecantAlongTheSlip) {
  const double speed = 10 * kVCrit;
  const Jacobians j =
      AtStart(PressedSphere("[" + std::to_string(speed) + ", 0, 0]",
                            R"(friction="smooth_stick_slip" mu_s="0.5" mu_d="0.3" v_crit="1e-3")"));
  // The normal force of the pressed sphere, sliding parallel to the plane.
  const double fn = kStiffness * kDepth;
  // Rows and columns 3-5 are the linear velocity (x, y, z); 0-2 the angular one.
  EXPECT_NEAR(j.stiff(3, 3), -kMuD * fn / speed / kMass, 1e-6 * kMuD * fn / speed);
  EXPECT_NEAR(j.differenced(3, 3), 0.0, 1e-3 * kMuD * fn / speed);
  EXPECT_NEAR(j.stiff(4, 4), j.differenced(4, 4), 1e-6 * std::abs(j.differenced(4, 4)));
  EXPECT_NEAR(j.stiff(4, 4), -kMuD * fn / speed / kMass, 1e-6 * kMuD * fn / speed);
  EXPECT_NEAR(j.stiff(5, 5), -kDamping / kMass, 1e-9 * kDamping);
  // Friction follows the normal force: pressing deeper (z down) slides harder against the
  // slip, -mu_d k / m of x acceleration per metre of z.
  EXPECT_NEAR(j.stiff_all(10, 2), kMuD * kStiffness / kMass, 1e-9 * kStiffness);
  EXPECT_NEAR(j.differenced_all(10, 2), kMuD * kStiffness / kMass, 1e-5 * kStiffness);
}

// A diagram without contacts has no stiff terms: the Jacobian is zero (ros2 then differences
// the whole system instead).
TEST(StiffJacobianTest, NoContactsNoStiffTerms) {
  const graph::System system = graph::Compile(xml::ReadModelString(R"xml(<model name="free">
    <simulation solver="ros2" step="1e-3" t_end="0.01"/>
    <block type="World" name="world" gravity="[0, 0, -9.81]"/>
    <block type="FreeJoint" name="free" v0="[1, 0, 0]"/>
    <block type="Solid" name="ball" shape="sphere" radius="0.05" mass="1"/>
    <connect from="world.W" to="free.B"/>
    <connect from="free.F" to="ball.R"/>
  </model>)xml"));
  graph::Simulator sim(system, system.settings());
  sim.Initialize();
  Eigen::MatrixXd J;
  sim.EvaluateStiffJacobian(sim.time(), sim.state().x, &J);
  EXPECT_EQ(J.rows(), system.num_continuous_states());
  EXPECT_EQ(J.cwiseAbs().maxCoeff(), 0.0);
}

// The structure the blocks declare (what ode23s and ros2 order W's blocks by, once) holds
// every nonzero of the Jacobian: the power grasp G2 every 10 ms, open, striking, holding.
TEST(StiffJacobianTest, DeclaredStructureHoldsEveryNonzeroThroughAGrasp) {
  const graph::System system = graph::Compile(
      xml::ReadModelFile(std::string(TWINBLOCKS_SOURCE_DIR) + "/models/gripper4/g2_power.xml"));
  graph::SimulationSettingsValues settings = system.settings();
  settings.solver = "ode23s";
  settings.rtol = 2e-3;
  settings.atol = 1e-5;
  graph::Simulator sim(system, settings);
  std::vector<char> structure;
  ASSERT_TRUE(sim.StiffJacobianStructure(&structure));
  const int n = system.num_continuous_states();
  ASSERT_EQ(structure.size(), static_cast<size_t>(n) * n);
  sim.Initialize();
  Eigen::MatrixXd J;
  int fewest = n * n, most = 0;
  for (int i = 1; i <= 50; ++i) {
    ASSERT_TRUE(sim.AdvanceTo(0.01 * i).ok);
    sim.EvaluateStiffJacobian(sim.time(), sim.state().x, &J);
    int nonzeros = 0;
    for (int c = 0; c < n; ++c) {
      for (int r = 0; r < n; ++r) {
        if (J(r, c) == 0.0) continue;
        ++nonzeros;
        EXPECT_NE(structure[static_cast<size_t>(c) * n + r], 0)
            << "J(" << r << ", " << c << ") = " << J(r, c) << " at t = " << sim.time() << " ("
            << system.DescribeState(r) << " over " << system.DescribeState(c) << ")";
      }
    }
    fewest = std::min(fewest, nonzeros);
    most = std::max(most, nonzeros);
  }
  // The contacts' terms came and went: the test saw more than the kinematic rows.
  EXPECT_GT(most, fewest + 50);
}

TEST(StiffJacobianTest, BeforeInitializeIsALogicError) {
  const graph::System system = graph::Compile(xml::ReadModelString(PressedSphere("[0, 0, 0]", "")));
  graph::Simulator sim(system, system.settings());
  Eigen::MatrixXd J;
  EXPECT_THROW(sim.EvaluateStiffJacobian(0.0, Eigen::VectorXd::Zero(13), &J), std::logic_error);
}

}  // namespace
}  // namespace twinblocks
