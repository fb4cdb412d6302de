// The DC motor and PMSM models integrated here with ode45 on their own, the
// rotor's motion either solved alongside (DC motor) or held at a constant speed (PMSM):
// against closed forms derived by hand, the FOC's bandwidth, current and voltage limits, and
// the dq equations' steady state.
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <numbers>

#include "physics/drivetrain/dc_motor_model.h"
#include "physics/drivetrain/pmsm_model.h"
#include "solvers/integrator.h"
#include "tests/support/acceptance_helpers.h"
#include "tests/support/dc_motor_step_response.h"

namespace twinblocks::drivetrain {
namespace {

using twinblocks::testing::DCMotorStepResponse;
using twinblocks::testing::Figure;

// ---------------------------------------------------------------------------------------------
// DC motor

/// A DC motor driving nothing but its own rotor: x = [i (A), w (rad/s)],
///   L di/dt = v - R i - Ke w,   J dw/dt = Kt i - b w.
class FreeDCMotor : public solvers::OdeProblem {
 public:
  FreeDCMotor(const DCMotorParameters& p, double v) : p_(p), v_(v) {}
  int num_states() const override { return 2; }
  int CalcDerivatives(double, const Eigen::Ref<const Eigen::VectorXd>& x,
                      Eigen::Ref<Eigen::VectorXd> xdot) override {
    xdot[0] = CurrentRate(p_, x[0], v_, x[1]);
    xdot[1] = (Torque(p_, x[0]) - p_.b * x[1]) / p_.J;
    return 0;
  }

