// A Mechanism's closed kinematic loops: the cut joints' forces, the constraint forces that
// keep the loops closed (as an ODE with projection at major steps or, for cvode-bdf, in each
// step; or as a DAE for ida).
#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "blocks/multibody/detail/mechanism_workspace.h"
#include "blocks/multibody/mechanism.h"

namespace twinblocks::multibody {

using blocks::Context;

void Mechanism::ApplyWrench(Workspace& ws, int body, const Eigen::Vector3d& p_W,
                            const Vector6d& w_W) const {
  if (body < 0) return;
  const Pose& X_WB = ws.data.X_WB[body];
  const Eigen::Matrix3d R_BW = X_WB.rotation.transpose();
  const Eigen::Vector3d f_B = R_BW * w_W.tail<3>();
  ws.f_ext[body].head<3>() += R_BW * w_W.head<3>() + (R_BW * (p_W - X_WB.translation)).cross(f_B);
  ws.f_ext[body].tail<3>() += f_B;
}

Mechanism::CutJointCoordinate Mechanism::CutCoordinate(const Context& c, const LoopConstraint& loop,
                                                       const RelativeMotion& rel, int k) const {
  CutJointCoordinate r;
  if (loop.kind == JointKind::kRevolute) {
    // The angle that turns n1 to R n1 about the axis, continued from the last major step's.
    const Eigen::Vector3d t = rel.R * loop.n1;
    const double angle = std::atan2(loop.n2.dot(t), loop.n1.dot(t));
    const double last = dwork(c)[k];
    r.q = last + std::remainder(angle - last, 2.0 * M_PI);
    r.qd = loop.axis.dot(rel.w);
    r.qdd = loop.axis.dot(rel.w_dot);
  } else if (loop.kind == JointKind::kPrismatic) {
    r.q = loop.axis.dot(rel.e);
    r.qd = loop.axis.dot(rel.e_dot);
    r.qdd = loop.axis.dot(rel.e_ddot);
  }
  return r;
}

void Mechanism::AddCutJointForces(const Context& c, Workspace& ws) const {
  EnsureKinematics(ws);
  for (size_t k = 0; k < m_.loops.size(); ++k) {
    const LoopConstraint& loop = m_.loops[k];
    const FrameMotionW B = CalcFrameMotionW(ws.data, nullptr, loop.B);
    const FrameMotionW F = CalcFrameMotionW(ws.data, nullptr, loop.F);
    const RelativeMotion rel = CalcRelativeMotion(B, F);
    // The joint's own force on F, [torque; force] in B's axes, at F's origin.
    Vector6d w_B = Vector6d::Zero();
    if (loop.kind == JointKind::kSpherical) {
      w_B.head<3>() = -loop.properties.damping.cwiseProduct(rel.w);
    } else if (loop.kind == JointKind::kBushing) {
      // The tree bushing's generalized forces on its six coordinates; a force on x, y, z is
      // the force on F along B's axes, and torques tau on the rotations are the moment
      // E^-T tau (the same power: tau . (a', b', c') = moment . w_rel).
      double q[6], qd[6];
      CalcBushingCoordinates(rel, q, qd);
      Eigen::Matrix<double, 6, 1> tau;
      for (int i = 0; i < 6; ++i) {
        tau[i] = -loop.properties.stiffness[i] * (q[i] - loop.properties.q_eq[i]) -
                 loop.properties.damping[i] * qd[i];
      }
      w_B.tail<3>() = tau.head<3>();
      w_B.head<3>() = BushingRateMatrix(q[3], q[4]).transpose().partialPivLu().solve(tau.tail<3>());
    } else if (loop.kind == JointKind::kFree) {
      // Transmits nothing.
    } else {
      const CutJointCoordinate jc = CutCoordinate(c, loop, rel, static_cast<int>(k));
      // The stop law of a tree joint, with the cut joint's parameters.
      double f = -loop.properties.stiffness[0] * (jc.q - loop.properties.q_eq[0]) -
                 loop.properties.damping[0] * jc.qd;
      if (std::isfinite(loop.properties.upper))
        f -= internal::StopForce(jc.q - loop.properties.upper, jc.qd, loop.properties);
      if (std::isfinite(loop.properties.lower))
        f += internal::StopForce(loop.properties.lower - jc.q, -jc.qd, loop.properties);
      if (loop.properties.actuation == Actuation::kTorque) f += in(c, loop.in_actuation)[0];
      (loop.kind == JointKind::kRevolute ? w_B.head<3>() : w_B.tail<3>()) = f * loop.axis;
    }
    const Eigen::Matrix3d& R = B.X_WF.rotation;
    Vector6d w_W;
    w_W << R * w_B.head<3>(), R * w_B.tail<3>();
    ws.cut_force[k] = w_W;
    ApplyWrench(ws, loop.F.body, F.X_WF.translation, w_W);
    ApplyWrench(ws, loop.B.body, F.X_WF.translation, -w_W);
  }
}

void Mechanism::SolveMultipliers(Workspace& ws) const {
  const KinematicTree& tree = *m_.tree;
  EnsureKinematics(ws);
  LoopClosureData& ld = ws.loops;
  // The motion without the loops, then the multipliers that make G qdd = -G_dot v:
  // K lambda = -G_dot v - G qdd_0 with K = G_f M_ff^-1 G_f^T over the free coordinates.
  AbaHybrid(tree, &ws.data, ws.q, ws.v, ws.u, m_.prescribed, &ws.f_ext);
  CalcLoopVelocityTerms(tree, m_.loops, ws.data, &ld);
  if (!ld.tendons.empty()) CalcTendonVelocityTerms(ws.q, ws.v, &ld);
  FactorLoopSystem(tree, free_v_, LoopMetric::kMass, ws.q, &ws.data, &ld);
  SolveForMultipliers(ws);
}

void Mechanism::SolveForMultipliers(Workspace& ws) const {
  LoopClosureData& ld = ws.loops;
  ws.loop_rhs = -ld.bias;
  ws.loop_rhs.noalias() -= ld.G * ws.data.qdd;
  SolveLoopSystem(ws.loop_rhs, &ld);
}

void Mechanism::SolveLoopConstraints(Workspace& ws) const {
  SolveMultipliers(ws);
  ApplyConstraintForces(ws);
}

void Mechanism::SolveJointConstraints(Workspace& ws) const {
  const KinematicTree& tree = *m_.tree;
  EnsureKinematics(ws);
  LoopClosureData& ld = ws.loops;
  // M first (CRBA, factored along the tree), which the multipliers need anyway; then the bias
  // forces by RNEA at the driven joints' commanded accelerations and zero for the free ones,
  // and qdd_0 = M_ff^-1 (u_f - bias_f): an RNEA and a solve in place of an ABA.
  CalcLoopVelocityTerms(tree, m_.loops, ws.data, &ld);  // without loops: the couplings' rows
  if (!ld.tendons.empty()) CalcTendonVelocityTerms(ws.q, ws.v, &ld);
  FactorLoopSystem(tree, free_v_, LoopMetric::kMass, ws.q, &ws.data, &ld);
  ws.driven_qdd.setZero();
  for (const MechanismJoint& j : m_.joints) {
    if (j.prescribed) ws.driven_qdd.segment(j.v_index, j.nv) = ws.u.segment(j.v_index, j.nv);
  }
  const Eigen::VectorXd& bias = Rnea(tree, &ws.data, ws.q, ws.v, ws.driven_qdd, &ws.f_ext);
  for (size_t a = 0; a < free_v_.size(); ++a) ws.free_qdd[a] = ws.u[free_v_[a]] - bias[free_v_[a]];
  ld.mass_factor.SolveInPlace(ws.free_qdd);
  ws.data.qdd = ws.driven_qdd;
  for (size_t a = 0; a < free_v_.size(); ++a) ws.data.qdd[free_v_[a]] = ws.free_qdd[a];
  SolveForMultipliers(ws);
  // M_ff^-1 G_f^T lambda: the multipliers' accelerations, added to the unconstrained qdd_0.
  CalcLoopCorrection(&ws.loops);
  for (size_t a = 0; a < free_v_.size(); ++a) ws.data.qdd[free_v_[a]] += ws.loops.dm[a];
}

void Mechanism::ApplyConstraintForces(Workspace& ws) const {
  const LoopClosureData& ld = ws.loops;
  for (size_t k = 0; k < m_.loops.size(); ++k) {
    const LoopConstraint& loop = m_.loops[k];
    const Vector6d w = LoopWrenchW(loop, ld, static_cast<int>(k));
    ApplyWrench(ws, loop.F.body, ld.p_WF[k], w);
    ApplyWrench(ws, loop.B.body, ld.p_WF[k], -w);
  }
  // A coupling's multiplier is a generalized force on joint A and -ratio times it on B.
  for (const JointCoupling& coupling : m_.couplings) {
    const double tau = ld.lambda[coupling.row];
    ApplyJointForce(ws, m_.joints[coupling.joint_a].body, tau);
    ApplyJointForce(ws, m_.joints[coupling.joint_b].body, -coupling.ratio * tau);
  }
  // A rigid tendon's multiplier is its tension: G^T lambda = R^T f on its joints.
  for (const MechanismTendon& t : m_.tendons) {
    if (t.row < 0) continue;
    const double f = ld.lambda[t.row];
    for (size_t j = 0; j < t.joints.size(); ++j) {
      ApplyJointForce(ws, m_.joints[t.joints[j]].body, ld.G(t.row, t.v_index[j]) * f);
    }
  }
}

void Mechanism::ApplyJointForce(Workspace& ws, int body, double tau) const {
  // As a pair of wrenches on the joint's two bodies, tau along its motion subspace on the child
  // and the opposite on the parent: the generalized force tau on this joint's coordinate and
  // nothing on any other, and, for a motion-driven joint, a load its actuator carries.
  const KinematicTree& tree = *m_.tree;
  const Vector6d f = tree.joint(body).motion_subspace().col(0) * tau;
  ws.f_ext[body] += f;
  const int parent = tree.parent(body);
  if (parent >= 0) ws.f_ext[parent] -= ws.data.X_PB[body].ActForce(f);
}

bool Mechanism::UsesDaeMultipliers(const Context& c, const Workspace& ws) const {
  // Before the first start has chosen the rows (the outputs of the first major step, which
  // are computed again once z is consistent) the multipliers are solved for.
  return c.dae && num_dae_rows_ > 0 && !ws.dae_rows_stale;
}

void Mechanism::ApplyDaeMultipliers(const Context& c, Workspace& ws) const {
  EnsureKinematics(ws);
  LoopClosureData& ld = ws.loops;
  CalcLoopPositions(*m_.tree, m_.loops, ws.data, &ld);
  CalcCouplingPositions(ws.q, &ld);
  // The chosen rows' multipliers; the dependent rows carry none.
  ld.lambda.setZero();
  const double* lambda = z(c);
  for (int i = 0; i < num_dae_rows_; ++i) ld.lambda[ws.dae_rows[i]] = lambda[i];
  ApplyConstraintForces(ws);
}

void Mechanism::DoCalcResidual(Context& c) const {
  Workspace& ws = workspace<Workspace>(c);
  if (!ws.dynamics_valid) Dynamics(c, ws);
  ws.dynamics_valid = false;  // the next evaluation starts at stage 0 again
  WriteDerivatives(c, ws);
  const double* f = xdot(c);
  const double* xp_ = xp(c);
  double* r = residual(c);
  for (int i = 0; i < num_continuous_states(); ++i) r[i] = xp_[i] - f[i];
  if (!UsesDaeMultipliers(c, ws)) return;
  // GGL: q' = Qdot(q) (v + G_s^T mu) on the free coordinates. mu is zero on the exact
  // solution; it is what lets the position constraints hold along with the velocity ones.
  const LoopClosureData& ld = ws.loops;  // G and phi at q, from ApplyDaeMultipliers
  const double* mu = z(c) + num_dae_rows_;
  ws.mu_v.setZero();
  for (int j : free_v_) {
    double sum = 0.0;
    for (int i = 0; i < num_dae_rows_; ++i) sum += ld.G(ws.dae_rows[i], j) * mu[i];
    ws.mu_v[j] = sum;
  }
  CalcQDot(*m_.tree, ws.q, ws.mu_v, ws.qdot_mu);
  for (int i = 0; i < static_cast<int>(x_of_q_.size()); ++i) {
    if (x_of_q_[i] >= 0) r[x_of_q_[i]] -= ws.qdot_mu[i];
  }
  // The constraints on the velocity and on the position level.
  double* rz = residual_z(c);
  for (int i = 0; i < num_dae_rows_; ++i) {
    const int row = ws.dae_rows[i];
    rz[i] = ld.G.row(row).dot(ws.v) - ld.rate[row];
    rz[num_dae_rows_ + i] = ld.phi[row];
  }
}

void Mechanism::DoCalcConsistentAlgebraic(Context& c) const {
  if (num_dae_rows_ == 0) return;
  Workspace& ws = workspace<Workspace>(c);
  const LoopClosureData& ld = ws.loops;
  // The ODE form has just factored K = G_f M_ff^-1 G_f^T (pivoted LDL^T) and solved
  // K lambda = rhs at this point. Its first r pivots are rows that are independent, and well
  // so (pivoting takes the largest remaining one each time).
  if (ws.dae_rows_stale) {
    for (Eigen::Index i = 0; i < ws.row_order.size(); ++i) ws.row_order[i] = i;
    ws.row_order = ld.ldlt.transpositionsP() * ws.row_order;
    for (int i = 0; i < num_dae_rows_; ++i) ws.dae_rows[i] = static_cast<int>(ws.row_order[i]);
    std::sort(ws.dae_rows.begin(), ws.dae_rows.end());
    ws.dae_rows_stale = false;
  }
  // The same constraint force G^T lambda through the chosen rows alone: K_ss lambda_s =
  // rhs_s (the other rows are combinations of these).
  for (int a = 0; a < num_dae_rows_; ++a) {
    for (int b = 0; b < num_dae_rows_; ++b) ws.Ks(a, b) = ld.K(ws.dae_rows[a], ws.dae_rows[b]);
    ws.lambda_s[a] = ws.loop_rhs[ws.dae_rows[a]];
  }
  ws.Ks_llt.compute(ws.Ks);
  ws.Ks_llt.solveInPlace(ws.lambda_s);
  double* za = z(c);
  for (int i = 0; i < num_dae_rows_; ++i) {
    za[i] = ws.lambda_s[i];
    za[num_dae_rows_ + i] = 0.0;
  }
}

void Mechanism::RecordCutAngles(Context& c, Workspace& ws) const {
  for (size_t k = 0; k < m_.loops.size(); ++k) {
    const LoopConstraint& loop = m_.loops[k];
    const RelativeMotion rel = CalcRelativeMotion(CalcFrameMotionW(ws.data, nullptr, loop.B),
                                                  CalcFrameMotionW(ws.data, nullptr, loop.F));
    dwork(c)[k] = CutCoordinate(c, loop, rel, static_cast<int>(k)).q;
  }
}

void Mechanism::ThrowLoopCannotClose(const Eigen::VectorXd& residuals, const char* what,
                                     const char* unit) const {
  Eigen::Index worst;
  const double residual = residuals.cwiseAbs().maxCoeff(&worst);
  char value[32];
  std::snprintf(value, sizeof value, "%.3g", residual);
  // A run-time failure, not bad input: the simulator says when, and keeps the results so far.
  throw std::runtime_error(
      DescribeConstraintRow(m_, worst).description + " cannot be kept closed: its " + what +
      " residual stays " + value + " (" + unit +
      ") after projection onto the constraints. The joints' axes or a motion-driven joint leave "
      "the loop no way to move (a locked or over-constrained mechanism): check the axes and "
      "the motion inputs");
}

// Drift below this (m, rad; m/s, rad/s) is left alone at a major step: a projection there
// restarts the solver, which a multistep method pays for with its order.
constexpr double kDriftTolerance = 1e-10;
// Where the positions' Gauss-Newton stops (m, rad). A solver that projects every step
// (DoCalcProjection) has each step's drift taken out down to this: left to grow to
// kDriftTolerance over many steps, the drift would come out in one correction of many
// tolerances, which a multistep method's history takes as an error and cuts its step for.
constexpr double kProjectionTolerance = 1e-14;
// Under a multistep solver that cannot project inside its steps (cvode-adams), a major
// step's correction within this many times the error the solver accepts in a step, in every
// state, is left for later (CorrectionWithinSolverError): a projection now would restart the
// solver at order 1, and a multistep method needs several steps in a row to build its order
// up again. Ten such errors let about as many steps pass between projections. On the
// four-bar (2 s; loops held to 1e-10 before): at rtol 1e-3, 245 steps instead of 168157; at
// rtol 1e-6, 738 instead of 39066, and the crank 45 times nearer the reference (1.1e-2 rad
// off, against 0.49: the restarts' order-1 steps were the larger error). One-step solvers
// project at every step still: a restart costs them little, and the projection makes them
// more accurate.
constexpr double kDriftLeftInStepErrors = 10.0;
// A projection that leaves more than this has found no closed pose: the loop is locked (a
// motion input or the axes allow it no motion). Going on would restart the solver at every
// step, with the same drift, and crawl.
constexpr double kClosureFailure = 1e-6;

bool Mechanism::ProjectOntoLoops(double drift_tolerance, Workspace& ws) const {
  const KinematicTree& tree = *m_.tree;
  LoopClosureData& ld = ws.loops;
  ws.loop_rhs.noalias() = ld.G * ws.v;
  ws.loop_rhs -= ld.rate;
  if (ld.phi.cwiseAbs().maxCoeff() <= drift_tolerance &&
      ws.loop_rhs.cwiseAbs().maxCoeff() <= drift_tolerance) {
    return false;
  }
  // Positions onto phi = 0 and velocities onto G v = 0, each the closest in the kinetic-energy
  // metric: the correction is what constraint impulses would do.
  double residual = ProjectPositions(tree, m_.loops, free_v_, LoopMetric::kMass,
                                     kProjectionTolerance, 4, &ws.data, &ld, ws.q);
  if (residual > kClosureFailure) {
    // Far off (a long step's drift, a near-singular pose): as many iterations as assembly.
    residual = ProjectPositions(tree, m_.loops, free_v_, LoopMetric::kMass, kProjectionTolerance,
                                50, &ws.data, &ld, ws.q);
  }
  if (residual > kClosureFailure) ThrowLoopCannotClose(ld.phi, "position", "m or rad");
  ProjectVelocities(tree, m_.loops, free_v_, LoopMetric::kMass, ws.q, &ws.data, &ld, ws.v);
  ws.loop_rhs.noalias() = ld.G * ws.v;
  ws.loop_rhs -= ld.rate;
  if (ws.loop_rhs.cwiseAbs().maxCoeff() > kClosureFailure) {
    ThrowLoopCannotClose(ws.loop_rhs, "velocity", "m/s or rad/s");
  }
  return true;
}

bool Mechanism::CorrectionWithinSolverError(const Context& c, const Workspace& ws) const {
  const double* tolerance = state_tolerance(c);
  if (tolerance == nullptr) return false;
  const double* xs = x(c);
  for (int i = 0; i < static_cast<int>(x_of_q_.size()); ++i) {
    const int k = x_of_q_[i];
    if (k >= 0 && std::abs(ws.q[i] - xs[k]) > kDriftLeftInStepErrors * tolerance[k]) return false;
  }
  for (int i = 0; i < static_cast<int>(x_of_v_.size()); ++i) {
    const int k = x_of_v_[i];
    if (k >= 0 && std::abs(ws.v[i] - xs[k]) > kDriftLeftInStepErrors * tolerance[k]) return false;
  }
  return true;
}

void Mechanism::PlaceOnLoops(const Context& c, Workspace& ws) const {
  AssembleCoordinates(c, ws);
  if (!m_.tendons.empty()) SetTendonTargets(c, ws);
  ForwardKinematics(*m_.tree, &ws.data, ws.q);
  CalcLoopPositions(*m_.tree, m_.loops, ws.data, &ws.loops);
  CalcCouplingPositions(ws.q, &ws.loops);
}

void Mechanism::DoCalcProjection(Context& c, double* correction) const {
  std::fill(correction, correction + num_continuous_states(), 0.0);
  if (m_.num_constraint_rows == 0 || c.dae) return;
  Workspace& ws = workspace<Workspace>(c);
  PlaceOnLoops(c, ws);
  const bool projected = ProjectOntoLoops(kProjectionTolerance, ws);
  // ws.q and ws.v are no longer the states of c.x: nothing computed from them is kept.
  ws.kinematics_valid = false;
  ws.dynamics_valid = false;
  if (!projected) return;
  const double* xs = x(c);
  for (int i = 0; i < static_cast<int>(x_of_q_.size()); ++i) {
    if (x_of_q_[i] >= 0) correction[x_of_q_[i]] = ws.q[i] - xs[x_of_q_[i]];
  }
  for (int i = 0; i < static_cast<int>(x_of_v_.size()); ++i) {
    if (x_of_v_[i] >= 0) correction[x_of_v_[i]] = ws.v[i] - xs[x_of_v_[i]];
  }
}

void Mechanism::DoUpdate(Context& c) const {
  if (m_.num_constraint_rows == 0) return;
  const KinematicTree& tree = *m_.tree;
  Workspace& ws = workspace<Workspace>(c);
  PlaceOnLoops(c, ws);
  LoopClosureData& ld = ws.loops;
  if (c.dae && num_dae_rows_ > 0) {
    // The DAE keeps phi = 0 and G v = 0 itself. Its rows must stay independent: when the
    // chosen ones come within 1e-3 of the best choice's weakest pivot, restart and choose
    // again (the factor keeps the choice from flipping back and forth).
    RecordCutAngles(c, ws);
    if (ws.dae_rows_stale) return;
    FactorLoopSystem(tree, free_v_, LoopMetric::kMass, ws.q, &ws.data, &ld);
    const double best = std::abs(ld.ldlt.vectorD()[num_dae_rows_ - 1]);
    for (int a = 0; a < num_dae_rows_; ++a) {
      for (int b = 0; b < num_dae_rows_; ++b) ws.Ks(a, b) = ld.K(ws.dae_rows[a], ws.dae_rows[b]);
    }
    ws.Ks_ldlt.compute(ws.Ks);
    const double chosen = ws.Ks_ldlt.vectorD().cwiseAbs().minCoeff();
    if (chosen < 1e-3 * best) {
      ws.dae_rows_stale = true;
      c.states_reset = true;
    }
    ws.kinematics_valid = false;
    ws.dynamics_valid = false;
    return;
  }
  if (!ProjectOntoLoops(kDriftTolerance, ws)) {
    RecordCutAngles(c, ws);  // the unwrapped angles of this major step
    return;
  }
  if (CorrectionWithinSolverError(c, ws)) {
    PlaceOnLoops(c, ws);  // back to the states' own pose, for the angles and the outputs
    RecordCutAngles(c, ws);
    ws.kinematics_valid = false;
    ws.dynamics_valid = false;
    return;
  }
  double* xs = x(c);
  for (int i = 0; i < static_cast<int>(x_of_q_.size()); ++i) {
    if (x_of_q_[i] >= 0) xs[x_of_q_[i]] = ws.q[i];
  }
  for (int i = 0; i < static_cast<int>(x_of_v_.size()); ++i) {
    if (x_of_v_[i] >= 0) xs[x_of_v_[i]] = ws.v[i];
  }
  ForwardKinematics(tree, &ws.data, ws.q);
  RecordCutAngles(c, ws);
  ws.kinematics_valid = false;
  ws.dynamics_valid = false;
  c.states_projected = true;
}

}  // namespace twinblocks::multibody
