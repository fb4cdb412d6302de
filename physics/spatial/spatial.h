#pragma once

// Spatial algebra for rigid-body dynamics in minimal coordinates (Featherstone, "Rigid Body
// Dynamics Algorithms", 2008, chapter 2), on Eigen fixed-size types so that nothing allocates.
//
// Convention, used everywhere in blocks/multibody:
//   - A spatial motion vector (twist, spatial velocity or acceleration) is [angular; linear]:
//     V = [w; v], w in rad/s, v in m/s, v the velocity of the point at the frame origin.
//   - A spatial force vector (wrench, momentum) is [angular; linear]: F = [n; f], n in N m
//     about the frame origin, f in N.
//   - A vector named with a frame suffix (V_B) is expressed in the coordinates of frame B.
//   - Pose X_AB is the pose of frame B in frame A: rotation R_AB and translation p_AB_A (the
//     origin of B measured from the origin of A, in A's coordinates). It maps B coordinates
//     to A coordinates: p_A = R_AB p_B + p_AB_A.

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace twinblocks::multibody {

using Vector6d = Eigen::Matrix<double, 6, 1>;
using Matrix6d = Eigen::Matrix<double, 6, 6>;

/// The skew-symmetric matrix [v]x with [v]x u = v x u.
inline Eigen::Matrix3d Skew(const Eigen::Vector3d& v) {
  Eigen::Matrix3d s;
  s << 0.0, -v.z(), v.y(), v.z(), 0.0, -v.x(), -v.y(), v.x(), 0.0;
  return s;
}

/// Rotation matrices about the x, y, z axis by `angle` (rad): the orientation R_AB of a frame
/// B turned by `angle` about the axis of A (active rotation, right-hand rule).
inline Eigen::Matrix3d Rx(double angle) {
  return Eigen::AngleAxisd(angle, Eigen::Vector3d::UnitX()).toRotationMatrix();
}
inline Eigen::Matrix3d Ry(double angle) {
  return Eigen::AngleAxisd(angle, Eigen::Vector3d::UnitY()).toRotationMatrix();
}
inline Eigen::Matrix3d Rz(double angle) {
  return Eigen::AngleAxisd(angle, Eigen::Vector3d::UnitZ()).toRotationMatrix();
}

/// A rigid transform (element of SE(3)): the pose X_AB of frame B in frame A. See the
/// convention at the top of this file.
struct Pose {
  Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();  ///< R_AB (3 x 3), orthonormal
  Eigen::Vector3d translation = Eigen::Vector3d::Zero();   ///< p_AB_A (m)

  Pose() = default;
  Pose(const Eigen::Matrix3d& R_AB, const Eigen::Vector3d& p_AB_A)
      : rotation(R_AB), translation(p_AB_A) {}

  static Pose Identity() { return {}; }
  /// A pure rotation (rad) about x, y or z.
  static Pose RotX(double angle) { return {Rx(angle), Eigen::Vector3d::Zero()}; }
  static Pose RotY(double angle) { return {Ry(angle), Eigen::Vector3d::Zero()}; }
  static Pose RotZ(double angle) { return {Rz(angle), Eigen::Vector3d::Zero()}; }
  /// A pure translation (m).
  static Pose Translation(const Eigen::Vector3d& p) { return {Eigen::Matrix3d::Identity(), p}; }

  /// Composition X_AC = X_AB * X_BC.
  /// Written into the result's members: the expression form left the translation in pieces
  /// on the stack and read it back whole (a stalled store forwarding, the largest single cost
  /// of placing a grasp's contacts). The same products, so the same bits.
  Pose operator*(const Pose& X_BC) const {
    Pose X_AC(Uninitialized{});
    X_AC.rotation.noalias() = rotation * X_BC.rotation;
    X_AC.translation.noalias() = rotation * X_BC.translation;
    X_AC.translation += translation;
    return X_AC;
  }

  /// X_BA from X_AB.
  Pose Inverse() const {
    const Eigen::Matrix3d R_BA = rotation.transpose();
    return {R_BA, -(R_BA * translation)};
  }

  /// A point or position p_B (m, in B) re-expressed from A's origin in A: R_AB p_B + p_AB_A.
  Eigen::Vector3d TransformPoint(const Eigen::Vector3d& p_B) const {
    return rotation * p_B + translation;
  }

  /// A motion vector given in B, expressed in A (Featherstone's A_X_B m):
  /// w_A = R w_B, v_A = R v_B + p x (R w_B).
  Vector6d ActMotion(const Vector6d& m_B) const {
    Vector6d m_A;
    m_A.head<3>() = rotation * m_B.head<3>();
    m_A.tail<3>() = rotation * m_B.tail<3>() + translation.cross(m_A.head<3>());
    return m_A;
  }

  /// A motion vector given in A, expressed in B (B_X_A m): w_B = R^T w_A,
  /// v_B = R^T (v_A - p x w_A). R^T x is written as dot products with R's (contiguous)
  /// columns: this runs twice per body in ABA and RNEA.
  Vector6d InvActMotion(const Vector6d& m_A) const {
    const Eigen::Vector3d w = m_A.head<3>();
    const Eigen::Vector3d v = m_A.tail<3>() - translation.cross(w);
    Vector6d m_B;
    for (int j = 0; j < 3; ++j) {
      m_B[j] = rotation.col(j).dot(w);
      m_B[3 + j] = rotation.col(j).dot(v);
    }
    return m_B;
  }

  /// A force vector given in B, expressed in A (A_X*_B f): f_A = R f_B,
  /// n_A = R n_B + p x f_A.
  Vector6d ActForce(const Vector6d& f_B) const {
    Vector6d f_A;
    f_A.tail<3>() = rotation * f_B.tail<3>();
    f_A.head<3>() = rotation * f_B.head<3>() + translation.cross(f_A.tail<3>());
    return f_A;
  }

  /// A force vector given in A, expressed in B (B_X*_A f): f_B = R^T f_A,
  /// n_B = R^T (n_A - p x f_A).
  Vector6d InvActForce(const Vector6d& f_A) const {
    const Eigen::Vector3d f = f_A.tail<3>();
    const Eigen::Vector3d n = f_A.head<3>() - translation.cross(f);
    Vector6d f_B;
    for (int j = 0; j < 3; ++j) {
      f_B[j] = rotation.col(j).dot(n);
      f_B[3 + j] = rotation.col(j).dot(f);
    }
    return f_B;
  }

  /// The 6 x 6 Pluecker matrix of ActMotion: [R 0; [p]x R  R].
  Matrix6d MotionMatrix() const {
    Matrix6d X;
    X.topLeftCorner<3, 3>() = rotation;
    X.topRightCorner<3, 3>().setZero();
    X.bottomLeftCorner<3, 3>() = Skew(translation) * rotation;
    X.bottomRightCorner<3, 3>() = rotation;
    return X;
  }

  /// The 6 x 6 matrix of ActForce: [R  [p]x R; 0 R] (the inverse transpose of MotionMatrix).
  Matrix6d ForceMatrix() const {
    Matrix6d X;
    X.topLeftCorner<3, 3>() = rotation;
    X.topRightCorner<3, 3>() = Skew(translation) * rotation;
    X.bottomLeftCorner<3, 3>().setZero();
    X.bottomRightCorner<3, 3>() = rotation;
    return X;
  }

  /// A 6 x 6 spatial inertia (or articulated inertia) I_B given in B, expressed in A:
  /// I_A = A_X*_B I_B B_X_A. Works for any symmetric matrix mapping motion to force.
  /// This is the innermost cost of CRBA and ABA (once per body), so it is done by 3 x 3 blocks
  /// with the products by P = [p]x written as cross products, about a third of the work of
  /// the two 6 x 6 products: with I_B = [Q S; S^T T] rotated into A's axes (Q' = R Q R^T, ...),
  /// I_A = [Q' + P S'^T - S' P - P T' P,  S' + P T';  (S' + P T')^T,  T'], and with
  /// S_top = S' + P T' the top-left block is Q' + (P S'^T)^T + P S_top^T (as -S' P =
  /// (P S'^T)^T and -P T' P = P (P T')^T for symmetric T').
  Matrix6d ActInertia(const Matrix6d& I_B) const {
    Matrix6d I_A = Matrix6d::Zero();
    AddActInertia(I_B, &I_A);
    return I_A;
  }

  /// *I_A += ActInertia(I_B) for a rigid-body inertia I_B = [Ibar [h]x; [h]x^T m 1] (a body's,
  /// or a sum of bodies': the composite inertias of CRBA), from its ten numbers m, h = m c and
  /// Ibar (about B's origin): h_A = R h + m p and Ibar_A = R Ibar R^T - [p]x [R h]x - [h_A]x [p]x
  /// (Featherstone 2008, "Rigid Body Dynamics Algorithms", eq. 2.66), about half the work of
  /// AddActInertia. Only I_B's rigid-body entries are read.
  void AddActRigidInertia(const Matrix6d& I_B, Matrix6d* I_A) const {
    const Eigen::Matrix3d& R = rotation;
    const Eigen::Vector3d& p = translation;
    const double m = I_B(3, 3);
    const Eigen::Vector3d h(I_B(2, 4), I_B(0, 5), I_B(1, 3));
    const Eigen::Vector3d Rh = R * h;
    const Eigen::Vector3d h_A = Rh + m * p;
    Eigen::Matrix3d RI;
    RI.noalias() = R * I_B.topLeftCorner<3, 3>();
    Eigen::Matrix3d Ibar;
    Ibar.noalias() = RI * R.transpose();
    // [a]x [b]x = b a^T - (a . b) 1.
    Ibar.noalias() -= Rh * p.transpose();
    Ibar.noalias() -= p * h_A.transpose();
    Ibar.diagonal().array() += p.dot(Rh) + h_A.dot(p);
    Matrix6d& out = *I_A;
    out.topLeftCorner<3, 3>() += Ibar;
    const Eigen::Matrix3d H = Skew(h_A);
    out.topRightCorner<3, 3>() += H;
    out.bottomLeftCorner<3, 3>() -= H;
    out(3, 3) += m;
    out(4, 4) += m;
    out(5, 5) += m;
  }

  /// *I_A += ActInertia(I_B), without the 6 x 6 temporary: the articulated-body and
  /// composite-rigid-body algorithms accumulate every child's inertia into its parent's.
  void AddActInertia(const Matrix6d& I_B, Matrix6d* I_A) const {
    const Eigen::Matrix3d& R = rotation;
    const Eigen::Vector3d& p = translation;
    // Full 3 x 3 products: Eigen unrolls them, which beats exploiting the symmetry of Q' and
    // T' with strided row access.
    Eigen::Matrix3d RX, Q, S, T;
    RX.noalias() = R * I_B.bottomRightCorner<3, 3>();
    T.noalias() = RX * R.transpose();
    RX.noalias() = R * I_B.topLeftCorner<3, 3>();
    Q.noalias() = RX * R.transpose();
    RX.noalias() = R * I_B.topRightCorner<3, 3>();
    S.noalias() = RX * R.transpose();
    // S_top = S' + P T', columns S'_j + p x T'_j.
    Eigen::Matrix3d S_top;
    for (int j = 0; j < 3; ++j) S_top.col(j) = S.col(j) + p.cross(T.col(j));
    // Q' + (P S'^T)^T + P S_top^T, by columns of the transposes: P X^T has columns p x (row j
    // of X) = p x (column j of X^T).
    const Eigen::Matrix3d S_t = S.transpose(), S_top_t = S_top.transpose();
    Eigen::Matrix3d W, Y;
    for (int j = 0; j < 3; ++j) {
      W.col(j) = p.cross(S_t.col(j));
      Y.col(j) = p.cross(S_top_t.col(j));
    }
    Q += W.transpose();
    Q += Y;
    Matrix6d& out = *I_A;
    out.topLeftCorner<3, 3>() += Q;
    out.topRightCorner<3, 3>() += S_top;
    out.bottomLeftCorner<3, 3>() += S_top_t;
    out.bottomRightCorner<3, 3>() += T;
  }

 private:
  /// For results written whole right after (operator*): no identity to overwrite.
  struct Uninitialized {};
  explicit Pose(Uninitialized) : rotation(), translation() {}
};

/// Motion cross product m x n (Featherstone's crm(m) n): the rate of change of motion vector n
/// moving with velocity m. Both in the same frame.
inline Vector6d CrossMotion(const Vector6d& m, const Vector6d& n) {
  Vector6d r;
  r.head<3>() = m.head<3>().cross(n.head<3>());
  r.tail<3>() = m.head<3>().cross(n.tail<3>()) + m.tail<3>().cross(n.head<3>());
  return r;
}

/// Force cross product m x* f (crf(m) f): the rate of change of force vector f moving with
/// velocity m. Both in the same frame.
inline Vector6d CrossForce(const Vector6d& m, const Vector6d& f) {
  Vector6d r;
  r.head<3>() = m.head<3>().cross(f.head<3>()) + m.tail<3>().cross(f.tail<3>());
  r.tail<3>() = m.head<3>().cross(f.tail<3>());
  return r;
}

/// The 6 x 6 matrix crm(m) = [[w]x 0; [v]x [w]x] with crm(m) n = CrossMotion(m, n).
inline Matrix6d Crm(const Vector6d& m) {
  Matrix6d X = Matrix6d::Zero();
  const Eigen::Matrix3d wx = Skew(m.head<3>());
  X.topLeftCorner<3, 3>() = wx;
  X.bottomLeftCorner<3, 3>() = Skew(m.tail<3>());
  X.bottomRightCorner<3, 3>() = wx;
  return X;
}

/// The 6 x 6 matrix crf(m) = -crm(m)^T with crf(m) f = CrossForce(m, f).
inline Matrix6d Crf(const Vector6d& m) { return -Crm(m).transpose(); }

/// The spatial inertia of one rigid body about the origin of its frame B, from its mass, centre
/// of mass and rotational inertia about the centre of mass (Featherstone eq. 2.63):
/// I = [Ic + m [c]x [c]x^T,  m [c]x;  m [c]x^T,  m 1].
class SpatialInertia {
 public:
  SpatialInertia() = default;
  /// @param mass  m (kg), >= 0.
  /// @param p_BCm_B  centre of mass from B's origin, in B (m).
  /// @param I_Cm_B  rotational inertia about the centre of mass, axes of B (kg m^2), symmetric.
  SpatialInertia(double mass, const Eigen::Vector3d& p_BCm_B, const Eigen::Matrix3d& I_Cm_B)
      : mass_(mass), com_(p_BCm_B), inertia_com_(I_Cm_B) {}

  double mass() const { return mass_; }                                ///< kg
  const Eigen::Vector3d& com() const { return com_; }                  ///< p_BCm_B (m)
  const Eigen::Matrix3d& inertia_com() const { return inertia_com_; }  ///< I_Cm_B (kg m^2)

  /// The momentum h = I V (N m s; N s) of the body moving with spatial velocity V, both in B.
  /// n = Ic w + m c x (v - c x w), f = m (v - c x w).
  Vector6d Apply(const Vector6d& V) const {
    const Eigen::Vector3d w = V.head<3>();
    // Velocity of the centre of mass, times mass: the linear momentum.
    const Eigen::Vector3d f = mass_ * (V.tail<3>() - com_.cross(w));
    Vector6d h;
    h.head<3>() = inertia_com_ * w + com_.cross(f);
    h.tail<3>() = f;
    return h;
  }

  /// The 6 x 6 matrix form about B's origin.
  Matrix6d Matrix() const {
    const Eigen::Matrix3d cx = Skew(com_);
    Matrix6d I;
    I.topLeftCorner<3, 3>() = inertia_com_ + mass_ * cx * cx.transpose();
    I.topRightCorner<3, 3>() = mass_ * cx;
    I.bottomLeftCorner<3, 3>() = mass_ * cx.transpose();
    I.bottomRightCorner<3, 3>() = mass_ * Eigen::Matrix3d::Identity();
    return I;
  }

  /// The same body described in frame A, given the pose X_AB (rigid bodies stay rigid bodies,
  /// so this is exact and cheaper than the 6 x 6 congruence).
  SpatialInertia TransformedBy(const Pose& X_AB) const {
    return {mass_, X_AB.TransformPoint(com_),
            X_AB.rotation * inertia_com_ * X_AB.rotation.transpose()};
  }

 private:
  double mass_ = 0.0;
  Eigen::Vector3d com_ = Eigen::Vector3d::Zero();
  Eigen::Matrix3d inertia_com_ = Eigen::Matrix3d::Zero();
};

}  // namespace twinblocks::multibody
