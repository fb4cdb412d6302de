#pragma once

// One frame network, running: the single node of the signal graph that stands for every
// World, Solid, transform, joint, sensor and force element of a model (docs/design.md: "the whole
// mechanism is one node"). Its inputs are the elements' actuation and force inputs, its
// outputs their sensors.
//
// Stages: stage 0 (q, qd, poses, velocities) needs only the states, and the motion inputs
// given as [q, qd, qdd]; stage 1 (qdd, actuator torques, joint wrenches) runs the dynamics
// and needs every input. Feedback from a joint angle to a torque is therefore no algebraic
// loop, and feedback from qdd to a torque is (as in Simscape).
//
// Continuous states: the positions and velocities of the joints that are not
// motion-actuated (quaternions for spherical and free joints, normalized wherever they are
// used), then two per motion input given as q alone (its filter), two per drivetrain shaft of
// its own (angle, speed), and each motor's electrical states (its currents, and the PI
// integrators of a PMSM under field-oriented control).
//
// Closed loops (docs/loops.md) have two forms. As an ODE (every solver but ida) each
// evaluation solves for the multipliers, and major steps project q and v back onto the
// constraints. As a DAE (ida) the mechanism is stabilized index 2 (Gear-Gupta-Leimkuhler):
// algebraic variables z = [lambda; mu] for r independent constraint rows (r the rank of the
// loops' Jacobian at the assembled configuration), and the residual rows
//   q' - Qdot(q) (v + G_s^T mu),  v' - ABA(q, v, tau + G_s^T lambda),  G_s v,  phi_s(q).

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "blocks/block.h"
#include "blocks/multibody/loop_constraint.h"
#include "blocks/multibody/mechanism_model.h"
#include "physics/contact/collision.h"
#include "physics/contact/contact_law.h"

namespace twinblocks::multibody {

class Mechanism final : public blocks::Block {
 public:
  explicit Mechanism(MechanismModel model);

  const MechanismModel& model() const { return m_; }
  /// Takes `model`, this mechanism's model with other numbers (made by PatchMechanism: the same
  /// tree, coordinates, ports, contacts and drivetrain shape), as if built from it. Between
  /// runs: a retune of a compiled System.
  void SetNumbers(MechanismModel model);
  /// The port a model's typed output index names.
  using Block::output_port;
  const OutputPort& output_port(MechanismOutput port) const { return output_port(port.index); }
  std::string DescribeContinuousState(int i) const override;

  /// What CalcBodyPoses needs besides the run: the tree's coordinates and kinematics, sized
  /// once (MakePoseScratch), so that the calls allocate nothing.
  struct PoseScratch {
    explicit PoseScratch(const KinematicTree& tree);
    Eigen::VectorXd q, v;  ///< the tree's coordinates (nq), (nv)
    KinematicTreeData data;
  };
  std::unique_ptr<PoseScratch> MakePoseScratch() const;

  /// The world pose X_WB of every body of the tree at the point of the run `c` holds (its
  /// continuous states and the motion inputs, read as stage 0 reads them). For recorders and
  /// viewers outside the solver's evaluations (the HTML report's playback): it reads `c` and
  /// changes nothing of the run. Allocates nothing.
  /// @param scratch  from MakePoseScratch() of this mechanism.
  /// @return scratch->data.X_WB (num_bodies): valid until the next call with `scratch`.
  const std::vector<Pose>& CalcBodyPoses(const blocks::Context& c, PoseScratch* scratch) const;

