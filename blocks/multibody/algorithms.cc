#include "blocks/multibody/algorithms.h"

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

// The world's spatial acceleration: gravity enters as an upward acceleration of the base,
// so every body's acceleration is offset by -g and the joint forces include its weight.
Vector6d WorldAcceleration(const KinematicTree& tree) {
  Vector6d a0;
  a0.head<3>().setZero();
  a0.tail<3>() = -tree.gravity();
  return a0;
}

// X_PB(q) of body i.
Pose BodyPose(const KinematicTree& tree, int i, const Eigen::Ref<const Eigen::VectorXd>& q) {
  const Joint& joint = tree.joint(i);
  return tree.body(i).X_PJ * joint.CalcJointPose(q.segment(tree.idx_q(i), joint.nq()));
}

// Products with a joint's motion subspace S (6 x nv) and its relatives, column by column:
// nv is at most 6 and usually 1, where Eigen's general dynamic-size product costs more than
// the arithmetic.

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
                                const Eigen::Ref<const Eigen::VectorXd>* a) {
  const Vector6d a0 = WorldAcceleration(tree);
  const int n = tree.num_bodies();
  for (int i = 0; i < n; ++i) {
    const Joint& joint = tree.joint(i);
    const MotionSubspace& S = joint.motion_subspace();
    const int iv = tree.idx_v(i);
    const int nv = joint.nv();
    const int p = tree.parent(i);
    const Pose& X = data->X_PB[i] = BodyPose(tree, i, q);
    const Vector6d v_J = SubspaceTimes(S, v.segment(iv, nv));
    Vector6d V = v_J;
    Vector6d A = X.InvActMotion(p < 0 ? a0 : data->A[p]);
    if (p >= 0) {
      V += X.InvActMotion(data->V[p]);
      // The joint's velocity seen from the moving body frame (zero for a root body, whose
      // V equals v_J).
      A += CrossMotion(V, v_J);
    }
    if (a != nullptr) A += SubspaceTimes(S, a->segment(iv, nv));
    const SpatialInertia& I = tree.body(i).inertia;
    data->V[i] = V;
    data->A[i] = A;
    data->F[i] = I.Apply(A) + CrossForce(V, I.Apply(V));
  }
  for (int i = n - 1; i >= 0; --i) {
    const Joint& joint = tree.joint(i);
    TransposeTimes(joint.motion_subspace(), data->F[i],
                   data->tau.segment(tree.idx_v(i), joint.nv()));
    const int p = tree.parent(i);
    if (p >= 0) data->F[p] += data->X_PB[i].ActForce(data->F[i]);
  }
  return data->tau;
}

}  // namespace

void ForwardKinematics(const KinematicTree& tree, KinematicTreeData* data,
                       const Eigen::Ref<const Eigen::VectorXd>& q) {
  CheckSize("ForwardKinematics", "q", q.size(), tree.nq());
  for (int i = 0; i < tree.num_bodies(); ++i) {
    const Pose& X_PB = data->X_PB[i] = BodyPose(tree, i, q);
    const int p = tree.parent(i);
    data->X_WB[i] = p < 0 ? X_PB : data->X_WB[p] * X_PB;
  }
}

void ForwardKinematics(const KinematicTree& tree, KinematicTreeData* data,
                       const Eigen::Ref<const Eigen::VectorXd>& q,
                       const Eigen::Ref<const Eigen::VectorXd>& v) {
  CheckSize("ForwardKinematics", "v", v.size(), tree.nv());
  ForwardKinematics(tree, data, q);
  for (int i = 0; i < tree.num_bodies(); ++i) {
    const Joint& joint = tree.joint(i);
    const int p = tree.parent(i);
    data->V[i] = SubspaceTimes(joint.motion_subspace(), v.segment(tree.idx_v(i), joint.nv()));
    if (p >= 0) data->V[i] += data->X_PB[i].InvActMotion(data->V[p]);
  }
}

const Eigen::VectorXd& Rnea(const KinematicTree& tree, KinematicTreeData* data,
                            const Eigen::Ref<const Eigen::VectorXd>& q,
                            const Eigen::Ref<const Eigen::VectorXd>& v,
                            const Eigen::Ref<const Eigen::VectorXd>& a) {
  CheckSize("Rnea", "q", q.size(), tree.nq());
  CheckSize("Rnea", "v", v.size(), tree.nv());
  CheckSize("Rnea", "a", a.size(), tree.nv());
  return RneaImpl(tree, data, q, v, &a);
}

const Eigen::VectorXd& NonlinearEffects(const KinematicTree& tree, KinematicTreeData* data,
                                        const Eigen::Ref<const Eigen::VectorXd>& q,
                                        const Eigen::Ref<const Eigen::VectorXd>& v) {
  CheckSize("NonlinearEffects", "q", q.size(), tree.nq());
  CheckSize("NonlinearEffects", "v", v.size(), tree.nv());
  return RneaImpl(tree, data, q, v, nullptr);
}

