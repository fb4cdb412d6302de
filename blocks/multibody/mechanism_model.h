#pragma once

// What a frame network compiles to (the output of BuildMechanism, the input of Mechanism): a
// kinematic tree in minimal coordinates and, per joint, sensor and force element, where its
// quantities live in the tree and which signal ports of the Mechanism block carry them.

#include <Eigen/Core>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "blocks/drivetrain/rotational_network.h"
#include "blocks/multibody/frame_elements.h"
#include "physics/contact/collision.h"
#include "physics/contact/contact_law.h"
#include "physics/multibody/kinematic_tree.h"
#include "physics/multibody/mesh.h"
#include "physics/multibody/solid_geometry.h"
#include "physics/spatial/spatial.h"

namespace twinblocks::multibody {

/// A signal input of the Mechanism block, or none: a port of the model's element that the
/// Mechanism took over. Distinct from MechanismOutput so that one cannot stand for the other.
struct MechanismInput {
  int index = -1;  ///< into MechanismModel::inputs; -1: none
  bool connected() const { return index >= 0; }
};

/// A signal output of the Mechanism block, or none (see MechanismInput).
struct MechanismOutput {
  int index = -1;  ///< into MechanismModel::outputs; -1: none
  bool connected() const { return index >= 0; }
};

/// Where a frame port ends up: fixed in a body of the tree (or in the world, body -1).
struct FrameLocation {
  int body = -1;
  Pose X_BF;  ///< the frame in that body's frame (or in W)
};

/// One joint element, resolved to coordinates of the tree.
struct MechanismJoint {
  std::string name;  ///< the element's path, for messages
  int element = -1;  ///< the element index BuildMechanism was given
  JointKind kind = JointKind::kRevolute;
  int body = -1;        ///< the tree body the joint moves (the last of a bushing's chain)
  int q_index = 0;      ///< first coordinate in the tree's q
  int v_index = 0;      ///< first coordinate in the tree's v
  int nq = 0, nv = 0;   ///< over the whole joint (a bushing's six)
  int first_body = -1;  ///< a bushing's first body; = body otherwise
  /// The tree runs from F to B (B is on the far side from World): the tree's joint is the
  /// user's joint inverted, so the coordinate keeps its sign and the wrench is mapped back.
  bool reversed = false;
  /// For a reversed joint: X_FJ^-1 where J is the joint frame in the parent (the F side).
  Pose X_JF_reversed;
  Pose X_BJ;  ///< B port in the joint frame J: identity unless reversed; for wrench/outputs

  JointProperties properties;  ///< the joint element's
  bool prescribed = false;     ///< actuation = motion

  /// Initial coordinates in the tree's convention (nq, nv).
  Eigen::VectorXd q0, v0;

  /// Mechanism signal ports.
  MechanismInput in_actuation;
  MechanismOutput out_q, out_qd, out_qdd, out_torque, out_wrench;
  MechanismOutput out_quaternion, out_w, out_position, out_v;
};

/// A joint that closes a kinematic loop (a cut joint, docs/loops.md): not an
/// edge of the tree but a constraint between its two frames, phi(q) = 0, one row per direction
/// the joint does not let move (6 - its degrees of freedom). See loop_constraint.h.
struct LoopConstraint {
  std::string name;               ///< the cut joint's path, for messages
  std::vector<std::string> loop;  ///< the tree joints of the loop it closes, for messages
  JointKind kind = JointKind::kRevolute;
  /// Unit axis of a revolute or prismatic joint, in B; (n1, n2, axis) is a right-handed
  /// orthonormal basis of B, the directions the joint locks.
  Eigen::Vector3d axis = Eigen::Vector3d::UnitZ(), n1 = Eigen::Vector3d::UnitX(),
                  n2 = Eigen::Vector3d::UnitY();
  FrameLocation B, F;  ///< the joint's two frames, fixed in bodies of the tree
  int row = 0;         ///< first row of its constraints in the stacked phi
  int num_rows = 0;    ///< 5 revolute and prismatic, 3 spherical, 0 free and bushing
  int element = -1;    ///< the element index BuildMechanism was given (for errors)

  /// What the user gave the joint (the joint element's): actuation=torque and its spring,
  /// damper and stops act as a pair of equal and opposite wrenches on the two bodies (a
  /// bushing's six springs and dampers about q_eq, in its own coordinates).
  JointProperties properties;
  Eigen::VectorXd q0;  ///< the joint's own q0 (the unwrapped angle starts there)

