// Frame networks compiled and run: each joint feature, sensor and force element against a
// result derived by hand for a point-mass pendulum or a sliding mass.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "compiler/compile.h"
#include "tests/support/acceptance_helpers.h"
#include "xml/model_reader.h"

namespace twinblocks::testing {
namespace {

constexpr double kG = 9.81;

/// A point mass m on a massless rod of length L, hinged about x at the world origin,
/// hanging along -z; `joint` holds the hinge's extra attributes, `extra` more elements.
std::string Pendulum(const std::string& joint, const std::string& extra,
                     const std::string& settings = "t_end=\"2\" rtol=\"1e-11\" atol=\"1e-12\"",
                     const std::string& logs = R"xml(
    <log signal="hinge.q"/><log signal="hinge.qd"/><log signal="hinge.qdd"/>
    <log signal="hinge.torque"/><log signal="hinge.wrench"/>)xml") {
  return R"xml(<model name="pendulum">
    <simulation solver="ode45" output_interval="0.01" )xml" +
         settings + R"xml(/>
    <block type="World" name="world"/>
    <block type="RevoluteJoint" name="hinge" axis="[1, 0, 0]" )xml" +
         joint + R"xml(/>
    <block type="RigidTransform" name="rod" translation="[0, 0, -0.5]"/>
    <block type="Solid" name="bob" shape="none" mass="2"/>
    <connect from="world.W" to="hinge.B"/>
    <connect from="hinge.F" to="rod.B"/>
    <connect from="rod.F" to="bob.R"/>)xml" +
         logs + extra + "</model>";
}

// q = 0.3 sin(2t) given as [q, qd, qdd] to the hinge's motion input.
constexpr const char* kSineMotion = R"xml(
    <block type="Sine" name="q" amplitude="0.3" frequency="2"/>
    <block type="Sine" name="qd" amplitude="0.6" frequency="2" phase="pi/2"/>
    <block type="Sine" name="qdd" amplitude="-1.2" frequency="2"/>
    <block type="Mux" name="motion" inputs="3"/>
    <connect from="q.y" to="motion.u1"/><connect from="qd.y" to="motion.u2"/>
    <connect from="qdd.y" to="motion.u3"/><connect from="motion.y" to="hinge.motion"/>)xml";

double MaxAbsDiff(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0.0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i)
    worst = std::max(worst, std::abs(a[i] - b[i]));
  return worst;
}

TEST(Mechanism, PrescribedMotionNeedsTheInverseDynamicsTorque) {
  // q = 0.3 sin(2t) given as [q, qd, qdd]: torque = m L^2 qdd + m g L sin q.
  const RunOutput out = RunModelText(Pendulum(R"(actuation="motion")", kSineMotion));
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const std::vector<double> t = Times(out.recording);
  const std::vector<double> q = Column(out.recording, "hinge.q");
  const std::vector<double> tau = Column(out.recording, "hinge.torque");
  double worst_q = 0.0, worst_tau = 0.0;
  for (size_t i = 0; i < t.size(); ++i) {
    const double qe = 0.3 * std::sin(2 * t[i]), qdd = -1.2 * std::sin(2 * t[i]);
    worst_q = std::max(worst_q, std::abs(q[i] - qe));
    worst_tau =
        std::max(worst_tau, std::abs(tau[i] - (2 * 0.25 * qdd + 2 * kG * 0.5 * std::sin(qe))));
  }
  EXPECT_LT(worst_q, 1e-14);
  EXPECT_LT(worst_tau, 1e-12);
}

