// The catalog entries of the frame-network blocks: parameters, ports and docs, as
// spec/blocks.md (Multibody) defines them, plus the extensions documented here.
#include <memory>

#include "blocks/multibody/frame_elements.h"

namespace twinblocks::multibody {

using blocks::BlockType;
using blocks::ParamKind;
using blocks::Params;

namespace {

constexpr const char* kCategory = "Multibody";

BlockType Base(const char* name, const char* summary) {
  BlockType t;
  t.name = name;
  t.category = kCategory;
  t.summary = summary;
  return t;
}

/// Parameters shared by RevoluteJoint and PrismaticJoint; `unit` is rad or m.
std::vector<blocks::ParamSpec> OneDofParams(bool revolute) {
  const std::string u = revolute ? "rad" : "m";
  const std::string f = revolute ? "N m" : "N";
  return {
      {"axis", ParamKind::kVector, "[0, 0, 1]",
       std::string(revolute ? "rotation" : "translation") + " axis in B (normalized)"},
      {"q0", ParamKind::kScalar, "0", "initial position, " + u},
      {"qd0", ParamKind::kScalar, "0", "initial velocity, " + u + "/s"},
      {"priority", ParamKind::kWord, "high", "state target priority (for closed loops)",
       {"high", "low"}},
      {"stiffness", ParamKind::kScalar, "0", "internal spring, " + f + "/" + u},
      {"damping", ParamKind::kScalar, "0", "internal damper, " + f + " s/" + u},
      {"q_eq", ParamKind::kScalar, "0", "spring equilibrium position, " + u},
      {"lower", ParamKind::kScalar, "", "lower position limit, " + u + " (none)"},
      {"upper", ParamKind::kScalar, "", "upper position limit, " + u + " (none)"},
      {"limit_stiffness", ParamKind::kScalar, "1e4", "stiffness of the limit stops, " + f + "/" + u},
      {"limit_damping", ParamKind::kScalar, "10", "damping of the limit stops, " + f + " s/" + u},
      {"limit_transition", ParamKind::kScalar, "1e-4",
       "penetration over which the stop damping ramps up, " + u},
      {"actuation", ParamKind::kWord, "none",
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
         unit + "). wrench = [fx, fy, fz, tx, ty, tz]: what B transmits to F through the joint, "
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

const std::vector<blocks::PortDoc> kBF = {{"B", "frame: base"}, {"F", "frame: follower"}};

}  // namespace

BlockType WorldType() {
  BlockType t = Base("World", "The inertial frame and the model's gravity.");
  t.doc =
      "Frame W is fixed in space. Every frame network is rooted at World, and a model has "
      "exactly one. Gravity acts on every Solid as the body force m g.";
  t.reference = "Simscape Multibody World Frame and Mechanism Configuration";
  t.params = {{"gravity", ParamKind::kVector, "[0, 0, -9.81]", "gravitational acceleration in W, m/s^2"}};
  t.physical_ports = {{"W", "frame: the world frame"}};
  t.create = [](const Params& p) { return std::make_unique<WorldElement>(p); };
  return t;
}

BlockType RigidTransformType() {
  BlockType t = Base("RigidTransform", "A fixed offset between two frames.");
  t.doc =
      "F = B * T, with T = [R p; 0 1] fixed: p = translation (m, in B) and R from `rotation`: "
      "axis_angle (unit `axis`, `angle` in rad), rpy (roll, pitch, yaw about the fixed x, y, z "
      "axes: R = Rz(yaw) Ry(pitch) Rx(roll)), quaternion ([w, x, y, z], normalized) or matrix "
      "(3x3, rows). Frames joined by rigid transforms belong to one rigid body.";
  t.reference = "Simscape Multibody Rigid Transform";
  t.params = {{"translation", ParamKind::kVector, "[0, 0, 0]", "p of F in B, m"},
              {"rotation", ParamKind::kWord, "none", "how R is given",
               {"none", "axis_angle", "rpy", "quaternion", "matrix"}},
              {"axis", ParamKind::kVector, "[0, 0, 1]", "rotation axis (axis_angle)"},
              {"angle", ParamKind::kScalar, "0", "rotation angle, rad (axis_angle)"},
              {"rpy", ParamKind::kVector, "[0, 0, 0]", "roll, pitch, yaw, rad (rpy)"},
              {"quaternion", ParamKind::kVector, "[1, 0, 0, 0]", "[w, x, y, z] (quaternion)"},
              {"matrix", ParamKind::kMatrix, "[[1,0,0],[0,1,0],[0,0,1]]", "R, rows (matrix)"}};
  t.physical_ports = kBF;
  t.create = [](const Params& p) { return std::make_unique<RigidTransformElement>(p); };
  return t;
}

BlockType SolidType() {
  BlockType t = Base("Solid", "A rigid body: shape, mass and inertia at frame R.");
  t.doc =
      "Mass properties come from the shape and `density`, or from `mass` (the shape's inertia "
      "scaled to it); `com` and `inertia` (3x3 about the centre of mass, axes of R) override "
      "them. Shapes: sphere (radius), box (size [x, y, z]), cylinder and capsule (radius, "
      "length of the cylindrical part; along z of R, centred on R; a capsule adds hemispherical "
      "caps), plane (the half-space z <= 0 of R, for fixed bodies; no mass), mesh (a closed "
      "STL or OBJ `file`, relative to the model file; volume, centre of mass and inertia by the "
      "divergence theorem), none (`mass` required; a point mass unless `inertia` is given). "
      "Solids joined by rigid connections add into one body: I = sum of each X^T I_i X.";
  t.reference = "Simscape Multibody Solid (File Solid for meshes)";
  t.params = {{"shape", ParamKind::kWord, "sphere", "geometry",
               {"sphere", "box", "cylinder", "capsule", "plane", "mesh", "none"}},
              {"radius", ParamKind::kScalar, "", "m (sphere, cylinder, capsule)"},
              {"size", ParamKind::kVector, "", "box edge lengths [x, y, z], m"},
              {"length", ParamKind::kScalar, "", "m (cylinder, capsule: the cylindrical part)"},
              {"file", ParamKind::kString, "", "STL or OBJ file (mesh), in m"},
              {"mass", ParamKind::kScalar, "", "kg; instead of density"},
              {"density", ParamKind::kScalar, "1000", "kg/m^3"},
              {"com", ParamKind::kVector, "", "centre of mass in R, m (default: the shape's)"},
              {"inertia", ParamKind::kMatrix, "", "3x3 about com, axes of R, kg m^2"},
              {"color", ParamKind::kVector, "", "[r, g, b] in 0..1, for viewers"}};
  t.physical_ports = {{"R", "frame: the solid's reference frame"}};
  t.create = [](const Params& p) { return std::make_unique<SolidElement>(p); };
  return t;
}

BlockType RevoluteJointType() {
  BlockType t = Base("RevoluteJoint", "One rotational degree of freedom.");
  t.doc = OneDofDoc(true);
  t.reference = "Simscape Multibody Revolute Joint";
  t.params = OneDofParams(true);
  t.inputs = {{"tau", "applied torque, N m (actuation=torque)"},
              {"motion", "[q, qd, qdd] (3) or q (1), rad (actuation=motion)"}};
  t.outputs = OneDofOutputs(true);
  t.physical_ports = kBF;
  t.create = [](const Params& p) {
    return std::make_unique<JointElement>(JointKind::kRevolute, p);
  };
  return t;
}

BlockType PrismaticJointType() {
  BlockType t = Base("PrismaticJoint", "One translational degree of freedom.");
  t.doc = OneDofDoc(false);
  t.reference = "Simscape Multibody Prismatic Joint";
  t.params = OneDofParams(false);
  t.inputs = {{"f", "applied force, N (actuation=torque)"},
              {"motion", "[q, qd, qdd] (3) or q (1), m (actuation=motion)"}};
  t.outputs = OneDofOutputs(false);
  t.physical_ports = kBF;
  t.create = [](const Params& p) {
    return std::make_unique<JointElement>(JointKind::kPrismatic, p);
  };
  return t;
}

BlockType WeldJointType() {
  BlockType t = Base("WeldJoint", "No degree of freedom: B and F are one rigid body.");
  t.doc = "F coincides with B for ever. The two sides merge into one body at compile time.";
  t.reference = "Simscape Multibody Weld Joint";
  t.physical_ports = kBF;
  t.create = [](const Params& p) { return std::make_unique<JointElement>(JointKind::kWeld, p); };
  return t;
}

BlockType SphericalJointType() {
  BlockType t = Base("SphericalJoint", "Three rotational degrees of freedom about a point.");
  t.doc =
      "F rotates freely about B's origin. Its orientation is a unit quaternion [w, x, y, z] "
      "(scalar first), integrated from the angular velocity and normalized where it is used, "
      "so there is no singular configuration. w is F's angular velocity relative to B, in B. "
      "damping (per axis, N m s/rad) resists w.";
  t.reference = "Simscape Multibody Spherical Joint";
  t.params = {{"q0", ParamKind::kVector, "[1, 0, 0, 0]", "initial orientation of F in B, [w, x, y, z]"},
              {"w0", ParamKind::kVector, "[0, 0, 0]", "initial angular velocity, rad/s, in B"},
              {"damping", ParamKind::kVector, "0", "rotational damping, N m s/rad"}};
  t.outputs = {{"quaternion", "4: orientation of F in B, [w, x, y, z]"},
               {"w", "3: angular velocity of F relative to B, in B, rad/s"},
               {"wrench", "6: force and torque B transmits to F, at F, in F"}};
  t.physical_ports = kBF;
  t.create = [](const Params& p) {
    return std::make_unique<JointElement>(JointKind::kSpherical, p);
  };
  return t;
}

BlockType BushingJointType() {
  BlockType t = Base("BushingJoint", "Six degrees of freedom with springs and dampers.");
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
  t.physical_ports = kBF;
  t.create = [](const Params& p) {
    return std::make_unique<JointElement>(JointKind::kBushing, p);
  };
  return t;
}

BlockType FreeJointType() {
  BlockType t = Base("FreeJoint", "Six degrees of freedom, singularity free.");
  t.doc =
      "F moves freely relative to B: position p and unit quaternion [w, x, y, z] of F in B "
      "(the quaternion is normalized where it is used). v and w are F's velocity relative to "
      "B, expressed in B: v = dp/dt, w the angular velocity.";
  t.reference = "Simscape Multibody 6-DOF Joint; MuJoCo free joint";
  t.params = {{"position0", ParamKind::kVector, "[0, 0, 0]", "initial position of F in B, m"},
              {"quaternion0", ParamKind::kVector, "[1, 0, 0, 0]", "initial orientation, [w, x, y, z]"},
              {"v0", ParamKind::kVector, "[0, 0, 0]", "initial velocity, m/s, in B"},
              {"w0", ParamKind::kVector, "[0, 0, 0]", "initial angular velocity, rad/s, in B"}};
  t.outputs = {{"position", "3: p of F in B, m"},
               {"quaternion", "4: orientation of F in B"},
               {"v", "3: dp/dt in B, m/s"},
               {"w", "3: angular velocity of F relative to B, in B, rad/s"},
               {"wrench", "6: zero unless forces act through the joint"}};
  t.physical_ports = kBF;
  t.create = [](const Params& p) { return std::make_unique<JointElement>(JointKind::kFree, p); };
  return t;
}

BlockType TransformSensorType() {
  BlockType t = Base("TransformSensor", "Pose and velocity of F relative to B.");
  t.doc =
      "position p_BF and rotation R_BF (3x3, rows) of F in B; v = dp/dt as seen in B; w = "
      "angular velocity of F relative to B, in B; euler_zyx = [z, y, x] angles with R = Rz Ry "
      "Rx. A sensor adds no force.";
  t.reference = "Simscape Multibody Transform Sensor (measurement frame: base)";
  t.outputs = {{"position", "3, m"},
               {"rotation", "9: R_BF row-major"},
               {"v", "3, m/s, in B"},
               {"w", "3, rad/s, in B"},
               {"euler_zyx", "3: z, y, x angles, rad"}};
  t.physical_ports = kBF;
  t.create = [](const Params& p) { return std::make_unique<TransformSensorElement>(p); };
  return t;
}

BlockType ExternalForceTorqueType() {
  BlockType t = Base("ExternalForceTorque", "A force and torque applied at a frame.");
  t.doc =
      "Applies `force` at F's origin and `torque` to the body F is fixed in, expressed in the "
      "world frame (frame=world) or in F (frame=local).";
  t.reference = "Simscape Multibody External Force and Torque";
  t.params = {{"frame", ParamKind::kWord, "world", "frame the inputs are expressed in",
               {"world", "local"}}};
  t.inputs = {{"force", "3, N"}, {"torque", "3, N m"}};
  t.physical_ports = {{"F", "frame: where the force acts"}};
  t.create = [](const Params& p) { return std::make_unique<ExternalForceTorqueElement>(p); };
  return t;
}

BlockType InternalForceType() {
  BlockType t = Base("InternalForce", "Equal and opposite forces along the line B-F.");
  t.doc =
      "A force f along the line between the origins of B and F, on F in the direction from B "
      "to F and on B opposite: positive f pushes them apart. mode=input: f is the input; "
      "mode=spring_damper: f = -k (distance - length0) - c speed, speed = d(distance)/dt.";
  t.reference = "Simscape Multibody Internal Force";
  t.params = {{"mode", ParamKind::kWord, "input", "where f comes from", {"input", "spring_damper"}},
              {"k", ParamKind::kScalar, "0", "spring constant, N/m"},
              {"c", ParamKind::kScalar, "0", "damping, N s/m"},
              {"length0", ParamKind::kScalar, "0", "unstretched length, m"}};
  t.inputs = {{"f", "N, positive pushes apart (mode=input)"}};
  t.outputs = {{"distance", "|p_F - p_B|, m"}, {"speed", "d(distance)/dt, m/s"}};
  t.physical_ports = kBF;
  t.create = [](const Params& p) { return std::make_unique<InternalForceElement>(p); };
  return t;
}

}  // namespace twinblocks::multibody
