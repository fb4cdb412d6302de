#pragma once

// The Model of a tree of rigid bodies in minimal coordinates (KinematicTree, fixed after
// construction) and its Data (KinematicTreeData, every workspace the algorithms of
// algorithms.h need, allocated once). Spatial conventions: see spatial.h.
//
// Frames: every body B has one frame, its body frame, in which its inertia is given. Its joint
// connects it to its parent P (or to the world W): the joint frame J is fixed in P at X_PJ,
// and the joint moves B relative to J: X_PB(q) = X_PJ * X_JB(q). At q = 0, B coincides
// with J.

#include <Eigen/Core>
#include <string>
#include <vector>

#include "physics/spatial/spatial.h"

namespace twinblocks::multibody {

/// The largest number of velocities of one joint (a free joint).
inline constexpr int kMaxJointDofs = 6;

/// Motion subspace S of one joint (6 x nv), columns are spatial motion vectors in the body
/// frame. Fixed maximum size so that it never allocates.
using MotionSubspace = Eigen::Matrix<double, 6, Eigen::Dynamic, Eigen::ColMajor, 6, kMaxJointDofs>;
/// A small (nv x nv) matrix of one joint, at most 6 x 6, never allocates.
using JointMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor,
                                  kMaxJointDofs, kMaxJointDofs>;
/// A small (nv x 1) vector of one joint, never allocates.
using JointVector = Eigen::Matrix<double, Eigen::Dynamic, 1, Eigen::ColMajor, kMaxJointDofs, 1>;

/// The joint types. A new type adds an entry here and a case in Joint's constructor,
/// CalcJointPose and the qdot map of algorithms.cc (CalcQDot); the algorithms otherwise only use
/// nq, nv, the motion subspace and CalcJointPose, and the motion subspace must be constant in
/// the body frame (true for all of these because their velocities are measured in B).
///
/// Rotations of spherical and free joints are unit quaternions [w, x, y, z] (scalar first, as
/// in MuJoCo): four numbers for three degrees of freedom, so nq > nv and qdot != v for them.
enum class JointType {
  kRevolute,   ///< one rotation q (rad) about a unit axis, v = qdot (rad/s); nq = nv = 1
  kPrismatic,  ///< one translation q (m) along a unit axis, v = qdot (m/s); nq = nv = 1
  /// Three rotations. q (4): the unit quaternion [w, x, y, z] of B in J (R_JB); v (3): the
  /// angular velocity of B relative to J, in B (rad/s). S = [1; 0] (6 x 3).
  kSpherical,
  /// Six degrees of freedom, e.g. a floating base. q (7): [p_JB in J (m, 3); the unit
  /// quaternion [w, x, y, z] of R_JB (4)]; v (6): [omega; v], the spatial velocity of B
  /// relative to J, in B (rad/s; m/s, v of the point at B's origin). S = 1 (6 x 6).
  kFree,
};

/// One joint: its type, axis and motion subspace.
class Joint {
 public:
  /// A revolute joint about `axis_J` (unit vector in the joint frame; it is normalized).
  /// @throws std::invalid_argument if the axis is zero or not finite.
  static Joint Revolute(const Eigen::Vector3d& axis_J);
  /// A prismatic joint along `axis_J` (unit vector in the joint frame; it is normalized).
  /// @throws std::invalid_argument if the axis is zero or not finite.
  static Joint Prismatic(const Eigen::Vector3d& axis_J);
  /// A ball joint (see JointType::kSpherical). At the neutral q = [1, 0, 0, 0] B coincides with J.
  static Joint Spherical();
  /// A free (6-DOF) joint (see JointType::kFree). At the neutral q = [0, 0, 0, 1, 0, 0, 0] B
  /// coincides with J.
  static Joint Free();