TEST(Mechanism, JointTorqueNothingReadsIsComputedOnceFound) {
  // The pendulum above, logging q alone: its torque and wrench outputs are read by nothing,
  // so the inverse-dynamics pass that gives them is skipped, until FindSignal asks for one.
  const graph::System system = graph::Compile(xml::ReadModelString(
      Pendulum(R"(actuation="motion")", kSineMotion, R"(t_end="2" rtol="1e-11" atol="1e-12")",
               R"(<log signal="hinge.q"/>)"),
      "p.xml"));
  graph::Simulator sim(system, system.settings());
  sim.Initialize();
  ASSERT_TRUE(sim.AdvanceTo(0.5).ok);
  const auto torque_at = [](double t) {
    const double q = 0.3 * std::sin(2 * t), qdd = -1.2 * std::sin(2 * t);
    return 2 * 0.25 * qdd + 2 * kG * 0.5 * std::sin(q);
  };
  // Read through the buffer without asking for it: never computed.
  const std::optional<graph::LoggedSignal> raw = system.FindSignal("hinge.torque");
  ASSERT_TRUE(raw.has_value());
  EXPECT_EQ(sim.Read(graph::SignalHandle{raw->offset, raw->width})[0], 0.0);
  // Found: computed at once at the current time, and from then on.
  const graph::SignalHandle torque = sim.FindSignal("hinge.torque");
  EXPECT_NEAR(sim.Read(torque)[0], torque_at(0.5), 1e-12);
  ASSERT_TRUE(sim.AdvanceTo(1.25).ok);
  EXPECT_NEAR(sim.Read(torque)[0], torque_at(1.25), 1e-12);
  // Its wrench: the rod's tension along z and the tangential force, at the hinge.
  EXPECT_EQ(sim.Read(graph::SignalHandle{system.FindSignal("hinge.wrench")->offset, 6})[2], 0.0);
  EXPECT_NE(sim.Read(sim.FindSignal("hinge.wrench"))[2], 0.0);
}

TEST(Mechanism, SensorReadOnlyThroughUnreadMemorylessBlocksIsComputedOnceFound) {
  // The bob's position through a Gain into a Mux whose output nothing reads: the Gain and Mux
  // read their inputs only where their outputs are read, so the sensor computes nothing
  // until FindSignal asks for the Mux's output.
  const graph::System system = graph::Compile(xml::ReadModelString(
      Pendulum(R"(actuation="motion")", std::string(kSineMotion) + R"xml(
    <block type="TransformSensor" name="where"/>
    <block type="Gain" name="doubled" k="2"/>
    <block type="Constant" name="tag" value="7"/>
    <block type="Mux" name="pack" inputs="2"/>
    <connect from="world.W" to="where.B"/><connect from="rod.F" to="where.F"/>
    <connect from="where.position" to="doubled.u"/>
    <connect from="doubled.y" to="pack.u1"/><connect from="tag.y" to="pack.u2"/>)xml",
               R"(t_end="2" rtol="1e-11" atol="1e-12")", R"(<log signal="hinge.q"/>)"),
      "p.xml"));
  graph::Simulator sim(system, system.settings());
  sim.Initialize();
  ASSERT_TRUE(sim.AdvanceTo(0.5).ok);
  const auto raw = [&](const std::string& signal) {
    const std::optional<graph::LoggedSignal> s = system.FindSignal(signal);
    EXPECT_TRUE(s.has_value()) << signal;
    const std::span<const double> v = sim.Read(graph::SignalHandle{s->offset, s->width});
    return std::vector<double>(v.begin(), v.end());
  };
  EXPECT_EQ(raw("where.position"), (std::vector<double>{0.0, 0.0, 0.0}));
  EXPECT_EQ(raw("pack.y")[3], 7.0);  // the Mux itself still runs
  const auto expected = [](double t) {
    const double q = 0.3 * std::sin(2 * t);
    return Eigen::Vector3d(0.0, 0.5 * std::sin(q), -0.5 * std::cos(q));
  };
  const graph::SignalHandle pack = sim.FindSignal("pack.y");
  for (const double t : {0.5, 1.25}) {
    if (t > sim.time()) {
      ASSERT_TRUE(sim.AdvanceTo(t).ok);
    }
    const std::span<const double> v = sim.Read(pack);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(v[k], 2.0 * expected(t)[k], 1e-10) << t << " " << k;
    EXPECT_EQ(v[3], 7.0);
  }
}

