#pragma once

// What a Mechanism's runs change (its workspace), and small helpers its files share: for
// mechanism.cc (kinematics, contacts, dynamics, outputs, the stiff Jacobian) and the files of
// its parts, mechanism_drivetrain.cc and mechanism_loops.cc. Not for other code.

#include <Eigen/Cholesky>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <vector>

#include "blocks/multibody/loop_closure.h"
#include "blocks/multibody/mechanism.h"
#include "physics/multibody/algorithms.h"
#include "physics/multibody/jacobian.h"
#include "physics/multibody/synergy_equilibrium.h"

namespace twinblocks::multibody {

inline int NumFree(const std::vector<int>& free_v) { return static_cast<int>(free_v.size()); }

struct Mechanism::Workspace final : blocks::BlockWorkspace {
  Workspace(const KinematicTree& tree, int num_clusters, int num_motors, int num_contacts,
            int max_contact_forces, const std::vector<LoopConstraint>& cut_joints,
            const std::vector<int>& free_v,
            const std::vector<JointCoupling>& couplings, int num_dae_rows,
            const std::vector<MechanismTendon>& tendons = {})
      : data(tree),
        loops(tree, cut_joints, free_v, couplings, tendons),
        tendon_force(Eigen::VectorXd::Zero(static_cast<Eigen::Index>(tendons.size()))),
        q_scratch(tree.nq()),
        tau_ext(tree.nv()),
        driven_qdd(tree.nv()),
        statics(tree),
        statics_forces(tree.num_bodies(), Vector6d::Zero()),
        zero_v(Eigen::VectorXd::Zero(tree.nv())),
        free_qdd(NumFree(free_v)),
        loop_rhs(loops.phi.size()),
        cut_force(cut_joints.size(), Vector6d::Zero()),
        q(tree.nq()),
        v(tree.nv()),
        u(tree.nv()),
        passive(tree.nv()),
        qdot(tree.nq()),
        f_ext(tree.num_bodies(), Vector6d::Zero()),
        cluster_angle(num_clusters),
        cluster_speed(num_clusters),
        cluster_force(num_clusters),
        motor_drive(num_motors),
        contact(num_contacts),
        contact_forces(max_contact_forces),
        dae_rows(num_dae_rows, -1),
        row_order(loop_rhs.size()),
        Ks(num_dae_rows, num_dae_rows),
        Ks_llt(num_dae_rows),
        Ks_ldlt(num_dae_rows),
        lambda_s(num_dae_rows),
        mu_v(tree.nv()),
        qdot_mu(tree.nq()),
        J_rel(3, tree.nv()),
        J_rel_free(3, NumFree(free_v)),
        JfT_dFv(NumFree(free_v), 3),
        JfT_dFx(NumFree(free_v), 3),
        dqdd(NumFree(free_v), 2 * tree.nv()),
        M_free(NumFree(free_v), NumFree(free_v)),
        M_free_llt(NumFree(free_v)),
        M_free_inverse(NumFree(free_v), NumFree(free_v)),
        dqdd_solved(NumFree(free_v), 2 * tree.nv()),
        P(loops.G.rows() > 0 ? NumFree(free_v) : 0, loops.G.rows() > 0 ? NumFree(free_v) : 0),
        KY(loops.G.rows(), NumFree(free_v)),
        constraint_column(loops.G.rows()),
        q_posed(tree.nq()),
        v_posed(tree.nv()),
        geometry_deferred(num_contacts, 0),
        contact_modes(num_contacts, 0) {}
  KinematicTreeData data;
  LoopClosureData loops;         ///< closed loops' constraints and multipliers
  Eigen::VectorXd tendon_force;  ///< per tendon: its tension, once per evaluation
  Eigen::VectorXd q_scratch;     ///< nq: the synergy equilibria's trial configurations
  Eigen::VectorXd tau_ext;       ///< nv: external generalized forces, for the equilibria
  Eigen::VectorXd driven_qdd;    ///< nv: the driven joints' accelerations, zero elsewhere
  KinematicTreeData statics;     ///< the synergy equilibria's RNEA at rest (its own: the
                                 ///< dynamics' data stays as the evaluation left it)
  std::vector<Vector6d> statics_forces;  ///< per body: the contact forces on it, for that RNEA
  Eigen::VectorXd zero_v;                ///< nv zeros
  Eigen::VectorXd free_qdd;      ///< nf: the free coordinates' accelerations
  std::vector<SynergyEquilibriumSolver> equilibria;  ///< per SynergyEquilibrium
  Eigen::VectorXd loop_rhs;  ///< m: right-hand side of the multipliers' system
  /// Per cut joint: its own force (spring, damper, stops, actuation) on F, [torque; force] in
  /// W at F's origin.
  std::vector<Vector6d> cut_force;
  Eigen::VectorXd q, v;
  Eigen::VectorXd u;        ///< tau of free coordinates, qdd of prescribed ones
  Eigen::VectorXd passive;  ///< spring, damper and stop forces per coordinate
  Eigen::VectorXd qdot;
  std::vector<Vector6d> f_ext;
  /// Per drivetrain cluster: its coordinate (rad), rate (rad/s) and generalized force (N m).
  Eigen::VectorXd cluster_angle, cluster_speed, cluster_force;
  /// Per motor: what its PMSM drive applies, once per evaluation, for the applied-voltage
  /// output and the current rates alike.
  std::vector<MotorDrive> motor_drive;
  /// Per contact: its geometry and the force it applies, once per evaluation.
  std::vector<ContactResult> contact;
  /// Every point force of every contact, [0, num_contact_forces): sized once for the most
  /// points the contacts can report, so that the loop never allocates.
  std::vector<PointForce> contact_forces;
  int num_contact_forces = 0;
  /// As a DAE: the loop rows (into G's m rows) whose multipliers are the algebraic variables,
  /// independent ones chosen by the pivoted factorization of K; `stale` when they must be
  /// chosen again at the next (re)start.
  std::vector<int> dae_rows;
  bool dae_rows_stale = true;
  Eigen::VectorXd row_order;  ///< m: K's rows in pivot order (as numbers), scratch
  Eigen::MatrixXd Ks;         ///< r x r: K on the chosen rows
  Eigen::LLT<Eigen::MatrixXd> Ks_llt;
  Eigen::LDLT<Eigen::MatrixXd> Ks_ldlt;
  Eigen::VectorXd lambda_s;  ///< r
  Eigen::VectorXd mu_v;      ///< nv: G_s^T mu on the free coordinates
  Eigen::VectorXd qdot_mu;   ///< nq: Qdot(q) G_s^T mu
  // The Jacobian (DoCalcStiffJacobian), nf the number of free coordinates. Three rows (or
  // columns) fixed, so that the products over them unroll.
  Eigen::Matrix<double, 3, Eigen::Dynamic> J_rel;       ///< 3 x nv: velocity of f relative to b
  Eigen::Matrix<double, 3, Eigen::Dynamic> J_rel_free;  ///< 3 x nf: J_rel's free columns
  /// nf x 3: J_rel_free^T d(point force)/dv and /dx. These two and J_rel_free serve
  /// mechanisms with other than one free object (6 free coordinates: fixed-size matrices).
  Eigen::Matrix<double, Eigen::Dynamic, 3> JfT_dFv, JfT_dFx;
  /// nf x 2 nv: d(free generalized forces, then accelerations)/d(v), then d/d(q tangent
  /// coordinates), side by side so that one solve with M_ff serves both.
  Eigen::MatrixXd dqdd;
  Eigen::MatrixXd M_free;  ///< nf x nf: the mass matrix on the free coordinates
  Eigen::LLT<Eigen::MatrixXd> M_free_llt;
  Eigen::MatrixXd M_free_inverse;   ///< nf x nf
  Eigen::MatrixXd dqdd_solved;      ///< nf x 2 nv: M_free^-1 dqdd (or P dqdd)
  bool free_mass_factored = false;  ///< M_free_inverse is current (once for a constant M_ff)
  // With constraint rows (m of them): the constraint-consistent inverse and its scratch.
  Eigen::MatrixXd P;                      ///< nf x nf: M_ff^-1 - Y K^+ Y^T (0 x 0 without rows)
  Eigen::MatrixXd KY;                     ///< m x nf: K^+ Y^T
  Eigen::VectorXd constraint_column;      ///< m: one column of G, then K^+ of it
  std::vector<Pose> contact_frame_poses;  ///< per Mechanism::contact_frames_: X_WF
  bool kinematics_valid = false;
  bool dynamics_valid = false;
  // The point of the last ForwardKinematics and the contacts evaluated there, so that an
  // evaluation at the same q and v (a major step's, right after the step's last evaluation)
  // keeps both. Only for mechanisms without loops (cache_evaluations_).
  Eigen::VectorXd q_posed;        ///< nq: the q of data's X_WB, X_PB and V when posed
  Eigen::VectorXd v_posed;        ///< nv
  bool posed = false;             ///< data's kinematics are those of q_posed, v_posed
  bool contacts_current = false;  ///< contact, contact_forces: at q_posed, v_posed
  /// Per contact: its geometry was left out (EvaluateContacts), its distance is NaN.
  std::vector<char> geometry_deferred;
  bool any_geometry_deferred = false;
  std::vector<int> contact_modes;  ///< the modes the contacts were evaluated with
  /// Counts new poses and new contact forces: what the articulated-body pass reads besides
  /// the joints' forces.
  long forces_generation = 0;
  // The last articulated-body pass (only for reuse_dynamics_): the generation and joint
  // forces it used, and whether its free bodies' accelerations leave out the driven joints'
  // (no free subtree hangs below a driven body, and their forces were skipped).
  long dynamics_generation = -1;
  Eigen::VectorXd dynamics_u;
  bool dynamics_reusable = false;