 protected:
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(blocks::Context& c) const override;
  void DoCalcOutputs(blocks::Context& c, int stage) const override;
  void DoCalcDerivatives(blocks::Context& c) const override;
  /// The Jacobian of the mechanism's rates over its own states, as far as it shapes a
  /// linearly implicit step (ros2, ode23s) and the error estimate of one:
  /// - the free coordinates' accelerations through the generalized forces that make a light
  ///   mechanism stiff, over the free coordinates and over the states of motion-filtered
  ///   joints (the fingers that push):
  ///     d qdd_f / d v = P (sum_points J_f^T (d f_p / d v_p) J_p - D),
  ///     d qdd_f / d q = P (sum_points J_f^T (d f_p / d x_p) J_p - K),
  ///   f_p a contact point's force, v_p and x_p the velocity and displacement of the follower
  ///   body's point relative to the base body's, J_p their Jacobian, J_f its columns of the
  ///   free coordinates. d f_p / d v_p holds the normal damping and friction as a viscous
  ///   force of coefficient f_n mu(s) / s (the secant of the friction curve, MuJoCo's
  ///   "implicitfast" treatment); d f_p / d x_p the normal stiffness, which the friction force
  ///   follows in proportion. D and K are the tree joints' own dampers and springs, each on its
  ///   own coordinate (revolute, prismatic, the six of a bushing, a spherical joint's
  ///   dampers), with the slopes of the limit stops they are in. P maps a change of the
  ///   generalized forces to the accelerations: M_ff^-1 (the mass matrix on the free
  ///   coordinates) without constraint rows; with loops and JointCoupler rows (G, stacked on
  ///   the free coordinates) the constraint-consistent inverse
  ///     P = M_ff^-1 - M_ff^-1 G^T (G M_ff^-1 G^T)^+ G M_ff^-1,
  ///   with the evaluation's own factors of G M_ff^-1 G^T (redundant rows as there);
  /// - the free accelerations' coupling to prescribed accelerations through M_fp and, with
  ///   constraint rows, through the rows' columns of the prescribed coordinates;
  /// - the kinematic rows q' = Q(q) v (quaternion rates included) and the motion filters'
  ///   rows, exactly.
  /// Left out: Coriolis and gravity terms, the turning of G and of the contact normals with
  /// the bodies, the cut joints' springs, dampers and stops, InternalForce spring-dampers,
  /// drivetrains and motors.
  void DoCalcStiffJacobian(blocks::Context& c, Eigen::Ref<Eigen::MatrixXd> J) const override;
  /// Where DoCalcStiffJacobian may write: the kinematic and filter rows, and the free
  /// velocities' rows over every state (any contact may reach any coordinate, and P couples
  /// every free coordinate of a branch or a constraint) when they carry terms.
  bool DoStiffJacobianStructure(std::vector<std::pair<int, int>>* entries) const override;
  /// The stabilized index-2 rows of the loops (see the top of this file); without loops,
  /// x' - f.
  void DoCalcResidual(blocks::Context& c) const override;
  /// lambda of the independent rows from the ODE form's multipliers (just computed at the
  /// same point), mu = 0; the rows are chosen here, at the first start and after DoUpdate
  /// found them near dependent.
  void DoCalcConsistentAlgebraic(blocks::Context& c) const override;
  void DoCalcZeroCrossings(blocks::Context& c) const override;
  /// With closed loops: at major steps, projects q and v back onto the constraints when they
  /// have drifted (docs/loops.md), as Context::states_projected (not a jump). As a DAE, no
  /// projection: checks instead that the chosen independent rows still are, and restarts the solver
  /// to choose again when not.
  void DoUpdate(blocks::Context& c) const override;
  /// The same projection as a correction of the states, for a solver that projects each
  /// step's solution itself (CVODE's BDF); the major step then finds the loops closed.
  void DoCalcProjection(blocks::Context& c, double* correction) const override;
  std::unique_ptr<blocks::BlockWorkspace> DoMakeWorkspace() const override;

 private:
  struct Workspace;

  // The model's typed ports on this block's slices of the context (inline: no cost per step).
  using Block::in;
  using Block::out;
  using Block::output_demanded;
  const double* in(const blocks::Context& c, MechanismInput port) const {
    return in(c, port.index);
  }
  double* out(blocks::Context& c, MechanismOutput port) const { return out(c, port.index); }
  bool output_demanded(const blocks::Context& c, MechanismOutput port) const {
    return output_demanded(c, port.index);
  }

