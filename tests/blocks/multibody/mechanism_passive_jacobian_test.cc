// The mechanism's Jacobian of joint springs, dampers and stops, of constraint rows and of
// contacts on a light chain (Mechanism::DoCalcStiffJacobian, through
// Simulator::EvaluateStiffJacobian) against central differences of its derivatives. At rest
// where the springs hold the chain, what the Jacobian leaves out (Coriolis terms, the mass
// matrix's and G's change with q times forces that are zero there) vanishes, so the two agree
// to the differences' own error.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/compile.h"
#include "runtime/simulator.h"
#include "tests/blocks/multibody/light_chain.h"
#include "xml/model_reader.h"

namespace twinblocks {
namespace {

using namespace testing::light_chain;

struct Jacobians {
  Eigen::MatrixXd stiff;        // the mechanism's, every state
  Eigen::MatrixXd differenced;  // central differences of the derivatives
  std::vector<std::string> states;
  std::vector<double> xdot;
};

// Both Jacobians at the start of the run, after the first major step.
Jacobians AtStart(const std::string& xml, double delta = 1e-8) {
  const graph::System system = graph::Compile(xml::ReadModelString(xml));
  graph::Simulator sim(system, system.settings());
  sim.Initialize();
  const Eigen::VectorXd x = sim.state().x;
  const int n = static_cast<int>(x.size());
  Jacobians out;
  for (int i = 0; i < n; ++i) out.states.push_back(system.DescribeState(i));
  sim.EvaluateStiffJacobian(sim.time(), x, &out.stiff);
  out.differenced.resize(n, n);
  Eigen::VectorXd plus(n), minus(n);
  for (int b = 0; b < n; ++b) {
    Eigen::VectorXd xp = x, xm = x;
    xp[b] += delta;
    xm[b] -= delta;
    sim.EvaluateDerivatives(sim.time(), xp, &plus);
    sim.EvaluateDerivatives(sim.time(), xm, &minus);
    out.differenced.col(b) = (plus - minus) / (2.0 * delta);
  }
  Eigen::VectorXd f(n);
  sim.EvaluateDerivatives(sim.time(), x, &f);
  out.xdot.assign(f.data(), f.data() + n);
  return out;
}

// The largest difference, relative to the largest entry of the differenced Jacobian.
double RelativeDifference(const Jacobians& j) {
  return (j.stiff - j.differenced).cwiseAbs().maxCoeff() / j.differenced.cwiseAbs().maxCoeff();
}

int StateOf(const Jacobians& j, const std::string& what) {
  for (size_t i = 0; i < j.states.size(); ++i) {
    if (j.states[i] == what) return static_cast<int>(i);
  }
  ADD_FAILURE() << "no state " << what;
  return 0;
}

std::string Print(const Jacobians& j) {
  std::ostringstream s;
  s << "stiff:\n" << j.stiff << "\ndifferenced:\n" << j.differenced;
  return s.str();
}

// The chain at rest, held by its springs: the whole Jacobian is the springs' and dampers'
// (-K and -D mapped by M^-1) and the kinematic rows, to 1e-7 of its largest entry (K / I of
// the tip link, about 3e5 / s^2).
TEST(PassiveJacobianTest, SprungDampedChainMatchesDifferences) {
  const Jacobians j = AtStart(LightChain({}));
  ASSERT_EQ(j.stiff.rows(), 6);
  for (double r : j.xdot) EXPECT_EQ(r, 0.0);  // at rest, in equilibrium
  EXPECT_LT(RelativeDifference(j), 1e-7) << Print(j);
  // Stiff indeed: the damping of the light tip, more than 1e4 / s.
  const int v3 = StateOf(j, "velocity 0 of joint 'j3'");
  EXPECT_LT(j.stiff(v3, v3), -1e4);
}

// Joint 2 half-way into its stop's damping ramp (limit_transition): the stop's stiffness
// 1e4 N m/rad and half its damping join the spring's and the damper's.
TEST(PassiveJacobianTest, LimitStopSlopesMatchDifferences) {
  ChainOptions o;
  o.stop = true;
  const Jacobians j = AtStart(LightChain(o), 1e-9);
  // At rest to the round-off of the 5e-5 rad depth times the stop's 1e4 N m/rad, over 3e-6
  // kg m^2.
  for (double r : j.xdot) EXPECT_NEAR(r, 0.0, 1e-6);
  EXPECT_LT(RelativeDifference(j), 1e-6) << Print(j);
}

// A single light link on a revolute joint has a constant mass matrix and no Coriolis
// term: its Jacobian is exact anywhere. Moving into a stop within its ramp (where the
// damping grows with the depth: a slope of limit_damping qd / limit_transition), into the
// lower stop and into the upper one, and beyond the ramp.
TEST(PassiveJacobianTest, StopRampMatchesDifferencesOnOneLink) {
  struct Case {
    const char* limits;
    double q0, qd0;
  };
  for (const Case& c :
       {Case{R"(lower="0.1")", 0.1 - 4e-5, -0.3}, Case{R"(upper="0.1")", 0.1 + 3e-5, 0.2},
        Case{R"(upper="0.1")", 0.1 + 3e-5, -0.2}, Case{R"(lower="0.1")", 0.1 - 3e-4, -0.3}}) {
    SCOPED_TRACE(std::string(c.limits) + " q0 " + std::to_string(c.q0));
    const std::string xml = R"(<model name="one">
      <simulation solver="ode23s" t_end="0.01"/>
      <block type="World" name="world" gravity="[0, 0, 0]"/>
      <block type="RevoluteJoint" name="j" axis="[0, 1, 0]" stiffness="1" damping="0.05" )" +
                            std::string(c.limits) + R"( q0=")" + Number(c.q0) + R"(" qd0=")" +
                            Number(c.qd0) + R"("/>
      <block type="RigidTransform" name="c" translation="[0.015, 0, 0]"/>
      <block type="Solid" name="link" shape="box" size="[0.03, 0.006, 0.006]" mass="0.01"/>
      <connect from="world.W" to="j.B"/>
      <connect from="j.F" to="c.B"/>
      <connect from="c.F" to="link.R"/>
    </model>)";
    const Jacobians j = AtStart(xml, 1e-10);
    EXPECT_LT(RelativeDifference(j), 1e-6) << Print(j);
  }
}

