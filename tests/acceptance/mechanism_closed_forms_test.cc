// Closed forms: mechanisms built from World, RevoluteJoint/PrismaticJoint, RigidTransform
// and Solid blocks against solutions derived independently of the multibody code: the
// elliptic-integral period of a pendulum at 170 deg, a double pendulum's Lagrangian equations
// written out here, and a prismatic mass-spring.
#include <gtest/gtest.h>

#include <Eigen/LU>
#include <cmath>
#include <numbers>

#include "solvers/integrator.h"
#include "tests/support/acceptance_helpers.h"

namespace twinblocks::testing {
namespace {

/// Complete elliptic integral of the first kind K(k) by the arithmetic-geometric mean.
double EllipticK(double k) {
  double a = 1.0, b = std::sqrt(1.0 - k * k);
  for (int i = 0; i < 40; ++i) {
    const double an = 0.5 * (a + b);
    b = std::sqrt(a * b);
    a = an;
  }
  return std::numbers::pi / (2.0 * a);
}

/// Times where `y` crosses zero going down, by linear interpolation between rows.
std::vector<double> DownCrossings(const std::vector<double>& t, const std::vector<double>& y) {
  std::vector<double> out;
  for (size_t i = 1; i < t.size(); ++i) {
    if (y[i - 1] > 0.0 && y[i] <= 0.0) {
      out.push_back(t[i - 1] + (t[i] - t[i - 1]) * y[i - 1] / (y[i - 1] - y[i]));
    }
  }
  return out;
}

TEST(MechanismClosedForms, PendulumAt170DegreesHasTheEllipticIntegralPeriod) {
  // A point mass on a massless rod of length L, hinged about x, hanging along -z.
  const char* xml = R"xml(<model name="pendulum">
    <simulation solver="ode45" t_end="11" rtol="1e-12" atol="1e-12" output_interval="1e-4"/>
    <block type="World" name="world"/>
    <block type="RevoluteJoint" name="hinge" axis="[1, 0, 0]" q0="deg(170)"/>
    <block type="RigidTransform" name="rod" translation="[0, 0, -0.5]"/>
    <block type="Solid" name="bob" shape="none" mass="2"/>
    <connect from="world.W" to="hinge.B"/>
    <connect from="hinge.F" to="rod.B"/>
    <connect from="rod.F" to="bob.R"/>
    <log signal="hinge.q"/>
  </model>)xml";
  const RunOutput out = RunModelText(xml);
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const double L = 0.5, g = 9.81, theta0 = 170.0 * std::numbers::pi / 180.0;
  const double period = 4.0 * std::sqrt(L / g) * EllipticK(std::sin(theta0 / 2.0));
  const std::vector<double> down =
      DownCrossings(Times(out.recording), Column(out.recording, "hinge.q"));
  ASSERT_GE(down.size(), 2u);
  const double measured = down[1] - down[0];
  const double rel = std::abs(measured - period) / period;
  EXPECT_LT(rel, 1e-8) << "measured " << measured << " s, elliptic " << period << " s";
  RecordProperty("period_s", Figure(measured));
  RecordProperty("period_relative_error", Figure(rel));
}

/// The double pendulum of point masses m1, m2 on massless rods l1, l2, angles from the
/// downward vertical, from its Lagrangian (e.g. Goldstein; derived by hand):
/// (m1+m2) l1 a1 + m2 l2 cos(d) a2 = -m2 l2 w2^2 sin(d) - (m1+m2) g sin(q1)
/// m2 l2 a2 + m2 l1 cos(d) a1 = m2 l1 w1^2 sin(d) - m2 g sin(q2),   d = q1 - q2.
class DoublePendulum : public solvers::OdeProblem {
 public:
  double m1 = 1.0, m2 = 0.7, l1 = 0.6, l2 = 0.4, g = 9.81;
  int num_states() const override { return 4; }
  int CalcDerivatives(double, const Eigen::Ref<const Eigen::VectorXd>& x,
                      Eigen::Ref<Eigen::VectorXd> xdot) override {
    const double q1 = x[0], q2 = x[1], w1 = x[2], w2 = x[3], d = q1 - q2;
    Eigen::Matrix2d M;
    M << (m1 + m2) * l1, m2 * l2 * std::cos(d), m2 * l1 * std::cos(d), m2 * l2;
    const Eigen::Vector2d rhs(-m2 * l2 * w2 * w2 * std::sin(d) - (m1 + m2) * g * std::sin(q1),
                              m2 * l1 * w1 * w1 * std::sin(d) - m2 * g * std::sin(q2));
    const Eigen::Vector2d a = M.lu().solve(rhs);
    xdot << w1, w2, a[0], a[1];
    return 0;
  }
};

TEST(MechanismClosedForms, DoublePendulumMatchesItsLagrangianEquations) {
  // Joint 2 measures the second rod relative to the first: q2_abs = q1 + q2_rel.
  const char* xml = R"xml(<model name="double_pendulum">
    <simulation solver="ode45" t_end="3" rtol="1e-12" atol="1e-12" output_interval="0.01"/>
    <block type="World" name="world"/>
    <block type="RevoluteJoint" name="j1" axis="[1, 0, 0]" q0="0.9" qd0="0.3"/>
    <block type="RigidTransform" name="rod1" translation="[0, 0, -0.6]"/>
    <block type="Solid" name="m1" shape="none" mass="1"/>
    <block type="RevoluteJoint" name="j2" axis="[1, 0, 0]" q0="-0.4" qd0="-0.2"/>
    <block type="RigidTransform" name="rod2" translation="[0, 0, -0.4]"/>
    <block type="Solid" name="m2" shape="none" mass="0.7"/>
    <connect from="world.W" to="j1.B"/>
    <connect from="j1.F" to="rod1.B"/>
    <connect from="rod1.F" to="m1.R"/>
    <connect from="rod1.F" to="j2.B"/>
    <connect from="j2.F" to="rod2.B"/>
    <connect from="rod2.F" to="m2.R"/>
    <log signal="j1.q"/>
    <log signal="j2.q"/>
  </model>)xml";
  const RunOutput out = RunModelText(xml);
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  // Rotation about +x turns -z toward -y: both angles are measured the same way as the
  // Lagrangian's from the downward vertical, so q1 = theta1 and q1 + q2 = theta2.
  DoublePendulum ref;
  solvers::IntegratorOptions opt;
  opt.rtol = 1e-13;
  opt.atol = 1e-13;
  auto integ = solvers::MakeIntegrator("ode45", &ref, opt);
  Eigen::Vector4d x0(0.9, 0.9 - 0.4, 0.3, 0.3 - 0.2);
  integ->Reset(0.0, x0);
  const std::vector<double> t = Times(out.recording);
  const std::vector<double> q1 = Column(out.recording, "j1.q");
  const std::vector<double> q2 = Column(out.recording, "j2.q");
  double worst = 0.0;
  for (size_t i = 1; i < t.size(); ++i) {
    while (integ->time() < t[i]) integ->Step(t[i]);
    const Eigen::VectorXd& x = integ->state();
    worst = std::max(worst, std::abs(q1[i] - x[0]));
    worst = std::max(worst, std::abs(q1[i] + q2[i] - x[1]));
  }
  EXPECT_LT(worst, 1e-8);
  RecordProperty("max_angle_error_rad", Figure(worst));
}