 private:
  DCMotorParameters p_;
  double v_;
};

struct DCMotorCase {
  const char* name;
  DCMotorParameters p;
  double t_end;  ///< s, several of the slowest time constants
};

class DCMotorStep : public ::testing::TestWithParam<DCMotorCase> {};

TEST_P(DCMotorStep, MatchesTheClosedFormOfTheSecondOrderSystem) {
  const DCMotorCase& c = GetParam();
  const double v = 24.0;  // V, applied at t = 0 to a motor at rest
  FreeDCMotor motor(c.p, v);
  solvers::IntegratorOptions opt;
  opt.rtol = 1e-12;
  opt.atol = 1e-12;
  auto integ = solvers::MakeIntegrator("ode45", &motor, opt);
  integ->Reset(0.0, Eigen::Vector2d::Zero());
  double worst_i = 0.0, worst_w = 0.0;
  const int n = 500;
  for (int k = 1; k <= n; ++k) {
    const double t = c.t_end * k / n;
    while (integ->time() < t) integ->Step(t);
    const Eigen::Vector2d ref = DCMotorStepResponse(c.p, v, t);
    worst_i = std::max(worst_i, std::abs(integ->state()[0] - ref[0]));
    worst_w = std::max(worst_w, std::abs(integ->state()[1] - ref[1]));
  }
  EXPECT_LT(worst_i, 1e-8) << "A";
  EXPECT_LT(worst_w, 1e-8) << "rad/s";
  // By t_end the motor runs at its steady state: back-emf plus R i balance v.
  const Eigen::Vector2d end = DCMotorStepResponse(c.p, v, c.t_end);
  EXPECT_NEAR(end[1], c.p.Kt * v / (c.p.R * c.p.b + c.p.Ke * c.p.Kt), 1e-6 * end[1]);
  RecordProperty("max_current_error_A", Figure(worst_i));
  RecordProperty("max_speed_error_rad_s", Figure(worst_w));
}

INSTANTIATE_TEST_SUITE_P(
    DCMotorModel, DCMotorStep,
    ::testing::Values(
        // Real eigenvalues (about -3873 and -130 1/s): electrical and mechanical modes apart.
        DCMotorCase{"Overdamped", {2.0, 0.5e-3, 0.05, 0.05, 1e-5, 1e-5}, 0.15},
        // A complex pair (about -50 +- 132j 1/s): a large inductance against a light rotor.
        DCMotorCase{"Underdamped", {0.5, 5e-3, 0.1, 0.1, 1e-4, 1e-5}, 0.4}),
    [](const ::testing::TestParamInfo<DCMotorCase>& info) { return info.param.name; });

TEST(DCMotorModel, CurrentRateAndTorqueFollowTheirEquations) {
  const DCMotorParameters p{2.0, 0.5e-3, 0.05, 0.06, 1e-5, 1e-5};
  EXPECT_DOUBLE_EQ(CurrentRate(p, 3.0, 24.0, 100.0), (24.0 - 2.0 * 3.0 - 0.06 * 100.0) / 0.5e-3);
  EXPECT_DOUBLE_EQ(Torque(p, 3.0), 0.15);
}

// ---------------------------------------------------------------------------------------------
// PMSM

TEST(PmsmModel, DefaultsAreTheReferenceArmsMotor) {
  const PmsmParameters p;
  EXPECT_DOUBLE_EQ(TorqueConstant(p), 0.3);
  EXPECT_NEAR(MaxVoltage(p), 173.20508075688772, 1e-12);
  EXPECT_DOUBLE_EQ(Torque(p, Eigen::Vector2d(0.0, 20.0)), 6.0);
}

TEST(PmsmModel, InteriorMotorAddsReluctanceTorque) {
  PmsmParameters p;
  p.Ld = 1.0e-3;
  p.Lq = 2.0e-3;
  // 1.5 * 4 * (0.05 * 10 + (1e-3 - 2e-3) * (-5) * 10) = 6 * (0.5 + 0.05)
  EXPECT_NEAR(Torque(p, Eigen::Vector2d(-5.0, 10.0)), 3.3, 1e-12);
  // The rates against the equations written out.
  const Eigen::Vector2d rates =
      CurrentRates(p, Eigen::Vector2d(-5.0, 10.0), Eigen::Vector2d(3.0, 40.0), 100.0);
  EXPECT_NEAR(rates[0], (3.0 + 0.5 * 5.0 + 400.0 * 2e-3 * 10.0) / 1e-3, 1e-9);
  EXPECT_NEAR(rates[1], (40.0 - 0.5 * 10.0 - 400.0 * (1e-3 * -5.0 + 0.05)) / 2e-3, 1e-9);
}

TEST(PmsmModel, VoltageLimitKeepsTheDirectionAndStopsTheIntegratorsThatWindUp) {
  const PmsmParameters p;
  const double w = 100.0, we = 400.0, wc = 2.0 * std::numbers::pi * 2000.0;
  const Eigen::Vector2d idq(1.0, 0.0), z(0.0, 0.0);
  // i_q* = 20 A (clamped from 10 / 0.3 = 33 A); the unlimited command written out.
  const Eigen::Vector2d v(1.5e-3 * wc * (0.0 - 1.0) - we * 1.5e-3 * 0.0,
                          1.5e-3 * wc * 20.0 + we * (1.5e-3 * 1.0 + 0.05));
  const FocOutput out = Foc(p, 10.0, idq, w, z);
  EXPECT_DOUBLE_EQ(out.idq_ref[1], 20.0);
  ASSERT_TRUE(out.voltage_limited);
  EXPECT_NEAR(out.vdq.norm(), MaxVoltage(p), 1e-12);
  EXPECT_NEAR(out.vdq[0] / out.vdq[1], v[0] / v[1], 1e-14);
  // e_q = 20 and v_q > 0: stops. e_d = -1 and v_d < 0: stops too.
  EXPECT_EQ(out.integrator_rates[1], 0.0);
  EXPECT_EQ(out.integrator_rates[0], 0.0);
  // An integrator that pulls back out of the limit keeps integrating: here e_d = +1, v_d < 0.
  const FocOutput back = Foc(p, 10.0, Eigen::Vector2d(-1.0, 0.0), w, Eigen::Vector2d(-0.01, 0.0));
  ASSERT_TRUE(back.voltage_limited);
  EXPECT_LT(back.vdq[0], 0.0);
  EXPECT_EQ(back.integrator_rates[0], 1.0);
}

/// A PMSM under FOC with its rotor held at a constant speed: x = [i_d, i_q (A), z_d, z_q (A s)].
/// Records the largest |v_dq| and whether the voltage limit was ever active, over every
/// evaluation the solver makes.
class HeldPmsmFoc : public solvers::OdeProblem {
 public:
  HeldPmsmFoc(const PmsmParameters& p, double w, double tau_ref)
      : p_(p), w_(w), tau_ref_(tau_ref) {}
  int num_states() const override { return 4; }
  int CalcDerivatives(double, const Eigen::Ref<const Eigen::VectorXd>& x,
                      Eigen::Ref<Eigen::VectorXd> xdot) override {
    const Eigen::Vector2d idq = x.head<2>();
    const FocOutput foc = Foc(p_, tau_ref_, idq, w_, x.tail<2>());
    xdot.head<2>() = CurrentRates(p_, idq, foc.vdq, w_);
    xdot.tail<2>() = foc.integrator_rates;
    max_voltage = std::max(max_voltage, foc.vdq.norm());
    limited = limited || foc.voltage_limited;
    return 0;
  }
  double max_voltage = 0.0;  ///< V
  bool limited = false;

