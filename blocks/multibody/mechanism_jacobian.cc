// Mechanism, the stiff Jacobian: the derivatives of the state's rates for implicit solvers.

#include <Eigen/Cholesky>
#include <Eigen/Geometry>
#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "blocks/block_error.h"
#include "blocks/multibody/detail/mechanism_workspace.h"
#include "blocks/multibody/mechanism.h"

namespace twinblocks::multibody {

using blocks::BlockError;
using blocks::Context;

namespace {

/// Adds one point force's terms to d(generalized force on the free coordinates)/d(v) and
/// /d(q) (dqdd's left and right nv columns): J_free^T dF J, J the point's velocity of f
/// relative to b (J_rel). NF: the number of free coordinates when it is known at compile time
/// (6, one free object), so that the small products unroll; Eigen::Dynamic otherwise, with
/// J_free and the products in the workspace's matrices.
template <int NF>
void AddPointForceTerms(const KinematicTree& tree, const std::vector<int>& free_v,
                        const Eigen::Matrix<double, 3, Eigen::Dynamic>& J_rel, int body_f,
                        int body_b, const Eigen::Matrix3d& dF_dv, const Eigen::Matrix3d& dF_dx,
                        Eigen::Matrix<double, 3, NF>& J_free, Eigen::Matrix<double, NF, 3>& A_v,
                        Eigen::Matrix<double, NF, 3>& A_x, Eigen::MatrixXd* dqdd) {
  using Column = Eigen::Map<Eigen::Matrix<double, NF, 1>>;
  const int nf = static_cast<int>(free_v.size());
  const int nv = tree.nv();
  for (int a = 0; a < nf; ++a) J_free.col(a) = J_rel.col(free_v[a]);
  // Lazy products: of dynamic size, Eigen would otherwise dispatch to its blocked kernels.
  A_v.noalias() = J_free.transpose().lazyProduct(dF_dv);
  A_x.noalias() = J_free.transpose().lazyProduct(dF_dx);
  // J_rel's columns are nonzero only for the joints between each body and their deepest
  // common ancestor (a common ancestor moves the point of f and of b alike). A parent's
  // index is below its children's, so the larger index is never the other's ancestor.
  for (int f = body_f, b = body_b; f != b;) {
    int& k = f > b ? f : b;
    const int iv = tree.idx_v(k);
    for (int col = iv; col < iv + tree.joint(k).nv(); ++col) {
      Column(dqdd->col(col).data(), nf).noalias() += A_v.lazyProduct(J_rel.col(col));
      Column(dqdd->col(nv + col).data(), nf).noalias() += A_x.lazyProduct(J_rel.col(col));
    }
    k = tree.parent(k);
  }
}

/// d(body-frame rotation increment)/d(quaternion) at a unit quaternion [w, x, y, z]: the
/// increment dtheta with q + dq = q (x) [1, dtheta / 2], dtheta = 2 vec(q* (x) dq) (3 x 4).
Eigen::Matrix<double, 3, 4> RotationIncrementOfQuaternion(const double* wxyz) {
  const Eigen::Vector3d r(wxyz[1], wxyz[2], wxyz[3]);
  Eigen::Matrix<double, 3, 4> G;
  G.col(0) = -2.0 * r;
  G.rightCols<3>() = 2.0 * (wxyz[0] * Eigen::Matrix3d::Identity() - Skew(r));
  return G;
}

/// The rows of qdot = 1/2 q (x) (0, w) (QuaternionRate) over w (4 x 3) and over q (4 x 4).
void QuaternionRateJacobian(const double* wxyz, const Eigen::Vector3d& w,
                            Eigen::Ref<Eigen::MatrixXd> over_w,
                            Eigen::Ref<Eigen::MatrixXd> over_q) {
  const Eigen::Vector3d r(wxyz[1], wxyz[2], wxyz[3]);
  over_w.row(0) = -0.5 * r.transpose();
  over_w.bottomRows<3>() = 0.5 * (wxyz[0] * Eigen::Matrix3d::Identity() + Skew(r));
  over_q(0, 0) = 0.0;
  over_q.block<1, 3>(0, 1) = -0.5 * w.transpose();
  over_q.block<3, 1>(1, 0) = 0.5 * w;
  over_q.block<3, 3>(1, 1) = -0.5 * Skew(w);
}

/// x <- K^+ x (m) through the loops' pivoted factors P^T L D L^T P = K, D's pivots below
/// kRankTolerance times the largest taken as zero: SolveLoopSystem's inverse, on a column of
/// one's own (that keeps the evaluation's multipliers).
void SolveWithLoopFactors(const Eigen::LDLT<Eigen::MatrixXd>& ldlt, double* x) {
  const Eigen::Index m = ldlt.rows();
  const Eigen::MatrixXd& LD = ldlt.matrixLDLT();  // L below the diagonal, D on it
  const auto& perm = ldlt.transpositionsP();
  for (Eigen::Index i = 0; i < m; ++i) std::swap(x[i], x[perm.coeff(i)]);
  for (Eigen::Index i = 0; i < m; ++i) {
    for (Eigen::Index j = 0; j < i; ++j) x[i] -= LD(i, j) * x[j];
  }
  const double largest = LD.diagonal().cwiseAbs().maxCoeff();
  for (Eigen::Index i = 0; i < m; ++i) {
    const double d = LD(i, i);
    x[i] = std::abs(d) > kRankTolerance * largest ? x[i] / d : 0.0;
  }
  for (Eigen::Index i = m - 1; i >= 0; --i) {
    for (Eigen::Index j = i + 1; j < m; ++j) x[i] -= LD(j, i) * x[j];
  }
  for (Eigen::Index i = m - 1; i >= 0; --i) std::swap(x[i], x[perm.coeff(i)]);
}

}  // namespace

void Mechanism::AddPassiveForceTerms(Workspace& ws) const {
  const int nv = m_.tree->nv();
  auto dqdd_dv = ws.dqdd.leftCols(nv);
  auto dqdd_dq = ws.dqdd.rightCols(nv);
  for (int n : passive_joints_) {
    const MechanismJoint& j = m_.joints[n];
    if (j.prescribed) continue;
    const JointProperties& p = j.properties;
    switch (j.kind) {
      case JointKind::kRevolute:
      case JointKind::kPrismatic: {
        // AddPassiveForces' law: -k (q - q_eq) - c qd, minus the upper stop's force at
        // q - upper, plus the lower one's at lower - q (moving into it at -qd).
        const int k = j.v_index, a = free_index_of_v_[k];
        const double q = ws.q[j.q_index], qd = ws.v[k];
        double over_q = -p.stiffness[0], over_v = -p.damping[0];
        double pen, vel;
        internal::StopForceSlopes(q - p.upper, qd, p, &pen, &vel);
        over_q -= pen;
        over_v -= vel;
        internal::StopForceSlopes(p.lower - q, -qd, p, &pen, &vel);
        over_q -= pen;
        over_v -= vel;
        dqdd_dq(a, k) += over_q;
        dqdd_dv(a, k) += over_v;
        break;
      }
      case JointKind::kBushing:
        for (int i = 0; i < 6; ++i) {
          const int k = j.v_index + i, a = free_index_of_v_[k];
          dqdd_dq(a, k) -= p.stiffness[i];
          dqdd_dv(a, k) -= p.damping[i];
        }
        break;
      case JointKind::kSpherical:
        for (int i = 0; i < 3; ++i) {
          const int k = j.v_index + i;
          dqdd_dv(free_index_of_v_[k], k) -= p.damping[i];
        }
        break;
      case JointKind::kFree:
      case JointKind::kWeld:
        break;
    }
  }
}

void Mechanism::CalcConstrainedInverse(Workspace& ws) const {
  // The evaluation just made at this point (CalcStiffJacobian's precondition) solved for the
  // multipliers (SolveLoopConstraints): ws.loops holds G at ws.q, Y = M_ff^-1 G_f^T and the
  // pivoted factors of K = G_f Y, whatever the rows (loops, couplings) are.
  LoopClosureData& ld = ws.loops;
  const Eigen::MatrixXd& Y = LoopY(&ld);
  const Eigen::Index nf = ws.P.rows(), m = Y.cols();
  ws.KY = Y.transpose();
  for (Eigen::Index b = 0; b < nf; ++b) SolveWithLoopFactors(ld.ldlt, ws.KY.col(b).data());
  // P = M_ff^-1 - Y (K^+ Y^T).
  ws.P = ws.M_free_inverse;
  if (m > 0) ws.P.noalias() -= Y * ws.KY;
}

void Mechanism::AddFilterConstraintTerms(Workspace& ws) const {
  LoopClosureData& ld = ws.loops;
  const Eigen::MatrixXd& Y = LoopY(&ld);
  const int nv = m_.tree->nv();
  const Eigen::Index nf = Y.rows(), m = Y.cols();
  for (size_t n = 0; n < m_.joints.size(); ++n) {
    if (filter_x_[n] < 0) continue;
    const int p = m_.joints[n].v_index;
    if (ld.G.col(p).isZero(0.0)) continue;
    // qdd_f = ... - Y K^+ G_p qdd_p, and qdd_p = (u - qf) / tc^2 - 2 qf_dot / tc.
    ws.constraint_column = ld.G.col(p);
    SolveWithLoopFactors(ld.ldlt, ws.constraint_column.data());
    const double tc = m_.joints[n].properties.filter_tc;
    for (Eigen::Index a = 0; a < nf; ++a) {
      double w = 0.0;
      for (Eigen::Index r = 0; r < m; ++r) w += Y(a, r) * ws.constraint_column[r];
      ws.dqdd(a, nv + p) += w / (tc * tc);
      ws.dqdd(a, p) += 2.0 * w / tc;
    }
  }
}

void Mechanism::AddTendonFilterConstraintTerms(const Workspace& ws,
                                               Eigen::Ref<Eigen::MatrixXd> J) const {
  // Without these columns the tendon's length and its filter's state would drift apart in
  // every implicit step, by as much as the step's error: with them, the constraint's
  // velocity and position rows are linear invariants that the Rosenbrock and BDF stages keep
  // (G J = 0 along them), and the major steps find nothing to project.
  for (size_t k = 0; k < m_.tendons.size(); ++k) {
    const int f = tendon_filter_x_[k];
    const int row = m_.tendons[k].row;
    if (f < 0 || row < 0) continue;
    const double tc = m_.tendons[k].filter_tc;
    for (size_t a = 0; a < free_v_.size(); ++a) {
      // (Y K^+)(a, row) = (K^+ Y^T)(row, a): K is symmetric.
      const double w = ws.KY(row, static_cast<Eigen::Index>(a));
      const int state = x_of_v_[free_v_[a]];
      J(state, f) -= w / (tc * tc);
      J(state, f + 1) -= 2.0 * w / tc;
    }
  }
}

void Mechanism::AddKinematicJacobian(const Workspace& ws, Eigen::Ref<Eigen::MatrixXd> J) const {
  const KinematicTree& tree = *m_.tree;
  for (int b = 0; b < tree.num_bodies(); ++b) {
    const int iq = tree.idx_q(b), iv = tree.idx_v(b);
    if (x_of_v_[iv] < 0) continue;
    auto xq = [&](int k) { return x_of_q_[iq + k]; };
    auto xv = [&](int k) { return x_of_v_[iv + k]; };
    switch (tree.joint(b).type()) {
      case JointType::kRevolute:
      case JointType::kPrismatic:
        J(xq(0), xv(0)) += 1.0;
        break;
      case JointType::kSpherical:
      case JointType::kFree: {
        const bool free = tree.joint(b).type() == JointType::kFree;
        const int quat = free ? 3 : 0;  // first quaternion coordinate
        const double* wxyz = ws.q.data() + iq + quat;
        Eigen::Matrix<double, 4, 3> over_w;
        Eigen::Matrix4d over_q;
        QuaternionRateJacobian(wxyz, ws.v.segment<3>(iv), over_w, over_q);
        for (int r = 0; r < 4; ++r) {
          for (int k = 0; k < 3; ++k) J(xq(quat + r), xv(k)) += over_w(r, k);
          for (int k = 0; k < 4; ++k) J(xq(quat + r), xq(quat + k)) += over_q(r, k);
        }
        if (!free) break;
        // p' = R v_B: over v_B, R; over the quaternion, d(R v_B) = R (dtheta x v_B).
        const Eigen::Matrix3d R = internal::RotationOf(wxyz);
        const Eigen::Matrix<double, 3, 4> over_quat =
            -R * Skew(ws.v.segment<3>(iv + 3)) * RotationIncrementOfQuaternion(wxyz);
        for (int r = 0; r < 3; ++r) {
          for (int k = 0; k < 3; ++k) J(xq(r), xv(3 + k)) += R(r, k);
          for (int k = 0; k < 4; ++k) J(xq(r), xq(3 + k)) += over_quat(r, k);
        }
        break;
      }
    }
  }
  // Critically damped filters: qf' = qf_dot, qf_dot' = (u - qf) / tc^2 - 2 qf_dot / tc.
  for (size_t n = 0; n < m_.joints.size(); ++n) {
    const int f = filter_x_[n];
    if (f < 0) continue;
    const double tc = m_.joints[n].properties.filter_tc;
    J(f, f + 1) += 1.0;
    J(f + 1, f) -= 1.0 / (tc * tc);
    J(f + 1, f + 1) -= 2.0 / tc;
  }
  // The tendons' command filters, alike (their effect on the free accelerations through a
  // rigid tendon's row: AddTendonFilterConstraintTerms).
  for (size_t k = 0; k < tendon_filter_x_.size(); ++k) {
    const int f = tendon_filter_x_[k];
    if (f < 0) continue;
    const double tc = m_.tendons[k].filter_tc;
    J(f, f + 1) += 1.0;
    J(f + 1, f) -= 1.0 / (tc * tc);
    J(f + 1, f + 1) -= 2.0 / tc;
  }
}

bool Mechanism::DoStiffJacobianStructure(std::vector<std::pair<int, int>>* entries) const {
  // What AddKinematicJacobian and DoCalcStiffJacobian write, whatever the contacts.
  const KinematicTree& tree = *m_.tree;
  const auto add_block = [entries](const int* rows, int num_rows, const int* cols, int num_cols) {
    for (int r = 0; r < num_rows; ++r) {
      for (int k = 0; k < num_cols; ++k) entries->emplace_back(rows[r], cols[k]);
    }
  };
  // Per free or spherical body: its quaternion's states, and a free body's position states.
  std::vector<int> rotation_states;
  for (int b = 0; b < tree.num_bodies(); ++b) {
    const int iq = tree.idx_q(b), iv = tree.idx_v(b);
    if (x_of_v_[iv] < 0) continue;
    const JointType type = tree.joint(b).type();
    if (type == JointType::kRevolute || type == JointType::kPrismatic) {
      entries->emplace_back(x_of_q_[iq], x_of_v_[iv]);
    } else if (type == JointType::kSpherical || type == JointType::kFree) {
      const int quat = type == JointType::kFree ? 3 : 0;
      const int* quaternion = &x_of_q_[iq + quat];
      add_block(quaternion, 4, &x_of_v_[iv], 3);
      add_block(quaternion, 4, quaternion, 4);
      rotation_states.insert(rotation_states.end(), quaternion, quaternion + 4);
      if (type == JointType::kFree) {
        add_block(&x_of_q_[iq], 3, &x_of_v_[iv + 3], 3);
        add_block(&x_of_q_[iq], 3, quaternion, 4);
        rotation_states.insert(rotation_states.end(), &x_of_q_[iq], &x_of_q_[iq] + 3);
      }
    }
  }
  for (size_t n = 0; n < m_.joints.size(); ++n) {
    const int f = filter_x_[n];
    if (f < 0) continue;
    entries->emplace_back(f, f + 1);
    entries->emplace_back(f + 1, f);
    entries->emplace_back(f + 1, f + 1);
  }
  for (int f : tendon_filter_x_) {
    if (f < 0) continue;
    entries->emplace_back(f, f + 1);
    entries->emplace_back(f + 1, f);
    entries->emplace_back(f + 1, f + 1);
  }
  if (!free_rows_in_jacobian_) return true;
  // The free velocities' rows: every coordinate's state and every rotation's.
  std::vector<int> columns = rotation_states;
  for (int k = 0; k < tree.nv(); ++k) {
    if (v_state_[k] >= 0) columns.push_back(v_state_[k]);
    if (q_state_[k] >= 0) columns.push_back(q_state_[k]);
  }
  for (size_t k = 0; k < m_.tendons.size(); ++k) {
    if (tendon_filter_x_[k] < 0 || m_.tendons[k].row < 0) continue;
    columns.push_back(tendon_filter_x_[k]);
    columns.push_back(tendon_filter_x_[k] + 1);
  }
  for (int v : free_v_) {
    for (int col : columns) entries->emplace_back(x_of_v_[v], col);
  }
  return true;
}

void Mechanism::DoCalcStiffJacobian(Context& c, Eigen::Ref<Eigen::MatrixXd> J) const {
  Workspace& ws = workspace<Workspace>(c);
  AddKinematicJacobian(ws, J);
  const int nf = static_cast<int>(free_v_.size());
  const bool constrained = m_.num_constraint_rows > 0;
  const bool passive = passive_in_jacobian_ && (!passive_joints_.empty() || tendon_springs_);
  if (!free_rows_in_jacobian_ ||
      (ws.num_contact_forces == 0 && !free_prescribed_coupled_ && !passive && !constrained)) {
    return;
  }
  const KinematicTree& tree = *m_.tree;
  // d(generalized force on the free coordinates)/d(v, q), summed over the contact points.
  const int nv = tree.nv();
  ws.dqdd.setZero();
  auto dqdd_dv = ws.dqdd.leftCols(nv);
  auto dqdd_dq = ws.dqdd.rightCols(nv);
  Eigen::Matrix<double, 3, 6> J_free6;
  Eigen::Matrix<double, 6, 3> A_v6, A_x6;
  for (int i = 0; i < ws.num_contact_forces; ++i) {
    const PointForce& pf = ws.contact_forces[i];
    const contact::ContactLaw& law = *pf.law;
    const Eigen::Vector3d& n = pf.normal;
    const Eigen::Matrix3d tangent_plane = Eigen::Matrix3d::Identity() - n * n.transpose();
    // d f / d v (3 x 3, W) of the force on f at the velocity of f relative to b: the normal
    // force's damping along n, and friction's resistance to slip in the tangent plane.
    const double damping = contact::NormalForceRateDerivative(law, pf.depth, -pf.normal_speed);
    const double stiffness = contact::NormalForceDepthDerivative(law, pf.depth, -pf.normal_speed);
    Eigen::Matrix3d dF_dv = -damping * n * n.transpose();
    // d f / d x: moving f by dx along n changes the depth by -n.dx, and the normal force with
    // it; friction, mu(s) f_n against the slip, follows in proportion.
    Eigen::Vector3d along = n;
    if (law.friction != contact::FrictionModel::kNone && pf.normal_force > 0.0) {
      // Friction as a viscous force of frozen coefficient, -f_n (mu(s) / s) v_slip: the
      // secant of the friction curve, not its tangent. Past the peak the tangent is flat or
      // falling, and a step implicit in it alone would overshoot through zero slip into the
      // opposite direction (chattering); with the secant an implicit step shrinks the slip
      // but never reverses it. At zero slip the two agree (2 mu_s / v_crit).
      const double per_speed = contact::FrictionCoefficientPerSpeed(law, pf.slip.norm());
      dF_dv -= (pf.normal_force * per_speed) * tangent_plane;
      along -= per_speed * pf.slip;
    }
    const Eigen::Matrix3d dF_dx = -stiffness * along * n.transpose();
    // The point's velocity (and displacement) of f relative to b over every coordinate; the
    // generalized force on the free coordinates is J_rel_free^T f.
    ws.J_rel.setZero();
    AddPointJacobian(tree, ws.data, pf.body_f, pf.point, 1.0, ws.J_rel);
    AddPointJacobian(tree, ws.data, pf.body_b, pf.point, -1.0, ws.J_rel);
    if (nf == 6) {
      AddPointForceTerms<6>(tree, free_v_, ws.J_rel, pf.body_f, pf.body_b, dF_dv, dF_dx, J_free6,
                            A_v6, A_x6, &ws.dqdd);
    } else {
      AddPointForceTerms<Eigen::Dynamic>(tree, free_v_, ws.J_rel, pf.body_f, pf.body_b, dF_dv,
                                         dF_dx, ws.J_rel_free, ws.JfT_dFv, ws.JfT_dFx, &ws.dqdd);
    }
  }
  if (passive) AddPassiveForceTerms(ws);
  if (passive && tendon_springs_) AddTendonForceTerms(ws);
  // M_ff and M_fp: the bodies that move freely and their ancestors' joints (once only when
  // M_ff does not change with q).
  // With loop, coupling or tendon rows, the evaluation just made at this point factored M_ff
  // along the tree (ws.loops.mass_factor): its inverse from there, without another CRBA
  // unless the driven joints' columns M_fp are needed.
  const bool factored_by_loops = constrained;
  const bool mass_known = factored_by_loops || (free_mass_constant_ && ws.free_mass_factored);
  if (!mass_known || (factored_by_loops && free_prescribed_coupled_)) {
    CrbaOfSubtrees(tree, &ws.data, ws.q, moves_freely_);
    if (!ws.kinematics_valid) ws.posed = false;  // X_PB is now of ws.q
  }
  if (free_prescribed_coupled_) {
    // M_ff qdd_f = tau_f - M_fp qdd_p - ..., and a filtered joint's qdd_p is its filter's
    // (u - qf) / tc^2 - 2 qf_dot / tc.
    for (size_t j = 0; j < m_.joints.size(); ++j) {
      if (filter_x_[j] < 0) continue;
      const double tc = m_.joints[j].properties.filter_tc;
      const int p = m_.joints[j].v_index;
      for (int a = 0; a < nf; ++a) {
        const double M_fp = ws.data.M(free_v_[a], p);
        dqdd_dq(a, p) += M_fp / (tc * tc);
        dqdd_dv(a, p) += 2.0 * M_fp / tc;
      }
    }
  }
  if (!mass_known) {
    for (int a = 0; a < nf; ++a) {
      for (int b = 0; b < nf; ++b) ws.M_free(a, b) = ws.data.M(free_v_[a], free_v_[b]);
    }
    ws.M_free_llt.compute(ws.M_free);
    ws.M_free_inverse.setIdentity();
    ws.M_free_llt.solveInPlace(ws.M_free_inverse);
    ws.free_mass_factored = true;
  }
  if (factored_by_loops) {
    ws.M_free_inverse.setIdentity();
    ws.loops.mass_factor.SolveInPlace(ws.M_free_inverse);
  }
  if (constrained) CalcConstrainedInverse(ws);
  // P (M_ff^-1, or the constrained inverse) applied as a product: the columns are
  // independent, where substitution through the Cholesky factor chains each unknown to the
  // last (and divides).
  const Eigen::MatrixXd& M_inv = constrained ? ws.P : ws.M_free_inverse;
  if (nf == 6) {
    // One free object: fixed-size columns that the compiler unrolls and vectorizes; the
    // columns of joints that no force reaches stay zero.
    using Map6 = Eigen::Map<const Eigen::Matrix<double, 6, 6>, 0, Eigen::OuterStride<>>;
    const Map6 M6(M_inv.data(), Eigen::OuterStride<>(M_inv.outerStride()));
    for (Eigen::Index k = 0; k < ws.dqdd.cols(); ++k) {
      double* y = ws.dqdd.col(k).data();
      if (ws.dqdd.col(k).isZero(0.0)) continue;
      const Vector6d solved = M6 * Eigen::Map<const Vector6d>(y);
      std::copy_n(solved.data(), 6, y);
    }
  } else {
    // A hand's: one matrix product, vectorized, over every column.
    // (Copied back, not swapped: the views dqdd_dv and dqdd_dq read ws.dqdd's storage.)
    ws.dqdd_solved.noalias() = M_inv * ws.dqdd;
    ws.dqdd = ws.dqdd_solved;
  }
  if (constrained) {
    AddFilterConstraintTerms(ws);
    AddTendonFilterConstraintTerms(ws, J);
  }
  // Into the free velocities' rows, by the states that carry each coordinate.
  for (int a = 0; a < nf; ++a) {
    const int row = x_of_v_[free_v_[a]];
    for (int k = 0; k < tree.nv(); ++k) {
      if (v_state_[k] >= 0) J(row, v_state_[k]) += dqdd_dv(a, k);
      if (q_state_[k] >= 0) J(row, q_state_[k]) += dqdd_dq(a, k);
    }
  }
  // Quaternion coordinates: the tangent displacement is the body-frame rotation increment
  // (and, of a free joint, the body-frame translation R^T dp).
  for (int b = 0; b < tree.num_bodies(); ++b) {
    const JointType type = tree.joint(b).type();
    const int iq = tree.idx_q(b), iv = tree.idx_v(b);
    if (x_of_v_[iv] < 0 || (type != JointType::kSpherical && type != JointType::kFree)) continue;
    const int quat = type == JointType::kFree ? 3 : 0;
    const double* wxyz = ws.q.data() + iq + quat;
    const Eigen::Matrix<double, 3, 4> G = RotationIncrementOfQuaternion(wxyz);
    const Eigen::Matrix3d R = internal::RotationOf(wxyz);
    for (int a = 0; a < nf; ++a) {
      const int row = x_of_v_[free_v_[a]];
      const Eigen::RowVector3d over_rotation = dqdd_dq.block<1, 3>(a, iv);
      const Eigen::RowVector4d over_quat = over_rotation * G;
      for (int k = 0; k < 4; ++k) J(row, x_of_q_[iq + quat + k]) += over_quat[k];
      if (type != JointType::kFree) continue;
      const Eigen::RowVector3d over_position = dqdd_dq.block<1, 3>(a, iv + 3) * R.transpose();
      for (int k = 0; k < 3; ++k) J(row, x_of_q_[iq + k]) += over_position[k];
    }
  }
}

}  // namespace twinblocks::multibody