  /// The tree's q and v from the states and the motion inputs, then the drivetrain's
  /// cluster coordinates.
  void AssembleCoordinates(const blocks::Context& c, Workspace& ws) const;
  /// The tree's q (nq) and v (nv) alone.
  void AssembleTreeCoordinates(const blocks::Context& c, Eigen::VectorXd* q,
                               Eigen::VectorXd* v) const;
  /// Poses and velocities of every body, once per evaluation.
  void EnsureKinematics(Workspace& ws) const;
  /// Joint forces, prescribed accelerations, external forces, then hybrid forward dynamics.
  void Dynamics(const blocks::Context& c, Workspace& ws) const;
  /// True when the diagram reads a tree joint's torque or wrench (Context::demanded): only
  /// then do the joints driven rigidly from the world need their forces.
  bool DrivenJointForcesRead(const blocks::Context& c) const;
  /// True when the last articulated-body pass holds for the free bodies now (see
  /// reuse_dynamics_): the same poses and contact forces, the same forces on the free joints,
  /// and nothing below a driven body that moves freely.
  bool SameFreeBodyDynamics(Workspace& ws) const;
  /// Spring, damper and limit-stop force of a joint's coordinates at (q, v), added to u.
  void AddPassiveForces(const MechanismJoint& j, const Workspace& ws, double* u) const;
  /// Pose and velocity (angular, linear of the origin) of a frame, in W.
  void FrameMotion(const Workspace& ws, const FrameLocation& f, Pose* X_WF, Eigen::Vector3d* w,
                   Eigen::Vector3d* v) const;
  /// Where an InternalForce acts: the distance between its frames' origins, the unit vector
  /// from B to F (W), and the rate of the distance.
  struct LineOfAction {
    double distance = 0.0;
    Eigen::Vector3d direction = Eigen::Vector3d::Zero();
    double speed = 0.0;
  };
  LineOfAction InternalForceLine(const Workspace& ws, const MechanismInternalForce& f) const;
  /// Angle and speed of R relative to C in a drivetrain.
  void NodeMotion(const Workspace& ws, const drivetrain::NodeCoordinate& R,
                  const drivetrain::NodeCoordinate& C, double* phi, double* w) const;
  /// Generalized forces of the drivetrain's elements on its clusters (ws.cluster_force).
  void DrivetrainForces(const blocks::Context& c, Workspace& ws) const;
  /// Electromagnetic torque of a motor from its electrical states, N m.
  double MotorTorque(const blocks::Context& c, int motor) const;
  /// What a PMSM's inverter applies now, its rotor speed, and its PI integrators' rates.
  struct MotorDrive {
    Eigen::Vector2d vdq = Eigen::Vector2d::Zero();
    Eigen::Vector2d integrator_rates = Eigen::Vector2d::Zero();
    double w = 0.0;
  };
  MotorDrive PmsmDrive(const blocks::Context& c, const Workspace& ws, int motor) const;
  /// The rates of a motor's electrical states, written to xdot.
  void MotorDerivatives(blocks::Context& c, const Workspace& ws, int motor) const;
  /// A contact's geometry and force, as its outputs report them.
  struct ContactResult {
    double distance = 0.0;
    Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();
    Eigen::Vector3d point = Eigen::Vector3d::Zero();
    double fn = 0.0, ff = 0.0;
    Eigen::Vector3d force = Eigen::Vector3d::Zero();  ///< the total on F's side, W
  };
  /// One contact point's force: `force` (W) on body_f at `point`, its opposite on body_b;
  /// and what its derivative with respect to the sliding velocity needs (the stiff Jacobian).
  struct PointForce {
    int body_b = -1, body_f = -1;
    Eigen::Vector3d point = Eigen::Vector3d::Zero();
    Eigen::Vector3d force = Eigen::Vector3d::Zero();
    double normal_force = 0.0;
    Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();  ///< unit, W, from b towards f
    Eigen::Vector3d slip = Eigen::Vector3d::Zero();     ///< tangential velocity of f on b, W
    double depth = 0.0, normal_speed = 0.0;             ///< m; velocity of f on b along normal
    const contact::ContactLaw* law = nullptr;
  };
  /// Velocity (W) of the point of `body` at p_W (zero for World, body -1).
  Eigen::Vector3d PointVelocity(const Workspace& ws, int body, const Eigen::Vector3d& p_W) const;
  /// Adds a force f_W at p_W to the body's external wrench.
  void ApplyAtPoint(Workspace& ws, int body, const Eigen::Vector3d& p_W,
                    const Eigen::Vector3d& f_W) const;
  /// The same into `wrenches` (per body, in its frame at its origin) instead of ws.f_ext.
  void ApplyAtPoint(const Workspace& ws, int body, const Eigen::Vector3d& p_W,
                    const Eigen::Vector3d& f_W, std::vector<Vector6d>* wrenches) const;
  /// Every contact's geometry, mode (at major steps) and point forces, into ws. Within a
  /// step, a contact that is off (mode 0) and whose geometry outputs nobody reads there adds
  /// no force: its geometry is left for CompleteContactGeometry.
  void EvaluateContacts(blocks::Context& c, Workspace& ws) const;
  /// The closest pair of contact k's shapes (distance, normal, point) into r, from the shape
  /// frames' poses of the last EvaluateContacts.
  void ContactGeometry(const Workspace& ws, size_t k, ContactResult* r) const;
  /// The geometry of the contacts the last EvaluateContacts left out: for the zero crossings
  /// and the major step, which read every contact's distance.
  void CompleteContactGeometry(Workspace& ws) const;
  /// Keeps g's geometry in r when it is the closest of a contact's shape pairs so far.
  static void TakeIfCloser(const contact::PairGeometry& g, ContactResult* r);
  /// Contact k's distance, point or normal output is read in this evaluation.
  bool ContactGeometryDemanded(const blocks::Context& c, size_t k) const;
  /// A cut joint's own coordinate (q, qd; qdd from rel's accelerations) from F's motion
  /// relative to B; revolute angles are unwrapped against the last major step's.
  struct CutJointCoordinate {
    double q = 0.0, qd = 0.0, qdd = 0.0;
  };
  CutJointCoordinate CutCoordinate(const blocks::Context& c, const LoopConstraint& loop,
                                   const RelativeMotion& rel, int k) const;
  /// Springs, dampers, stops and applied torque of the cut joints, as wrench pairs in f_ext.
  void AddCutJointForces(const blocks::Context& c, Workspace& ws) const;
  /// The unconstrained accelerations (AbaHybrid) into ws.data.qdd and the multipliers of every
  /// row (ws.loops.lambda) for the current forces.
  void SolveMultipliers(Workspace& ws) const;
  /// lambda = K^+ (-G_dot v - G qdd) for the qdd in ws.data, after FactorLoopSystem.
  void SolveForMultipliers(Workspace& ws) const;
  /// The multipliers of every loop for the current forces, and their wrenches added to f_ext
  /// (so that the next AbaHybrid gives the constrained motion and every joint's load).
  void SolveLoopConstraints(Workspace& ws) const;
  /// With couplings and tendons only (no cut joint) and no driven joint's load read:
  /// qdd_0 = M_ff^-1 (u_f - bias_f) from an RNEA and the tree factor of M_ff, the multipliers,
  /// then the constrained accelerations directly, qdd_f = qdd_0 + M_ff^-1 G_f^T lambda: what
  /// AbaHybrid, the multipliers and a second AbaHybrid with their forces give, for less.
  void SolveJointConstraints(Workspace& ws) const;
  /// The forces of the multipliers in ws.loops.lambda, into ws.f_ext: each loop's wrench pair
  /// and each coupling's pair of joint forces.
  void ApplyConstraintForces(Workspace& ws) const;
  /// Adds a generalized force tau on the 1-DOF joint that moves `body` to ws.f_ext.
  void ApplyJointForce(Workspace& ws, int body, double tau) const;
  /// As a DAE: the loops' wrenches from the multipliers in z (the chosen rows), into f_ext.
  void ApplyDaeMultipliers(const blocks::Context& c, Workspace& ws) const;
  /// True when the loops' forces come from the algebraic variables.
  bool UsesDaeMultipliers(const blocks::Context& c, const Workspace& ws) const;
  /// The ODE form's rates, with the forces of the last Dynamics, into xdot (nx).
  void WriteDerivatives(blocks::Context& c, Workspace& ws) const;
  /// The number of independent loop rows over the free coordinates at the assembled q0.
  int IndependentLoopRows() const;
  /// The cut joints' unwrapped angles of this major step, into dwork (after
  /// ForwardKinematics at ws.q).
  void RecordCutAngles(blocks::Context& c, Workspace& ws) const;
  /// Adds the wrench w_W ([torque; force] in W, force at p_W) to a body's f_ext.
  void ApplyWrench(Workspace& ws, int body, const Eigen::Vector3d& p_W, const Vector6d& w_W) const;
  void WriteKinematicOutputs(blocks::Context& c, Workspace& ws) const;
  /// Coordinates from c's states and inputs into ws, with the poses and the loops' position
  /// residuals there.
  void PlaceOnLoops(const blocks::Context& c, Workspace& ws) const;
  /// Projects ws.q and ws.v onto the loops (docs/loops.md) when they have drifted more than
  /// `drift_tolerance` (m, rad; m/s, rad/s); false when they had not. @throws
  /// std::runtime_error for a locked loop.
  bool ProjectOntoLoops(double drift_tolerance, Workspace& ws) const;
  /// After ProjectOntoLoops: true when its correction of every state is within a few times
  /// the error the solver accepts in a step (Context::state_tolerance), so not worth the
  /// restart it would cost.
  bool CorrectionWithinSolverError(const blocks::Context& c, const Workspace& ws) const;
  /// Throws the run-time error of a loop that projection could not close: the constraint row
  /// with the largest of `residuals` (phi or G v, in `unit`) named in the user's terms.
  [[noreturn]] void ThrowLoopCannotClose(const Eigen::VectorXd& residuals, const char* what,
                                         const char* unit) const;
  /// The Jacobian's exact rows: q' = Q(q) v of the free joints, and the motion filters'.
  void AddKinematicJacobian(const Workspace& ws, Eigen::Ref<Eigen::MatrixXd> J) const;
  /// The free joints' springs, dampers and stops: d(generalized force)/d(v) and /d(q) on
  /// their own coordinates, added to ws.dqdd (before it is mapped to accelerations).
  void AddPassiveForceTerms(Workspace& ws) const;
  /// With constraint rows: ws.P = M_ff^-1 - Y K^+ Y^T from ws.M_free_inverse and the loops'
  /// factors of the evaluation just made (Y = M_ff^-1 G_f^T, K = G_f Y).
  void CalcConstrainedInverse(Workspace& ws) const;
  /// With constraint rows: the motion filters' accelerations reach the free ones through the
  /// rows' prescribed columns, qdd_f = ... - Y K^+ G_p qdd_p; their terms, into ws.dqdd (after
  /// the mapping: they are accelerations already).
  void AddFilterConstraintTerms(Workspace& ws) const;
  /// With a rigid tendon whose command is filtered: its row's target acceleration, the
  /// filter's (s_cmd - s) / tc^2 - 2 s' / tc, reaches the free accelerations as
  /// qdd_f = ... + Y K^+ e_row sdd; its columns of the filter's two states, into J (after
  /// CalcConstrainedInverse, which leaves K^+ Y^T in ws.KY).
  void AddTendonFilterConstraintTerms(const Workspace& ws, Eigen::Ref<Eigen::MatrixXd> J) const;
  void WriteDynamicOutputs(blocks::Context& c, Workspace& ws) const;
  /// The joints with a spring, a damper or a stop, into passive_joints_.
  void FindPassiveJoints();
  /// Each displacement-driven tendon's [s, sd, sdd] from its command (or its filter's states),
  /// into ws.loops.tendon_target (mechanism_tendons.cc).
  void SetTendonTargets(const blocks::Context& c, Workspace& ws) const;
  /// The tendons' springs (E) and the tensions of force-driven and elastic tendons, as
  /// generalized forces: into ws.u on free joints, as joint force pairs on driven ones.
  void AddTendonForces(const blocks::Context& c, Workspace& ws) const;
  /// The tendons' springs and elastic cables in the stiff Jacobian: d tau / d q and d v on
  /// the free coordinates, into ws.dqdd (before the inverse is applied).
  void AddTendonForceTerms(Workspace& ws) const;
  /// Tendon lengths (stage 0); tensions and the synergy equilibria (stage 1).
  void WriteTendonOutputs(blocks::Context& c, Workspace& ws, int stage) const;
  /// The predicted equilibrium `k` at the current contact forces, into its outputs.
  void SolveSynergyEquilibrium(blocks::Context& c, Workspace& ws, size_t k) const;

