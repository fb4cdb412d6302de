// The Tendon and the SynergyEquilibrium on the planar adaptive finger AF (a fixed test set-up:
// two links about +z, R = [0.01, 0.008] m, E = diag(0.2, 0.1) N m/rad, q_rest = 0): free
// closing settles on the closed form of the adaptive-synergy model (Rocchi & Hauser 2016, "A
// Generic Simulator for Underactuated Compliant Hands", eq. 4-5: q = E^-1 R^T f,
// f = s / (R E^-1 R^T)) to 1e-8 in q and f, and the predicted equilibrium agrees with it; with
// no damping and a constant displacement the finger's energy (kinetic + springs) is conserved
// to 1e-8; bad tendons are one-line errors with exit status 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "compiler/compile.h"
#include "tests/support/acceptance_helpers.h"
#include "xml/model_reader.h"

namespace twinblocks::testing {
namespace {

constexpr double kR1 = 0.01, kR2 = 0.008, kE1 = 0.2, kE2 = 0.1;

/// The closed form of eq. 4-5 without contact: f = s / (R E^-1 R^T), q = E^-1 R^T f.
struct FreeEquilibrium {
  double f, q1, q2;
};
FreeEquilibrium FreeClosing(double s) {
  const double f = s / (kR1 * kR1 / kE1 + kR2 * kR2 / kE2);
  return {f, kR1 * f / kE1, kR2 * f / kE2};
}

TEST(Tendon, FreeClosingSettlesOnTheClosedForm) {
  const RunOutput out = RunModelFile("tests/data/xml/af_finger_free.xml");
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const FreeEquilibrium e = FreeClosing(0.005);
  const double q1 = Column(out.recording, "j1.q").back();
  const double q2 = Column(out.recording, "j2.q").back();
  const double f = Column(out.recording, "tendon.f").back();
  // Settled after 1 s (the slowest mode decays as exp(-t / 0.02 s)): within 1e-8.
  EXPECT_NEAR(q1, e.q1, 1e-8);
  EXPECT_NEAR(q2, e.q2, 1e-8);
  EXPECT_NEAR(f, e.f, 1e-8);
  EXPECT_NEAR(Column(out.recording, "tendon.length").back(), 0.005, 1e-12);
  // The prediction at the settled state (no contact): the closed form to round-off.
  EXPECT_NEAR(Column(out.recording, "predicted.q[0]").back(), e.q1, 1e-12);
  EXPECT_NEAR(Column(out.recording, "predicted.q[1]").back(), e.q2, 1e-12);
  EXPECT_NEAR(Column(out.recording, "predicted.f").back(), e.f, 1e-12);
  // The constraint holds all along (projection at major steps).
  const std::vector<double> a = Column(out.recording, "j1.q"), b = Column(out.recording, "j2.q");
  const std::vector<double> l = Column(out.recording, "tendon.length");
  for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(l[i], kR1 * a[i] + kR2 * b[i], 1e-12);
}

TEST(Tendon, UndampedFingerKeepsItsEnergy) {
  // Starts on the constraint (R q0 = s) away from the springs' balance, with the command
  // constant: the rigid tendon does no work, so kinetic + spring energy is constant.
  const std::string model = R"(<model name="af_energy" format="1">
  <simulation solver="ode45" t_end="5" rtol="1e-12" atol="1e-14" output_interval="0.01"/>
  <block type="World" name="world" gravity="[0, 0, 0]"/>
  <block type="RevoluteJoint" name="j1" axis="[0, 0, 1]" actuation="port" q0="0.3"/>
  <block type="Solid" name="link1" shape="none" mass="0.02" com="[0.025, 0, 0]" inertia="[[1e-9, 0, 0], [0, 4e-6, 0], [0, 0, 4e-6]]"/>
  <block type="RigidTransform" name="end1" translation="[0.05, 0, 0]"/>
  <block type="RevoluteJoint" name="j2" axis="[0, 0, 1]" actuation="port" q0="0.25"/>
  <block type="Solid" name="link2" shape="none" mass="0.015" com="[0.02, 0, 0]" inertia="[[1e-9, 0, 0], [0, 2e-6, 0], [0, 0, 2e-6]]"/>
  <block type="Tendon" name="tendon" R="[0.01, 0.008]" E="[0.2, 0.1]"/>
  <block type="Constant" name="s" value="0.005"/>
  <connect from="world.W" to="j1.B"/>
  <connect from="j1.F" to="link1.R"/>
  <connect from="j1.F" to="end1.B"/>
  <connect from="end1.F" to="j2.B"/>
  <connect from="j2.F" to="link2.R"/>
  <connect from="tendon.J1" to="j1.shaft"/>
  <connect from="tendon.J2" to="j2.shaft"/>
  <connect from="s.y" to="tendon.s"/>
  <log signal="j1.q"/><log signal="j2.q"/><log signal="j1.qd"/><log signal="j2.qd"/>
</model>)";
  const RunOutput out = RunModelText(model);
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const std::vector<double> q1 = Column(out.recording, "j1.q"), q2 = Column(out.recording, "j2.q");
  const std::vector<double> w1 = Column(out.recording, "j1.qd"),
                            w2 = Column(out.recording, "j2.qd");
  const double m1 = 0.02, c1 = 0.025, I1 = 4e-6, m2 = 0.015, c2 = 0.02, I2 = 2e-6, L1 = 0.05;
  auto energy = [&](size_t i) {
    const double w12 = w1[i] + w2[i];
    const double v2 = L1 * L1 * w1[i] * w1[i] + c2 * c2 * w12 * w12 +
                      2.0 * L1 * c2 * w1[i] * w12 * std::cos(q2[i]);
    const double kinetic =
        0.5 * (I1 + m1 * c1 * c1) * w1[i] * w1[i] + 0.5 * m2 * v2 + 0.5 * I2 * w12 * w12;
    return kinetic + 0.5 * kE1 * q1[i] * q1[i] + 0.5 * kE2 * q2[i] * q2[i];
  };
  const double e0 = energy(0);
  double worst = 0.0, swing = 0.0;
  for (size_t i = 0; i < q1.size(); ++i) {
    worst = std::max(worst, std::abs(energy(i) - e0) / e0);
    swing = std::max(swing, std::abs(q1[i] - q1[0]));
  }
  EXPECT_GT(swing, 0.01);  // it does move
  EXPECT_LT(worst, 1e-8) << "relative energy drift " << Figure(worst);
  for (size_t i = 0; i < q1.size(); ++i) {
    ASSERT_NEAR(kR1 * q1[i] + kR2 * q2[i], 0.005, 1e-12) << "row " << i;
  }
}

/// The equilibrium of the AF finger pressed on the fixed cylinder by tendon displacement s,
/// frictionless contact on link 1 (links as capsules of radius 1 mm: the cylinder's radius
/// grows by 1 mm): joint 2 E2 q2 = R2 f; joint 1 E1 q1 = R1 f - F l; R1 q1 + R2 q2 = s; the
/// contact force F = k (rho - d) at the link's distance d = |c| sin(theta_c - q1) from the
/// centre c, applied at l = |c| cos(theta_c - q1) along the link; k = inf: rigid, d = rho.
struct ContactEquilibrium {
  double q1, q2, f, F;
};
ContactEquilibrium OnCylinder(double s, double k) {
  const double cx = 0.03, cy = 0.02, rho = 0.008 + 0.001;
  const double c = std::hypot(cx, cy), theta = std::atan2(cy, cx);
  auto at = [&](double q1) {
    ContactEquilibrium e;
    e.q1 = q1;
    e.q2 = (s - kR1 * q1) / kR2;
    e.f = kE2 * e.q2 / kR2;
    const double d = c * std::sin(theta - q1);
    e.F = std::isinf(k) ? 0.0 : (d < rho ? k * (rho - d) : 0.0);
    return e;
  };
  if (std::isinf(k)) {
    ContactEquilibrium e = at(theta - std::asin(rho / c));
    e.F = (kR1 * e.f - kE1 * e.q1) / (c * std::cos(theta - e.q1));
    return e;
  }
  // Bisection on joint 1's balance, E1 q1 - R1 f + F l, which rises with q1.
  auto balance = [&](double q1) {
    const ContactEquilibrium e = at(q1);
    return kE1 * q1 - kR1 * e.f + e.F * c * std::cos(theta - q1);
  };
  double lo = 0.0, hi = 0.6;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (balance(mid) > 0.0 ? hi : lo) = mid;
  }
  return at(0.5 * (lo + hi));
}