TEST(Mechanism, MotionGivenAsAngleAloneIsFilteredCriticallyDamped) {
  // A unit step of q through the filter: q(t) = 1 - (1 + t/tc) exp(-t/tc).
  const RunOutput out = RunModelText(Pendulum(R"(actuation="motion" filter_tc="0.05")", R"xml(
    <block type="Constant" name="target" value="1"/>
    <connect from="target.y" to="hinge.motion"/>)xml"));
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const std::vector<double> t = Times(out.recording);
  const std::vector<double> q = Column(out.recording, "hinge.q");
  double worst = 0.0;
  for (size_t i = 0; i < t.size(); ++i) {
    const double s = t[i] / 0.05;
    worst = std::max(worst, std::abs(q[i] - (1.0 - (1.0 + s) * std::exp(-s))));
  }
  EXPECT_LT(worst, 1e-9);
}

TEST(Mechanism, TorqueDrivenJointReportsItsInputAndReversedJointFlipsSign) {
  // The same pendulum with the hinge connected backwards (F to the world): its q is the
  // negative of the forward one.
  const RunOutput forward = RunModelText(Pendulum(R"(q0="0.4")", ""));
  const std::string reversed = R"xml(<model name="reversed">
    <simulation solver="ode45" t_end="2" rtol="1e-11" atol="1e-12" output_interval="0.01"/>
    <block type="World" name="world"/>
    <block type="RevoluteJoint" name="hinge" axis="[1, 0, 0]" q0="-0.4"/>
    <block type="RigidTransform" name="rod" translation="[0, 0, -0.5]"/>
    <block type="Solid" name="bob" shape="none" mass="2"/>
    <connect from="world.W" to="hinge.F"/>
    <connect from="hinge.B" to="rod.B"/>
    <connect from="rod.F" to="bob.R"/>
    <log signal="hinge.q"/>
  </model>)xml";
  const RunOutput back = RunModelText(reversed);
  ASSERT_TRUE(forward.outcome.ok && back.outcome.ok) << back.outcome.error;
  const std::vector<double> qf = Column(forward.recording, "hinge.q");
  std::vector<double> qb = Column(back.recording, "hinge.q");
  for (double& v : qb) v = -v;
  EXPECT_LT(MaxAbsDiff(qf, qb), 1e-10);
}

TEST(Mechanism, HangingAtRestTheJointCarriesTheWeight) {
  const RunOutput out = RunModelText(Pendulum("", ""));
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  // At rest, B pushes F up with m g (z of F = z of W at q = 0), and no torque.
  const int last = out.recording.num_rows() - 1;
  auto w = [&](int i) {
    return Column(out.recording, "hinge.wrench[" + std::to_string(i) + "]")[last];
  };
  EXPECT_NEAR(w(0), 0.0, 1e-12);
  EXPECT_NEAR(w(1), 0.0, 1e-12);
  EXPECT_NEAR(w(2), 2 * kG, 1e-12);
  EXPECT_NEAR(w(3), 0.0, 1e-12);
  EXPECT_NEAR(Column(out.recording, "hinge.q")[last], 0.0, 1e-15);
}