const Eigen::MatrixXd& Crba(const KinematicTree& tree, KinematicTreeData* data,
                            const Eigen::Ref<const Eigen::VectorXd>& q) {
  CheckSize("Crba", "q", q.size(), tree.nq());
  const int n = tree.num_bodies();
  for (int i = 0; i < n; ++i) {
    data->X_PB[i] = BodyPose(tree, i, q);
    data->I_C[i] = tree.inertia_matrix(i);
  }
  // Composite inertias, leaves first: each subtree's inertia is added to its parent's.
  for (int i = n - 1; i >= 0; --i) {
    const int p = tree.parent(i);
    if (p >= 0) data->I_C[p] += data->X_PB[i].ActInertia(data->I_C[i]);
  }
  // Entries of bodies on different branches stay zero.
  data->M.setZero();
  for (int i = 0; i < n; ++i) {
    const Joint& joint_i = tree.joint(i);
    const int iv = tree.idx_v(i);
    const int nv_i = joint_i.nv();
    // F (6 x nv_i): the force that a unit acceleration of joint i needs on its subtree,
    // carried down to the root to project it on every ancestor joint.
    MotionSubspace F;
    InertiaTimes(data->I_C[i], joint_i.motion_subspace(), &F);
    SetMassBlock(joint_i.motion_subspace(), F, iv, iv, &data->M);
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

const Eigen::VectorXd& Aba(const KinematicTree& tree, KinematicTreeData* data,
                           const Eigen::Ref<const Eigen::VectorXd>& q,
                           const Eigen::Ref<const Eigen::VectorXd>& v,
                           const Eigen::Ref<const Eigen::VectorXd>& tau) {
  CheckSize("Aba", "q", q.size(), tree.nq());
  CheckSize("Aba", "v", v.size(), tree.nv());
  CheckSize("Aba", "tau", tau.size(), tree.nv());
  const int n = tree.num_bodies();
  // Pass 1, root to leaves: velocities, velocity-product accelerations, rigid-body inertias
  // and bias forces.
  for (int i = 0; i < n; ++i) {
    const Joint& joint = tree.joint(i);
    const int p = tree.parent(i);
    const Pose& X = data->X_PB[i] = BodyPose(tree, i, q);
    const Vector6d v_J =
        SubspaceTimes(joint.motion_subspace(), v.segment(tree.idx_v(i), joint.nv()));
    Vector6d V = v_J;
    if (p >= 0) V += X.InvActMotion(data->V[p]);
    data->V[i] = V;
    data->c[i] = CrossMotion(V, v_J);
    data->I_A[i] = tree.inertia_matrix(i);
    data->p_A[i] = CrossForce(V, tree.body(i).inertia.Apply(V));
  }
  // Pass 2, leaves to root: articulated inertias and bias forces.
  for (int i = n - 1; i >= 0; --i) {
    const Joint& joint = tree.joint(i);
    const MotionSubspace& S = joint.motion_subspace();
    const int nv = joint.nv();
    InertiaTimes(data->I_A[i], S, &data->U[i]);
    if (nv == 1) {
      data->D_inv[i](0, 0) = 1.0 / S.col(0).dot(data->U[i].col(0));
    } else {
      const JointMatrix D = S.transpose() * data->U[i];
      data->D_inv[i] = D.inverse();
    }
    JointVector S_p(nv);
    TransposeTimes(S, data->p_A[i], S_p);
    data->u[i] = tau.segment(tree.idx_v(i), nv) - S_p;
    const int p = tree.parent(i);
    if (p < 0) continue;
    // Coefficient-wise (lazy) products: Eigen's blocked product would allocate a workspace
    // for the dynamic inner dimension nv.
    const MotionSubspace UD = data->U[i].lazyProduct(data->D_inv[i]);
    const Matrix6d I_a = data->I_A[i] - UD.lazyProduct(data->U[i].transpose());
    const Vector6d p_a = data->p_A[i] + I_a * data->c[i] + UD * data->u[i];
    data->I_A[p] += data->X_PB[i].ActInertia(I_a);
    data->p_A[p] += data->X_PB[i].ActForce(p_a);
  }
  // Pass 3, root to leaves: accelerations.
  const Vector6d a0 = WorldAcceleration(tree);
  for (int i = 0; i < n; ++i) {
    const Joint& joint = tree.joint(i);
    const int p = tree.parent(i);
    const int iv = tree.idx_v(i);
    const Vector6d A = data->X_PB[i].InvActMotion(p < 0 ? a0 : data->A[p]) + data->c[i];
    JointVector U_A(joint.nv());
    TransposeTimes(data->U[i], A, U_A);
    const JointVector u_minus_U_A = data->u[i] - U_A;
    data->qdd.segment(iv, joint.nv()) = data->D_inv[i].lazyProduct(u_minus_U_A);
    data->A[i] = A + SubspaceTimes(joint.motion_subspace(), data->qdd.segment(iv, joint.nv()));
  }
  return data->qdd;
}

double KineticEnergy(const KinematicTree& tree, const KinematicTreeData& data) {
  double energy = 0.0;
  for (int i = 0; i < tree.num_bodies(); ++i) {
    energy += 0.5 * data.V[i].dot(tree.body(i).inertia.Apply(data.V[i]));
  }
  return energy;
}

}  // namespace twinblocks::multibody