/// The AF cylinder model with its tendon displacement and contact stiffness set.
std::string CylinderModel(double s, const std::string& k) {
  std::string xml = ReadBytes(SourcePath("tests/data/xml/af_finger_cylinder.xml"));
  auto set = [&xml](const std::string& var, const std::string& value) {
    const std::string key = "<var name=\"" + var + "\" value=\"";
    const size_t at = xml.find(key) + key.size();
    xml.replace(at, xml.find('"', at) - at, value);
  };
  set("s_final", Figure(s));
  set("k_contact", k);
  return xml;
}

TEST(Tendon, ProximalLinkTouchesTheCylinderFirstAndSettlesOnThePenaltyClosedForm) {
  for (double s : {0.010, 0.012}) {
    const RunOutput out = RunModelText(CylinderModel(s, "1e4"));
    ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
    const ContactEquilibrium e = OnCylinder(s, 1e4);
    SCOPED_TRACE("s = " + Figure(s));
    EXPECT_NEAR(Column(out.recording, "j1.q").back(), e.q1, 1e-6);
    EXPECT_NEAR(Column(out.recording, "j2.q").back(), e.q2, 1e-6);
    EXPECT_NEAR(Column(out.recording, "tendon.f").back(), e.f, 1e-6 * e.f);
    EXPECT_NEAR(Column(out.recording, "contact1.fn").back(), e.F, 1e-6 * e.F);
    // Link 1 touches, link 2 never does.
    const std::vector<double> fn1 = Column(out.recording, "contact1.fn");
    const std::vector<double> fn2 = Column(out.recording, "contact2.fn");
    EXPECT_GT(fn1.back(), 0.5);
    EXPECT_EQ(*std::max_element(fn2.begin(), fn2.end()), 0.0);
    // The predicted equilibrium at the settled contact force agrees with the simulation.
    EXPECT_NEAR(Column(out.recording, "predicted.q[0]").back(), e.q1, 1e-6);
    EXPECT_NEAR(Column(out.recording, "predicted.q[1]").back(), e.q2, 1e-6);
    EXPECT_NEAR(Column(out.recording, "predicted.f").back(), e.f, 1e-6 * e.f);
  }
  // Below the touch (q1 = 0.3357 rad) it closes freely: s = 0.005 stays off the cylinder.
  const RunOutput out = RunModelText(CylinderModel(0.005, "1e4"));
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const std::vector<double> fn1 = Column(out.recording, "contact1.fn");
  EXPECT_EQ(*std::max_element(fn1.begin(), fn1.end()), 0.0);
  EXPECT_NEAR(Column(out.recording, "j1.q").back(), FreeClosing(0.005).q1, 1e-8);
}

