// Experiment E4: the full digital twin (models/robot6dof/twin.xml: the reference arm with link-side
// Stribeck friction, reduction gears and one PMSM per joint under field-oriented current
// control, driven by computed-torque control along the E2 profile with
// theta_r = (90, 90, 30, 90, 90, 90) deg, T = 2 s), run with the model's own settings
// (cvode-bdf, rtol 1e-7, a row every 0.01 s).
//
// Boschetti & Sinico 2024, "Designing Digital Twins of Robots Using Simscape Multibody" (section 5,
// Fig. 15-16) reports the tracking error per joint and observes that it is largest near the start
// and the end of the motion, where the joint speeds are near zero. Here:
// - the maximum tracking error per joint is reported;
// - joints 1-5 follow the paper's pattern: the error's peak during the motion lies in its first
//   or last third, and the largest error there exceeds the largest error in the middle of the
//   motion (0.8..1.2 s, where every desired joint speed is above 90 % of its peak);
// - joint 6 does not: it sticks (see Joint6CreepsBelowBreakawaySpeed), and that is asserted;
// - without the controller's friction estimate the error grows on every joint;
// - without friction (e4_gears_pmsm.xml) only the current loops' lag is left, ~1e-5 rad, so the
//   error of the twin comes from the friction the controller does not model.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <iostream>
#include <sstream>
#include <string>

#include "compiler/compile.h"
#include "model/model.h"
#include "runtime/simulator.h"
#include "tests/support/acceptance_helpers.h"
#include "xml/model_reader.h"