  void CopyFrom(const blocks::BlockWorkspace& other) override {
    *this = static_cast<const Workspace&>(other);
  }
};

namespace internal {

/// R of a [w, x, y, z] quaternion, normalized.
inline Eigen::Matrix3d RotationOf(const double* wxyz) {
  return Eigen::Quaterniond(wxyz[0], wxyz[1], wxyz[2], wxyz[3]).normalized().toRotationMatrix();
}

inline void WriteNormalizedQuaternion(const double* wxyz, double* out) {
  const double n =
      std::sqrt(wxyz[0] * wxyz[0] + wxyz[1] * wxyz[1] + wxyz[2] * wxyz[2] + wxyz[3] * wxyz[3]);
  for (int k = 0; k < 4; ++k) out[k] = wxyz[k] / n;
}

/// Force of a stop beyond a limit: a stiff spring, and a damper that ramps in over the
/// transition width so that the force does not jump when the stop is reached.
inline double StopForce(double penetration, double velocity_into, const JointProperties& j) {
  if (penetration <= 0.0) return 0.0;
  const double ramp = std::min(penetration / j.limit_transition, 1.0);
  return j.limit_stiffness * penetration + ramp * j.limit_damping * velocity_into;
}

/// StopForce's derivatives over the penetration and over the velocity into the stop (zero
/// outside it; the one-sided slopes where it is reached or the ramp ends).
inline void StopForceSlopes(double penetration, double velocity_into, const JointProperties& j,
                            double* over_penetration, double* over_velocity) {
  *over_penetration = 0.0;
  *over_velocity = 0.0;
  if (penetration <= 0.0) return;
  const double ramp = penetration / j.limit_transition;
  *over_penetration = j.limit_stiffness;
  if (ramp < 1.0) *over_penetration += j.limit_damping * velocity_into / j.limit_transition;
  *over_velocity = std::min(ramp, 1.0) * j.limit_damping;
}

}  // namespace internal
}  // namespace twinblocks::multibody