TEST(Mechanism, LimitStopHoldsTheArmNearTheLimit) {
  // Released horizontal (q0 = 90 deg) it swings down toward -q and is caught by the lower stop
  // at 0: the stiff spring settles where k pen = m g L, plus damping.
  const RunOutput out = RunModelText(Pendulum(
      R"x(q0="deg(-90)" lower="deg(-100)" upper="deg(100)" limit_stiffness="1e5" damping="2")x", "",
      R"(t_end="6" rtol="1e-8" atol="1e-10")"));
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  // Torque about x pulls it toward q = 0 from -90 deg: it never goes beyond the stops.
  const std::vector<double> q = Column(out.recording, "hinge.q");
  for (double v : q) EXPECT_GT(v, -100.0 * std::numbers::pi / 180 - 0.01);
  // A stop it would pass: start at 99 deg with a push toward the upper stop.
  const RunOutput pushed = RunModelText(Pendulum(
      R"x(q0="deg(99)" qd0="5" upper="deg(100)" limit_stiffness="1e4" limit_damping="50")x", "",
      R"(t_end="0.5" rtol="1e-8" atol="1e-10")"));
  ASSERT_TRUE(pushed.outcome.ok) << pushed.outcome.error;
  double highest = -1e9;
  for (double v : Column(pushed.recording, "hinge.q")) highest = std::max(highest, v);
  // The stop takes the kinetic energy 1/2 (m L^2) qd0^2 into its spring: at most
  // sqrt(2 KE / k) of penetration, less with its damping; gravity helps a little.
  const double bound = std::sqrt(2.0 * 0.5 * 2.0 * 0.25 * 25.0 / 1e4);
  const double penetration = highest - 100.0 * std::numbers::pi / 180;
  EXPECT_LT(penetration, 1.1 * bound);
  EXPECT_GT(penetration, 0.3 * bound);
}

TEST(Mechanism, TransformSensorSeesTheBob) {
  const RunOutput out = RunModelText(Pendulum(R"(q0="0.7")", R"xml(
    <block type="TransformSensor" name="sensor"/>
    <connect from="world.W" to="sensor.B"/>
    <connect from="bob.R" to="sensor.F"/>
    <log signal="sensor.position"/><log signal="sensor.v"/><log signal="sensor.w"/>
    <log signal="sensor.euler_zyx"/><log signal="sensor.rotation"/>)xml"));
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const auto q = Column(out.recording, "hinge.q"), qd = Column(out.recording, "hinge.qd");
  const auto py = Column(out.recording, "sensor.position[1]");
  const auto pz = Column(out.recording, "sensor.position[2]");
  const auto vy = Column(out.recording, "sensor.v[1]"), vz = Column(out.recording, "sensor.v[2]");
  const auto wx = Column(out.recording, "sensor.w[0]");
  const auto roll = Column(out.recording, "sensor.euler_zyx[2]");
  const auto r21 = Column(out.recording, "sensor.rotation[7]");
  double worst = 0.0;
  for (size_t i = 0; i < q.size(); ++i) {
    // Rx(q) (0, 0, -L) = (0, L sin q, -L cos q).
    worst = std::max(worst, std::abs(py[i] - 0.5 * std::sin(q[i])));
    worst = std::max(worst, std::abs(pz[i] + 0.5 * std::cos(q[i])));
    worst = std::max(worst, std::abs(vy[i] - 0.5 * std::cos(q[i]) * qd[i]));
    worst = std::max(worst, std::abs(vz[i] - 0.5 * std::sin(q[i]) * qd[i]));
    worst = std::max(worst, std::abs(wx[i] - qd[i]));
    worst = std::max(worst, std::abs(roll[i] - q[i]));
    worst = std::max(worst, std::abs(r21[i] - std::sin(q[i])));
  }
  EXPECT_LT(worst, 1e-12);
}

TEST(Mechanism, ExternalForceAndInternalSpringActOnASlider) {
  // A 2 kg slider along z, no gravity: an external force of 3 N along z (world frame) and an
  // internal spring-damper to a world point 1 m below: m z'' = 3 - k (z + 1 - 1) - c z'.
  const char* xml = R"xml(<model name="slider">
    <simulation solver="ode45" t_end="3" rtol="1e-11" atol="1e-12" output_interval="0.01"/>
    <block type="World" name="world" gravity="[0, 0, 0]"/>
    <block type="PrismaticJoint" name="slide" axis="[0, 0, 1]"/>
    <block type="Solid" name="mass" shape="sphere" radius="0.05" mass="2"/>
    <block type="ExternalForceTorque" name="push"/>
    <block type="Constant" name="f" value="[0, 0, 3]"/>
    <block type="Constant" name="tq" value="[0, 0, 0]"/>
    <block type="RigidTransform" name="anchor" translation="[0, 0, -1]"/>
    <block type="InternalForce" name="spring" mode="spring_damper" k="50" c="4" length0="1"/>
    <connect from="world.W" to="slide.B"/>
    <connect from="slide.F" to="mass.R"/>
    <connect from="mass.R" to="push.F"/>
    <connect from="f.y" to="push.force"/><connect from="tq.y" to="push.torque"/>
    <connect from="world.W" to="anchor.B"/>
    <connect from="anchor.F" to="spring.B"/>
    <connect from="slide.F" to="spring.F"/>
    <log signal="slide.q"/><log signal="spring.distance"/><log signal="spring.speed"/>
    <log signal="slide.qd"/>
  </model>)xml";
  const RunOutput out = RunModelText(xml);
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const double m = 2, k = 50, c = 4, F = 3;
  const double wn = std::sqrt(k / m), zeta = c / (2 * std::sqrt(k * m)),
               wd = wn * std::sqrt(1 - zeta * zeta);
  const double zeq = F / k;
  const auto t = Times(out.recording);
  const auto z = Column(out.recording, "slide.q");
  const auto dist = Column(out.recording, "spring.distance");
  const auto speed = Column(out.recording, "spring.speed");
  const auto zd = Column(out.recording, "slide.qd");
  double worst = 0.0;
  for (size_t i = 0; i < t.size(); ++i) {
    const double e = std::exp(-zeta * wn * t[i]);
    const double ze = zeq - zeq * e * (std::cos(wd * t[i]) + zeta * wn / wd * std::sin(wd * t[i]));
    worst = std::max(worst, std::abs(z[i] - ze));
    worst = std::max(worst, std::abs(dist[i] - (1 + z[i])));
    worst = std::max(worst, std::abs(speed[i] - zd[i]));
  }
  EXPECT_LT(worst, 1e-9);
}

