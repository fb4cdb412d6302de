#pragma once

// The constraint a cut joint imposes (docs/loops.md): the joint's frame F must stay where the
// joint lets it go relative to its frame B. Written in B's axes with
//   R = R_WB^T R_WF (F's orientation in B), e = R_WB^T (p_WF - p_WB) (F's origin in B),
// and the relative velocity V_rel = [w_rel; e_dot] (w_rel = R_WB^T (w_WF - w_WB)):
//   revolute   e = 0 (3 rows); n1 . R a = 0, n2 . R a = 0 (the axis stays the axis; 2 rows)
//   prismatic  n1 . e = 0, n2 . e = 0 (2 rows); vee(R - R^T) / 2 = 0 (rotation locked; 3 rows)
//   spherical  e = 0 (3 rows)
// Each row is phi_k(q); its rate is phi_dot = T V_rel with T (rows x 6) given below, and its
// second derivative phi_ddot = T V_rel_dot + T_dot V_rel. With V_rel = Jrel(q) v, the stacked
// rows give the constraint Jacobian G = T Jrel (m x nv), and G qdd = -(phi_ddot at qdd = 0).
// The constraint force of multipliers lambda is the wrench T^T lambda on F at F's origin in
// B's axes ([torque; force]), its opposite on B's body: the generalized force G^T lambda.

#include <Eigen/Core>
#include <vector>

#include "blocks/multibody/mechanism_model.h"
#include "physics/multibody/kinematic_tree.h"
#include "physics/spatial/spatial.h"

namespace twinblocks::multibody {

/// Rows of the constraint of a joint of this kind when it closes a loop: 6 minus its degrees
/// of freedom (revolute and prismatic 5, spherical 3, free and bushing 0: they lock nothing,
/// the loop is closed by a bushing's spring-damper forces or not at all); -1 for a weld,
/// which is merged into a body and never cut.
int LoopConstraintRows(JointKind kind);

/// A constraint's rows at one configuration: (num_rows x 6) T and the values.
using LoopRows = Eigen::Matrix<double, Eigen::Dynamic, 6, Eigen::RowMajor, 6, 6>;

/// Spatial accelerations of every body (in its body frame, at its origin, gravity not
/// included) for the accelerations `qdd` (nullptr: zero, which gives the velocity-product
/// bias every constraint's G_dot v comes from). Reads data.X_PB and data.V (from
/// ForwardKinematics(q, v), Aba or Rnea). Allocates nothing once *A has num_bodies entries.
void CalcSpatialAccelerations(const KinematicTree& tree, const KinematicTreeData& data,
                              const Eigen::VectorXd* qdd, std::vector<Vector6d>* A);

/// Where a frame fixed in a body is and how it moves, in W.
struct FrameMotionW {
  Pose X_WF;
  Eigen::Vector3d w = Eigen::Vector3d::Zero();      ///< angular velocity (rad/s)
  Eigen::Vector3d v = Eigen::Vector3d::Zero();      ///< velocity of its origin (m/s)
  Eigen::Vector3d alpha = Eigen::Vector3d::Zero();  ///< angular acceleration (rad/s^2)
  Eigen::Vector3d a = Eigen::Vector3d::Zero();      ///< acceleration of its origin (m/s^2)
};

/// The motion of frame `f` from data.X_WB, data.V and the spatial accelerations A (nullptr:
/// positions only).
FrameMotionW CalcFrameMotionW(const KinematicTreeData& data, const std::vector<Vector6d>* A,
                              const FrameLocation& f);

/// F relative to B, in B's axes (see the top of this file).
struct RelativeMotion {
  Eigen::Matrix3d R = Eigen::Matrix3d::Identity();  ///< R_BF
  Eigen::Vector3d e = Eigen::Vector3d::Zero();      ///< F's origin in B (m)
  Eigen::Vector3d e_dot = Eigen::Vector3d::Zero();  ///< its rate seen in B (m/s)
  Eigen::Vector3d e_ddot = Eigen::Vector3d::Zero();
  Eigen::Vector3d w = Eigen::Vector3d::Zero();      ///< w_rel (rad/s)
  Eigen::Vector3d w_dot = Eigen::Vector3d::Zero();  ///< its rate seen in B (rad/s^2)
};
RelativeMotion CalcRelativeMotion(const FrameMotionW& B, const FrameMotionW& F);

/// A BushingJoint's coordinates (6) and rates (6) at `rel`, in the tree's convention for the
/// joint: translations x, y, z of F's origin along B's axes, then rotations a, b, c with
/// R_BF = Rx(a) Ry(b) Rz(c) (b in [-pi/2, pi/2], a and c in (-pi, pi]).
void CalcBushingCoordinates(const RelativeMotion& rel, double* q, double* qd);

/// E(a, b): w_rel = E (a', b', c') for the bushing's rotations, its columns the three
/// rotation axes in B (x, Rx(a) y, Rx(a) Ry(b) z). A torque tau on the rotation coordinates
/// is the moment E^-T tau on F.
Eigen::Matrix3d BushingRateMatrix(double a, double b);

/// The loop's rows at `rel`: phi (num_rows), T (num_rows x 6) and phi_ddot (num_rows; from
/// the accelerations in rel). Any output may be nullptr.
void CalcLoopRows(const LoopConstraint& loop, const RelativeMotion& rel, double* phi, LoopRows* T,
                  double* phi_ddot);

}  // namespace twinblocks::multibody