// With a JointCoupler (q3 = 0.8 q2) the accelerations respond to a force through the
// constraint-consistent inverse P = M^-1 - M^-1 G^T (G M^-1 G^T)^+ G M^-1: the coupled
// joints' rows keep G qdd = 0 over every column, and the whole agrees with the differences.
TEST(PassiveJacobianTest, CoupledChainUsesTheConstrainedInverse) {
  ChainOptions o;
  o.coupler = true;
  o.stop = true;
  const Jacobians j = AtStart(LightChain(o), 1e-9);
  for (double r : j.xdot) EXPECT_NEAR(r, 0.0, 1e-6);  // as with the stop alone
  EXPECT_LT(RelativeDifference(j), 1e-6) << Print(j);
  const int v2 = StateOf(j, "velocity 0 of joint 'j2'");
  const int v3 = StateOf(j, "velocity 0 of joint 'j3'");
  const double scale = j.stiff.cwiseAbs().maxCoeff();
  EXPECT_LT((j.stiff.row(v3) - kRatio * j.stiff.row(v2)).cwiseAbs().maxCoeff(), 1e-12 * scale);
  // Joint 3's damper now moves joint 2 (and 1) through the coupling.
  EXPECT_GT(std::abs(j.stiff(v2, v3)), 1e-3 * std::abs(j.stiff(v3, v3)));
}

