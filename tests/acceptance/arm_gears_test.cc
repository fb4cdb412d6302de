// Gears and rotor inertias: the reference arm driven through its gears
// (models/robot6dof/e1_gears.xml: Robot6DofShafts and one GearRotorDrive per joint, built from
// SimpleGear, Inertia and TorqueSource blocks) follows Boschetti & Sinico 2024, "Designing Digital
// Twins of Robots Using Simscape Multibody", eq. 29,
//   (M(q) + B_m) qdd + c(q, qd) + g(q) = u,   B_m = diag(n^2 J_m),   u = n tau_m,
// written here directly from the multibody algorithms (Crba for M, NonlinearEffects for c + g)
// on a tree built from the DH table (multibody::BuildModifiedDhTree, not from blocks) and
// integrated with the solvers library's ode45: joint angles agree to 1e-9 rad over [0, 1] s
// (the motion is chaotic, as E1's, so a longer comparison would measure the chaos). Over the
// full 4 s the energy balance E(t) - E(0) = W(t) holds to 1e-8 relative, with
// E = 1/2 qd^T (M + B_m) qd + potential and W the model's integral of the joint torques' power.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <exception>
#include <iostream>
#include <numbers>
#include <string>
#include <vector>

#include "physics/multibody/algorithms.h"
#include "solvers/integrator.h"
#include "tests/support/acceptance_helpers.h"
#include "tests/support/test_trees.h"

namespace twinblocks::testing {
namespace {

namespace mb = multibody;

const char* kModel = "models/robot6dof/e1_gears.xml";

/// Gear ratios n (-) and rotor inertias J_m (kg m^2) of the reference arm's drives (6 x 1).
Eigen::VectorXd Ratios() { return (Eigen::VectorXd(6) << 80, 50, 50, 30, 30, 15).finished(); }
Eigen::VectorXd RotorInertias() {
  return (Eigen::VectorXd(6) << 3.3e-4, 3.3e-4, 1.5e-4, 5.0e-5, 5.0e-5, 2.0e-5).finished();
}

/// B_m = diag(n^2 J_m) as its diagonal (6 x 1), kg m^2.
Eigen::VectorXd ReflectedRotorInertias() {
  return Ratios().array().square() * RotorInertias().array();
}

/// Boschetti & Sinico 2024 eq. 29 as a first-order ODE in x = [q; qd] (12 x 1), with the model's
/// input: each motor torque is the E1 torque divided by its ratio, tau_m = 5 sin(pi t) / n.
class GearedArmEquations : public solvers::OdeProblem {
 public:
  GearedArmEquations()
      : tree_(mb::testing::ReferenceArm()),
        data_(tree_),
        n_(Ratios()),
        b_m_(ReflectedRotorInertias()),
        u_(6),
        rhs_(6),
        mass_(6, 6),
        llt_(6) {}

  int num_states() const override { return 12; }

  int CalcDerivatives(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                      Eigen::Ref<Eigen::VectorXd> xdot) override {
    try {
      const auto q = x.head<6>();
      const auto qd = x.tail<6>();
      const double e1_torque = 5.0 * std::sin(std::numbers::pi * t);    // N m, joint side
      for (int j = 0; j < 6; ++j) u_[j] = n_[j] * (e1_torque / n_[j]);  // u = n tau_m
      mass_ = mb::Crba(tree_, &data_, q);
      mass_.diagonal() += b_m_;
      rhs_ = u_ - mb::NonlinearEffects(tree_, &data_, q, qd);
      llt_.compute(mass_);
      if (llt_.info() != Eigen::Success) return -1;
      xdot.head<6>() = qd;
      xdot.tail<6>() = llt_.solve(rhs_);
      return 0;
    } catch (const std::exception&) {
      return -1;  // an integrator's callback must not throw
    }
  }

