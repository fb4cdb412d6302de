#pragma once

// The blocks of a frame network (spec/blocks.md, Multibody): World, RigidTransform, Solid,
// the joints, TransformSensor, ExternalForceTorque and InternalForce. They are elements, not
// running blocks: each holds its evaluated parameters and declares its frame ports and its
// signal ports; the compiler hands all elements of a model to BuildMechanism
// (mechanism_builder.h), which reduces them to one kinematic tree run by one Mechanism block
// that takes over their signal ports.

#include <Eigen/Core>
#include <limits>
#include <memory>
#include <string>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/multibody/solid_geometry.h"
#include "blocks/multibody/spatial.h"
#include "blocks/param.h"

namespace twinblocks::multibody {

/// Base of every frame-network element: declares no runtime behaviour.
class FrameElement : public blocks::Block {
 protected:
  FrameElement() = default;
  /// Declares a frame port.
  int FramePort(const char* name) { return DeclarePhysicalPort(name, "frame"); }
};

/// The inertial frame W and the gravity of the model.
class WorldElement final : public FrameElement {
 public:
  explicit WorldElement(const blocks::Params& p);
  Eigen::Vector3d gravity;  ///< m/s^2, in W
};

/// F = B * X_BF, fixed.
class RigidTransformElement final : public FrameElement {
 public:
  explicit RigidTransformElement(const blocks::Params& p);
  Pose X_BF;
};

/// A rigid body's mass and shape, attached at its reference frame R.
class SolidElement final : public FrameElement {
 public:
  explicit SolidElement(const blocks::Params& p);
  ShapeKind shape = ShapeKind::kNone;
  SpatialInertia inertia;  ///< about R's origin, in R
  double radius = 0.0;     ///< m (sphere, cylinder, capsule)
  double length = 0.0;     ///< m (cylinder, capsule)
  Eigen::Vector3d size = Eigen::Vector3d::Zero();  ///< m (box)
  std::string file;                                ///< mesh file, resolved
  Eigen::Vector3d color = Eigen::Vector3d(0.7, 0.7, 0.7);
};

enum class JointKind { kRevolute, kPrismatic, kWeld, kSpherical, kBushing, kFree };
enum class Actuation { kNone, kTorque, kMotion, kPort };

/// Every joint type: the follower frame F moves relative to the base frame B.
class JointElement final : public FrameElement {
 public:
  JointElement(JointKind kind, const blocks::Params& p);

  JointKind kind;
  Eigen::Vector3d axis = Eigen::Vector3d::UnitZ();  ///< unit, in B (revolute, prismatic)
  /// Initial position and velocity in the joint's own coordinates: revolute/prismatic 1;
  /// spherical quaternion (4) and w (3, in B); free position (3) + quaternion (4), v and w (in
  /// B); bushing 6 and 6.
  Eigen::VectorXd q0, qd0;
  bool priority_high = true;
  Eigen::VectorXd stiffness, damping, q_eq;  ///< per coordinate (1, or 6 for a bushing)
  double lower = -std::numeric_limits<double>::infinity();
  double upper = std::numeric_limits<double>::infinity();
  double limit_stiffness = 1e4, limit_damping = 10.0, limit_transition = 1e-4;
  Actuation actuation = Actuation::kNone;
  double filter_tc = 0.01;  ///< s
  bool cut = false;

  /// Signal ports, -1 where the joint has none.
  int in_actuation = -1;  ///< tau / f, or motion
  int out_q = -1, out_qd = -1, out_qdd = -1, out_torque = -1, out_wrench = -1;
  int out_quaternion = -1, out_w = -1, out_position = -1, out_v = -1;

  /// Number of scalar coordinates the user sees (q output width): 1, 0, 4, 6, 7.
  bool is_one_dof() const { return kind == JointKind::kRevolute || kind == JointKind::kPrismatic; }
};

/// The pose and velocity of F relative to B.
class TransformSensorElement final : public FrameElement {
 public:
  explicit TransformSensorElement(const blocks::Params& p);
  int out_position, out_rotation, out_v, out_w, out_euler;
};

/// A force and torque applied to the body at F, at F's origin.
class ExternalForceTorqueElement final : public FrameElement {
 public:
  explicit ExternalForceTorqueElement(const blocks::Params& p);
  bool world_frame = true;  ///< inputs expressed in W, else in F
  int in_force, in_torque;
};

/// Equal and opposite forces on B and F along the line between their origins.
class InternalForceElement final : public FrameElement {
 public:
  explicit InternalForceElement(const blocks::Params& p);
  bool spring_damper = false;
  double k = 0.0, c = 0.0, length0 = 0.0;
  int in_f = -1, out_distance, out_speed;
};

blocks::BlockType WorldType();
blocks::BlockType RigidTransformType();
blocks::BlockType SolidType();
blocks::BlockType RevoluteJointType();
blocks::BlockType PrismaticJointType();
blocks::BlockType WeldJointType();
blocks::BlockType SphericalJointType();
blocks::BlockType BushingJointType();
blocks::BlockType FreeJointType();
blocks::BlockType TransformSensorType();
blocks::BlockType ExternalForceTorqueType();
blocks::BlockType InternalForceType();

}  // namespace twinblocks::multibody
