// Issue 44, K1, K2 and K6 in models: the closed-form finger blocks (FingerKinematics,
// FingerInverseKinematics) and the NumericalInverseKinematics block on the e_GRASP finger built
// from frame blocks (Mattar 2013, standard DH: Rz(q_i) Dx(a_i) Rx(alpha_i), a = 10, 45, 30 mm,
// alpha = 90, 0, 0 deg, limits +-45 deg), tracking a moving fingertip target; a target out of
// reach is a failed result, never a NaN; bad limits and frames are one line and exit 2.

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>

#include "common/format_value.h"
#include "physics/multibody/finger_kinematics.h"
#include "tests/support/acceptance_helpers.h"

namespace twinblocks {
namespace {

using testing::Column;
using testing::RunModelText;

constexpr double kDeg = std::numbers::pi / 180.0;

multibody::FingerGeometry EGrasp() {
  multibody::FingerGeometry g;
  g.l1 = 0.010, g.l2 = 0.045, g.l3 = 0.030;
  g.lower = Eigen::Vector3d::Constant(-45 * kDeg);
  g.upper = Eigen::Vector3d::Constant(45 * kDeg);
  return g;
}

// The finger as frame blocks in subsystem `finger`, its tip at tip.F; a target moving on a
// loop of 1.5 mm about the fingertip at q = (0.1, 0.3, 0.5) rad (x, z; 1 mm along y), inside
// the workspace and the limits,
// fed to `blocks` (which read it from target.y).
std::string FingerModel(const std::string& blocks, const std::string& logs) {
  const Eigen::Vector3d c = multibody::FingertipPosition(EGrasp(), {0.1, 0.3, 0.5});
  const std::string x = blocks::FormatValue(c.x()), y = blocks::FormatValue(c.y()),
                    z = blocks::FormatValue(c.z());
  return R"xml(<model name="finger_ik">
  <simulation solver="ode4" step="0.01" t_end="1"/>
  <block type="World" name="world" gravity="[0, 0, 0]"/>
  <subsystem name="finger">
    <port name="base" domain="frame"/>
    <block type="RevoluteJoint" name="j1" lower="-pi/4" upper="pi/4"/>
    <block type="RigidTransform" name="link1" translation="[0.010, 0, 0]" rotation="axis_angle" axis="[1, 0, 0]" angle="pi/2"/>
    <block type="RevoluteJoint" name="j2" lower="-pi/4" upper="pi/4"/>
    <block type="RigidTransform" name="link2" translation="[0.045, 0, 0]"/>
    <block type="RevoluteJoint" name="j3" lower="-pi/4" upper="pi/4"/>
    <block type="RigidTransform" name="tip" translation="[0.030, 0, 0]"/>
    <block type="Solid" name="m1" shape="sphere" radius="0.005"/>
    <block type="Solid" name="m2" shape="sphere" radius="0.005"/>
    <block type="Solid" name="m3" shape="sphere" radius="0.005"/>
    <connect from=".base" to="j1.B"/>
    <connect from="j1.F" to="link1.B"/>
    <connect from="link1.F" to="j2.B"/>
    <connect from="link1.F" to="m1.R"/>
    <connect from="j2.F" to="link2.B"/>
    <connect from="link2.F" to="j3.B"/>
    <connect from="link2.F" to="m2.R"/>
    <connect from="j3.F" to="tip.B"/>
    <connect from="tip.F" to="m3.R"/>
  </subsystem>
  <connect from="world.W" to="finger.base"/>
  <block type="Constant" name="axis" value="[0, 1, 2]"/>
  <block type="Expression" name="target" expr="u == 0 ? )xml" +
         x + R"xml( + 0.0015 * cos(2 * pi * t) : (u == 1 ? )xml" + y +
         R"xml( + 0.001 * sin(2 * pi * t) : )xml" + z + R"xml( + 0.0015 * sin(2 * pi * t))"/>
  <connect from="axis.y" to="target.u1"/>
)xml" + blocks +
         logs + "</model>\n";
}

TEST(DexterousKinematics, FingerBlocksInvertEachOtherAlongAMovingTarget) {
  const std::string blocks = R"xml(
  <block type="FingerInverseKinematics" name="ik" l1="0.010" l2="0.045" l3="0.030" lower="[-pi/4, -pi/4, -pi/4]" upper="[pi/4, pi/4, pi/4]"/>
  <block type="FingerKinematics" name="fk" l1="0.010" l2="0.045" l3="0.030"/>
  <block type="FingerInverseKinematics" name="ik_frame" l1="0.010" l2="0.045" l3="0.030" method="algebraic"/>
  <connect from="target.y" to="ik.position"/>
  <connect from="ik.q" to="fk.q"/>
  <connect from="fk.position" to="ik_frame.position"/>
  <connect from="fk.rotation" to="ik_frame.rotation"/>
)xml";
  const std::string logs = R"xml(  <log signal="target.y"/>
  <log signal="ik.q"/>
  <log signal="ik.valid"/>
  <log signal="fk.position"/>
  <log signal="fk.J_base"/>
  <log signal="ik_frame.q"/>
)xml";
  const testing::RunOutput run = RunModelText(FingerModel(blocks, logs));
  ASSERT_TRUE(run.outcome.ok) << run.outcome.error;
  const auto& rec = run.recording;
  const size_t rows = Column(rec, "target.y[0]").size();
  ASSERT_GT(rows, 50u);
  for (size_t n = 0; n < rows; ++n) {
    Eigen::Vector3d q;
    for (int k = 0; k < 3; ++k) {
      const std::string i = "[" + std::to_string(k) + "]";
      // The geometric inverse puts the tip on the target; the algebraic one gives q back.
      EXPECT_NEAR(Column(rec, "fk.position" + i)[n], Column(rec, "target.y" + i)[n], 1e-12);
      EXPECT_NEAR(Column(rec, "ik_frame.q" + i)[n], Column(rec, "ik.q" + i)[n], 1e-10);
      q[k] = Column(rec, "ik.q" + i)[n];
      EXPECT_LE(std::abs(q[k]), 45 * kDeg + 1e-15);
    }
    EXPECT_EQ(Column(rec, "ik.valid[0]")[n], 1.0);  // the up branch (q3 >= 0) is in the limits
    const Eigen::Matrix3d J = multibody::FingertipJacobianInBase(EGrasp(), q);
    for (int e = 0; e < 9; ++e) {
      EXPECT_NEAR(Column(rec, "fk.J_base[" + std::to_string(e) + "]")[n], J(e / 3, e % 3), 1e-15);
    }
  }
}

