#include "blocks/multibody/loop_closure.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "physics/multibody/algorithms.h"
#include "physics/multibody/jacobian.h"

namespace twinblocks::multibody {

namespace {

int TotalRows(const std::vector<LoopConstraint>& loops, const std::vector<JointCoupling>& couplings,
              const std::vector<MechanismTendon>& tendons) {
  int m = static_cast<int>(couplings.size());
  for (const LoopConstraint& l : loops) m += l.num_rows;
  for (const MechanismTendon& t : tendons) m += t.row >= 0 ? 1 : 0;
  return m;
}

/// A rigid tendon's row of G: its moment arms at q on its joints' velocities.
void CalcTendonRow(const Eigen::Ref<const Eigen::VectorXd>& q, int k, LoopClosureData* ld) {
  const MechanismTendon& t = ld->tendons[k];
  ld->G.row(t.row).setZero();
  for (size_t j = 0; j < t.joints.size(); ++j) {
    ld->G(t.row, t.v_index[j]) += ld->arms.Arm(t, k, static_cast<int>(j), q[t.q_index[j]]);
  }
  ld->rate[t.row] = ld->tendon_target[k][1];
}

/// The couplings' rows of G (e_A - ratio e_B) and of G_dot v (zero).
void CalcCouplingRows(LoopClosureData* ld) {
  for (const JointCoupling& c : ld->couplings) {
    ld->G.row(c.row).setZero();
    ld->G(c.row, c.v_a) += 1.0;
    ld->G(c.row, c.v_b) -= c.ratio;
    ld->bias[c.row] = 0.0;
  }
}

/// Rows of one loop into ld->phi, ld->G (and ld->bias when A is given), from its two frames.
void CalcOneLoop(const KinematicTree& tree, const LoopConstraint& loop, int k,
                 const KinematicTreeData& data, const std::vector<Vector6d>* A,
                 LoopClosureData* ld) {
  const FrameMotionW B = CalcFrameMotionW(data, A, loop.B);
  const FrameMotionW F = CalcFrameMotionW(data, A, loop.F);
  const RelativeMotion rel = CalcRelativeMotion(B, F);
  LoopRows& T = ld->T[k];
  CalcLoopRows(loop, rel, ld->phi.data() + loop.row, &T,
               A != nullptr ? ld->bias.data() + loop.row : nullptr);
  ld->X_WB[k] = B.X_WF;
  ld->p_WF[k] = F.X_WF.translation;
  // Jrel = [R_BW (J_w,F - J_w,B); R_BW (J_v,F - J_v,B*)], B* the point of B's body at F's
  // origin: the velocity of F relative to B, in B (loop_constraint.h).
  FrameJacobian(tree, data, loop.F.body, loop.F.X_BF, ld->J_F);
  Pose X_bP;
  if (loop.B.body >= 0) {
    X_bP.translation = data.X_WB[loop.B.body].Inverse().TransformPoint(F.X_WF.translation);
  }
  FrameJacobian(tree, data, loop.B.body, X_bP, ld->J_B);
  const Eigen::Matrix3d R_BW = B.X_WF.rotation.transpose();
  ld->J_F -= ld->J_B;
  ld->J_B.topRows<3>().noalias() = R_BW * ld->J_F.topRows<3>();
  ld->J_B.bottomRows<3>().noalias() = R_BW * ld->J_F.bottomRows<3>();
  ld->G.middleRows(loop.row, loop.num_rows).noalias() = T * ld->J_B;
}

}  // namespace

LoopClosureData::LoopClosureData(const KinematicTree& tree,
                                 const std::vector<LoopConstraint>& loops,
                                 const std::vector<int>& movable,
                                 const std::vector<JointCoupling>& couplings_in,
                                 const std::vector<MechanismTendon>& tendons_in)
    : couplings(couplings_in),
      tendons(tendons_in),
      arms(tendons_in),
      tendon_target(tendons_in.size(), Eigen::Vector3d::Zero()),
      rate(Eigen::VectorXd::Zero(TotalRows(loops, couplings_in, tendons_in))),
      A(tree.num_bodies(), Vector6d::Zero()),
      J_F(6, tree.nv()),
      J_B(6, tree.nv()),
      G(TotalRows(loops, couplings_in, tendons_in), tree.nv()),
      phi(TotalRows(loops, couplings_in, tendons_in)),
      bias(TotalRows(loops, couplings_in, tendons_in)),
      T(loops.size()),
      X_WB(loops.size()),
      p_WF(loops.size(), Eigen::Vector3d::Zero()),
      Gm(TotalRows(loops, couplings_in, tendons_in), static_cast<int>(movable.size())),
      mass_factor(tree, movable),
      Y(static_cast<int>(movable.size()), TotalRows(loops, couplings_in, tendons_in)),
      Z(static_cast<int>(movable.size()), TotalRows(loops, couplings_in, tendons_in)),
      z_first(TotalRows(loops, couplings_in, tendons_in), 0),
      z_last(TotalRows(loops, couplings_in, tendons_in), 0),
      K(TotalRows(loops, couplings_in, tendons_in), TotalRows(loops, couplings_in, tendons_in)),
      ldlt(TotalRows(loops, couplings_in, tendons_in)),
      lambda(TotalRows(loops, couplings_in, tendons_in)),
      dm(static_cast<int>(movable.size())),
      dv(tree.nv()) {
  for (size_t k = 0; k < loops.size(); ++k) T[k].setZero(loops[k].num_rows, 6);
  G.setZero();
  phi.setZero();
  bias.setZero();
  lambda.setZero();
  CalcCouplingRows(this);
}

void CalcCouplingPositions(const Eigen::Ref<const Eigen::VectorXd>& q, LoopClosureData* ld) {
  for (const JointCoupling& c : ld->couplings) {
    ld->phi[c.row] = q[c.q_a] - c.ratio * q[c.q_b] - c.offset;
  }
  for (size_t k = 0; k < ld->tendons.size(); ++k) {
    const MechanismTendon& t = ld->tendons[k];
    if (t.row < 0) continue;
    CalcTendonRow(q, static_cast<int>(k), ld);
    ld->phi[t.row] = ld->arms.Length(t, static_cast<int>(k), q) - ld->tendon_target[k][0];
  }
}

void CalcTendonVelocityTerms(const Eigen::Ref<const Eigen::VectorXd>& q,
                             const Eigen::Ref<const Eigen::VectorXd>& v, LoopClosureData* ld) {
  for (size_t k = 0; k < ld->tendons.size(); ++k) {
    const MechanismTendon& t = ld->tendons[k];
    if (t.row < 0) continue;
    CalcTendonRow(q, static_cast<int>(k), ld);
    // d/dt (R(q) v) = R qdd + sum_j r_j'(q_j) v_j^2.
    double bias = -ld->tendon_target[k][2];
    for (size_t j = 0; j < t.joints.size(); ++j) {
      const double v_j = v[t.v_index[j]];
      if (v_j != 0.0) {
        bias += ld->arms.ArmSlope(t, static_cast<int>(k), static_cast<int>(j), q[t.q_index[j]]) *
                v_j * v_j;
      }
    }
    ld->bias[t.row] = bias;
  }
}

void CalcLoopPositions(const KinematicTree& tree, const std::vector<LoopConstraint>& loops,
                       const KinematicTreeData& data, LoopClosureData* ld) {
  for (size_t k = 0; k < loops.size(); ++k) {
    CalcOneLoop(tree, loops[k], static_cast<int>(k), data, nullptr, ld);
  }
  CalcCouplingRows(ld);
}

void CalcLoopVelocityTerms(const KinematicTree& tree, const std::vector<LoopConstraint>& loops,
                           const KinematicTreeData& data, LoopClosureData* ld) {
  if (!loops.empty()) CalcSpatialAccelerations(tree, data, nullptr, &ld->A);
  for (size_t k = 0; k < loops.size(); ++k) {
    CalcOneLoop(tree, loops[k], static_cast<int>(k), data, &ld->A, ld);
  }
  CalcCouplingRows(ld);
}

void FactorLoopSystem(const KinematicTree& tree, const std::vector<int>& movable, LoopMetric metric,
                      const Eigen::Ref<const Eigen::VectorXd>& q, KinematicTreeData* data,
                      LoopClosureData* ld) {
  const int nm = static_cast<int>(movable.size());
  for (int j = 0; j < nm; ++j) ld->Gm.col(j) = ld->G.col(movable[j]);
  if (metric == LoopMetric::kMass) {
    const Eigen::MatrixXd& M = Crba(tree, data, q);
    // The free block of M keeps the tree's sparsity: factored along the tree, in place of a
    // dense Cholesky (the hand's five fingers: a twentieth of the work). K = Z^T Z with
    // Z = L^-T G_m^T, whose columns (a coupling's two joints, a tendon's) stay sparse; Y only
    // when asked (LoopY). Not positive definite (a body without mass, numbers gone wrong): NaN
    // multipliers, that the solver reports as the failure of this evaluation.
    ld->Z = ld->Gm.transpose();
    const Eigen::Index m = ld->Z.cols();
    if (ld->mass_factor.FactorOfTree(M)) {
      ld->mass_factor.SolveTransposedFactorInPlace(ld->Z);
    } else {
      ld->Z.setConstant(std::numeric_limits<double>::quiet_NaN());
    }
    // K = Z^T Z over each pair's common span: a finger's coupling and another finger's meet
    // only at the palm's coordinates, and most pairs not at all.
    for (Eigen::Index r = 0; r < m; ++r) {
      int first = nm, last = -1;
      for (int k = 0; k < nm; ++k) {
        if (ld->Z(k, r) == 0.0) continue;
        first = std::min(first, k);
        last = k;
      }
      ld->z_first[r] = first;
      ld->z_last[r] = last;
    }
    for (Eigen::Index a = 0; a < m; ++a) {
      for (Eigen::Index b = 0; b <= a; ++b) {
        const int first = std::max(ld->z_first[a], ld->z_first[b]);
        const int last = std::min(ld->z_last[a], ld->z_last[b]);
        double sum = 0.0;
        for (int k = first; k <= last; ++k) sum += ld->Z(k, a) * ld->Z(k, b);
        ld->K(a, b) = ld->K(b, a) = sum;
      }
    }
    ld->y_current = false;
  } else {
    ld->Y = ld->Gm.transpose();
    ld->K.noalias() = ld->Gm * ld->Y;
    ld->y_current = true;
  }
  ld->ldlt.compute(ld->K);
}

const Eigen::MatrixXd& LoopY(LoopClosureData* ld) {
  if (!ld->y_current) {
    ld->Y = ld->Z;
    ld->mass_factor.SolveFactorInPlace(ld->Y);
    ld->y_current = true;
  }
  return ld->Y;
}

void CalcLoopCorrection(LoopClosureData* ld) {
  if (ld->y_current) {
    ld->dm.noalias() = ld->Y * ld->lambda;
    return;
  }
  ld->dm.noalias() = ld->Z * ld->lambda;
  ld->mass_factor.SolveFactorInPlace(ld->dm);
}

void SolveLoopSystem(const Eigen::Ref<const Eigen::VectorXd>& rhs, LoopClosureData* ld) {
  Eigen::VectorXd& x = ld->lambda;
  if (x.size() == 0) return;
  x = rhs;
  // P^T L D L^T P = K: solve with D's pseudo-inverse (small pivots are dependent rows).
  x = ld->ldlt.transpositionsP() * x;
  ld->ldlt.matrixL().solveInPlace(x);
  const auto D = ld->ldlt.vectorD();
  const double largest = D.cwiseAbs().maxCoeff();
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    x[i] = std::abs(D[i]) > kRankTolerance * largest ? x[i] / D[i] : 0.0;
  }
  ld->ldlt.matrixU().solveInPlace(x);
  x = ld->ldlt.transpositionsP().transpose() * x;
}