 private:
  mb::KinematicTree tree_;
  mb::KinematicTreeData data_;
  Eigen::VectorXd n_;     ///< gear ratios (6 x 1)
  Eigen::VectorXd b_m_;   ///< n^2 J_m (6 x 1), kg m^2
  Eigen::VectorXd u_;     ///< n tau_m (6 x 1), N m
  Eigen::VectorXd rhs_;   ///< u - c - g (6 x 1), N m
  Eigen::MatrixXd mass_;  ///< M(q) + B_m (6 x 6), kg m^2
  Eigen::LLT<Eigen::MatrixXd> llt_;
};

TEST(ArmGears, JointAnglesFollowTheGearedEquationsOfMotionTo1e9RadOverTheFirstSecond) {
  const RunOutput out = RunModelFile(kModel, [](auto* s) {
    s->t_end = 1.0;
    s->rtol = 1e-12;
    s->atol = 1e-14;
  });
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const std::vector<double> t = Times(out.recording);
  const auto q = Columns(out.recording, "arm.q", 6);
  ASSERT_EQ(t.size(), 101u);  // 0 to 1 s every 0.01 s

  GearedArmEquations equations;
  solvers::IntegratorOptions options;
  options.rtol = 1e-12;
  options.atol = 1e-14;
  const auto ode45 = solvers::MakeIntegrator("ode45", &equations, options);
  ode45->Reset(0.0, Eigen::VectorXd::Zero(12));
  double worst = 0.0, travel = 0.0;
  for (size_t r = 0; r < t.size(); ++r) {
    // The integrator lands exactly on each stop: compare at the model's output times.
    while (ode45->time() < t[r]) ode45->Step(t[r]);
    ASSERT_EQ(ode45->time(), t[r]);
    for (int j = 0; j < 6; ++j) {
      worst = std::max(worst, std::abs(q[j][r] - ode45->state()[j]));
      travel = std::max(travel, std::abs(ode45->state()[j]));
    }
  }
  ASSERT_GT(travel, 0.1);  // the arm moves: the comparison is not of two resting arms
  EXPECT_LT(worst, 1e-9);
  std::cout << "C1 max joint-angle difference to eq. 29 over [0, 1] s: " << worst
            << " rad (largest angle " << travel << " rad)\n";
  RecordProperty("max_angle_difference_rad", Figure(worst));
  RecordProperty("largest_angle_rad", Figure(travel));
  RecordProperty("steps_model", std::to_string(out.stats.solver.steps));
  RecordProperty("steps_eq29", std::to_string(ode45->stats().steps));
}

TEST(ArmGears, EnergyBalanceHoldsOverFourSeconds) {
  const RunOutput out = RunModelFile(kModel, [](auto* s) {
    s->rtol = 1e-12;
    s->atol = 1e-14;
  });
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const mb::KinematicTree tree = mb::testing::ReferenceArm();
  mb::KinematicTreeData data(tree);
  const Eigen::VectorXd n = Ratios(), b_m = ReflectedRotorInertias();
  const std::vector<double> t = Times(out.recording);
  ASSERT_NEAR(t.back(), 4.0, 1e-12);
  const auto q = Columns(out.recording, "arm.q", 6);
  const auto qd = Columns(out.recording, "arm.qd", 6);
  const auto torque = Columns(out.recording, "arm.torque", 6);
  const auto w_m = Columns(out.recording, "w_m", 6);
  const std::vector<double> work = Column(out.recording, "work");
  Eigen::VectorXd qv(6), vv(6);
  double e0 = 0.0, scale = 0.0, worst_balance = 0.0, worst_torque = 0.0, worst_speed = 0.0;
  for (size_t r = 0; r < t.size(); ++r) {
    for (int j = 0; j < 6; ++j) {
      qv[j] = q[j][r];
      vv[j] = qd[j][r];
    }
    mb::ForwardKinematics(tree, &data, qv, vv);
    // Bodies, rotors (1/2 n^2 J_m qd^2 each), gravity.
    const double energy = mb::KineticEnergy(tree, data) + 0.5 * vv.dot(b_m.cwiseProduct(vv)) +
                          mb::PotentialEnergy(tree, data);
    if (r == 0) e0 = energy;
    scale = std::max(scale, std::abs(work[r]));
    worst_balance = std::max(worst_balance, std::abs(energy - e0 - work[r]));
    // What the gears deliver to the joints is the E1 torque; the motors turn n times faster.
    const double e1_torque = 5.0 * std::sin(std::numbers::pi * t[r]);
    for (int j = 0; j < 6; ++j) {
      worst_torque = std::max(worst_torque, std::abs(torque[j][r] - e1_torque));
      worst_speed = std::max(worst_speed, std::abs(w_m[j][r] - n[j] * qd[j][r]) / n[j]);
    }
  }
  ASSERT_GT(scale, 1.0);  // the arm falls: the torques do real work
  EXPECT_LT(worst_balance / scale, 1e-8) << "worst |E - E0 - W| = " << worst_balance << " J";
  EXPECT_LT(worst_torque, 1e-12);
  EXPECT_LT(worst_speed, 1e-12);
  std::cout << "C1 energy balance over 4 s: max |E - E0 - W| / max |W| = " << worst_balance / scale
            << " (max |W| = " << scale << " J)\n";
  RecordProperty("energy_balance_relative", Figure(worst_balance / scale));
  RecordProperty("work_scale_J", Figure(scale));
  RecordProperty("joint_torque_residual_Nm", Figure(worst_torque));
  RecordProperty("steps", std::to_string(out.stats.solver.steps));
}

}  // namespace
}  // namespace twinblocks::testing