TEST(DexterousKinematics, NumericalInverseKinematicsTracksTheTargetOnTheFrameBlockFinger) {
  const std::string blocks = R"xml(
  <block type="NumericalInverseKinematics" name="ik" robot="finger" frame="tip.F" target="position"/>
  <block type="ForwardKinematics" name="fk" robot="finger" frame="tip.F"/>
  <block type="FingerKinematics" name="closed_form" l1="0.010" l2="0.045" l3="0.030"/>
  <connect from="target.y" to="ik.position"/>
  <connect from="ik.q" to="fk.q"/>
  <connect from="ik.q" to="closed_form.q"/>
)xml";
  const std::string logs = R"xml(  <log signal="target.y"/>
  <log signal="ik.q"/>
  <log signal="ik.success"/>
  <log signal="ik.error"/>
  <log signal="ik.iterations"/>
  <log signal="fk.position"/>
  <log signal="closed_form.position"/>
)xml";
  const testing::RunOutput run = RunModelText(FingerModel(blocks, logs));
  ASSERT_TRUE(run.outcome.ok) << run.outcome.error;
  const auto& rec = run.recording;
  const size_t rows = Column(rec, "ik.success").size();
  double worst = 0.0, iterations = 0.0;
  for (size_t n = 0; n < rows; ++n) {
    EXPECT_EQ(Column(rec, "ik.success")[n], 1.0);
    for (int k = 0; k < 3; ++k) {
      const std::string i = "[" + std::to_string(k) + "]";
      worst = std::max(
          worst, std::abs(Column(rec, "fk.position" + i)[n] - Column(rec, "target.y" + i)[n]));
      // The frame-block finger is the closed form's finger.
      EXPECT_NEAR(Column(rec, "closed_form.position" + i)[n], Column(rec, "fk.position" + i)[n],
                  1e-15);
      EXPECT_LE(std::abs(Column(rec, "ik.q" + i)[n]), 45 * kDeg + 1e-15);  // the joints' limits
    }
    if (n > 0) iterations = std::max(iterations, Column(rec, "ik.iterations")[n]);
  }
  EXPECT_LE(worst, 1e-9);
  // Warm-started from the last major step, a smoothly moving target takes a few iterations.
  EXPECT_LE(iterations, 6.0);
}

TEST(DexterousKinematics, TargetsOutOfReachAreFailedResultsNotNaN) {
  const std::string blocks = R"xml(
  <block type="Constant" name="far" value="[0.2, 0, 0]"/>
  <block type="NumericalInverseKinematics" name="ik" robot="finger" frame="tip.F" target="position" restarts="2"/>
  <block type="FingerInverseKinematics" name="closed" l1="0.010" l2="0.045" l3="0.030" q_init="[0.1, 0.2, 0.3]"/>
  <connect from="far.y" to="ik.position"/>
  <connect from="far.y" to="closed.position"/>
)xml";
  const std::string logs = R"xml(  <log signal="ik.q"/>
  <log signal="ik.success"/>
  <log signal="ik.error"/>
  <log signal="closed.q"/>
  <log signal="closed.reachable"/>
)xml";
  const testing::RunOutput run = RunModelText(FingerModel(blocks, logs));
  ASSERT_TRUE(run.outcome.ok) << run.outcome.error;
  const auto& rec = run.recording;
  for (size_t n = 0; n < Column(rec, "ik.success").size(); ++n) {
    EXPECT_EQ(Column(rec, "ik.success")[n], 0.0);
    EXPECT_NEAR(Column(rec, "ik.error[0]")[n], 0.2 - 0.085, 1e-9);  // the stretched finger
    EXPECT_EQ(Column(rec, "closed.reachable")[n], 0.0);
    for (int k = 0; k < 3; ++k) {
      const std::string i = "[" + std::to_string(k) + "]";
      EXPECT_TRUE(std::isfinite(Column(rec, "ik.q" + i)[n]));
      EXPECT_DOUBLE_EQ(Column(rec, "closed.q" + i)[n], 0.1 * (k + 1));  // held at q_init
    }
  }
}

}  // namespace
}  // namespace twinblocks