// A four-bar of the library with dampers of 0.05 N m s/rad on its two pivots, at rest
// without gravity: its loop's rows (which turn with q) map the dampers through P, as the
// coupler's do. four_bar_redundant's planar loop of revolute joints locks the out-of-plane
// motions twice (rank-deficient G, K's pivoted factors with zero pivots).
TEST(PassiveJacobianTest, DampedFourBarUsesItsLoopRows) {
  for (const char* file : {"four_bar.xml", "four_bar_redundant.xml"}) {
    SCOPED_TRACE(file);
    std::ifstream in(std::string(TWINBLOCKS_SOURCE_DIR) + "/models/mechanisms/" + file);
    std::stringstream text;
    text << in.rdbuf();
    std::string xml = text.str();
    const auto replace = [&xml](const std::string& from, const std::string& to) {
      const size_t at = xml.find(from);
      ASSERT_NE(at, std::string::npos) << from;
      xml.replace(at, from.size(), to);
    };
    replace(R"(gravity="[0, 0, -9.81]")", R"(gravity="[0, 0, 0]")");
    replace(R"(name="crank_pivot")", R"(name="crank_pivot" damping="0.05")");
    replace(R"(name="rocker_pivot")", R"(name="rocker_pivot" damping="0.05")");
    const Jacobians j = AtStart(xml);
    for (double r : j.xdot) EXPECT_NEAR(r, 0.0, 1e-12);
    EXPECT_LT(RelativeDifference(j), 1e-6) << Print(j);
    // The crank's damper moves the rocker through the loop.
    const int crank = StateOf(j, "velocity 0 of joint 'crank_pivot'");
    const int rocker = StateOf(j, "velocity 0 of joint 'rocker_pivot'");
    EXPECT_GT(std::abs(j.stiff(rocker, crank)), 1e-3 * std::abs(j.stiff(crank, crank)));
  }
}

// The largest difference over the velocity columns (dampers, the contact's damping and
// friction), relative to the largest entry there.
double RelativeDifferenceOverVelocities(const Jacobians& j) {
  double worst = 0.0, largest = 0.0;
  for (size_t c = 0; c < j.states.size(); ++c) {
    if (j.states[c].find("velocity") == std::string::npos) continue;
    worst = std::max(worst, (j.stiff.col(c) - j.differenced.col(c)).cwiseAbs().maxCoeff());
    largest = std::max(largest, j.differenced.col(c).cwiseAbs().maxCoeff());
  }
  return worst / largest;
}

// What the Jacobian leaves out of a contact: its normal's turning as the bodies move, a force
// f_n / d per metre across it (d = 15 mm between the spheres' centres), against the
// stiffness k along it. Relative to the largest entry (k times the levers squared over the
// inertias) that is about depth / (d lever), lever ~ 35 mm from the last joint: 2e-5 at
// the 10 nm depth of the test.
constexpr double kNormalTurning = kContactDepth / ((kTipRadius + kBallRadius) * 0.035);

// The chain's tip pressed 10 nm into a free ball (k = 1e5 N/m, c = 100 N s/m): the contact
// reaches the chain's joints and the ball's six coordinates, the springs and dampers are there
// alongside. Over the velocities (the dampers, the contact's damping and, at rest, its
// friction) the two agree to the differences' error; over the positions to the normal's
// turning.
TEST(PassiveJacobianTest, ChainPressingAFreeBallMatchesDifferences) {
  for (bool friction : {false, true}) {
    SCOPED_TRACE(friction ? "smooth stick-slip friction at rest" : "frictionless");
    ChainOptions o;
    o.contact = true;
    o.friction = friction;
    const Jacobians j = AtStart(LightChain(o), 1e-10);
    ASSERT_EQ(j.stiff.rows(), 6 + 13);
    EXPECT_LT(RelativeDifferenceOverVelocities(j), 1e-7) << Print(j);
    EXPECT_LT(RelativeDifference(j), 2.0 * kNormalTurning) << Print(j);
    const int v1 = StateOf(j, "velocity 0 of joint 'j1'");
    const int ball_x = StateOf(j, "position 0 of joint 'free'");
    EXPECT_NE(j.stiff(v1, ball_x), 0.0);  // the ball's position moves the chain
  }
}

