#pragma once

// A free sphere pressed into a plane by a Kelvin-Voigt contact, as a model text: the test
// case of the mechanism's contact Jacobian and of its evaluation cache.

#include <string>

namespace twinblocks::testing::pressed_sphere {

inline constexpr double kMass = 1.0;       // kg
inline constexpr double kRadius = 0.05;    // m
inline constexpr double kDepth = 1e-4;     // m, penetration at the start
inline constexpr double kStiffness = 1e6;  // N/m
inline constexpr double kDamping = 1e3;    // N s/m
inline constexpr double kMuD = 0.3;
inline constexpr double kVCrit = 1e-3;  // m/s

/// The model with the sphere's velocity v0 ("[vx, vy, vz]", m/s) and the contact's friction
/// attributes (`friction="..." mu_s=...`), no gravity.
inline std::string PressedSphere(const std::string& v0, const std::string& friction) {
  return R"xml(<model name="pressed">
    <simulation solver="ros2" step="1e-4" t_end="0.01"/>
    <block type="World" name="world" gravity="[0, 0, 0]"/>
    <block type="Solid" name="ground" shape="plane"/>
    <block type="FreeJoint" name="free" position0="[0, 0, )xml" +
         std::to_string(kRadius - kDepth) + R"xml(]" v0=")xml" + v0 + R"xml("/>
    <block type="Solid" name="ball" shape="sphere" radius="0.05" mass="1"/>
    <block type="SpatialContactForce" name="contact" stiffness="1e6" damping="1e3"
           transition_width="0" )xml" +
         friction + R"xml(/>
    <connect from="world.W" to="ground.R"/>
    <connect from="world.W" to="free.B"/>
    <connect from="free.F" to="ball.R"/>
    <connect from="ground.R" to="contact.B"/>
    <connect from="ball.R" to="contact.F"/>
  </model>)xml";
}

}  // namespace twinblocks::testing::pressed_sphere