TEST(Mechanism, WeldedSolidsAddUpAndSphericalMatchesRevoluteInPlane) {
  // Two welded 1 kg spheres at the rod end behave like one of 2 kg (a ball joint needs inertia
  // about the rod, which point masses lack); a ball joint released in the y-z plane swings like
  // the hinge.
  const RunOutput hinge = RunModelText(R"xml(<model name="hinge">
    <simulation solver="ode45" t_end="2" rtol="1e-11" atol="1e-12" output_interval="0.01"/>
    <block type="World" name="world"/>
    <block type="RevoluteJoint" name="hinge" axis="[1, 0, 0]" q0="1.2"/>
    <block type="RigidTransform" name="rod" translation="[0, 0, -0.5]"/>
    <block type="Solid" name="bob" shape="sphere" radius="0.05" mass="2"/>
    <connect from="world.W" to="hinge.B"/>
    <connect from="hinge.F" to="rod.B"/>
    <connect from="rod.F" to="bob.R"/>
    <log signal="hinge.q"/><log signal="hinge.qd"/>
  </model>)xml");
  const char* xml = R"xml(<model name="ball">
    <simulation solver="ode45" t_end="2" rtol="1e-11" atol="1e-12" output_interval="0.01"/>
    <block type="World" name="world"/>
    <block type="SphericalJoint" name="ball" q0="[cos(0.6), sin(0.6), 0, 0]"/>
    <block type="RigidTransform" name="rod" translation="[0, 0, -0.5]"/>
    <block type="Solid" name="half1" shape="sphere" radius="0.05" mass="1"/>
    <block type="WeldJoint" name="weld"/>
    <block type="Solid" name="half2" shape="sphere" radius="0.05" mass="1"/>
    <block type="TransformSensor" name="sensor"/>
    <connect from="world.W" to="ball.B"/>
    <connect from="ball.F" to="rod.B"/>
    <connect from="rod.F" to="half1.R"/>
    <connect from="rod.F" to="weld.B"/>
    <connect from="weld.F" to="half2.R"/>
    <connect from="world.W" to="sensor.B"/>
    <connect from="ball.F" to="sensor.F"/>
    <log signal="sensor.euler_zyx"/><log signal="ball.w"/>
  </model>)xml";
  const RunOutput ball = RunModelText(xml);
  ASSERT_TRUE(hinge.outcome.ok && ball.outcome.ok) << ball.outcome.error;
  EXPECT_LT(
      MaxAbsDiff(Column(hinge.recording, "hinge.q"), Column(ball.recording, "sensor.euler_zyx[2]")),
      1e-9);
  EXPECT_LT(MaxAbsDiff(Column(hinge.recording, "hinge.qd"), Column(ball.recording, "ball.w[0]")),
            1e-9);
}