Vector6d LoopWrenchW(const LoopConstraint& loop, const LoopClosureData& ld, int k) {
  const Vector6d w_B = ld.T[k].transpose() * ld.lambda.segment(loop.row, loop.num_rows);
  const Eigen::Matrix3d& R = ld.X_WB[k].rotation;
  Vector6d w;
  w << R * w_B.head<3>(), R * w_B.tail<3>();
  return w;
}

void IntegrateConfiguration(const KinematicTree& tree, const Eigen::Ref<const Eigen::VectorXd>& dv,
                            Eigen::Ref<Eigen::VectorXd> q) {
  // The body-frame rotation vector theta turns q_JB on the right: q (x) exp(theta / 2).
  auto turn = [](double* wxyz, const Eigen::Vector3d& theta) {
    Eigen::Quaterniond r(wxyz[0], wxyz[1], wxyz[2], wxyz[3]);
    const double angle = theta.norm();
    const Eigen::Quaterniond d = angle > 0.0
                                     ? Eigen::Quaterniond(Eigen::AngleAxisd(angle, theta / angle))
                                     : Eigen::Quaterniond::Identity();
    r = (r * d).normalized();
    wxyz[0] = r.w();
    wxyz[1] = r.x();
    wxyz[2] = r.y();
    wxyz[3] = r.z();
  };
  for (int i = 0; i < tree.num_bodies(); ++i) {
    const int iq = tree.idx_q(i), iv = tree.idx_v(i);
    switch (tree.joint(i).type()) {
      case JointType::kRevolute:
      case JointType::kPrismatic:
        q[iq] += dv[iv];
        break;
      case JointType::kSpherical:
        turn(q.data() + iq, dv.segment<3>(iv));
        break;
      case JointType::kFree: {
        const Eigen::Quaterniond r(q[iq + 3], q[iq + 4], q[iq + 5], q[iq + 6]);
        q.segment<3>(iq) += r.normalized() * dv.segment<3>(iv + 3);
        turn(q.data() + iq + 3, dv.segment<3>(iv));
        break;
      }
    }
  }
}

