#pragma once

// A light planar chain of three links on revolute joints about y (issue 43's compliant
// fingers in small: links of 10 g and 3 cm, about 3e-6 kg m^2 each about its joint, joint
// springs of 1 N m/rad and dampers of 0.05 N m s/rad, so time constants I / damping near
// 6e-5 s), as a model text: the test case of the mechanism's Jacobian of passive forces,
// constraints and contacts. Gravity is off: at rest, where the springs hold the chain, the
// Jacobian's left-out terms (gravity, Coriolis, the mass matrix's turning) vanish.

#include <cmath>
#include <cstdio>
#include <string>

namespace twinblocks::testing::light_chain {

inline constexpr double kLink = 0.03;                 // m, joint to joint
inline constexpr double kLinkMass = 0.01;             // kg
inline constexpr double kStiffness = 1.0;             // N m/rad
inline constexpr double kDamping = 0.05;              // N m s/rad
inline constexpr double kQ0[3] = {0.3, -0.2, -0.16};  // rad; q3 = 0.8 q2 for the coupler
inline constexpr double kRatio = 0.8;
inline constexpr double kStopDepth = 5e-5;        // rad, within limit_transition = 1e-4
inline constexpr double kStopStiffness = 1e4;     // N m/rad
inline constexpr double kBallMass = 0.05;         // kg, the free ball of the contact case
inline constexpr double kTipRadius = 0.005;       // m
inline constexpr double kBallRadius = 0.01;       // m
inline constexpr double kContactDepth = 1e-8;     // m
inline constexpr double kContactStiffness = 1e5;  // N/m
inline constexpr double kContactDamping = 100.0;  // N s/m

struct ChainOptions {
  bool coupler = false;   ///< a JointCoupler q3 = 0.8 q2
  bool stop = false;      ///< joint 2 kStopDepth into its upper stop, the spring balancing it
  bool contact = false;   ///< a free ball pressed kContactDepth onto a sphere at the tip
  bool friction = false;  ///< the contact with smooth stick-slip friction
};

inline std::string Number(double x) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", x);
  return text;
}

/// The chain at rest at q = kQ0, where its springs (q_eq = q0) hold it.
inline std::string LightChain(const ChainOptions& o) {
  std::string xml = R"xml(<model name="light_chain">
    <simulation solver="ode23s" t_end="0.01"/>
    <block type="World" name="world" gravity="[0, 0, 0]"/>
)xml";
  for (int i = 0; i < 3; ++i) {
    const std::string n = std::to_string(i + 1);
    double q_eq = kQ0[i];
    std::string extra;
    if (o.stop && i == 1) {
      // The stop pushes back with k_stop depth: the spring's q_eq balances it.
      extra = R"( upper=")" + Number(kQ0[i] - kStopDepth) + R"(" limit_stiffness=")" +
              Number(kStopStiffness) + R"(")";
      q_eq = kQ0[i] + kStopStiffness * kStopDepth / kStiffness;
    }
    if (o.coupler && i > 0) extra += R"( actuation="port")";
    if (o.coupler && i == 2) extra += R"( priority="low")";
    xml += R"(    <block type="RevoluteJoint" name="j)" + n + R"(" axis="[0, 1, 0]" q0=")" +
           Number(kQ0[i]) + R"(" stiffness=")" + Number(kStiffness) + R"(" damping=")" +
           Number(kDamping) + R"(" q_eq=")" + Number(q_eq) + R"(")" + extra + "/>\n";
    xml += R"(    <block type="RigidTransform" name="c)" + n + R"(" translation="[)" +
           Number(kLink / 2) + R"(, 0, 0]"/>
    <block type="Solid" name="link)" +
           n + R"(" shape="box" size="[)" + Number(kLink) + R"(, 0.006, 0.006]" mass=")" +
           Number(kLinkMass) + R"("/>
    <connect from="j)" +
           n + R"(.F" to="c)" + n + R"(.B"/>
    <connect from="c)" +
           n + R"(.F" to="link)" + n + R"(.R"/>
)";
    // The link's end: the next joint's base, or the tip.
    if (i == 2 && !o.contact) continue;
    xml += R"(    <block type="RigidTransform" name="e)" + n + R"(" translation="[)" +
           Number(kLink) + R"(, 0, 0]"/>
    <connect from="j)" +
           n + R"(.F" to="e)" + n + R"(.B"/>
)";
  }
  xml += R"(    <connect from="world.W" to="j1.B"/>
    <connect from="e1.F" to="j2.B"/>
    <connect from="e2.F" to="j3.B"/>
)";
  if (o.coupler) {
    xml += R"(    <block type="JointCoupler" name="tendon" ratio=")" + Number(kRatio) + R"("/>
    <connect from="tendon.A" to="j3.shaft"/>
    <connect from="tendon.B" to="j2.shaft"/>
)";
  }
  if (o.contact) {
    // A rotation about y by phi takes x to (cos phi, 0, -sin phi).
    double phi = 0.0, x = 0.0, z = 0.0;
    for (double q : kQ0) {
      phi += q;
      x += kLink * std::cos(phi);
      z -= kLink * std::sin(phi);
    }
    const double d = kTipRadius + kBallRadius - kContactDepth;
    x += d * std::cos(phi);
    z -= d * std::sin(phi);
    xml +=
        R"(    <block type="Solid" name="tip" shape="sphere" radius=")" + Number(kTipRadius) +
        R"(" mass="0.001"/>
    <block type="FreeJoint" name="free" position0="[)" +
        Number(x) + ", 0, " + Number(z) + R"(]"/>
    <block type="Solid" name="ball" shape="sphere" radius=")" +
        Number(kBallRadius) + R"(" mass=")" + Number(kBallMass) + R"("/>
    <block type="SpatialContactForce" name="contact" stiffness=")" +
        Number(kContactStiffness) + R"(" damping=")" + Number(kContactDamping) +
        R"(" transition_width="0" )" +
        (o.friction ? R"(friction="smooth_stick_slip" mu_s="0.5" mu_d="0.3" v_crit="1e-3")" : "") +
        R"(/>
    <connect from="e3.F" to="tip.R"/>
    <connect from="world.W" to="free.B"/>
    <connect from="free.F" to="ball.R"/>
    <connect from="tip.R" to="contact.B"/>
    <connect from="ball.R" to="contact.F"/>
)";
  }
  return xml + "  </model>\n";
}

}  // namespace twinblocks::testing::light_chain