TEST(Mechanism, ScaledMeshSwingsAsTheBoxItBecomes) {
  // The unit cube of cube.stl ([0, 1]^3) scaled by [0.1, 0.2, 0.3] is a 0.1 x 0.2 x 0.3 box with
  // its centre at (0.05, 0.1, 0.15): mass, centre of mass and inertia follow the scale, so it
  // swings on a hinge exactly as that box does.
  auto pendulum = [](const std::string& solid, const std::string& offset) {
    return R"xml(<model name="swing">
      <simulation solver="ode45" t_end="1" rtol="1e-11" atol="1e-12" output_interval="0.01"/>
      <block type="World" name="world"/>
      <block type="RevoluteJoint" name="hinge" axis="[1, 0, 0]" q0="0.7"/>
      <block type="RigidTransform" name="at" translation=")xml" +
           offset + R"xml("/>
      )xml" +
           solid +
           R"xml(
      <connect from="world.W" to="hinge.B"/>
      <connect from="hinge.F" to="at.B"/>
      <connect from="at.F" to="body.R"/>
      <log signal="hinge.q"/>
    </model>)xml";
  };
  const std::string cube = std::string(TWINBLOCKS_TEST_DATA) + "/meshes/cube.stl";
  const RunOutput mesh =
      RunModelText(pendulum(R"(<block type="Solid" name="body" shape="mesh" file=")" + cube +
                                R"(" scale="[0.1, 0.2, 0.3]" density="2700"/>)",
                            "[0, 0.2, -0.4]"));
  const RunOutput box = RunModelText(pendulum(
      R"(<block type="Solid" name="body" shape="box" size="[0.1, 0.2, 0.3]" density="2700"/>)",
      "[0.05, 0.3, -0.25]"));
  ASSERT_TRUE(mesh.outcome.ok && box.outcome.ok) << mesh.outcome.error << box.outcome.error;
  EXPECT_GT(MaxAbsDiff(Column(mesh.recording, "hinge.q"), std::vector<double>(101, 0.7)), 0.1);
  EXPECT_LT(MaxAbsDiff(Column(mesh.recording, "hinge.q"), Column(box.recording, "hinge.q")), 1e-9);
  // A zero factor would flatten the mesh into no volume: one line, naming the parameter.
  const CliResult flat = RunCli("check " + [&] {
    const auto dir = FreshDirectory("twinblocks_mechanism_", "flat_mesh");
    WriteText(dir / "flat.xml", pendulum(R"(<block type="Solid" name="body" shape="mesh" file=")" +
                                             cube + R"(" scale="[0.1, 0, 0.3]"/>)",
                                         "[0, 0, 0]"));
    return (dir / "flat.xml").string();
  }());
  EXPECT_EQ(flat.status, 2);
  EXPECT_NE(flat.text.find("block 'body' (Solid): parameter 'scale' must be three finite, "
                           "non-zero factors"),
            std::string::npos)
      << flat.text;
}

