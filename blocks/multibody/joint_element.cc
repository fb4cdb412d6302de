#include "blocks/multibody/joint_element.h"

#include <memory>
#include <string>
#include <vector>

#include "blocks/multibody/detail/frame_params.h"
#include "blocks/multibody/mechanism_builder.h"
#include "common/format_value.h"

namespace twinblocks::multibody {

using blocks::BlockError;
using blocks::BlockType;
using blocks::FormatValue;
using blocks::ParamKind;
using blocks::Params;
using namespace internal;

namespace {

Actuation ParseActuation(const std::string& w) {
  if (w == "torque") return Actuation::kTorque;
  if (w == "motion") return Actuation::kMotion;
  if (w == "port") return Actuation::kPort;
  return Actuation::kNone;
}

std::vector<blocks::ParamSpec> OneDofParams(bool revolute) {
  const std::string u = revolute ? "rad" : "m";
  const std::string f = revolute ? "N m" : "N";
  return {
      {"axis", ParamKind::kVector, "[0, 0, 1]",
       std::string(revolute ? "rotation" : "translation") + " axis in B (normalized)"},
      {"q0", ParamKind::kScalar, "0", "initial position, " + u},
      {"qd0", ParamKind::kScalar, "0", "initial velocity, " + u + "/s"},
      {"priority",
       ParamKind::kWord,
       "high",
       "state target priority (for closed loops)",
       {"high", "low"}},
      {"stiffness", ParamKind::kScalar, "0", "internal spring, " + f + "/" + u},
      {"damping", ParamKind::kScalar, "0", "internal damper, " + f + " s/" + u},
      {"q_eq", ParamKind::kScalar, "0", "spring equilibrium position, " + u},
      {"lower", ParamKind::kScalar, "", "lower position limit, " + u + " (none)"},
      {"upper", ParamKind::kScalar, "", "upper position limit, " + u + " (none)"},
      {"limit_stiffness", ParamKind::kScalar, "1e4",
       "stiffness of the limit stops, " + f + "/" + u},
      {"limit_damping", ParamKind::kScalar, "10", "damping of the limit stops, " + f + " s/" + u},
      {"limit_transition", ParamKind::kScalar, "1e-4",
       "penetration over which the stop damping ramps up, " + u},
      {"actuation",
       ParamKind::kWord,
       "none",
       "none, torque (input " + std::string(revolute ? "tau" : "f") +
           "), motion (input motion), port (rotational shaft; with the drivetrain blocks)",
       {"none", "torque", "motion", "port"}},
      {"filter_tc", ParamKind::kScalar, "0.01",
       "time constant of the motion filter when motion is q alone, s"},
      {"cut", ParamKind::kWord, "false", "cut this joint first to close a loop", {"true", "false"}},
  };
}

std::string OneDofDoc(bool revolute) {
  const std::string what = revolute ? "rotates about" : "translates along";
  const std::string tau = revolute ? "tau" : "f";
  const std::string unit = revolute ? "rad" : "m";
  return std::string("F ") + what +
         " `axis` (unit, in B) relative to B; F coincides with B at q = 0. Generalized force on "
         "q: " +
         tau +
         "_applied - stiffness (q - q_eq) - damping qd + stops, where each limit acts as a stiff "
         "spring-damper beyond `lower`/`upper` (Simscape's joint limits; the damping ramps in "
         "over `limit_transition`). actuation=torque: input `" +
         tau +
         "` is the applied force. actuation=motion: input `motion` is [q, qd, qdd] (width 3) or "
         "q alone (width 1), which a critically damped second-order filter of time constant "
         "filter_tc turns into q, qd, qdd (qf'' = (u - qf)/tc^2 - 2 qf'/tc); the joint follows "
         "it and output `" +
         (revolute ? std::string("torque") : std::string("force")) +
         "` is the actuator force that motion needs (inverse dynamics by the hybrid "
         "articulated-body algorithm). q is continuous, never wrapped (" +
         unit +
         "). wrench = [fx, fy, fz, tx, ty, tz]: what B transmits to F through the joint, "
         "at F's origin, in F.";
}

std::vector<blocks::PortDoc> OneDofOutputs(bool revolute) {
  const std::string u = revolute ? "rad" : "m";
  return {{"q", "position, " + u},
          {"qd", "velocity, " + u + "/s"},
          {"qdd", "acceleration, " + u + "/s^2 (direct feedthrough)"},
          {revolute ? "torque" : "force",
           std::string("actuator ") + (revolute ? "torque, N m" : "force, N") +
               ": the input, or what the prescribed motion needs; 0 when unactuated"},
          {"wrench", "6: force and torque B transmits to F, at F, in F (N, N m)"}};
}

}  // namespace

JointElement::JointElement(JointKind k, const Params& p) : kind(k) {
  FramePort("B");
  FramePort("F");
  if (kind == JointKind::kWeld) return;
  auto exists = [&p](const char* name) { return p.has(name) && p.Get(name).is_set(); };
  if (kind == JointKind::kRevolute || kind == JointKind::kPrismatic) {
    axis = UnitAxis(p, "axis");
    q0 = VectorOfSize(p, "q0", 1);
    qd0 = VectorOfSize(p, "qd0", 1);
    priority_high = p.Word("priority") == "high";
    properties.stiffness = VectorOfSize(p, "stiffness", 1);
    properties.damping = VectorOfSize(p, "damping", 1);
    properties.q_eq = VectorOfSize(p, "q_eq", 1);
    properties.lower = OptionalScalar(p, "lower", properties.lower);
    properties.upper = OptionalScalar(p, "upper", properties.upper);
    if (!(properties.lower < properties.upper)) {
      throw BlockError("limits need lower < upper, got lower " + FormatValue(properties.lower) +
                           " and upper " + FormatValue(properties.upper),
                       "lower");
    }
    properties.limit_stiffness = p.Scalar("limit_stiffness");
    properties.limit_damping = p.Scalar("limit_damping");
    properties.limit_transition = p.Scalar("limit_transition");
    if (!(properties.limit_transition > 0.0)) {
      throw BlockError("parameter 'limit_transition' must be positive", "limit_transition");
    }
    properties.actuation = ParseActuation(p.Word("actuation"));
    properties.filter_tc = p.Scalar("filter_tc");
    cut = p.Bool("cut");
    const bool revolute = kind == JointKind::kRevolute;
    // actuation=port: the joint's relative motion is a rotational node that gears, friction
    // and torque sources act on (docs/multibody.md, "Drivetrains").
    if (properties.actuation == Actuation::kPort)
      shaft_port = DeclarePhysicalPort("shaft", "rotational");
    if (properties.actuation == Actuation::kTorque) {
      in_actuation = DeclareInput(revolute ? "tau" : "f", 1, blocks::FeedthroughToStage(1));
    }
    if (properties.actuation == Actuation::kMotion) {
      if (!(properties.filter_tc > 0.0)) {
        throw BlockError("parameter 'filter_tc' must be positive (s)", "filter_tc");
      }
      in_actuation = DeclareInput("motion", blocks::kDynamicWidth,
                                  blocks::kFeedthrough | blocks::FeedthroughToStage(1));
    }
    out_q = DeclareOutput("q", 1, 0);
    out_qd = DeclareOutput("qd", 1, 0);
    out_qdd = DeclareOutput("qdd", 1, 1);
    out_torque = DeclareOutput(revolute ? "torque" : "force", 1, 1);
    out_wrench = DeclareOutput("wrench", 6, 1);
    return;
  }
  if (kind == JointKind::kSpherical) {
    q0 = UnitQuaternion(p.Vector("q0"), "q0").coeffs();  // (x, y, z, w): reordered below
    q0 = Eigen::Vector4d(q0[3], q0[0], q0[1], q0[2]);
    qd0 = VectorOfSize(p, "w0", 3);
    properties.damping = VectorOfSize(p, "damping", 3);
    properties.stiffness = Eigen::VectorXd::Zero(3);
    cut = p.Bool("cut");
    out_quaternion = DeclareOutput("quaternion", 4, 0);
    out_w = DeclareOutput("w", 3, 0);
    out_wrench = DeclareOutput("wrench", 6, 1);
    return;
  }
  if (kind == JointKind::kFree) {
    const Eigen::Vector3d p0 = Vector3(p, "position0");
    const Eigen::Quaterniond r0 = UnitQuaternion(p.Vector("quaternion0"), "quaternion0");
    q0.resize(7);
    q0 << p0, r0.w(), r0.x(), r0.y(), r0.z();
    qd0.resize(6);
    qd0 << Vector3(p, "v0"), Vector3(p, "w0");
    out_position = DeclareOutput("position", 3, 0);
    out_quaternion = DeclareOutput("quaternion", 4, 0);
    out_v = DeclareOutput("v", 3, 0);
    out_w = DeclareOutput("w", 3, 0);
    out_wrench = DeclareOutput("wrench", 6, 1);
    return;
  }
  // Bushing: translations x, y, z then rotations about x, y, z.
  q0 = VectorOfSize(p, "q0", 6);
  qd0 = VectorOfSize(p, "qd0", 6);
  properties.stiffness = VectorOfSize(p, "stiffness", 6);
  properties.damping = VectorOfSize(p, "damping", 6);
  properties.q_eq = exists("q_eq") ? VectorOfSize(p, "q_eq", 6) : Eigen::VectorXd::Zero(6);
  out_q = DeclareOutput("q", 6, 0);
  out_qd = DeclareOutput("qd", 6, 0);
  out_wrench = DeclareOutput("wrench", 6, 1);
}

BlockType RevoluteJointType() {
  BlockType t = internal::MultibodyType("RevoluteJoint", "One rotational degree of freedom.");
  t.doc = OneDofDoc(true);
  t.reference = "Simscape Multibody Revolute Joint";
  t.params = OneDofParams(true);
  t.inputs = {{"tau", "applied torque, N m (actuation=torque)"},
              {"motion", "[q, qd, qdd] (3) or q (1), rad (actuation=motion)"}};
  t.outputs = OneDofOutputs(true);
  t.physical_ports = internal::BaseFollowerPorts();
  t.physical_ports.push_back(
      {"shaft", "rotational, with actuation=port only: the joint's coordinate, for drivetrains"});
  t.create = [](const Params& p) {
    return std::make_unique<JointElement>(JointKind::kRevolute, p);
  };
  return t;
}

BlockType PrismaticJointType() {
  BlockType t = internal::MultibodyType("PrismaticJoint", "One translational degree of freedom.");
  t.doc = OneDofDoc(false);
  t.reference = "Simscape Multibody Prismatic Joint";
  t.params = OneDofParams(false);
  t.inputs = {{"f", "applied force, N (actuation=torque)"},
              {"motion", "[q, qd, qdd] (3) or q (1), m (actuation=motion)"}};
  t.outputs = OneDofOutputs(false);
  t.physical_ports = internal::BaseFollowerPorts();
  t.physical_ports.push_back(
      {"shaft", "rotational, with actuation=port only: the joint's coordinate, for drivetrains"});
  t.create = [](const Params& p) {
    return std::make_unique<JointElement>(JointKind::kPrismatic, p);
  };
  return t;
}

BlockType WeldJointType() {
  BlockType t =
      internal::MultibodyType("WeldJoint", "No degree of freedom: B and F are one rigid body.");
  t.doc = "F coincides with B for ever. The two sides merge into one body at compile time.";
  t.reference = "Simscape Multibody Weld Joint";
  t.physical_ports = internal::BaseFollowerPorts();
  t.create = [](const Params& p) { return std::make_unique<JointElement>(JointKind::kWeld, p); };
  return t;
}

BlockType SphericalJointType() {
  BlockType t = internal::MultibodyType("SphericalJoint",
                                        "Three rotational degrees of freedom about a point.");
  t.doc =
      "F rotates freely about B's origin. Its orientation is a unit quaternion [w, x, y, z] "
      "(scalar first), integrated from the angular velocity and normalized where it is used, "
      "so there is no singular configuration. w is F's angular velocity relative to B, in B. "
      "damping (per axis, N m s/rad) resists w. Closing a loop (cut), it becomes three "
      "constraints: F's origin stays at B's (docs/loops.md).";
  t.reference = "Simscape Multibody Spherical Joint";
  t.params = {
      {"q0", ParamKind::kVector, "[1, 0, 0, 0]", "initial orientation of F in B, [w, x, y, z]"},
      {"w0", ParamKind::kVector, "[0, 0, 0]", "initial angular velocity, rad/s, in B"},
      {"damping", ParamKind::kVector, "0", "rotational damping, N m s/rad"},
      {"cut",
       ParamKind::kWord,
       "false",
       "cut this joint first to close a loop",
       {"true", "false"}}};
  t.outputs = {{"quaternion", "4: orientation of F in B, [w, x, y, z]"},
               {"w", "3: angular velocity of F relative to B, in B, rad/s"},
               {"wrench", "6: force and torque B transmits to F, at F, in F"}};
  t.physical_ports = internal::BaseFollowerPorts();
  t.create = [](const Params& p) {
    return std::make_unique<JointElement>(JointKind::kSpherical, p);
  };
  return t;
}

BlockType BushingJointType() {
  BlockType t =
      internal::MultibodyType("BushingJoint", "Six degrees of freedom with springs and dampers.");
  t.doc =
      "Translations x, y, z of F in B, then rotations about x, y, z (applied in that order, "
      "each about the axis of the frame the previous ones produced). Each coordinate has a "
      "spring and a damper: force_i = -stiffness_i (q_i - q_eq_i) - damping_i qd_i. The "
      "paper's free object in a power grasp sits on one.";
  t.reference = "Simscape Multibody Bushing Joint";
  t.params = {{"q0", ParamKind::kVector, "0", "6 initial positions (m, m, m, rad, rad, rad)"},
              {"qd0", ParamKind::kVector, "0", "6 initial velocities"},
              {"stiffness", ParamKind::kVector, "0", "6 spring constants (N/m, N m/rad)"},
              {"damping", ParamKind::kVector, "0", "6 damping constants (N s/m, N m s/rad)"},
              {"q_eq", ParamKind::kVector, "", "6 spring equilibrium positions (0)"}};
  t.outputs = {{"q", "6: x, y, z (m), rx, ry, rz (rad)"},
               {"qd", "6: their rates"},
               {"wrench", "6: force and torque B transmits to F, at F, in F"}};
  t.physical_ports = internal::BaseFollowerPorts();
  t.create = [](const Params& p) { return std::make_unique<JointElement>(JointKind::kBushing, p); };
  return t;
}

BlockType FreeJointType() {
  BlockType t = internal::MultibodyType("FreeJoint", "Six degrees of freedom, singularity free.");
  t.doc =
      "F moves freely relative to B: position p and unit quaternion [w, x, y, z] of F in B "
      "(the quaternion is normalized where it is used). v and w are F's velocity relative to "
      "B, expressed in B: v = dp/dt, w the angular velocity.";
  t.reference = "Simscape Multibody 6-DOF Joint; MuJoCo free joint";
  t.params = {
      {"position0", ParamKind::kVector, "[0, 0, 0]", "initial position of F in B, m"},
      {"quaternion0", ParamKind::kVector, "[1, 0, 0, 0]", "initial orientation, [w, x, y, z]"},
      {"v0", ParamKind::kVector, "[0, 0, 0]", "initial velocity, m/s, in B"},
      {"w0", ParamKind::kVector, "[0, 0, 0]", "initial angular velocity, rad/s, in B"}};
  t.outputs = {{"position", "3: p of F in B, m"},
               {"quaternion", "4: orientation of F in B"},
               {"v", "3: dp/dt in B, m/s"},
               {"w", "3: angular velocity of F relative to B, in B, rad/s"},
               {"wrench", "6: zero unless forces act through the joint"}};
  t.physical_ports = internal::BaseFollowerPorts();
  t.create = [](const Params& p) { return std::make_unique<JointElement>(JointKind::kFree, p); };
  return t;
}

// A weld moves nothing: its frames are one rigid body, like a RigidTransform's.
void JointElement::Contribute(MechanismBuilder& builder) const {
  if (kind == JointKind::kWeld) {
    builder.AddRigidConnection(Pose());
  } else {
    builder.AddJoint(*this);
  }
}

}  // namespace twinblocks::multibody
