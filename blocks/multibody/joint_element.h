#pragma once

// The joints (RevoluteJoint, PrismaticJoint, WeldJoint, SphericalJoint, BushingJoint,
// FreeJoint): one element class, since the compiler treats them alike, and one catalog entry
// per type.

#include <Eigen/Core>
#include <limits>

#include "blocks/multibody/frame_element.h"

namespace twinblocks::multibody {

enum class JointKind { kRevolute, kPrismatic, kWeld, kSpherical, kBushing, kFree };
enum class Actuation { kNone, kTorque, kMotion, kPort };

/// What the user gives a joint besides its geometry and initial state: how it is driven, and
/// its spring, damper and end stops. The JointElement holds it and hands it unchanged to what
/// the joint becomes: a coordinate of the tree (MechanismJoint) or, when the joint closes a
/// loop, a constraint with forces between its frames (LoopConstraint).
struct JointProperties {
  Actuation actuation = Actuation::kNone;
  Eigen::VectorXd stiffness, damping, q_eq;  ///< per coordinate (1, or 6 for a bushing)
  double lower = -std::numeric_limits<double>::infinity();  ///< end stops (one-dof joints)
  double upper = std::numeric_limits<double>::infinity();
  double limit_stiffness = 1e4, limit_damping = 10.0, limit_transition = 1e-4;
  double filter_tc = 0.01;  ///< s: the motion input's filter (actuation=motion)
};

/// Every joint type: the follower frame F moves relative to the base frame B.
class JointElement final : public FrameElement {
 public:
  JointElement(JointKind kind, const blocks::Params& p);
  void Contribute(MechanismBuilder& builder) const override;

  JointKind kind;
  Eigen::Vector3d axis = Eigen::Vector3d::UnitZ();  ///< unit, in B (revolute, prismatic)
  /// Initial position and velocity in the joint's own coordinates: revolute/prismatic 1;
  /// spherical quaternion (4) and w (3, in B); free position (3) + quaternion (4), v and w (in
  /// B); bushing 6 and 6.
  Eigen::VectorXd q0, qd0;
  bool priority_high = true;
  JointProperties properties;
  bool cut = false;

  /// Signal ports, -1 where the joint has none.
  int in_actuation = -1;  ///< tau / f, or motion
  int shaft_port = -1;    ///< physical port index of `shaft` (actuation=port)
  int out_q = -1, out_qd = -1, out_qdd = -1, out_torque = -1, out_wrench = -1;
  int out_quaternion = -1, out_w = -1, out_position = -1, out_v = -1;

  /// Number of scalar coordinates the user sees (q output width): 1, 0, 4, 6, 7.
  bool is_one_dof() const { return kind == JointKind::kRevolute || kind == JointKind::kPrismatic; }
};

blocks::BlockType RevoluteJointType();
blocks::BlockType PrismaticJointType();
blocks::BlockType WeldJointType();
blocks::BlockType SphericalJointType();
blocks::BlockType BushingJointType();
blocks::BlockType FreeJointType();

}  // namespace twinblocks::multibody