 private:
  PmsmParameters p_;
  double w_, tau_ref_;
};

/// What a torque step from rest (i = z = 0, the steady state for tau_ref = 0) produces.
struct FocRun {
  double time_to_2_percent = -1.0;     ///< s, last entry into the +-2 % band (-1: never)
  double final_torque = 0.0;           ///< N m
  double max_current = 0.0;            ///< A, largest |i_dq| at the output times
  double max_step_voltage = 0.0;       ///< V, largest |v_dq| of Foc at the output times
  double max_id_over_iq = 0.0;         ///< largest |i_d| / |i_q| after 0.2 ms
  double max_first_order_error = 0.0;  ///< A, |i_q - i_q* (1 - e^{-2 pi bw t})|
  bool solver_saw_limit = false;
  double solver_max_voltage = 0.0;  ///< V, over every derivative evaluation
};

FocRun RunTorqueStep(const PmsmParameters& p, double w, double tau_ref, double t_end) {
  HeldPmsmFoc motor(p, w, tau_ref);
  solvers::IntegratorOptions opt;
  opt.rtol = 1e-11;
  opt.atol = 1e-11;
  auto integ = solvers::MakeIntegrator("ode45", &motor, opt);
  integ->Reset(0.0, Eigen::Vector4d::Zero());
  FocRun run;
  const double target =
      std::clamp(tau_ref, -TorqueConstant(p) * p.i_max, TorqueConstant(p) * p.i_max);
  const double iq_ref = target / TorqueConstant(p);
  const double wc = 2.0 * std::numbers::pi * p.bandwidth;
  const double dt = 1e-6;  // s, output grid: every step is checked, and at least this often
  const int n = static_cast<int>(std::lround(t_end / dt));
  for (int k = 1; k <= n; ++k) {
    const double t = k * dt;
    while (integ->time() < t) {
      integ->Step(t);
      const Eigen::VectorXd& x = integ->state();
      const Eigen::Vector2d idq = x.head<2>();
      run.max_current = std::max(run.max_current, idq.norm());
      run.max_step_voltage =
          std::max(run.max_step_voltage, Foc(p, tau_ref, idq, w, x.tail<2>()).vdq.norm());
    }
    const Eigen::VectorXd& x = integ->state();
    const Eigen::Vector2d idq = x.head<2>();
    const double torque = Torque(p, idq);
    if (std::abs(torque - target) > 0.02 * std::abs(target))
      run.time_to_2_percent = -1.0;
    else if (run.time_to_2_percent < 0.0)
      run.time_to_2_percent = t;
    if (t >= 0.2e-3) {
      run.max_id_over_iq = std::max(run.max_id_over_iq, std::abs(idq[0]) / std::abs(idq[1]));
    }
    run.max_first_order_error =
        std::max(run.max_first_order_error, std::abs(idq[1] - iq_ref * (1.0 - std::exp(-wc * t))));
    run.final_torque = torque;
  }
  run.solver_saw_limit = motor.limited;
  run.solver_max_voltage = motor.max_voltage;
  return run;
}

TEST(PmsmFoc, TorqueStepSettlesWithinAMillisecondAtSpeed) {
  const PmsmParameters p;
  // 100 rad/s: w_e = 400 rad/s, back-emf w_e psi = 20 V.
  const FocRun run = RunTorqueStep(p, 100.0, 2.0, 2e-3);
  ASSERT_GT(run.time_to_2_percent, 0.0);
  EXPECT_LT(run.time_to_2_percent, 1e-3);
  // The decoupled loop is first order at the set bandwidth: 2 % after ln(50) / (2 pi 2000).
  EXPECT_NEAR(run.time_to_2_percent, std::log(50.0) / (2.0 * std::numbers::pi * 2000.0), 2e-6);
  EXPECT_LT(run.max_first_order_error, 1e-8);
  EXPECT_LT(run.max_id_over_iq, 0.01);
  EXPECT_NEAR(run.final_torque, 2.0, 1e-6);
  EXPECT_FALSE(run.solver_saw_limit);  // 146 V at the step, below 173 V
  EXPECT_LE(run.max_current, p.i_max);
  EXPECT_LE(run.max_step_voltage, MaxVoltage(p) * (1.0 + 1e-12));
  RecordProperty("time_to_2_percent_s", Figure(run.time_to_2_percent));
  RecordProperty("max_id_over_iq", Figure(run.max_id_over_iq));
  RecordProperty("max_first_order_error_A", Figure(run.max_first_order_error));
  RecordProperty("max_voltage_V", Figure(run.solver_max_voltage));
}

TEST(PmsmFoc, TorqueStepBeyondTheCurrentLimitClampsAndStaysWithinTheVoltage) {
  const PmsmParameters p;
  for (double tau_ref : {10.0, -10.0}) {
    SCOPED_TRACE(tau_ref);
    // The first step asks 377 V of the q loop: the inverter limits it, the integrators hold.
    const FocRun run = RunTorqueStep(p, 100.0, tau_ref, 30e-3);
    EXPECT_TRUE(run.solver_saw_limit);
    EXPECT_LE(run.max_current, p.i_max * (1.0 + 1e-9));
    EXPECT_LE(run.max_step_voltage, MaxVoltage(p) * (1.0 + 1e-12));
    EXPECT_LE(run.solver_max_voltage, MaxVoltage(p) * (1.0 + 1e-12));
    // 1.5 p psi i_max = 6 N m.
    EXPECT_NEAR(run.final_torque, std::copysign(6.0, tau_ref), 1e-3);
    ASSERT_GT(run.time_to_2_percent, 0.0);
    RecordProperty(tau_ref > 0 ? "time_to_2_percent_s" : "time_to_2_percent_negative_s",
                   Figure(run.time_to_2_percent));
    RecordProperty(tau_ref > 0 ? "max_current_A" : "max_current_negative_A",
                   Figure(run.max_current));
    RecordProperty(tau_ref > 0 ? "final_torque_N_m" : "final_torque_negative_N_m",
                   Figure(run.final_torque));
  }
}

/// The dq equations alone, rotor at constant speed, constant applied voltage.
class HeldPmsmVoltage : public solvers::OdeProblem {
 public:
  HeldPmsmVoltage(const PmsmParameters& p, double w, const Eigen::Vector2d& vdq)
      : p_(p), w_(w), vdq_(vdq) {}
  int num_states() const override { return 2; }
  int CalcDerivatives(double, const Eigen::Ref<const Eigen::VectorXd>& x,
                      Eigen::Ref<Eigen::VectorXd> xdot) override {
    xdot = CurrentRates(p_, x, vdq_, w_);
    return 0;
  }

