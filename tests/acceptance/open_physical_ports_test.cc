// A physical port left unconnected is free, as in Simscape: no torque flows through it.
// L7: a DC motor whose rotor R drives nothing spins on its own inertia and damping, and matches
// the closed form of the armature and rotor equations.

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "tests/support/acceptance_helpers.h"

namespace twinblocks {
namespace {

using testing::Column;
using testing::RunModelText;
using testing::Times;

struct Motor {
  double R = 1.2, L = 0.05, Kt = 0.08, Ke = 0.08, J = 2e-4, b = 3e-4;
  double v = 12.0;  // V, a step at t = 0
};

// x = [i, w]: L i' = v - R i - Ke w, J w' = Kt i - b w, x(0) = 0, so
// x(t) = A^-1 (e^{At} - I) B v, with e^{At} from A's eigen-decomposition (distinct eigenvalues).
Eigen::Vector2d ClosedForm(const Motor& m, double t) {
  Eigen::Matrix2d A;
  A << -m.R / m.L, -m.Ke / m.L, m.Kt / m.J, -m.b / m.J;
  const Eigen::Vector2d B(m.v / m.L, 0.0);
  Eigen::EigenSolver<Eigen::Matrix2d> eig(A);
  const Eigen::Matrix2cd V = eig.eigenvectors();
  const Eigen::Vector2cd lambda = eig.eigenvalues();
  Eigen::Matrix2cd D = Eigen::Matrix2cd::Zero();
  for (int k = 0; k < 2; ++k) D(k, k) = (std::exp(lambda(k) * t) - 1.0) / lambda(k);
  // A^-1 (e^{At} - I) = V diag((e^{lambda t} - 1) / lambda) V^-1.
  const Eigen::Vector2cd x = V * D * V.inverse() * B.cast<std::complex<double>>();
  return x.real();
}

std::string MotorModel(const Motor& m, const std::string& solver) {
  auto num = [](double x) { return std::to_string(x); };
  return R"(<model name="open_rotor">
  <simulation t_end="0.5" solver=")" +
         solver + R"(" rtol="1e-10" atol="1e-12"/>
  <block type="Step" name="v" time="0" before="0" after=")" +
         num(m.v) + R"("/>
  <block type="DCMotor" name="motor" R=")" +
         num(m.R) + R"(" L=")" + num(m.L) + R"(" Kt=")" + num(m.Kt) + R"(" Ke=")" + num(m.Ke) +
         R"(" J=")" + num(m.J) + R"(" b=")" + num(m.b) + R"("/>
  <block type="RotationalReference" name="mount"/>
  <connect from="v.y" to="motor.v"/>
  <connect from="motor.C" to="mount.R"/>
  <!-- The rotor R is left open: nothing is connected there. -->
  <log signal="motor.i"/>
  <log signal="motor.w"/>
</model>
)";
}

TEST(OpenPhysicalPorts, L7DcMotorWithAnOpenRotorMatchesTheClosedForm) {
  const Motor m;
  for (const std::string solver : {"ode45", "cvode-bdf"}) {
    SCOPED_TRACE(solver);
    const testing::RunOutput out = RunModelText(MotorModel(m, solver));
    ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
    const std::vector<double> t = Times(out.recording);
    const std::vector<double> i = Column(out.recording, "motor.i");
    const std::vector<double> w = Column(out.recording, "motor.w");
    ASSERT_GT(t.size(), 10u);
    double err_i = 0.0, err_w = 0.0;
    for (size_t k = 0; k < t.size(); ++k) {
      const Eigen::Vector2d x = ClosedForm(m, t[k]);
      err_i = std::max(err_i, std::abs(i[k] - x(0)));
      err_w = std::max(err_w, std::abs(w[k] - x(1)));
    }
    // Tolerance of L7: 1e-6 (A, rad/s) over 0.5 s, against i ~ 10 A and w ~ 140 rad/s.
    EXPECT_LT(err_i, 1e-6);
    EXPECT_LT(err_w, 1e-6);
    RecordProperty("max_error_i_" + solver, testing::Figure(err_i));
    RecordProperty("max_error_w_" + solver, testing::Figure(err_w));
    // The rotor has reached speed: the steady state w = Kt v / (R b + Kt Ke), not 0.
    EXPECT_NEAR(w.back(), m.Kt * m.v / (m.R * m.b + m.Kt * m.Ke), 1e-3 * w.back());
  }
}

// A gear side left open turns along and loads nothing: the wheel driven through the gear by a
// torque on the joint's shaft accelerates as the wheel alone.
TEST(OpenPhysicalPorts, AnOpenGearSideLoadsNothing) {
  const std::string model = R"(<model name="gear_side_open">
  <simulation t_end="1" solver="ode45" rtol="1e-10" atol="1e-12"/>
  <block type="World" name="world" gravity="[0, 0, 0]"/>
  <block type="RevoluteJoint" name="hinge" actuation="port"/>
  <block type="SimpleGear" name="gear" ratio="50"/>
  <block type="TorqueSource" name="drive"/>
  <block type="RotationalReference" name="base"/>
  <block type="Constant" name="tau" value="0.2"/>
  <block type="Solid" name="wheel" shape="cylinder" radius="0.2" length="0.05" mass="4"/>
  <connect from="world.W" to="hinge.B"/>
  <connect from="hinge.F" to="wheel.R"/>
  <connect from="hinge.shaft" to="gear.F"/>
  <connect from="hinge.shaft" to="drive.R"/>
  <connect from="drive.C" to="base.R"/>
  <connect from="tau.y" to="drive.tau"/>
  <!-- The gear's motor side B is left open. -->
  <log signal="hinge.q"/>
</model>
)";
  const testing::RunOutput out = RunModelText(model);
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  // The cylinder about its axis: I = m r^2 / 2 = 0.08 kg m^2; q(1) = tau / I / 2.
  const double expected = 0.2 / 0.08 / 2.0;
  EXPECT_NEAR(Column(out.recording, "hinge.q").back(), expected, 1e-8);
}

}  // namespace
}  // namespace twinblocks