TEST(MechanismClosedForms, PrismaticMassSpringMatchesItsAnalyticSolution) {
  // m x'' = -k x - c x' + m g_z; with gravity along the axis the equilibrium shifts by m g/k.
  const char* xml = R"xml(<model name="mass_spring">
    <simulation solver="ode45" t_end="5" rtol="1e-12" atol="1e-12" output_interval="0.01"/>
    <block type="World" name="world" gravity="[0, 0, -9.81]"/>
    <block type="PrismaticJoint" name="slider" axis="[0, 0, 1]" stiffness="200" damping="3"
           q0="0.05"/>
    <block type="Solid" name="mass" shape="box" size="[0.1, 0.1, 0.1]" mass="2"/>
    <connect from="world.W" to="slider.B"/>
    <connect from="slider.F" to="mass.R"/>
    <log signal="slider.q"/>
  </model>)xml";
  const RunOutput out = RunModelText(xml);
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const double m = 2.0, k = 200.0, c = 3.0, g = 9.81;
  const double x_eq = -m * g / k, x0 = 0.05 - x_eq;
  const double wn = std::sqrt(k / m), zeta = c / (2.0 * std::sqrt(k * m));
  const double wd = wn * std::sqrt(1.0 - zeta * zeta);
  const std::vector<double> t = Times(out.recording);
  const std::vector<double> q = Column(out.recording, "slider.q");
  double worst = 0.0;
  for (size_t i = 0; i < t.size(); ++i) {
    const double e = std::exp(-zeta * wn * t[i]);
    const double x = x_eq + x0 * e * (std::cos(wd * t[i]) + zeta * wn / wd * std::sin(wd * t[i]));
    worst = std::max(worst, std::abs(q[i] - x));
  }
  EXPECT_LT(worst, 1e-9);
  RecordProperty("max_position_error_m", Figure(worst));
}

}  // namespace
}  // namespace twinblocks::testing