double ProjectPositions(const KinematicTree& tree, const std::vector<LoopConstraint>& loops,
                        const std::vector<int>& movable, LoopMetric metric, double tol,
                        int max_iterations, KinematicTreeData* data, LoopClosureData* ld,
                        Eigen::Ref<Eigen::VectorXd> q) {
  double residual = 0.0;
  for (int it = 0;; ++it) {
    ForwardKinematics(tree, data, q);
    CalcLoopPositions(tree, loops, *data, ld);
    CalcCouplingPositions(q, ld);
    residual = ld->phi.size() > 0 ? ld->phi.cwiseAbs().maxCoeff() : 0.0;
    if (residual <= tol || it >= max_iterations) break;
    FactorLoopSystem(tree, movable, metric, q, data, ld);
    SolveLoopSystem(ld->phi, ld);
    CalcLoopCorrection(ld);
    ld->dv.setZero();
    for (size_t j = 0; j < movable.size(); ++j) ld->dv[movable[j]] = -ld->dm[j];
    IntegrateConfiguration(tree, ld->dv, q);
  }
  return residual;
}

double ProjectVelocities(const KinematicTree& tree, const std::vector<LoopConstraint>& loops,
                         const std::vector<int>& movable, LoopMetric metric,
                         const Eigen::Ref<const Eigen::VectorXd>& q, KinematicTreeData* data,
                         LoopClosureData* ld, Eigen::Ref<Eigen::VectorXd> v) {
  ForwardKinematics(tree, data, q);
  CalcLoopPositions(tree, loops, *data, ld);
  if (ld->phi.size() == 0) return 0.0;
  if (!ld->tendons.empty()) CalcCouplingPositions(q, ld);  // the tendons' rows at q
  // G v - rate, through the first loop row buffer that is free: bias.
  ld->bias.noalias() = ld->G * v;
  ld->bias -= ld->rate;
  const double residual = ld->bias.cwiseAbs().maxCoeff();
  FactorLoopSystem(tree, movable, metric, q, data, ld);
  SolveLoopSystem(ld->bias, ld);
  CalcLoopCorrection(ld);
  for (size_t j = 0; j < movable.size(); ++j) v[movable[j]] -= ld->dm[j];
  return residual;
}