TEST(Tendon, StiffContactSettlesOnTheRigidContactClosedForm) {
  // k = 1e8 N/m: the link sinks F / k = 2e-8 m into the cylinder, 6e-7 rad of q1.
  const RunOutput out = RunModelText(CylinderModel(0.012, "1e8"));
  ASSERT_TRUE(out.outcome.ok) << out.outcome.error;
  const ContactEquilibrium rigid = OnCylinder(0.012, std::numeric_limits<double>::infinity());
  EXPECT_NEAR(Column(out.recording, "j1.q").back(), rigid.q1, 1e-6);
  EXPECT_NEAR(Column(out.recording, "j2.q").back(), rigid.q2, 1e-6);
  EXPECT_NEAR(Column(out.recording, "tendon.f").back(), rigid.f, 1e-5 * rigid.f);
  EXPECT_NEAR(Column(out.recording, "contact1.fn").back(), rigid.F, 1e-4 * rigid.F);
  EXPECT_NEAR(Column(out.recording, "predicted.q[0]").back(), Column(out.recording, "j1.q").back(),
              1e-6);
}

struct BadTendon {
  const char* name;
  const char* block;  ///< the Tendon line (line 4 of the model)
  const char* says;
};

class BadTendons : public ::testing::TestWithParam<BadTendon> {};

TEST_P(BadTendons, AreOneLineErrors) {
  const BadTendon& c = GetParam();
  const std::string model = std::string(R"(<model name="bad" format="1">
  <block type="World" name="world"/>
  <block type="RevoluteJoint" name="a" axis="[0, 0, 1]" actuation="port"/>
  )") + c.block + R"(
  <block type="Solid" name="link" shape="sphere" radius="0.01"/>
  <block type="RigidTransform" name="end" translation="[0.05, 0, 0]"/>
  <block type="RevoluteJoint" name="b" axis="[0, 0, 1]" actuation="port"/>
  <block type="Solid" name="tip" shape="sphere" radius="0.01"/>
  <block type="Constant" name="s" value="0.001"/>
  <connect from="world.W" to="a.B"/>
  <connect from="a.F" to="link.R"/>
  <connect from="a.F" to="end.B"/>
  <connect from="end.F" to="b.B"/>
  <connect from="b.F" to="tip.R"/>
  <connect from="tendon.J1" to="a.shaft"/>
  <connect from="tendon.J2" to="b.shaft"/>
  <connect from="s.y" to="tendon.s"/>
</model>
)";
  const auto dir = FreshDirectory("tendon_bad", c.name);
  const auto path = dir / (std::string(c.name) + ".xml");
  WriteText(path, model);
  ExpectOneLineBadInput(path.string(), std::string(c.name) + ".xml", 4, {c.says});
}