TEST(Mechanism, BushingSettlesWhereItsSpringCarriesTheWeight) {
  const char* xml = R"xml(<model name="bushing">
    <simulation solver="ode45" t_end="10" rtol="1e-10" atol="1e-12" output_interval="0.05"/>
    <block type="World" name="world"/>
    <block type="BushingJoint" name="mount" stiffness="[1e3, 1e3, 1e3, 50, 50, 50]"
           damping="[20, 20, 20, 1, 1, 1]"/>
    <block type="Solid" name="body" shape="box" size="[0.1, 0.1, 0.1]" mass="1"/>
    <connect from="world.W" to="mount.B"/>
    <connect from="mount.F" to="body.R"/>
    <log signal="mount.q"/>
  </model>)xml";
  const RunOutput out = RunModelText(xml);
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const int last = out.recording.num_rows() - 1;
  EXPECT_NEAR(Column(out.recording, "mount.q[2]")[last], -kG / 1e3, 1e-8);
  EXPECT_NEAR(Column(out.recording, "mount.q[0]")[last], 0.0, 1e-12);
}

TEST(Mechanism, TwoMechanismsInOneModelCoupledBySignals) {
  // Pendulum A swings freely; its angle, through a gain, is the torque on pendulum B (a
  // feedback from positions to torques across mechanisms: no algebraic loop). B's own
  // angle feeds back on itself the same way, as a spring: tau_B = -k q_B + c q_A.
  const char* xml = R"xml(<model name="two">
    <simulation solver="ode45" t_end="2" rtol="1e-11" atol="1e-12" output_interval="0.01"/>
    <block type="World" name="world" gravity="[0, 0, 0]"/>
    <subsystem name="a">
      <port name="base" domain="frame"/>
      <outport name="q"/>
      <block type="RevoluteJoint" name="hinge" axis="[0, 0, 1]" qd0="1"/>
      <block type="RigidTransform" name="rod" translation="[1, 0, 0]"/>
      <block type="Solid" name="bob" shape="none" mass="1"/>
      <connect from=".base" to="hinge.B"/>
      <connect from="hinge.F" to="rod.B"/>
      <connect from="rod.F" to="bob.R"/>
      <connect from="hinge.q" to=".q"/>
    </subsystem>
    <block type="RevoluteJoint" name="b" axis="[0, 0, 1]" actuation="torque"/>
    <block type="RigidTransform" name="rod_b" translation="[1, 0, 0]"/>
    <block type="Solid" name="bob_b" shape="none" mass="1"/>
    <block type="Gain" name="spring" k="-4"/>
    <block type="Gain" name="coupling" k="2"/>
    <block type="Sum" name="tau" signs="++"/>
    <connect from="world.W" to="a.base"/>
    <connect from="world.W" to="b.B"/>
    <connect from="b.F" to="rod_b.B"/>
    <connect from="rod_b.F" to="bob_b.R"/>
    <connect from="b.q" to="spring.u"/>
    <connect from="a.q" to="coupling.u"/>
    <connect from="spring.y" to="tau.u1"/>
    <connect from="coupling.y" to="tau.u2"/>
    <connect from="tau.y" to="b.tau"/>
    <log signal="a.q"/><log signal="b.q"/>
  </model>)xml";
  const RunOutput out = RunModelText(xml);
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  // A: q_A = t. B: q_B'' = -4 q_B + 2 t, from rest: q_B = t/2 - sin(2t)/4.
  const auto t = Times(out.recording);
  const auto qa = Column(out.recording, "a.q"), qb = Column(out.recording, "b.q");
  double worst = 0.0;
  for (size_t i = 0; i < t.size(); ++i) {
    worst = std::max(worst, std::abs(qa[i] - t[i]));
    worst = std::max(worst, std::abs(qb[i] - (t[i] / 2 - std::sin(2 * t[i]) / 4)));
  }
  EXPECT_LT(worst, 1e-9);
}

}  // namespace
}  // namespace twinblocks::testing