namespace twinblocks::testing {
namespace {

constexpr int kTwinJoints = 6;
constexpr double kMotionEnd = 2.0;                  // s, T of the desired profile
constexpr double kStartWindowEnd = kMotionEnd / 3;  // s, the first third of the motion
constexpr double kEndWindowStart = 2 * kMotionEnd / 3;
constexpr double kMiddleFrom = 0.8;      // s: |qd_d| > 0.9 of its peak from here ...
constexpr double kMiddleTo = 1.2;        // s: ... to here
constexpr double kBreakawaySpeed = 0.1;  // rad/s, w_brk of the reference arm's friction

using PerJoint = std::array<double, kTwinJoints>;

/// The largest |q_d - q| of each joint over the whole run and within the windows of the
/// motion, and when each joint's peak during the motion [0, T] occurs.
struct TrackingErrors {
  PerJoint max_all{};     ///< rad, over [0, t_end]
  PerJoint peak_time{};   ///< s, the time of the largest error within [0, T]
  PerJoint max_start{};   ///< rad, within [0, T/3)
  PerJoint max_middle{};  ///< rad, within [0.8, 1.2] s
  PerJoint max_end{};     ///< rad, within (2T/3, T]
};

TrackingErrors Analyze(const RunOutput& out) {
  TrackingErrors r;
  const std::vector<double> t = Times(out.recording);
  for (int j = 0; j < kTwinJoints; ++j) {
    const std::vector<double> e = Column(out.recording, "error[" + std::to_string(j) + "]");
    double peak = -1.0;
    for (size_t k = 0; k < e.size() && k < t.size(); ++k) {
      const double a = std::abs(e[k]);
      r.max_all[j] = std::max(r.max_all[j], a);
      if (t[k] > kMotionEnd) continue;
      if (a > peak) {
        peak = a;
        r.peak_time[j] = t[k];
      }
      if (t[k] < kStartWindowEnd) r.max_start[j] = std::max(r.max_start[j], a);
      if (t[k] > kEndWindowStart) r.max_end[j] = std::max(r.max_end[j], a);
      if (t[k] >= kMiddleFrom && t[k] <= kMiddleTo) r.max_middle[j] = std::max(r.max_middle[j], a);
    }
  }
  return r;
}

RunOutput RunModel(const graph::Model& model) {
  const graph::System system = graph::Compile(model);
  graph::Simulator sim(system, system.settings());
  RunOutput out;
  out.outcome = sim.Run();
  out.recording = sim.recording();
  out.stats = sim.stats();
  out.solver = sim.settings().solver;
  return out;
}

/// twin.xml as written, run once for every test of this file.
const RunOutput& Twin() {
  static const RunOutput out = RunModelFile("models/robot6dof/twin.xml");
  return out;
}

std::string Join(const PerJoint& v) {
  std::ostringstream s;
  for (int j = 0; j < kTwinJoints; ++j) s << (j ? " " : "") << Figure(v[j]);
  return s.str();
}

TEST(DigitalTwin, TrackingErrorPeaksNearStartAndEndOfMotion) {
  const RunOutput& out = Twin();
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const TrackingErrors e = Analyze(out);
  for (int j = 0; j < kTwinJoints; ++j) {
    const std::string n = std::to_string(j + 1);
    RecordProperty("max_error_joint" + n + "_rad", Figure(e.max_all[j]));
    RecordProperty("peak_time_joint" + n + "_s", Figure(e.peak_time[j]));
    RecordProperty(
        "start_middle_end_joint" + n + "_rad",
        Figure(e.max_start[j]) + " " + Figure(e.max_middle[j]) + " " + Figure(e.max_end[j]));
  }
  RecordProperty("steps", static_cast<int>(out.stats.major_steps));
  RecordProperty("wall_seconds", Figure(out.stats.wall_seconds));
  std::cout << "E4 twin (" << out.solver << "): max |q_d - q| per joint (rad): " << Join(e.max_all)
            << "; peak during the motion at t (s): " << Join(e.peak_time) << "\n";

  // Joints 1-5 (measured, a row every 0.01 s): peaks at 1.96, 1.76, 0.61, 0.49, 0.56 s;
  // start / middle / end maxima (1e-3 rad) 1.45 / 0.78 / 2.67, 2.68 / 0.41 / 3.23,
  // 3.85 / 2.47 / 3.52, 107 / 49.5 / 44.3, 162 / 51.0 / 20.9. The start peaks of joints 3-5 lie
  // after the lowest speeds, not at them: the desired speed passes w_brk at 0.16 s (0.29 s for
  // joint 3), but joints 4 and 5 stay stuck below w_brk until 0.44 and 0.51 s, so their error
  // builds up during that stick phase and peaks 0.05 s after breakaway; joint 3 breaks away at
  // 0.33 s and its peak at 0.61 s is the PD loop's overshoot after it.
  for (int j = 0; j < 5; ++j) {
    SCOPED_TRACE("joint " + std::to_string(j + 1));
    EXPECT_TRUE(e.peak_time[j] < kStartWindowEnd || e.peak_time[j] > kEndWindowStart)
        << "peak at t = " << e.peak_time[j] << " s";
    EXPECT_GT(std::max(e.max_start[j], e.max_end[j]), e.max_middle[j])
        << "start " << e.max_start[j] << ", end " << e.max_end[j];
  }
}

// Joint 6 does not follow the paper's pattern: it sticks. The controller models the Coulomb
// level T_C = 10 N m but not the Stribeck peak T_brk = 13 N m below w_brk = 0.1 rad/s; what
// the PD part of the law can add against that 3 N m excess on joint 6 is
// (M66 + n^2 Jm) Kp e = (0.0100 + 15^2 * 2e-5) * 100 * e = 1.45 e N m, which reaches 3 N m only
// at e = 2 rad, beyond the whole 90 deg (1.57 rad) move. So joint 6 never breaks away: it creeps
// on the rising branch of the Stribeck curve at about 0.05 rad/s (measured max 0.0515 rad/s),
// covers 0.155 rad of its 1.57 rad in 4 s, and its error grows through the motion to 1.52 rad.
// Its peak during the motion (t = 1.89 s) falls in the last third only because the error grows
// monotonically, not because of low speed there.
TEST(DigitalTwin, Joint6CreepsBelowBreakawaySpeed) {
  const RunOutput& out = Twin();
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const std::vector<double> qd6 = Column(out.recording, "arm.qd[5]");
  const std::vector<double> q6 = Column(out.recording, "arm.q[5]");
  ASSERT_FALSE(q6.empty());
  double top_speed = 0.0;
  for (double v : qd6) top_speed = std::max(top_speed, std::abs(v));
  const TrackingErrors e = Analyze(out);
  RecordProperty("joint6_top_speed_rad_per_s", Figure(top_speed));
  RecordProperty("joint6_travel_rad", Figure(q6.back()));
  std::cout << "E4 twin joint 6: top speed " << Figure(top_speed) << " rad/s (w_brk "
            << kBreakawaySpeed << "), travel " << Figure(q6.back()) << " rad of "
            << Figure(M_PI / 2) << ", error at start / middle / end of the motion "
            << Figure(e.max_start[5]) << " / " << Figure(e.max_middle[5]) << " / "
            << Figure(e.max_end[5]) << " rad\n";
  EXPECT_LT(top_speed, kBreakawaySpeed);  // never breaks away ...
  EXPECT_GT(q6.back(), 0.05);             // ... but does move: it creeps
  EXPECT_LT(q6.back(), 0.2 * M_PI / 2);   // and covers a small part of its move
  EXPECT_GT(e.max_all[5], 1.0);
  // The error is not largest near the start: it grows through the middle of the motion.
  EXPECT_GT(e.max_middle[5], e.max_start[5]);
}

TEST(DigitalTwin, FrictionCompensationReducesErrorOnEveryJoint) {
  const RunOutput& on = Twin();
  ASSERT_TRUE(on.outcome.ok) << on.outcome.error;
  graph::Model model = xml::ReadModelFile(SourcePath("models/robot6dof/twin.xml"));
  graph::BlockNode* controller = model.FindBlock("controller");
  ASSERT_NE(controller, nullptr);
  auto param =
      std::find_if(controller->params.begin(), controller->params.end(),
                   [](const graph::Parameter& p) { return p.name == "friction_compensation"; });
  ASSERT_NE(param, controller->params.end());
  param->value = "off";
  const RunOutput off = RunModel(model);
  ASSERT_TRUE(off.outcome.ok) << off.outcome.error;

  const TrackingErrors e_on = Analyze(on);
  const TrackingErrors e_off = Analyze(off);
  RecordProperty("max_error_on_rad", Join(e_on.max_all));
  RecordProperty("max_error_off_rad", Join(e_off.max_all));
  std::cout << "E4 twin max |q_d - q| per joint (rad), friction compensation on: "
            << Join(e_on.max_all) << "; off: " << Join(e_off.max_all) << "\n";
  // Measured: on 2.67e-3 3.23e-3 3.85e-3 0.107 0.162 1.52, off 0.0465 0.0181 0.0321 0.712 1.02
  // 1.57. Joint 6 gains least: it sticks either way.
  for (int j = 0; j < kTwinJoints; ++j) {
    SCOPED_TRACE("joint " + std::to_string(j + 1));
    EXPECT_GT(e_off.max_all[j], e_on.max_all[j]);
  }
}

// Without friction the controller's model is exact but for the motors: what is left is the lag
// of the 2 kHz current loops (measured 7e-6 .. 5.9e-5 rad), two orders below the twin's.
TEST(DigitalTwin, WithoutFrictionOnlyCurrentLoopLagRemains) {
  const RunOutput out = RunModelFile("models/robot6dof/e4_gears_pmsm.xml");
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const TrackingErrors e = Analyze(out);
  RecordProperty("max_error_rad", Join(e.max_all));
  std::cout << "E4 without friction: max |q_d - q| per joint (rad): " << Join(e.max_all) << "\n";
  double travel = 0.0;
  for (double q : Column(out.recording, "arm.q[0]")) travel = std::max(travel, std::abs(q));
  EXPECT_NEAR(travel, M_PI / 2, 1e-3);  // it did make the move
  for (int j = 0; j < kTwinJoints; ++j) {
    SCOPED_TRACE("joint " + std::to_string(j + 1));
    EXPECT_LT(e.max_all[j], 2e-4);
  }
}

}  // namespace
}  // namespace twinblocks::testing