// The same with the coupler: contact terms go through P too.
TEST(PassiveJacobianTest, CoupledChainPressingAFreeBallMatchesDifferences) {
  ChainOptions o;
  o.contact = true;
  o.coupler = true;
  const Jacobians j = AtStart(LightChain(o), 1e-10);
  EXPECT_LT(RelativeDifferenceOverVelocities(j), 1e-7) << Print(j);
  EXPECT_LT(RelativeDifference(j), 2.0 * kNormalTurning) << Print(j);
  const int v2 = StateOf(j, "velocity 0 of joint 'j2'");
  const int v3 = StateOf(j, "velocity 0 of joint 'j3'");
  const double scale = j.stiff.cwiseAbs().maxCoeff();
  EXPECT_LT((j.stiff.row(v3) - kRatio * j.stiff.row(v2)).cwiseAbs().maxCoeff(), 1e-12 * scale);
}

// The planar adaptive finger's two links on joints j1 and j2 about +z (no gravity), and
// their connections: the tendon tests add their tendon and command.
const std::string kAfLinks = R"(
  <block type="World" name="world" gravity="[0, 0, 0]"/>
  <block type="RevoluteJoint" name="j1" axis="[0, 0, 1]" actuation="port" damping="0.002"/>
  <block type="Solid" name="link1" shape="none" mass="0.02" com="[0.025, 0, 0]" inertia="[[1e-9, 0, 0], [0, 4e-6, 0], [0, 0, 4e-6]]"/>
  <block type="RigidTransform" name="end1" translation="[0.05, 0, 0]"/>
  <block type="RevoluteJoint" name="j2" axis="[0, 0, 1]" actuation="port" damping="0.001"/>
  <block type="Solid" name="link2" shape="none" mass="0.015" com="[0.02, 0, 0]" inertia="[[1e-9, 0, 0], [0, 2e-6, 0], [0, 0, 2e-6]]"/>
)";
const std::string kAfLinkJoints = R"(
  <connect from="world.W" to="j1.B"/>
  <connect from="j1.F" to="link1.R"/>
  <connect from="j1.F" to="end1.B"/>
  <connect from="end1.F" to="j2.B"/>
  <connect from="j2.F" to="link2.R"/>
)";

// A tendon's springs E and an elastic cable (f = k (s - l) - c R qd at a constant command) on
// the planar adaptive finger: d tau / d q = -E - k R R^T, d tau / d v = -c R R^T, through M^-1.
// Compared on the joints' rows and columns (the command filter's coupling through the cable is
// left out of the Jacobian).
TEST(PassiveJacobianTest, TendonSpringsAndElasticCableMatchDifferences) {
  const std::string xml =
      R"(<model name="af_elastic" format="1">
)" + kAfLinks +
      R"(  <block type="Tendon" name="tendon" R="[0.01, 0.008]" E="[0.2, 0.1]" transmission="elastic" stiffness="1000" damping="2"/>
  <block type="Constant" name="s" value="0"/>
)" + kAfLinkJoints +
      R"(  <connect from="tendon.J1" to="j1.shaft"/>
  <connect from="tendon.J2" to="j2.shaft"/>
  <connect from="s.y" to="tendon.s"/>
</model>)";
  const Jacobians j = AtStart(xml);
  std::vector<int> joints;
  for (const char* name : {"j1", "j2"}) {
    joints.push_back(StateOf(j, std::string("position 0 of joint '") + name + "'"));
    joints.push_back(StateOf(j, std::string("velocity 0 of joint '") + name + "'"));
  }
  double worst = 0.0, largest = 0.0;
  for (int r : joints) {
    for (int c : joints) {
      worst = std::max(worst, std::abs(j.stiff(r, c) - j.differenced(r, c)));
      largest = std::max(largest, std::abs(j.differenced(r, c)));
    }
  }
  EXPECT_LT(worst / largest, 1e-7) << Print(j);
  // The cable's stiffness dominates: the spring rows are not just -E / M.
  const int q1 = StateOf(j, "position 0 of joint 'j1'"),
            v1 = StateOf(j, "velocity 0 of joint 'j1'");
  EXPECT_LT(j.stiff(v1, q1), -1.0);
}