  JointType type() const { return type_; }
  int nq() const { return nq_; }  ///< number of position coordinates
  int nv() const { return nv_; }  ///< number of velocity coordinates
  /// Unit axis in J (= in B) of a revolute or prismatic joint; unused by the other types.
  const Eigen::Vector3d& axis() const { return axis_; }
  /// k in {0, 1, 2} when axis() is exactly +-e_k (every DH joint), otherwise -1: the
  /// algorithms then read one entry instead of multiplying by S, and turn the pose about one
  /// coordinate axis. Always -1 for spherical and free joints.
  int axis_index() const { return axis_index_; }
  /// S (6 x nv): the body's spatial velocity relative to J, in B, is S v.
  const MotionSubspace& motion_subspace() const { return S_; }

  /// X_JB(q): the pose of the body frame in the joint frame. A quaternion is normalized first,
  /// so that one that drifted off the unit sphere between NormalizeQuaternions calls (an
  /// integrator does not keep |q| = 1) still gives a rotation, not a rotation and a scaling.
  /// @param q  this joint's coordinates (nq x 1).
  Pose CalcJointPose(const Eigen::Ref<const Eigen::VectorXd>& q) const;

 private:
  Joint(JointType type, const Eigen::Vector3d& axis_J);

  JointType type_ = JointType::kRevolute;
  int nq_ = 1;
  int nv_ = 1;
  int axis_index_ = 2;
  Eigen::Vector3d axis_ = Eigen::Vector3d::UnitZ();
  MotionSubspace S_;
};

/// What the user gives for one body.
struct BodySpec {
  std::string name;  ///< for messages only
  int parent = -1;   ///< index of the parent body, -1 for the world; must be < own index
  Joint joint = Joint::Revolute(Eigen::Vector3d::UnitZ());
  Pose X_PJ;               ///< joint frame J in the parent's body frame (or in W)
  SpatialInertia inertia;  ///< of the body, in its body frame B
  /// Inertia of a drive reflected onto each of the joint's velocities (kg m^2 for rotations,
  /// kg for translations): a rotor of inertia J_m behind a gear of ratio n adds n^2 J_m
  /// (Boschetti & Sinico 2024, eq. 29's B_m). It adds to the mass matrix's diagonal, as Pinocchio's
  /// and MuJoCo's armature; the rotor's gyroscopic coupling with the link is neglected, as there.
  double armature = 0.0;
};

/// A tree of rigid bodies joined by joints, rooted at the world. Immutable after construction.
/// Bodies are numbered so that every parent comes before its children.
class KinematicTree {
 public:
  /// @param bodies  the bodies, parents first.
  /// @param gravity_W  gravitational acceleration in W (m/s^2), e.g. (0, 0, -9.81).
  /// @throws std::invalid_argument if a parent index is not smaller than its child's, or an
  ///         inertia is not physical (negative mass, non-finite values).
  KinematicTree(std::vector<BodySpec> bodies, const Eigen::Vector3d& gravity_W);

  int num_bodies() const { return static_cast<int>(bodies_.size()); }
  int nq() const { return nq_; }  ///< total position coordinates
  int nv() const { return nv_; }  ///< total velocity coordinates
  const BodySpec& body(int i) const { return bodies_[i]; }
  int parent(int i) const { return bodies_[i].parent; }
  const Joint& joint(int i) const { return bodies_[i].joint; }
  int idx_q(int i) const { return idx_q_[i]; }  ///< first entry of body i's joint in q
  int idx_v(int i) const { return idx_v_[i]; }  ///< first entry of body i's joint in v
  const Eigen::Vector3d& gravity() const { return gravity_W_; }  ///< g in W (m/s^2)
  /// Per velocity coordinate: the armature of its joint (nv x 1).
  const Eigen::VectorXd& armature() const { return armature_; }
  /// Body i's spatial inertia as a 6 x 6 matrix in its body frame (kept to save the
  /// conversion in Crba and Aba).
  const Matrix6d& inertia_matrix(int i) const { return inertia_matrices_[i]; }

