#pragma once

// The recursive rigid-body algorithms on a KinematicTree (Featherstone, "Rigid Body Dynamics
// Algorithms", 2008, chapters 5-7), as free functions of (tree, data, inputs). Results go into
// `data` and are returned by reference to it; they stay valid until the next call with the
// same data. Nothing allocates after KinematicTreeData's construction.
//
// Coordinates: q (nq x 1), v (nv x 1, v = qdot for revolute and prismatic joints; spherical
// and free joints hold quaternions in q and body-frame velocities in v, see JointType and
// CalcQDot), a = vdot (nv x 1), tau (nv x 1, N m for revolute, N for prismatic joints, the
// body-frame torque and force for spherical and free ones). Gravity is the tree's, handled as
// a fictitious acceleration -g of the world, so data->A is every body's acceleration minus g.
//
// External forces f_ext (optional, nullptr for none): num_bodies entries, the spatial force
// the environment applies to each body [torque (N m); force (N)], at its body-frame origin,
// in its body frame. Every "Fills" list below names all the data fields a call writes; the
// others keep what the last call that filled them left.
//
// The data is passed second, by pointer, because every function writes into it.

#include <Eigen/Core>
#include <vector>

#include "physics/multibody/kinematic_tree.h"

namespace twinblocks::multibody {

/// Poses of every body: fills data->X_PB and data->X_WB.
/// @throws std::logic_error if q.size() != tree.nq().
void ForwardKinematics(const KinematicTree& tree, KinematicTreeData* data,
                       const Eigen::Ref<const Eigen::VectorXd>& q);

/// Poses and spatial velocities of every body: as above, plus data->V (V_WB in B).
/// @throws std::logic_error on a size mismatch.
void ForwardKinematics(const KinematicTree& tree, KinematicTreeData* data,
                       const Eigen::Ref<const Eigen::VectorXd>& q,
                       const Eigen::Ref<const Eigen::VectorXd>& v);

/// Inverse dynamics by the recursive Newton-Euler algorithm, gravity included:
/// tau = M(q) a + C(q, v) v + g(q) - J(q)^T f_ext. Fills data->X_PB, V, A, F and tau
/// (not X_WB).
/// @param f_ext  external force on each body (see the top of this file), or nullptr.
/// @returns data->tau (nv x 1).
/// @throws std::logic_error on a size mismatch.
const Eigen::VectorXd& Rnea(const KinematicTree& tree, KinematicTreeData* data,
                            const Eigen::Ref<const Eigen::VectorXd>& q,
                            const Eigen::Ref<const Eigen::VectorXd>& v,
                            const Eigen::Ref<const Eigen::VectorXd>& a,
                            const std::vector<Vector6d>* f_ext = nullptr);

/// Coriolis, centrifugal and gravity forces C(q, v) v + g(q): Rnea with a = 0 and no external
/// force. Fills data->X_PB, V, A, F and tau.
/// @returns data->tau (nv x 1).
const Eigen::VectorXd& NonlinearEffects(const KinematicTree& tree, KinematicTreeData* data,
                                        const Eigen::Ref<const Eigen::VectorXd>& q,
                                        const Eigen::Ref<const Eigen::VectorXd>& v);

/// Joint-space mass matrix M(q) by the composite-rigid-body algorithm; both triangles are
/// filled. Fills data->X_PB, I_C and M.
/// @returns data->M (nv x nv), symmetric positive definite for a tree of massive bodies.
const Eigen::MatrixXd& Crba(const KinematicTree& tree, KinematicTreeData* data,
                            const Eigen::Ref<const Eigen::VectorXd>& q);

/// Crba over the subtrees whose bodies have `in_subtrees[i]` true, a set closed under
/// descendants (every child of a body in it is in it): the rows and columns of M of their
/// joints, entries with the joints of their ancestors included, at the cost of those
/// subtrees. The other entries of M are zero. The free part of a hybrid tree: a grasped
/// object's mass matrix without the motion-driven hand's. Fills data->X_PB, the set's I_C
/// and M.
/// @throws std::logic_error on a size mismatch.
const Eigen::MatrixXd& CrbaOfSubtrees(const KinematicTree& tree, KinematicTreeData* data,
                                      const Eigen::Ref<const Eigen::VectorXd>& q,
                                      const std::vector<bool>& in_subtrees);

/// Forward dynamics by the articulated-body algorithm, gravity included:
/// qdd = M(q)^-1 (tau + J^T f_ext - C(q, v) v - g(q)), in O(n). Fills data->X_PB, V, A, c, I_A,
/// p_A, U, D_inv, u and qdd. It does not fill X_WB (call ForwardKinematics(tree, data, q) when
/// world poses are needed; the dynamics do not use them), nor F and tau (AbaHybrid does).
/// @param f_ext  external force on each body (see the top of this file), or nullptr.
/// @returns data->qdd (nv x 1).
/// @throws std::logic_error on a size mismatch.
const Eigen::VectorXd& Aba(const KinematicTree& tree, KinematicTreeData* data,
                           const Eigen::Ref<const Eigen::VectorXd>& q,
                           const Eigen::Ref<const Eigen::VectorXd>& v,
                           const Eigen::Ref<const Eigen::VectorXd>& tau,
                           const std::vector<Vector6d>* f_ext = nullptr);

/// Whether AbaHybrid computes the forces of the bodies driven rigidly from the world (their
/// joint and all their ancestors' prescribed).
enum class DrivenForces {
  kCompute,  ///< their F and tau, what the drives must supply (an inverse-dynamics pass)
  /// Left as they were: their motion is given, so the accelerations of the rest do not need
  /// them. For a diagram that reads none of those joints' torques or wrenches.
  kSkip,
};

/// Hybrid forward dynamics by the articulated-body algorithm (Featherstone 2008 sec. 9.2):
/// joints whose `prescribed[i]` (per body) is nonzero follow the given accelerations and
/// report the generalized force they need; the others are driven by the given force. This is
/// how a motion-driven joint (a joint given q(t) by the model, as in Simscape's "motion
/// input") takes part in the dynamics of the rest without a mass-matrix solve: its
/// acceleration is known, so its articulated inertia passes to the parent whole.
/// @param u  (nv x 1) for a force-driven joint its applied generalized force tau, for a
///           prescribed joint its acceleration qdd.
/// @param prescribed  num_bodies entries, nonzero for a prescribed joint.
/// @param f_ext  external force on each body (see the top of this file), or nullptr.
/// Fills data->qdd (all nv), data->tau (all nv: the given tau of force-driven joints, the needed
/// force of prescribed ones), data->F (per body: the spatial force the parent transmits to the
/// body through its joint, at the body origin in the body frame, including what the joint's
/// own tau supplies; equal to Rnea's F at the resulting qdd), data->A (body accelerations,
/// offset by -g), data->V and data->X_PB, data->driven, and the ABA workspaces c, I_A, p_A, U,
/// D_inv, u of the bodies that are not driven. Not X_WB. A body driven rigidly from the world
/// (its joint and all its ancestors' prescribed) costs what Rnea's pass over it costs. With
/// DrivenForces::kSkip it costs nothing beyond its qdd = u, unless a body that is not driven
/// hangs below it (data->drives_free), which needs its acceleration A; its F and tau (and
/// otherwise A and c) are left as they were. The other results are bitwise the same.
/// @returns data->qdd (nv x 1).
/// @throws std::logic_error on a size mismatch.
const Eigen::VectorXd& AbaHybrid(const KinematicTree& tree, KinematicTreeData* data,
                                 const Eigen::Ref<const Eigen::VectorXd>& q,
                                 const Eigen::Ref<const Eigen::VectorXd>& v,
                                 const Eigen::Ref<const Eigen::VectorXd>& u,
                                 const std::vector<unsigned char>& prescribed,
                                 const std::vector<Vector6d>* f_ext,
                                 DrivenForces driven_forces = DrivenForces::kCompute);

/// AbaHybrid right after ForwardKinematics(tree, data, q, v) at the same q and v: the body
/// poses data->X_PB and velocities data->V are taken as they are, not computed again. A
/// mechanism that has placed its bodies for contact detection saves the first pass's
/// trigonometry and transforms. Same results as AbaHybrid(tree, data, q, v, ...).
/// @pre ForwardKinematics(tree, data, q, v) was the last call that changed data->X_PB or V.
/// @throws std::logic_error on a size mismatch.
const Eigen::VectorXd& AbaHybridAfterKinematics(
    const KinematicTree& tree, KinematicTreeData* data, const Eigen::Ref<const Eigen::VectorXd>& v,
    const Eigen::Ref<const Eigen::VectorXd>& u, const std::vector<unsigned char>& prescribed,
    const std::vector<Vector6d>* f_ext, DrivenForces driven_forces = DrivenForces::kCompute);

/// Kinetic energy sum_i 1/2 V_i . I_i V_i (J) from the velocities of the last
/// ForwardKinematics(tree, data, q, v) (or Rnea, Aba). Reads data.V only.
double KineticEnergy(const KinematicTree& tree, const KinematicTreeData& data);

/// Kinetic energy of the drives reflected onto the joints, 1/2 sum armature_k v_k^2 (J): add
/// it to KineticEnergy, which counts the bodies only.
double DriveKineticEnergy(const KinematicTree& tree, const Eigen::Ref<const Eigen::VectorXd>& v);

/// Gravitational potential energy -sum_i m_i g . p_WCm_i (J), zero with every centre of mass at
/// W's origin, from the poses of the last ForwardKinematics. Reads data.X_WB only (Rnea and Aba
/// do not fill it).
double PotentialEnergy(const KinematicTree& tree, const KinematicTreeData& data);

/// The time derivative of the configuration, qdot (nq x 1), from the velocities v (nv x 1): an
/// integrator of q needs it because nq != nv once a quaternion is in q. qdot = v for revolute
/// and prismatic joints; a quaternion q_JB moves at 1/2 q_JB (x) (0, omega_B) (omega in B,
/// hence the product on the right); a free joint's position at pdot_J = R_JB v_B. Allocates
/// nothing.
/// @throws std::logic_error on a size mismatch.
void CalcQDot(const KinematicTree& tree, const Eigen::Ref<const Eigen::VectorXd>& q,
              const Eigen::Ref<const Eigen::VectorXd>& v, Eigen::Ref<Eigen::VectorXd> qdot);

/// Scales every quaternion in q (nq x 1) back to unit length: integrating qdot keeps |q| = 1
/// only to the integrator's error, and the drift grows without bound unless projected out.
/// @throws std::logic_error on a size mismatch.
void NormalizeQuaternions(const KinematicTree& tree, Eigen::Ref<Eigen::VectorXd> q);

/// The neutral configuration (nq x 1): zero for revolute and prismatic joints, the identity
/// quaternion [1, 0, 0, 0] and zero position for spherical and free ones, where every body
/// frame coincides with its joint frame.
/// @throws std::logic_error on a size mismatch.
void NeutralConfiguration(const KinematicTree& tree, Eigen::Ref<Eigen::VectorXd> q);

}  // namespace twinblocks::multibody