// A rigid tendon pulled through its command filter (the planar adaptive finger at rest,
// s = 0): the filter's state s and rate s' set the row's target acceleration
// (s_cmd - s) / tc^2 - 2 s' / tc, which reaches the joints as Y K^+ e_row. Every column,
// the filter's included, agrees with the differences; and along the tendon, R J_v equals the
// filter's rate row over every column (G J = 0 on the invariant R q - s), so that implicit
// steps keep the tendon's length on its filtered command.
TEST(PassiveJacobianTest, RigidTendonFilterColumnsMatchDifferences) {
  const std::string xml =
      R"(<model name="af_rigid" format="1">
)" + kAfLinks +
      R"(  <block type="RevoluteJoint" name="j3" axis="[0, 0, 1]" actuation="port" damping="0.001"/>
  <block type="Solid" name="link3" shape="none" mass="0.01" com="[0.015, 0, 0]" inertia="[[1e-9, 0, 0], [0, 1e-6, 0], [0, 0, 1e-6]]"/>
  <block type="RigidTransform" name="end2" translation="[0.04, 0, 0]"/>
  <block type="Tendon" name="tendon" R="[0.01, 0.008, 0.006]" E="[0.2, 0.1, 0.05]"/>
  <block type="Constant" name="s" value="0"/>
)" + kAfLinkJoints +
      R"(  <connect from="j2.F" to="end2.B"/>
  <connect from="end2.F" to="j3.B"/>
  <connect from="j3.F" to="link3.R"/>
  <connect from="tendon.J1" to="j1.shaft"/>
  <connect from="tendon.J2" to="j2.shaft"/>
  <connect from="tendon.J3" to="j3.shaft"/>
  <connect from="s.y" to="tendon.s"/>
</model>)";
  const Jacobians j = AtStart(xml);
  ASSERT_EQ(j.stiff.rows(), 8);  // three joints' q and v, the filter's two
  for (double r : j.xdot) EXPECT_EQ(r, 0.0);
  EXPECT_LT(RelativeDifference(j), 1e-7) << Print(j);
  int filter_s = -1;
  for (size_t i = 0; i < j.states.size(); ++i) {
    if (j.states[i].find("tendon") != std::string::npos && filter_s < 0) {
      filter_s = static_cast<int>(i);
    }
  }
  ASSERT_GE(filter_s, 0) << "no state of the tendon's filter";
  const double R[3] = {0.01, 0.008, 0.006};
  const double scale = j.stiff.cwiseAbs().maxCoeff();
  for (int c = 0; c < 8; ++c) {
    double along = 0.0;
    for (int k = 0; k < 3; ++k) {
      along +=
          R[k] * j.stiff(StateOf(j, "velocity 0 of joint 'j" + std::to_string(k + 1) + "'"), c);
    }
    EXPECT_NEAR(along, j.stiff(filter_s + 1, c), 1e-12 * scale) << "column " << j.states[c];
  }
}

// The structure the mechanism declares holds every nonzero of these Jacobians.
TEST(PassiveJacobianTest, DeclaredStructureHoldsEveryNonzero) {
  for (int variant = 0; variant < 3; ++variant) {
    ChainOptions o;
    o.coupler = variant >= 1;
    o.contact = variant == 2;
    o.stop = variant == 1;
    const graph::System system = graph::Compile(xml::ReadModelString(LightChain(o)));
    graph::Simulator sim(system, system.settings());
    std::vector<char> structure;
    ASSERT_TRUE(sim.StiffJacobianStructure(&structure));
    sim.Initialize();
    Eigen::MatrixXd J;
    sim.EvaluateStiffJacobian(sim.time(), sim.state().x, &J);
    const int n = system.num_continuous_states();
    for (int c = 0; c < n; ++c) {
      for (int r = 0; r < n; ++r) {
        if (J(r, c) != 0.0) {
          EXPECT_NE(structure[static_cast<size_t>(c) * n + r], 0);
        }
      }
    }
  }
}

}  // namespace
}  // namespace twinblocks