ConstraintRowOwner DescribeConstraintRow(const MechanismModel& m, Eigen::Index row) {
  const auto quote = [](const std::string& s) { return "'" + s + "'"; };
  ConstraintRowOwner owner;
  for (const MechanismTendon& t : m.tendons) {
    if (row != t.row) continue;
    owner.element = t.element;
    owner.is_coupling = true;
    owner.description = "the tendon " + quote(t.name);
    return owner;
  }
  for (const JointCoupling& c : m.couplings) {
    if (row != c.row) continue;
    owner.element = c.element;
    owner.is_coupling = true;
    owner.description = "the coupling " + quote(c.name) + " of joints " +
                        quote(m.joints[c.joint_a].name) + " and " + quote(m.joints[c.joint_b].name);
    return owner;
  }
  const LoopConstraint* loop = &m.loops.front();
  for (const LoopConstraint& l : m.loops) {
    if (row >= l.row && row < l.row + l.num_rows) loop = &l;
  }
  std::string through;
  for (const std::string& j : loop->loop) through += (through.empty() ? "" : ", ") + quote(j);
  owner.element = loop->element;
  owner.description =
      "the kinematic loop closed by joint " + quote(loop->name) + " (through " + through + ")";
  return owner;
}

}  // namespace twinblocks::multibody
