#include "physics/multibody/algorithms.h"

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <cmath>
#include <stdexcept>
#include <string>

namespace twinblocks::multibody {
namespace {

void CheckSize(const char* function, const char* what, Eigen::Index actual, int expected) {
  if (actual != expected) {
    throw std::logic_error(std::string(function) + ": " + what + " has size " +
                           std::to_string(actual) + ", the tree needs " + std::to_string(expected));
  }
}

void CheckExternalForces(const char* function, const KinematicTree& tree,
                         const std::vector<Vector6d>* f_ext) {
  if (f_ext != nullptr) {
    CheckSize(function, "f_ext", static_cast<Eigen::Index>(f_ext->size()), tree.num_bodies());
  }
}

// The world's spatial acceleration: gravity enters as an upward acceleration of the base,
// so every body's acceleration is offset by -g and the joint forces include its weight.
Vector6d WorldAcceleration(const KinematicTree& tree) {
  Vector6d a0;
  a0.head<3>().setZero();
  a0.tail<3>() = -tree.gravity();
  return a0;
}

// X_PB(q) of body i into *X. A joint about or along a coordinate axis (every DH joint) turns
// or shifts X_PJ directly: the rotation about e_k mixes two columns of R_PJ (12 products
// instead of Rodrigues' formula and a 3 x 3 product).
void CalcBodyPose(const KinematicTree& tree, int i, const Eigen::Ref<const Eigen::VectorXd>& q,
                  Pose* X) {
  const Joint& joint = tree.joint(i);
  const Pose& X_PJ = tree.body(i).X_PJ;
  const int k = joint.axis_index();
  if (k < 0) {
    *X = X_PJ * joint.CalcJointPose(q.segment(tree.idx_q(i), joint.nq()));
    return;
  }
  // The axis is +-e_k: the signed coordinate along e_k.
  const double x = q[tree.idx_q(i)] * joint.axis()[k];
  if (joint.type() == JointType::kRevolute) {
    const double c = std::cos(x), s = std::sin(x);
    // The other two axes in cyclic order, by table: two divisions cost more than the rest.
    static constexpr int kNext[3] = {1, 2, 0}, kAfterNext[3] = {2, 0, 1};
    const int a = kNext[k], b = kAfterNext[k];
    X->rotation.col(k) = X_PJ.rotation.col(k);
    X->rotation.col(a) = c * X_PJ.rotation.col(a) + s * X_PJ.rotation.col(b);
    X->rotation.col(b) = c * X_PJ.rotation.col(b) - s * X_PJ.rotation.col(a);
    X->translation = X_PJ.translation;
  } else {
    X->rotation = X_PJ.rotation;
    X->translation = X_PJ.translation + x * X_PJ.rotation.col(k);
  }
}

// The inverse of a symmetric positive definite 6 x 6 matrix by its Cholesky factor L, as
// L^-T L^-1 in fixed-size loops: Eigen's solve with a matrix right-hand side takes its blocked
// path, which costs several times more at this size. Falls back to LU when D is not positive
// definite.
Matrix6d InverseOfPositiveDefinite(const Matrix6d& D) {
  const Eigen::LLT<Matrix6d> llt(D);
  if (llt.info() != Eigen::Success) return D.inverse();
  const Matrix6d& L = llt.matrixLLT();  // L in the lower triangle
  Matrix6d L_inv = Matrix6d::Zero();
  for (int j = 0; j < 6; ++j) {
    L_inv(j, j) = 1.0 / L(j, j);
    for (int i = j + 1; i < 6; ++i) {
      double s = 0.0;
      for (int k = j; k < i; ++k) s += L(i, k) * L_inv(k, j);
      L_inv(i, j) = -s / L(i, i);
    }
  }
  return L_inv.transpose() * L_inv;
}

// The single column of a 1-DOF joint's motion subspace as a fixed-size vector, so that the
// products with it unroll (the dynamic-width MotionSubspace loops cost more than the
// arithmetic for nv = 1, which is nearly every joint).
Eigen::Map<const Vector6d> Column(const MotionSubspace& S) {
  return Eigen::Map<const Vector6d>(S.data());
}
Eigen::Map<Vector6d> Column(MotionSubspace& S) { return Eigen::Map<Vector6d>(S.data()); }

// Products with a joint's motion subspace S (6 x nv) and its relatives, column by column,
// for the multi-DOF joints (spherical, free).

// S x for x (nv x 1).
template <typename Derived>
Vector6d SubspaceTimes(const MotionSubspace& S, const Eigen::MatrixBase<Derived>& x) {
  Vector6d r = S.col(0) * x[0];
  for (Eigen::Index k = 1; k < S.cols(); ++k) r += S.col(k) * x[k];
  return r;
}

// B^T f for B (6 x nv) and f (6 x 1), written into out (nv x 1).
template <typename Out>
void TransposeTimes(const MotionSubspace& B, const Vector6d& f, Out&& out) {
  for (Eigen::Index k = 0; k < B.cols(); ++k) out[k] = B.col(k).dot(f);
}

// I B for I (6 x 6) and B (6 x nv), written into out (6 x nv).
void InertiaTimes(const Matrix6d& I, const MotionSubspace& B, MotionSubspace* out) {
  out->resize(6, B.cols());
  for (Eigen::Index k = 0; k < B.cols(); ++k) out->col(k).noalias() = I * B.col(k);
}

// The joint velocity S v of body i.
Vector6d JointVelocity(const Joint& joint, const Eigen::Ref<const Eigen::VectorXd>& v, int iv) {
  if (joint.nv() == 1) return Column(joint.motion_subspace()) * v[iv];
  return SubspaceTimes(joint.motion_subspace(), v.segment(iv, joint.nv()));
}

// The (rows of S_j) x (columns of F) block S_j^T F of M, at (row, col).
void SetMassBlock(const MotionSubspace& S_j, const MotionSubspace& F, int row, int col,
                  Eigen::MatrixXd* M) {
  for (Eigen::Index r = 0; r < S_j.cols(); ++r) {
    for (Eigen::Index k = 0; k < F.cols(); ++k) {
      (*M)(row + r, col + k) = (*M)(col + k, row + r) = S_j.col(r).dot(F.col(k));
    }
  }
}

// Rnea with an optional acceleration (nullptr: a = 0, for NonlinearEffects).
const Eigen::VectorXd& RneaImpl(const KinematicTree& tree, KinematicTreeData* data,
                                const Eigen::Ref<const Eigen::VectorXd>& q,
                                const Eigen::Ref<const Eigen::VectorXd>& v,
                                const Eigen::Ref<const Eigen::VectorXd>* a,
                                const std::vector<Vector6d>* f_ext) {
  const Vector6d a0 = WorldAcceleration(tree);
  const int n = tree.num_bodies();
  const bool posed = data->PosedAt(q);
  for (int i = 0; i < n; ++i) {
    const Joint& joint = tree.joint(i);
    const int iv = tree.idx_v(i);
    const int p = tree.parent(i);
    Pose& X = data->X_PB[i];
    if (!posed) CalcBodyPose(tree, i, q, &X);
    const Vector6d v_J = JointVelocity(joint, v, iv);
    Vector6d V = v_J;
    Vector6d A = X.InvActMotion(p < 0 ? a0 : data->A[p]);
    if (p >= 0) {
      V += X.InvActMotion(data->V[p]);
      // The joint's velocity seen from the moving body frame (zero for a root body, whose
      // V equals v_J).
      A += CrossMotion(V, v_J);
    }
    if (a != nullptr) A += JointVelocity(joint, *a, iv);
    const SpatialInertia& I = tree.body(i).inertia;
    data->V[i] = V;
    data->A[i] = A;
    data->F[i] = I.Apply(A) + CrossForce(V, I.Apply(V));
    if (f_ext != nullptr) data->F[i] -= (*f_ext)[i];
  }
  for (int i = n - 1; i >= 0; --i) {
    const Joint& joint = tree.joint(i);
    const int iv = tree.idx_v(i);
    if (joint.nv() == 1) {
      data->tau[iv] = Column(joint.motion_subspace()).dot(data->F[i]);
    } else {
      TransposeTimes(joint.motion_subspace(), data->F[i], data->tau.segment(iv, joint.nv()));
    }
    const int p = tree.parent(i);
    if (p >= 0) data->F[p] += data->X_PB[i].ActForce(data->F[i]);
  }
  // A drive's reflected inertia is driven by the joint's acceleration alone.
  if (a != nullptr) data->tau += tree.armature().cwiseProduct(*a);
  return data->tau;
}

// The articulated-body algorithm for Aba (kHybrid false: every joint force-driven, F and tau
// not computed) and AbaHybrid (prescribed joints, F and tau filled). One template so that the
// plain Aba pays nothing for the hybrid case.
// A prescribed joint's generalized force from the spatial force F[i] it transmits: S^T F, plus
// what its drive's reflected inertia takes at the joint's acceleration.
void SetPrescribedJointForce(const KinematicTree& tree, int i, KinematicTreeData* data) {
  const Joint& joint = tree.joint(i);
  const int iv = tree.idx_v(i), nv = joint.nv();
  if (nv == 1) {
    data->tau[iv] = Column(joint.motion_subspace()).dot(data->F[i]);
  } else {
    TransposeTimes(joint.motion_subspace(), data->F[i], data->tau.segment(iv, nv));
  }
  data->tau.segment(iv, nv) +=
      tree.armature().segment(iv, nv).cwiseProduct(data->qdd.segment(iv, nv));
}

// q == nullptr: data->X_PB and V are those of ForwardKinematics at the same q and v.
template <bool kHybrid>
const Eigen::VectorXd& AbaImpl(const KinematicTree& tree, KinematicTreeData* data,
                               const Eigen::Ref<const Eigen::VectorXd>* q,
                               const Eigen::Ref<const Eigen::VectorXd>& v,
                               const Eigen::Ref<const Eigen::VectorXd>& u,
                               const unsigned char* prescribed, const std::vector<Vector6d>* f_ext,
                               bool driven_forces) {
  const int n = tree.num_bodies();
  const Vector6d a0 = WorldAcceleration(tree);
  // Pass 1, root to leaves: velocities, velocity-product accelerations, rigid-body inertias
  // and bias forces. A body whose joint and every ancestor's joint are prescribed is driven
  // rigidly from the world: its acceleration is known here already, and the force its joint
  // transmits is summed as in Rnea (rigid-body inertia times acceleration, plus what the
  // children need). Its articulated inertia would matter only to a free ancestor, and it has
  // none: a motion-driven hand costs an inverse-dynamics pass, not an articulated one.
  const bool skip_driven = kHybrid && !driven_forces;
  // Every body is posed when q is given (only the q == nullptr pass skips driven ones).
  const bool posed = q != nullptr && data->PosedAt(*q);
  if (skip_driven) {
    // Without their forces, the driven bodies need an acceleration only where a free
    // subtree hangs below them (a parent's index is below its children's).
    for (int i = 0; i < n; ++i) {
      const int p = tree.parent(i);
      data->driven[i] = prescribed[i] != 0 && (p < 0 || data->driven[p] != 0);
      data->drives_free[i] = 0;
    }
    for (int i = n - 1; i >= 0; --i) {
      const int p = tree.parent(i);
      if (p >= 0 && (data->driven[i] == 0 || data->drives_free[i] != 0)) {
        data->drives_free[p] = data->driven[p];
      }
    }
  }
  for (int i = 0; i < n; ++i) {
    const Joint& joint = tree.joint(i);
    const int p = tree.parent(i);
    const int iv = tree.idx_v(i);
    Pose& X = data->X_PB[i];
    if (skip_driven && q == nullptr && data->driven[i] != 0 && data->drives_free[i] == 0) {
      // Posed already, and nothing below needs its acceleration.
      data->qdd.segment(iv, joint.nv()) = u.segment(iv, joint.nv());
      continue;
    }
    const Vector6d v_J = JointVelocity(joint, v, iv);
    if (q != nullptr) {
      if (!posed) CalcBodyPose(tree, i, *q, &X);
      data->V[i] = p >= 0 ? Vector6d(X.InvActMotion(data->V[p]) + v_J) : v_J;
    }
    const Vector6d& V = data->V[i];
    const auto set_c = [&] {
      if (p >= 0) {
        data->c[i] = CrossMotion(V, v_J);
      } else {
        // A root body moves with its joint alone, and V x V = 0.
        data->c[i].setZero();
      }
    };
    const SpatialInertia& I = tree.body(i).inertia;
    if constexpr (kHybrid) {
      data->driven[i] = prescribed[i] != 0 && (p < 0 || data->driven[p] != 0);
      if (data->driven[i] != 0) {
        data->qdd.segment(iv, joint.nv()) = u.segment(iv, joint.nv());
        if (skip_driven && data->drives_free[i] == 0) continue;
        set_c();
        data->A[i] =
            X.InvActMotion(p < 0 ? a0 : data->A[p]) + data->c[i] + JointVelocity(joint, u, iv);
        // A stays: a free subtree hanging from the body needs it.
        if (!driven_forces) continue;
        data->F[i] = I.Apply(data->A[i]) + CrossForce(V, I.Apply(V));
        if (f_ext != nullptr) data->F[i] -= (*f_ext)[i];
        continue;
      }
    }
    set_c();
    data->I_A[i] = tree.inertia_matrix(i);
    data->p_A[i] = CrossForce(V, I.Apply(V));
    if (f_ext != nullptr) data->p_A[i] -= (*f_ext)[i];
  }
  // Pass 2, leaves to root: articulated inertias and bias forces. I_a, p_a: what body i's
  // subtree presents to its parent through joint i.
  Matrix6d I_a;
  Vector6d p_a;
  for (int i = n - 1; i >= 0; --i) {
    const Joint& joint = tree.joint(i);
    const MotionSubspace& S = joint.motion_subspace();
    const int nv = joint.nv();
    const int iv = tree.idx_v(i);
    const int p = tree.parent(i);
    if (kHybrid && data->driven[i] != 0) {
      // Its parent, if any, is driven too: the transmitted force adds up.
      if (p >= 0 && driven_forces) data->F[p] += data->X_PB[i].ActForce(data->F[i]);
      continue;
    }
    const Matrix6d& I_A = data->I_A[i];
    const Vector6d& p_A = data->p_A[i];
    if (kHybrid && prescribed[i]) {
      // The joint's acceleration is known: the subtree is rigidly driven through it, and
      // passes its whole inertia on.
      if (p < 0) continue;
      const Vector6d a_J = data->c[i] + JointVelocity(joint, u, iv);
      I_a = I_A;
      p_a.noalias() = p_A + I_A * a_J;
    } else if (nv == 1) {
      const auto s = Column(S);
      auto U = Column(data->U[i]);
      double D_inv, u_i;
      const int k = joint.axis_index();
      if (k >= 0) {
        // S = +-e_m: U is a column of I_A, D a diagonal entry.
        const int m = joint.type() == JointType::kRevolute ? k : 3 + k;
        const double sign = s[m];
        U = sign * I_A.col(m);
        D_inv = 1.0 / (I_A(m, m) + tree.armature()[iv]);
        u_i = u[iv] - sign * p_A[m];
      } else {
        U.noalias() = I_A * s;
        D_inv = 1.0 / (s.dot(U) + tree.armature()[iv]);
        u_i = u[iv] - s.dot(p_A);
      }
      data->D_inv[i](0, 0) = D_inv;
      data->u[i][0] = u_i;
      if (p < 0) continue;
      // I_a = I_A - U D^-1 U^T; p_a = p_A + I_a c + U D^-1 u.
      const Vector6d UD = U * D_inv;
      I_a.noalias() = I_A - UD * U.transpose();
      p_a.noalias() = p_A + I_a * data->c[i];
      p_a += UD * u_i;
    } else if (joint.type() == JointType::kFree) {
      // S = I (body-frame [w; v]): U = I_A and D = I_A; fixed-size products throughout.
      Matrix6d D = I_A;
      D.diagonal() += tree.armature().segment<6>(iv);
      if (!(D.array() == data->free_D[i].array()).all()) {
        data->free_D[i] = D;
        data->free_D_inv[i] = InverseOfPositiveDefinite(D);
      }
      const Matrix6d& D_inv = data->free_D_inv[i];
      const Vector6d u_i = u.segment<6>(iv) - p_A;
      data->U[i] = I_A;
      data->D_inv[i] = D_inv;
      data->u[i] = u_i;
      if (p < 0) continue;
      const Matrix6d UD = I_A * D_inv;
      I_a.noalias() = I_A - UD * I_A;
      p_a.noalias() = p_A + I_a * data->c[i];
      p_a.noalias() += UD * u_i;
    } else {
      InertiaTimes(I_A, S, &data->U[i]);
      JointMatrix D = S.transpose() * data->U[i];
      D.diagonal() += tree.armature().segment(iv, nv);
      data->D_inv[i] = D.inverse();
      JointVector S_p(nv);
      TransposeTimes(S, p_A, S_p);
      data->u[i] = u.segment(iv, nv) - S_p;
      if (p < 0) continue;
      // Coefficient-wise (lazy) products: Eigen's blocked product would allocate a workspace
      // for the dynamic inner dimension nv.
      const MotionSubspace UD = data->U[i].lazyProduct(data->D_inv[i]);
      I_a.noalias() = I_A - UD.lazyProduct(data->U[i].transpose());
      p_a.noalias() = p_A + I_a * data->c[i];
      p_a.noalias() += UD * data->u[i];
    }
    if (kHybrid && data->driven[p] != 0) {
      // A free subtree on a driven body: its articulated equation at the parent's known
      // acceleration gives the force it needs.
      if (!driven_forces) continue;
      Vector6d f = p_a;
      f.noalias() += I_a * data->X_PB[i].InvActMotion(data->A[p]);
      data->F[p] += data->X_PB[i].ActForce(f);
      continue;
    }
    data->X_PB[i].AddActInertia(I_a, &data->I_A[p]);
    data->p_A[p] += data->X_PB[i].ActForce(p_a);
  }
  // Pass 3, root to leaves: accelerations (and for the hybrid case the joint forces).
  for (int i = 0; i < n; ++i) {
    const Joint& joint = tree.joint(i);
    const int p = tree.parent(i);
    const int iv = tree.idx_v(i);
    const int nv = joint.nv();
    if (kHybrid && data->driven[i] != 0) {
      // A and F are complete from passes 1 and 2.
      if (driven_forces) SetPrescribedJointForce(tree, i, data);
      continue;
    }
    Vector6d& A = data->A[i];
    A = data->X_PB[i].InvActMotion(p < 0 ? a0 : data->A[p]) + data->c[i];
    if (kHybrid && prescribed[i]) {
      data->qdd.segment(iv, nv) = u.segment(iv, nv);
    } else if (nv == 1) {
      data->qdd[iv] = data->D_inv[i](0, 0) * (data->u[i][0] - Column(data->U[i]).dot(A));
    } else if (joint.type() == JointType::kFree) {
      const Eigen::Map<const Matrix6d> U(data->U[i].data()), D_inv(data->D_inv[i].data());
      const Eigen::Map<const Vector6d> u_i(data->u[i].data());
      data->qdd.segment<6>(iv).noalias() = D_inv * (u_i - U.transpose() * A);
    } else {
      JointVector U_A(nv);
      TransposeTimes(data->U[i], A, U_A);
      const JointVector u_minus_U_A = data->u[i] - U_A;
      data->qdd.segment(iv, nv) = data->D_inv[i].lazyProduct(u_minus_U_A);
    }
    A += JointVelocity(joint, data->qdd, iv);
    if constexpr (kHybrid) {
      // The articulated-body equation F = I_A A + p_A: the force through the joint that
      // accelerates the subtree at A against its bias forces.
      data->F[i].noalias() = data->I_A[i] * A;
      data->F[i] += data->p_A[i];
      if (prescribed[i]) {
        SetPrescribedJointForce(tree, i, data);
      } else {
        data->tau.segment(iv, nv) = u.segment(iv, nv);
      }
    }
  }
  return data->qdd;
}

// Crba over every body (in_subtrees == nullptr) or over the bodies of a set closed under
// descendants: their composite inertias, and the rows of M of their joints (with every
// ancestor's joint). The other entries of M stay zero.
const Eigen::MatrixXd& CrbaImpl(const KinematicTree& tree, KinematicTreeData* data,
                                const Eigen::Ref<const Eigen::VectorXd>& q,
                                const std::vector<bool>* in_subtrees) {
  const int n = tree.num_bodies();
  auto counted = [in_subtrees](int i) { return in_subtrees == nullptr || (*in_subtrees)[i]; };
  // Every pose: a counted body's column runs through its ancestors' transforms.
  const bool posed = data->PosedAt(q);
  for (int i = 0; i < n; ++i) {
    if (!posed) CalcBodyPose(tree, i, q, &data->X_PB[i]);
    if (counted(i)) data->I_C[i] = tree.inertia_matrix(i);
  }
  // Composite inertias, leaves first: each subtree's inertia is added to its parent's. A
  // counted body's descendants are counted, so its composite is whole.
  for (int i = n - 1; i >= 0; --i) {
    const int p = tree.parent(i);
    if (p >= 0 && counted(i) && counted(p))
      data->X_PB[i].AddActRigidInertia(data->I_C[i], &data->I_C[p]);
  }
  // Entries of bodies on different branches stay zero.
  data->M.setZero();
  for (int i = 0; i < n; ++i) {
    if (!counted(i)) continue;
    const Joint& joint_i = tree.joint(i);
    const int iv = tree.idx_v(i);
    const int nv_i = joint_i.nv();
    if (nv_i == 1) {
      // F: the force that a unit acceleration of joint i needs on its subtree, carried down
      // to the root to project it on every ancestor joint.
      Vector6d F = data->I_C[i] * Column(joint_i.motion_subspace());
      data->M(iv, iv) = Column(joint_i.motion_subspace()).dot(F) + tree.armature()[iv];
      for (int j = i; tree.parent(j) >= 0;) {
        F = data->X_PB[j].ActForce(F);
        j = tree.parent(j);
        const Joint& joint_j = tree.joint(j);
        const int jv = tree.idx_v(j);
        if (joint_j.nv() == 1) {
          data->M(jv, iv) = data->M(iv, jv) = Column(joint_j.motion_subspace()).dot(F);
        } else {
          for (int r = 0; r < joint_j.nv(); ++r) {
            data->M(jv + r, iv) = data->M(iv, jv + r) = joint_j.motion_subspace().col(r).dot(F);
          }
        }
      }
      continue;
    }
    // The same with nv_i columns.
    MotionSubspace F;
    InertiaTimes(data->I_C[i], joint_i.motion_subspace(), &F);
    SetMassBlock(joint_i.motion_subspace(), F, iv, iv, &data->M);
    for (int k = iv; k < iv + nv_i; ++k) data->M(k, k) += tree.armature()[k];
    for (int j = i; tree.parent(j) >= 0;) {
      for (int k = 0; k < nv_i; ++k) F.col(k) = data->X_PB[j].ActForce(F.col(k));
      j = tree.parent(j);
      const Joint& joint_j = tree.joint(j);
      const int jv = tree.idx_v(j);
      SetMassBlock(joint_j.motion_subspace(), F, jv, iv, &data->M);
    }
  }
  return data->M;
}

// 1/2 q (x) (0, w) for a quaternion q = [w, x, y, z] and an angular velocity w in the rotated
// frame, into qdot (4).
template <typename Out>
void QuaternionRate(const double* q, const Eigen::Vector3d& w, Out&& qdot) {
  const Eigen::Vector3d r(q[1], q[2], q[3]);
  qdot[0] = -0.5 * r.dot(w);
  qdot.template tail<3>() = 0.5 * (q[0] * w + r.cross(w));
}

}  // namespace

void ForwardKinematics(const KinematicTree& tree, KinematicTreeData* data,
                       const Eigen::Ref<const Eigen::VectorXd>& q) {
  CheckSize("ForwardKinematics", "q", q.size(), tree.nq());
  const bool posed = data->PosedAt(q);
  for (int i = 0; i < tree.num_bodies(); ++i) {
    Pose& X_PB = data->X_PB[i];
    if (!posed) CalcBodyPose(tree, i, q, &X_PB);
    const int p = tree.parent(i);
    if (p < 0) {
      data->X_WB[i] = X_PB;
    } else {
      const Pose& X_WP = data->X_WB[p];
      data->X_WB[i].rotation.noalias() = X_WP.rotation * X_PB.rotation;
      data->X_WB[i].translation.noalias() = X_WP.rotation * X_PB.translation;
      data->X_WB[i].translation += X_WP.translation;
    }
  }
}

void ForwardKinematics(const KinematicTree& tree, KinematicTreeData* data,
                       const Eigen::Ref<const Eigen::VectorXd>& q,
                       const Eigen::Ref<const Eigen::VectorXd>& v) {
  CheckSize("ForwardKinematics", "v", v.size(), tree.nv());
  ForwardKinematics(tree, data, q);
  for (int i = 0; i < tree.num_bodies(); ++i) {
    const int p = tree.parent(i);
    data->V[i] = JointVelocity(tree.joint(i), v, tree.idx_v(i));
    if (p >= 0) data->V[i] += data->X_PB[i].InvActMotion(data->V[p]);
  }
}

const Eigen::VectorXd& Rnea(const KinematicTree& tree, KinematicTreeData* data,
                            const Eigen::Ref<const Eigen::VectorXd>& q,
                            const Eigen::Ref<const Eigen::VectorXd>& v,
                            const Eigen::Ref<const Eigen::VectorXd>& a,
                            const std::vector<Vector6d>* f_ext) {
  CheckSize("Rnea", "q", q.size(), tree.nq());
  CheckSize("Rnea", "v", v.size(), tree.nv());
  CheckSize("Rnea", "a", a.size(), tree.nv());
  CheckExternalForces("Rnea", tree, f_ext);
  return RneaImpl(tree, data, q, v, &a, f_ext);
}

const Eigen::VectorXd& NonlinearEffects(const KinematicTree& tree, KinematicTreeData* data,
                                        const Eigen::Ref<const Eigen::VectorXd>& q,
                                        const Eigen::Ref<const Eigen::VectorXd>& v) {
  CheckSize("NonlinearEffects", "q", q.size(), tree.nq());
  CheckSize("NonlinearEffects", "v", v.size(), tree.nv());
  return RneaImpl(tree, data, q, v, nullptr, nullptr);
}

const Eigen::MatrixXd& Crba(const KinematicTree& tree, KinematicTreeData* data,
                            const Eigen::Ref<const Eigen::VectorXd>& q) {
  CheckSize("Crba", "q", q.size(), tree.nq());
  return CrbaImpl(tree, data, q, nullptr);
}

const Eigen::MatrixXd& CrbaOfSubtrees(const KinematicTree& tree, KinematicTreeData* data,
                                      const Eigen::Ref<const Eigen::VectorXd>& q,
                                      const std::vector<bool>& in_subtrees) {
  CheckSize("CrbaOfSubtrees", "q", q.size(), tree.nq());
  CheckSize("CrbaOfSubtrees", "in_subtrees", static_cast<Eigen::Index>(in_subtrees.size()),
            tree.num_bodies());
  return CrbaImpl(tree, data, q, &in_subtrees);
}

const Eigen::VectorXd& Aba(const KinematicTree& tree, KinematicTreeData* data,
                           const Eigen::Ref<const Eigen::VectorXd>& q,
                           const Eigen::Ref<const Eigen::VectorXd>& v,
                           const Eigen::Ref<const Eigen::VectorXd>& tau,
                           const std::vector<Vector6d>* f_ext) {
  CheckSize("Aba", "q", q.size(), tree.nq());
  CheckSize("Aba", "v", v.size(), tree.nv());
  CheckSize("Aba", "tau", tau.size(), tree.nv());
  CheckExternalForces("Aba", tree, f_ext);
  return AbaImpl<false>(tree, data, &q, v, tau, nullptr, f_ext, true);
}

const Eigen::VectorXd& AbaHybrid(const KinematicTree& tree, KinematicTreeData* data,
                                 const Eigen::Ref<const Eigen::VectorXd>& q,
                                 const Eigen::Ref<const Eigen::VectorXd>& v,
                                 const Eigen::Ref<const Eigen::VectorXd>& u,
                                 const std::vector<unsigned char>& prescribed,
                                 const std::vector<Vector6d>* f_ext, DrivenForces driven_forces) {
  CheckSize("AbaHybrid", "q", q.size(), tree.nq());
  CheckSize("AbaHybrid", "v", v.size(), tree.nv());
  CheckSize("AbaHybrid", "u", u.size(), tree.nv());
  CheckSize("AbaHybrid", "prescribed", static_cast<Eigen::Index>(prescribed.size()),
            tree.num_bodies());
  CheckExternalForces("AbaHybrid", tree, f_ext);
  return AbaImpl<true>(tree, data, &q, v, u, prescribed.data(), f_ext,
                       driven_forces == DrivenForces::kCompute);
}

const Eigen::VectorXd& AbaHybridAfterKinematics(const KinematicTree& tree, KinematicTreeData* data,
                                                const Eigen::Ref<const Eigen::VectorXd>& v,
                                                const Eigen::Ref<const Eigen::VectorXd>& u,
                                                const std::vector<unsigned char>& prescribed,
                                                const std::vector<Vector6d>* f_ext,
                                                DrivenForces driven_forces) {
  CheckSize("AbaHybridAfterKinematics", "v", v.size(), tree.nv());
  CheckSize("AbaHybridAfterKinematics", "u", u.size(), tree.nv());
  CheckSize("AbaHybridAfterKinematics", "prescribed", static_cast<Eigen::Index>(prescribed.size()),
            tree.num_bodies());
  CheckExternalForces("AbaHybridAfterKinematics", tree, f_ext);
  return AbaImpl<true>(tree, data, nullptr, v, u, prescribed.data(), f_ext,
                       driven_forces == DrivenForces::kCompute);
}

double KineticEnergy(const KinematicTree& tree, const KinematicTreeData& data) {
  double energy = 0.0;
  for (int i = 0; i < tree.num_bodies(); ++i) {
    energy += 0.5 * data.V[i].dot(tree.body(i).inertia.Apply(data.V[i]));
  }
  return energy;
}

double DriveKineticEnergy(const KinematicTree& tree, const Eigen::Ref<const Eigen::VectorXd>& v) {
  return 0.5 * v.dot(tree.armature().cwiseProduct(v));
}

double PotentialEnergy(const KinematicTree& tree, const KinematicTreeData& data) {
  double energy = 0.0;
  for (int i = 0; i < tree.num_bodies(); ++i) {
    const SpatialInertia& I = tree.body(i).inertia;
    energy -= I.mass() * tree.gravity().dot(data.X_WB[i].TransformPoint(I.com()));
  }
  return energy;
}

void CalcQDot(const KinematicTree& tree, const Eigen::Ref<const Eigen::VectorXd>& q,
              const Eigen::Ref<const Eigen::VectorXd>& v, Eigen::Ref<Eigen::VectorXd> qdot) {
  CheckSize("CalcQDot", "q", q.size(), tree.nq());
  CheckSize("CalcQDot", "v", v.size(), tree.nv());
  CheckSize("CalcQDot", "qdot", qdot.size(), tree.nq());
  for (int i = 0; i < tree.num_bodies(); ++i) {
    const int iq = tree.idx_q(i), iv = tree.idx_v(i);
    switch (tree.joint(i).type()) {
      case JointType::kRevolute:
      case JointType::kPrismatic:
        qdot[iq] = v[iv];
        break;
      case JointType::kSpherical:
        QuaternionRate(q.data() + iq, v.segment<3>(iv), qdot.segment<4>(iq));
        break;
      case JointType::kFree: {
        const Eigen::Quaterniond r(q[iq + 3], q[iq + 4], q[iq + 5], q[iq + 6]);
        // The rotation of the normalized quaternion, as CalcJointPose uses.
        qdot.segment<3>(iq) = r.normalized() * v.segment<3>(iv + 3);
        QuaternionRate(q.data() + iq + 3, v.segment<3>(iv), qdot.segment<4>(iq + 3));
        break;
      }
    }
  }
}

void NormalizeQuaternions(const KinematicTree& tree, Eigen::Ref<Eigen::VectorXd> q) {
  CheckSize("NormalizeQuaternions", "q", q.size(), tree.nq());
  for (int i = 0; i < tree.num_bodies(); ++i) {
    const int iq = tree.idx_q(i);
    switch (tree.joint(i).type()) {
      case JointType::kSpherical:
        q.segment<4>(iq).normalize();
        break;
      case JointType::kFree:
        q.segment<4>(iq + 3).normalize();
        break;
      default:
        break;
    }
  }
}

void NeutralConfiguration(const KinematicTree& tree, Eigen::Ref<Eigen::VectorXd> q) {
  CheckSize("NeutralConfiguration", "q", q.size(), tree.nq());
  q.setZero();
  for (int i = 0; i < tree.num_bodies(); ++i) {
    const int iq = tree.idx_q(i);
    switch (tree.joint(i).type()) {
      case JointType::kSpherical:
        q[iq] = 1.0;
        break;
      case JointType::kFree:
        q[iq + 3] = 1.0;
        break;
      default:
        break;
    }
  }
}

}  // namespace twinblocks::multibody