 private:
  std::vector<BodySpec> bodies_;
  std::vector<Matrix6d> inertia_matrices_;
  std::vector<int> idx_q_;
  std::vector<int> idx_v_;
  Eigen::VectorXd armature_;
  int nq_ = 0;
  int nv_ = 0;
  Eigen::Vector3d gravity_W_;
};

/// Every quantity the algorithms compute and every workspace they use, sized from one tree.
/// Per-body vectors have num_bodies entries, indexed like the tree's bodies; spatial vectors
/// of body i are in body i's frame unless named otherwise.
struct KinematicTreeData {
  explicit KinematicTreeData(const KinematicTree& tree);

  // Kinematics (ForwardKinematics, and every algorithm below).
  /// Body frame in its parent's (or W) at the current q. Written by the algorithms only:
  /// each skips the poses when they are of its q already (posed_q).
  std::vector<Pose> X_PB;
  /// The q that X_PB is of, when `posed`: forward kinematics, the CRBA and the RNEA of one
  /// evaluation pose the bodies once. Cleared by InvalidatePoses.
  Eigen::VectorXd posed_q;
  bool posed = false;
  void InvalidatePoses() { posed = false; }
  /// True when X_PB is of `q` already; else records that the caller now poses them at q.
  bool PosedAt(const Eigen::Ref<const Eigen::VectorXd>& q) {
    if (posed && (q.array() == posed_q.array()).all()) return true;
    posed_q = q;  // same size: no allocation
    posed = true;
    return false;
  }
  std::vector<Pose> X_WB;   ///< body frame in W (ForwardKinematics only)
  std::vector<Vector6d> V;  ///< spatial velocity of B in W, expressed in B (rad/s; m/s)
  std::vector<Vector6d> A;  ///< spatial acceleration of B, in B, offset by -g (RNEA, ABA)
  /// Spatial force the parent transmits to B through the joint, at B's origin, in B (N m; N),
  /// including what the joint's own tau supplies (Rnea, AbaHybrid).
  std::vector<Vector6d> F;
  std::vector<Matrix6d> I_C;       ///< composite inertia of the subtree of B, in B (CRBA)
  std::vector<Matrix6d> I_A;       ///< articulated inertia of B, in B (ABA)
  std::vector<Vector6d> p_A;       ///< articulated bias force of B, in B (ABA)
  std::vector<Vector6d> c;         ///< velocity-product acceleration V x (S v), in B (ABA)
  std::vector<MotionSubspace> U;   ///< I_A S (6 x nv of the joint) (ABA)
  std::vector<JointMatrix> D_inv;  ///< (S^T I_A S)^-1 (nv x nv of the joint) (ABA)
  std::vector<JointVector> u;      ///< tau - S^T p_A (nv of the joint) (ABA)
  /// 1 for a body whose joint and every ancestor's are prescribed (AbaHybrid): driven
  /// rigidly from the world, it gets no articulated inertia (I_A, p_A, U, D_inv, u unset).
  std::vector<unsigned char> driven;
  /// 1 for a driven body with a body that is not driven below it, whose dynamics its
  /// acceleration reaches (AbaHybrid with DrivenForces::kSkip computes A for these alone).
  std::vector<unsigned char> drives_free;
  /// Per free joint: the last S^T I_A S + armature (ABA's D, 6 x 6) and its inverse, kept
  /// because a free body without children (a grasped object) has the same D at every
  /// evaluation; NaN before the first. A memo: the ABA's results do not depend on it.
  std::vector<Matrix6d> free_D, free_D_inv;

  /// Generalized forces (nv x 1) from Rnea / NonlinearEffects, and from AbaHybrid (the given
  /// tau of unprescribed joints, the needed force of prescribed ones).
  Eigen::VectorXd tau;
  Eigen::MatrixXd M;    ///< mass matrix from Crba (nv x nv), both triangles
  Eigen::VectorXd qdd;  ///< generalized accelerations from Aba, AbaHybrid (nv x 1)
};

}  // namespace twinblocks::multibody