  /// Mechanism signal ports.
  MechanismInput in_actuation;
  MechanismOutput out_q, out_qd, out_qdd, out_torque, out_wrench;
  MechanismOutput out_quaternion, out_w;
  MechanismOutput out_position, out_v;  ///< a free joint's
};

/// A JointCoupler (joint_coupler.h): q_A = ratio * q_B + offset between two tree joints, one
/// constraint row after the loops' rows. Its Jacobian row e_A - ratio e_B is constant and its
/// velocity-product term is zero; its multiplier is the generalized force on A (-ratio times it
/// on B).
struct JointCoupling {
  std::string name;                ///< the coupler's path, for messages
  int element = -1;                ///< the element index BuildMechanism was given (for errors)
  int joint_a = -1, joint_b = -1;  ///< indices into MechanismModel::joints
  int q_a = 0, q_b = 0;            ///< their coordinates in the tree's q
  int v_a = 0, v_b = 0;            ///< and in v
  double ratio = 1.0, offset = 0.0;
  int row = 0;              ///< its row in the stacked phi (after every loop's rows)
  MechanismOutput out_tau;  ///< the multiplier (N m or N on joint A)
};

/// A Tendon (tendon.h): one cable over n tree joints, pulling joint j with moment arm r_j,
/// constant or a function of that joint's angle; its length is
/// l(q) = sum_j integral_{q_rest_j}^{q_j} r_j (physics/multibody/tendon.h). Driven by its
/// displacement, rigidly (one constraint row l(q) = s(t) after the couplings', its multiplier
/// the tension) or elastically (f = k (s - l) + c (sd - R v)); or by its tension. Its joints
/// may carry the adaptive-synergy springs tau = -E (q - q_rest).
struct MechanismTendon {
  std::string name;                   ///< the tendon's path, for messages
  int element = -1;                   ///< the element index BuildMechanism was given (for errors)
  std::vector<int> joints;            ///< indices into MechanismModel::joints
  std::vector<int> q_index, v_index;  ///< their coordinates in the tree's q and v
  Eigen::VectorXd arms;               ///< r_j where arm_expressions[j] is empty
  std::vector<std::string> arm_expressions;  ///< per joint: r_j as a function of q, or ""
  std::vector<std::pair<std::string, double>> variables;  ///< the model's, for the expressions
  Eigen::VectorXd q_rest;                                 ///< rad or m, per joint
  Eigen::VectorXd E;          ///< per joint, N m/rad or N/m; empty: no springs of the tendon's own
  bool force_driven = false;  ///< drive = force: the tension is the input
  bool elastic = false;       ///< transmission = elastic
  double stiffness = 0.0, damping = 0.0;
  double sigma_scaling = 1.0, sigma_offset = 0.0;  ///< s = scaling (sigma + offset)
  double filter_tc = 0.01;                         ///< s, a command of width 1
  int row = -1;  ///< rigid and displacement-driven: its row in the stacked phi, else -1
  MechanismInput in_command;  ///< s (sigma) or the tension
  MechanismOutput out_f, out_length;
  bool has_arm_functions() const {
    for (const std::string& e : arm_expressions) {
      if (!e.empty()) return true;
    }
    return false;
  }
};

/// A SynergyEquilibrium (synergy_equilibrium.h): the quasi-static configuration and tension
/// the adaptive-synergy model predicts for one tendon at the current contact forces.
struct MechanismSynergyEquilibrium {
  std::string name;
  int element = -1;
  int tendon = -1;      ///< into MechanismModel::tendons
  bool gravity = true;  ///< the bodies' weights count among the external forces
  /// The joints of the equilibrium: the tendons' that share joints with this one, and every
  /// joint coupled to those (matched joints); indices into MechanismModel::joints.
  std::vector<int> joints;
  std::vector<int> tendons;    ///< the tendons acting on them (this one first)
  std::vector<int> couplings;  ///< the couplings among them
  /// Per tendon (as in `tendons`), per joint of it: its position in `joints`.
  std::vector<std::vector<int>> tendon_columns;
  /// Per coupling: the positions of its joints A and B in `joints`.
  std::vector<std::pair<int, int>> coupling_columns;
  MechanismOutput out_q, out_f;
};

struct MechanismSensor {
  std::string name;
  FrameLocation B, F;
  MechanismOutput out_position, out_rotation, out_v, out_w, out_euler;
};

struct MechanismExternalForce {
  std::string name;
  FrameLocation F;
  bool world_frame = true;
  MechanismInput in_force, in_torque;
};

struct MechanismInternalForce {
  std::string name;
  FrameLocation B, F;
  bool spring_damper = false;
  double k = 0.0, c = 0.0, length0 = 0.0;
  MechanismInput in_f;
  MechanismOutput out_distance, out_speed;
};

/// One Solid's shape as a contact sees it.
struct MechanismContactShape {
  std::string solid;  ///< the Solid's path, for messages
  contact::Shape shape;
  FrameLocation at;  ///< the Solid's frame R
};

/// A SpatialContactForce: the shapes at its B and at its F, and one law per pair of them (the
/// Hertz law's stiffness depends on the two shapes' radii).
struct MechanismContact {
  std::string name;
  std::vector<MechanismContactShape> b, f;
  std::vector<contact::ContactLaw> laws;  ///< per pair: laws[i * f.size() + j] for b[i], f[j]
  MechanismOutput out_distance, out_fn, out_ff, out_point, out_normal, out_force;
};

/// A Solid as a viewer draws it: its shape, given in the Solid's frame R as solid_geometry.h
/// describes it, and where R is fixed. The dynamics need only the bodies' summed inertias;
/// this is for viewers and recorders (the HTML report's 3D playback).
struct MechanismSolid {
  std::string name;  ///< the Solid's path
  ShapeKind shape = ShapeKind::kNone;
  double radius = 0.0;                             ///< m (sphere, cylinder, capsule)
  double length = 0.0;                             ///< m (cylinder, capsule: the straight part)
  Eigen::Vector3d size = Eigen::Vector3d::Zero();  ///< m, box edge lengths along R's axes
  std::shared_ptr<const TriangleMesh> mesh;        ///< shape mesh, in R (m)
  Eigen::Vector3d color = Eigen::Vector3d(0.7, 0.7, 0.7);  ///< [r, g, b] in 0..1
  FrameLocation at;                                        ///< the Solid's frame R
};

/// A signal port of the Mechanism block: one port of one element.
struct MechanismPort {
  std::string name;  ///< "element path.port"
  int width = -1;    ///< -1: set by what drives it (a motion input)
  unsigned feedthrough = 0;
  int stage = 0;
  int element = -1;       ///< index into the elements BuildMechanism was given
  int element_port = -1;  ///< that element's input or output index
};

/// A motor's signal ports on the Mechanism.
struct MechanismMotorPorts {
  MechanismInput command;           ///< v, tau_ref or vdq
  MechanismOutput current, tau, w;  ///< i or idq, torque, rotor speed
  MechanismOutput vdq;              ///< a PMSM's applied voltage
};

struct MechanismModel {
  std::string name;  ///< for messages
  std::shared_ptr<const KinematicTree> tree;
  std::vector<MechanismJoint> joints;
  std::vector<LoopConstraint> loops;     ///< cut joints, in element order
  std::vector<JointCoupling> couplings;  ///< one constraint row each, after the loops' rows
  std::vector<MechanismTendon> tendons;  ///< rigid displacement-driven: a row after couplings'
  std::vector<MechanismSynergyEquilibrium> equilibria;
  /// The loops' num_rows, one per coupling and one per rigid displacement-driven tendon.
  int num_constraint_rows = 0;
  std::vector<MechanismSensor> sensors;
  std::vector<MechanismExternalForce> forces;
  std::vector<MechanismInternalForce> internal_forces;
  std::vector<MechanismContact> contacts;
  std::vector<MechanismSolid> solids;  ///< every Solid, in element order
  std::vector<MechanismPort> inputs, outputs;
  std::vector<unsigned char> prescribed;  ///< per tree body
  Eigen::VectorXd q0, v0;                 ///< the tree's initial coordinates

  /// The rotational networks on the joints' shafts and of their own (empty without any).
  drivetrain::DrivetrainModel drivetrain;
  std::vector<int> cluster_v_index;       ///< per drivetrain cluster: its joint's v index, or -1
  std::vector<int> force_input;           ///< per drivetrain force: Mechanism input, or -1
  std::vector<int> sensor_phi, sensor_w;  ///< per drivetrain sensor: Mechanism outputs
  std::vector<int> joint_cluster;         ///< per joint: the cluster on its shaft, or -1
  std::vector<MechanismMotorPorts> motor_ports;  ///< per drivetrain motor
};

}  // namespace twinblocks::multibody
