#pragma once

// The recursive rigid-body algorithms on a KinematicTree (Featherstone, "Rigid Body Dynamics
// Algorithms", 2008, chapters 5-7), as free functions of (tree, data, inputs). Results go into
// `data` and are returned by reference to it; they stay valid until the next call with the
// same data. Nothing allocates after KinematicTreeData's construction.
//
// Coordinates: q (nq x 1), v (nv x 1, v = qdot for revolute and prismatic joints),
// a = vdot (nv x 1), tau (nv x 1, N m for revolute, N for prismatic joints). Gravity is the
// tree's, handled as a fictitious acceleration -g of the world.
//
// The data is passed second, by pointer, because every function writes into it.

#include <Eigen/Core>

#include "blocks/multibody/kinematic_tree.h"

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
/// tau = M(q) a + C(q, v) v + g(q). Fills data->X_PB, V, A, F and tau.
/// @returns data->tau (nv x 1).
/// @throws std::logic_error on a size mismatch.
const Eigen::VectorXd& Rnea(const KinematicTree& tree, KinematicTreeData* data,
                            const Eigen::Ref<const Eigen::VectorXd>& q,
                            const Eigen::Ref<const Eigen::VectorXd>& v,
                            const Eigen::Ref<const Eigen::VectorXd>& a);

/// Coriolis, centrifugal and gravity forces C(q, v) v + g(q): Rnea with a = 0.
/// @returns data->tau (nv x 1).
const Eigen::VectorXd& NonlinearEffects(const KinematicTree& tree, KinematicTreeData* data,
                                        const Eigen::Ref<const Eigen::VectorXd>& q,
                                        const Eigen::Ref<const Eigen::VectorXd>& v);

/// Joint-space mass matrix M(q) by the composite-rigid-body algorithm; both triangles are
/// filled. Fills data->X_PB, I_C and M.
/// @returns data->M (nv x nv), symmetric positive definite for a tree of massive bodies.
const Eigen::MatrixXd& Crba(const KinematicTree& tree, KinematicTreeData* data,
                            const Eigen::Ref<const Eigen::VectorXd>& q);

/// Forward dynamics by the articulated-body algorithm, gravity included:
/// qdd = M(q)^-1 (tau - C(q, v) v - g(q)), in O(n). Fills data->X_PB, V, A, c, I_A, p_A, U,
/// D_inv, u and qdd.
/// @returns data->qdd (nv x 1).
/// @throws std::logic_error on a size mismatch.
const Eigen::VectorXd& Aba(const KinematicTree& tree, KinematicTreeData* data,
                           const Eigen::Ref<const Eigen::VectorXd>& q,
                           const Eigen::Ref<const Eigen::VectorXd>& v,
                           const Eigen::Ref<const Eigen::VectorXd>& tau);

/// Kinetic energy sum_i 1/2 V_i . I_i V_i (J) from the velocities of the last
/// ForwardKinematics(tree, data, q, v) (or Rnea, Aba).
double KineticEnergy(const KinematicTree& tree, const KinematicTreeData& data);

}  // namespace twinblocks::multibody