  MechanismModel m_;
  std::vector<int> x_of_q_;           ///< per tree q coordinate: its state, -1 when prescribed
  std::vector<int> x_of_v_;           ///< per tree v coordinate: its state, -1 when prescribed
  std::vector<int> filter_x_;         ///< per joint: first of its two filter states, -1 if none
  std::vector<int> tendon_filter_x_;  ///< per tendon: its command filter's two states, or -1
  /// A tendon pulls a motion-driven joint: its force loads that joint's actuator (f_ext).
  bool tendon_on_driven_joint_ = false;
  std::vector<int> cluster_x_;      ///< per drivetrain cluster: its angle state, -1 on a joint
  std::vector<int> cluster_joint_;  ///< per drivetrain cluster: its joint, -1 if its own
  std::vector<int> motor_x_;        ///< per motor: its first electrical state
  std::vector<int> free_v_;         ///< velocity coordinates that are not prescribed
  /// The tree coordinates held in states, each with its state: the free joints' q and v, and
  /// the motion filters' q and qd (their rates' targets too: qd and the filter's qdd).
  struct CoordinateState {
    int coordinate, state;
  };
  std::vector<CoordinateState> free_q_states_, free_v_states_;
  std::vector<CoordinateState> filter_q_states_, filter_v_states_;
  /// The prescribed joints driven by a [q, qd, qdd] input (no filter).
  std::vector<int> input_driven_joints_;
  /// The tree joints' torque and wrench outputs: when none is read, the joints driven from
  /// the world need no forces (DrivenJointForcesRead).
  std::vector<int> joint_force_ports_;
  /// The distinct frames of the contacts' shapes, and per shape (each contact's b then f, in
  /// order) its index there: EvaluateContacts poses each frame once.
  std::vector<FrameLocation> contact_frames_;
  std::vector<int> contact_shape_frame_;
  std::vector<int> contact_shape_start_;  ///< per contact: its first shape's entry there
  /// Per tree v coordinate: the state holding it (free, or a motion filter's rate), -1 none.
  std::vector<int> v_state_;
  /// Per tree v coordinate of a 1-DOF joint: the state holding its position, -1 none.
  std::vector<int> q_state_;
  /// A prescribed joint shares a path to the root with a free one, so that the free
  /// accelerations depend on the prescribed ones through the mass matrix.
  bool free_prescribed_coupled_ = false;
  /// Every freely moving body is a free joint's body without children: the free coordinates'
  /// mass matrix (body-frame velocities) is constant, factored once per run.
  bool free_mass_constant_ = false;
  /// Per body: it or an ancestor has a free coordinate (its velocity depends on free_v_).
  std::vector<bool> moves_freely_;
  int num_dae_rows_ = 0;           ///< r: independent loop rows, the DAE's lambda and mu
  bool needs_kinematics_ = false;  ///< sensors or forces need world poses
  bool has_external_forces_ = false;
  /// Evaluations at the same q and v share kinematics and contacts (no loops, whose
  /// projections write the tree's data at other points).
  bool cache_evaluations_ = false;
  /// A major step at the state of the evaluation just made may keep that evaluation's free-
  /// body accelerations when only motion commands changed: what else the pass reads is a
  /// function of q and v here (no force inputs, no drivetrain, no loops).
  bool reuse_dynamics_ = false;
  /// The joints with a spring, a damper or a limit stop: the others add no passive force.
  std::vector<int> passive_joints_;
  /// Some joint that moves freely has a spring, a damper or a stop (FindPassiveJoints): its
  /// forces are stiff terms of the Jacobian.
  bool free_passive_ = false;
  /// A tendon with springs (E) or an elastic cable pulls a joint that is not motion-driven.
  bool tendon_springs_ = false;
  /// Per tree v coordinate: its index into free_v_, -1 when prescribed.
  std::vector<int> free_index_of_v_;
  /// The free velocities' rows of the stiff Jacobian carry terms beyond the kinematics
  /// (contacts, passive forces, prescribed accelerations): fixed when configured, so that
  /// DoStiffJacobianStructure holds whatever a retune changes.
  bool free_rows_in_jacobian_ = false;
  /// free_passive_ when configured: a retune that adds passive forces to a mechanism that had
  /// none leaves them out of the Jacobian, whose structure was declared without them.
  bool passive_in_jacobian_ = false;
};

}  // namespace twinblocks::multibody