// routing="chain": J1..Jn must follow one branch from the base outward. Two fingers side by
// side on the world (a and b), and one finger's joints in reverse order (b then a, a2 on a's
// link), are refused; the same joints with routing="free", and a's finger in order, build.
std::string ChainModel(const std::string& tendon, const std::string& j1, const std::string& j2) {
  return R"(<model name="chain" format="1">
  <block type="World" name="world"/>
  <block type="RevoluteJoint" name="a" axis="[0, 0, 1]" actuation="port"/>
  )" + tendon +
         R"(
  <block type="Solid" name="link_a" shape="sphere" radius="0.01"/>
  <block type="RigidTransform" name="end" translation="[0.05, 0, 0]"/>
  <block type="RevoluteJoint" name="a2" axis="[0, 0, 1]" actuation="port"/>
  <block type="Solid" name="tip_a" shape="sphere" radius="0.01"/>
  <block type="RevoluteJoint" name="b" axis="[0, 0, 1]" actuation="port"/>
  <block type="Solid" name="link_b" shape="sphere" radius="0.01"/>
  <block type="Constant" name="s" value="0.001"/>
  <connect from="world.W" to="a.B"/>
  <connect from="a.F" to="link_a.R"/>
  <connect from="a.F" to="end.B"/>
  <connect from="end.F" to="a2.B"/>
  <connect from="a2.F" to="tip_a.R"/>
  <connect from="world.W" to="b.B"/>
  <connect from="b.F" to="link_b.R"/>
  <connect from="tendon.J1" to=")" +
         j1 + R"(.shaft"/>
  <connect from="tendon.J2" to=")" +
         j2 + R"(.shaft"/>
  <connect from="s.y" to="tendon.s"/>
</model>
)";
}

TEST(Tendon, ChainRoutingRefusesJointsOffOneChain) {
  const std::string chain =
      R"(<block type="Tendon" name="tendon" R="[0.01, 0.01]" routing="chain"/>)";
  const std::string free = R"(<block type="Tendon" name="tendon" R="[0.01, 0.01]"/>)";
  struct Case {
    const char* name;
    std::string model;
  };
  for (const Case& c : {Case{"two_fingers", ChainModel(chain, "a", "b")},
                        Case{"reversed", ChainModel(chain, "a2", "a")}}) {
    const auto dir = FreshDirectory("tendon_chain", c.name);
    const auto path = dir / (std::string(c.name) + ".xml");
    WriteText(path, c.model);
    ExpectOneLineBadInput(path.string(), std::string(c.name) + ".xml", 4,
                          {"routing=\"chain\"", "is not beyond joint"});
  }
  for (const std::string& model :
       {ChainModel(free, "a", "b"), ChainModel(free, "a2", "a"), ChainModel(chain, "a", "a2")}) {
    EXPECT_NO_THROW(graph::Compile(xml::ReadModelString(model))) << model;
  }
}

INSTANTIATE_TEST_SUITE_P(
    EveryCase, BadTendons,
    ::testing::Values(
        BadTendon{"no_joint", R"(<block type="Tendon" name="tendon" R="[]"/>)", "is empty"},
        BadTendon{"R_too_long", R"(<block type="Tendon" name="tendon" R="[0.01, 0.01, 0.01]"/>)",
                  "port J3 is not connected"},
        BadTendon{"E_wrong_size",
                  R"(<block type="Tendon" name="tendon" R="[0.01, 0.01]" E="[1, 1, 1]"/>)",
                  "one element per joint"},
        BadTendon{"E_zero", R"(<block type="Tendon" name="tendon" R="[0.01, 0.01]" E="[1, 0]"/>)",
                  "must be positive"},
        BadTendon{"E_negative",
                  R"(<block type="Tendon" name="tendon" R="[0.01, 0.01]" E="[-1, 1]"/>)",
                  "must be positive"},
        BadTendon{"no_arms", R"(<block type="Tendon" name="tendon"/>)", "is required"},
        BadTendon{"bad_function",
                  R"(<block type="Tendon" name="tendon" R_functions="0.01; 0.01 * cos(" />)",
                  "R_functions"},
        BadTendon{"elastic_without_stiffness",
                  R"(<block type="Tendon" name="tendon" R="[0.01, 0.01]" transmission="elastic"/>)",
                  "stiffness"}),
    [](const ::testing::TestParamInfo<BadTendon>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace twinblocks::testing