 private:
  PmsmParameters p_;
  double w_;
  Eigen::Vector2d vdq_;
};

TEST(PmsmModel, VoltageModeSettlesAtTheSteadyStateOfTheDqEquations) {
  PmsmParameters p;
  p.Lq = 2.5e-3;  // interior: the cross-coupling terms differ between the axes
  const double w = 100.0, we = 400.0;
  const Eigen::Vector2d vdq(-10.0, 40.0);
  // 0 = vd - Rs id + we Lq iq and 0 = vq - Rs iq - we (Ld id + psi):
  //   [ Rs      -we Lq ] [id]   [ vd            ]
  //   [ we Ld    Rs    ] [iq] = [ vq - we psi   ], solved by Cramer's rule.
  const double a = p.Rs, b = -we * p.Lq, c = we * p.Ld, d = p.Rs;
  const double r1 = vdq[0], r2 = vdq[1] - we * p.psi;
  const double det = a * d - b * c;
  const Eigen::Vector2d expected((r1 * d - b * r2) / det, (a * r2 - c * r1) / det);
  HeldPmsmVoltage motor(p, w, vdq);
  solvers::IntegratorOptions opt;
  opt.rtol = 1e-12;
  opt.atol = 1e-12;
  auto integ = solvers::MakeIntegrator("ode45", &motor, opt);
  integ->Reset(0.0, Eigen::Vector2d::Zero());
  // The slowest electrical mode decays as e^{-t Rs (Ld + Lq) / (2 Ld Lq)}, 267 1/s: 0.15 s is
  // 40 time constants.
  while (integ->time() < 0.15) integ->Step(0.15);
  const Eigen::Vector2d idq = integ->state();
  EXPECT_NEAR(idq[0], expected[0], 1e-9);
  EXPECT_NEAR(idq[1], expected[1], 1e-9);
  EXPECT_NEAR(CurrentRates(p, idq, vdq, w).norm(), 0.0, 1e-5);
  RecordProperty("steady_idq_A", Figure(idq[0]) + " " + Figure(idq[1]));
}

}  // namespace
}  // namespace twinblocks::drivetrain
