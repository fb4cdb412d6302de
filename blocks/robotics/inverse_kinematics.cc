#include "blocks/robotics/inverse_kinematics.h"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <memory>
#include <sstream>

#include "physics/multibody/algorithms.h"
#include "physics/multibody/dh.h"
#include "physics/multibody/jacobian.h"

namespace twinblocks::blocks {

using multibody::Pose;
using multibody::Rx;
using multibody::Rz;

namespace {

// Lengths (m) and sines or cosines below this count as zero in the geometry checks: a table
// written with pi/2 gives cos = 6e-17, one written with 1.5708 (cos = -4e-6) is rejected,
// because the closed form would then be wrong by micrometres.
constexpr double kGeometryTol = 1e-9;
// Relative slack on the reach conditions (|sin|, |cos| <= 1), so that a target on the
// boundary of the workspace, computed by forward kinematics, still counts as reachable.
constexpr double kReachTol = 1e-12;
// |det J| relative to (upper arm + forearm)^3 at or below which the Jacobian counts as
// singular. det J does not depend on the tool point (moving the point adds a multiple of the
// angular rows to the linear ones); for this arm class it is, up to constant lengths and
// twist sines, the product of the wrist centre's x in frame 1 (0 where the shoulder branches
// meet), the sine of the elbow angle and sin theta_5, so this is about where one of them is
// 1e-9 of its full size and the rates would exceed the Cartesian ones by 1e9.
constexpr double kSingularDet = 1e-9;

std::string Num(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

// Nearest to `prev` among angle + 2 pi k.
double Nearest(double angle, double prev) {
  return angle + 2.0 * M_PI * std::round((prev - angle) / (2.0 * M_PI));
}

int BranchSign(double v, const char* which) {
  if (v != 1.0 && v != -1.0) {
    throw BlockError(
        std::string("parameter 'branch' must hold +1 or -1 for the ") + which + ", got " + Num(v),
        "branch");
  }
  return v > 0.0 ? 1 : -1;
}

}  // namespace

InverseKinematics::InverseKinematics(const Params& params) {
  const Eigen::MatrixXd dh = params.Matrix("dh");
  if (dh.rows() != 6 || dh.cols() != 4 || !dh.allFinite()) {
    throw BlockError(
        "parameter 'dh' must be a 6 x 4 matrix of finite numbers, one row "
        "[alpha, a, d, theta_offset] (rad, m) per joint; got " +
            std::to_string(dh.rows()) + " x " + std::to_string(dh.cols()),
        "dh");
  }
  const bool standard = params.Word("convention") == "standard";
  Pose flange;
  for (int k = 0; k < 6; ++k) {
    d_[k] = dh(k, 2);
    offset_[k] = dh(k, 3);
    if (standard) {
      // Standard row k holds alpha_k, a_k, which the modified table puts in row k + 1.
      alpha_[k] = k == 0 ? 0.0 : dh(k - 1, 0);
      a_[k] = k == 0 ? 0.0 : dh(k - 1, 1);
    } else {
      alpha_[k] = dh(k, 0);
      a_[k] = dh(k, 1);
    }
  }
  if (standard) flange = Pose::Translation({dh(5, 1), 0.0, 0.0}) * Pose::RotX(dh(5, 0));

  // Where alpha_k and a_k of the modified table are in the user's table (1-based rows).
  auto where = [&](int k, const char* column) {
    return "dh row " + std::to_string(standard ? k : k + 1) + " " + column;
  };
  auto fail = [](const std::string& what) {
    throw BlockError(
        "InverseKinematics solves 6R arms with a spherical wrist, axis 2 "
        "perpendicular to axis 1 and axis 3 parallel to axis 2 (PUMA-like): " +
            what,
        "dh");
  };
  // Spherical wrist: axes 4 and 5 meet where a_4 = 0, axis 6 passes through that point
  // where also a_5 = 0 and d_5 = 0; the twists must keep the three axes apart.
  if (std::abs(a_[4]) > kGeometryTol) {
    fail("the wrist is not spherical, " + where(4, "a") + " is " + Num(a_[4]) + ", must be 0");
  }
  if (std::abs(a_[5]) > kGeometryTol) {
    fail("the wrist is not spherical, " + where(5, "a") + " is " + Num(a_[5]) + ", must be 0");
  }
  if (std::abs(d_[4]) > kGeometryTol) {
    fail("the wrist is not spherical, dh row 5 d is " + Num(d_[4]) + ", must be 0");
  }
  for (int k : {4, 5}) {
    if (std::abs(std::sin(alpha_[k])) < kGeometryTol) {
      fail("axes " + std::to_string(k) + " and " + std::to_string(k + 1) + " are parallel (" +
           where(k, "alpha") + " is " + Num(alpha_[k]) + "), the wrist has no third axis");
    }
  }
  if (std::abs(std::cos(alpha_[1])) > kGeometryTol) {
    fail(where(1, "alpha") + " is " + Num(alpha_[1]) + ", must be +-pi/2");
  }
  if (std::abs(std::sin(alpha_[2])) > kGeometryTol) {
    fail(where(2, "alpha") + " is " + Num(alpha_[2]) + ", must be 0 or pi");
  }
  if (std::abs(a_[2]) < kGeometryTol) {
    fail(where(2, "a") + " (the upper arm, from axis 2 to axis 3) must not be 0");
  }

  // The wrist centre (origin of frame 4) seen from frame 3 is (a_3, -sin(alpha_3) d_4,
  // cos(alpha_3) d_4); joint 3 turns its in-plane part (ux, uy), the rest is a constant
  // offset h of the arm's plane along axis 2.
  sigma_ = std::cos(alpha_[2]) > 0.0 ? 1.0 : -1.0;
  ux_ = a_[3];
  uy_ = -std::sin(alpha_[3]) * d_[3];
  h_ = d_[1] + sigma_ * (std::cos(alpha_[3]) * d_[3] + d_[2]);
  forearm_ = std::hypot(ux_, uy_);
  psi_ = std::atan2(uy_, ux_);
  if (forearm_ < kGeometryTol) {
    fail("the wrist centre lies on axis 3 (" + where(3, "a") + " and dh row 4 d are 0)");
  }
  X_0B_ = Pose::RotX(alpha_[0]) * Pose::Translation({a_[0], 0.0, 0.0});

  const Eigen::VectorXd tool = params.Vector("tool");
  if (tool.size() != 3 || !tool.allFinite()) {
    throw BlockError("parameter 'tool' must be [x, y, z], the tool point in frame 6 (m); got " +
                         std::to_string(tool.size()) + " elements",
                     "tool");
  }
  X_6T_ = flange * Pose::Translation(tool);

  const Eigen::VectorXd branch = params.Vector("branch");
  if (branch.size() != 3) {
    throw BlockError("parameter 'branch' must be [shoulder, elbow, wrist], each +1 or -1; got " +
                         std::to_string(branch.size()) + " elements",
                     "branch");
  }
  shoulder_ = BranchSign(branch[0], "shoulder");
  elbow_ = BranchSign(branch[1], "elbow");
  wrist_ = BranchSign(branch[2], "wrist");

  const Eigen::VectorXd q_init = params.Vector("q_init");
  if (q_init.size() != 1 && q_init.size() != 6) {
    throw BlockError("parameter 'q_init' must have 6 elements (or 1, for all joints); got " +
                         std::to_string(q_init.size()),
                     "q_init");
  }
  for (int i = 0; i < 6; ++i) q_init_[i] = q_init.size() == 1 ? q_init[0] : q_init[i];

  derivatives_ = params.Word("derivatives") == "on";
  if (derivatives_) {
    // The modified table (the user's, or the standard one regrouped) with the flange in
    // X_6T_: the same chain the solver inverts, so the rates belong to the q it outputs.
    std::vector<multibody::DhLink> links(6);
    for (int k = 0; k < 6; ++k) {
      links[k].alpha = alpha_[k];
      links[k].a = a_[k];
      links[k].d = d_[k];
      links[k].theta_offset = offset_[k];
    }
    tree_ = std::make_unique<const multibody::KinematicTree>(
        multibody::BuildModifiedDhTree(links, Eigen::Vector3d::Zero()));
    const double reach = std::abs(a_[2]) + forearm_;
    singular_det_ = kSingularDet * reach * reach * reach;
  }

  DeclareInput("position", 3);
  DeclareInput("rotation", 9);
  DeclareOutput("q", 6);
  DeclareOutput("reachable", 1);
  if (derivatives_) {
    DeclareInput("velocity", 6);
    DeclareInput("acceleration", 6);
    DeclareOutput("qd", 6);
    DeclareOutput("qdd", 6);
    DeclareOutput("motion", 18);
  }
  DeclareDWork(derivatives_ ? 18 : 6);
}

struct InverseKinematics::RateWorkspace final : BlockWorkspace {
  explicit RateWorkspace(const multibody::KinematicTree& tree)
      : data(tree), J(6, 6), zero(Eigen::VectorXd::Zero(6)) {}
  multibody::KinematicTreeData data;
  Eigen::MatrixXd J;     ///< (6 x 6) geometric Jacobian of the tool point, base axes
  Eigen::VectorXd zero;  ///< (6) qdd = 0 for the velocity-product pass
  Eigen::PartialPivLU<multibody::Matrix6d> lu;  ///< of J; fixed size, so it never allocates

  void CopyFrom(const BlockWorkspace& other) override {
    *this = static_cast<const RateWorkspace&>(other);
  }
};

std::unique_ptr<BlockWorkspace> InverseKinematics::DoMakeWorkspace() const {
  if (!derivatives_) return nullptr;
  return std::make_unique<RateWorkspace>(*tree_);
}

void InverseKinematics::DoInitialize(Context& c) const {
  double* prev = dwork(c);
  for (int i = 0; i < 6; ++i) prev[i] = q_init_[i];
  if (derivatives_) std::fill(prev + 6, prev + 18, 0.0);
}

bool InverseKinematics::CalcRates(RateWorkspace& ws, const double* q, const double* V_T,
                                  const double* A_T, double* qd, double* qdd) const {
  using multibody::Vector6d;
  const multibody::KinematicTree& tree = *tree_;
  const Eigen::Map<const Vector6d> q_v(q);
  multibody::ForwardKinematics(tree, &ws.data, q_v);
  multibody::FrameJacobian(tree, ws.data, 5, X_6T_, ws.J);
  ws.lu.compute(ws.J);
  // Written so that a NaN determinant also counts as singular.
  if (!(std::abs(ws.lu.determinant()) > singular_det_)) return false;
  Eigen::Map<Vector6d> qd_v(qd);
  qd_v = ws.lu.solve(Eigen::Map<const Vector6d>(V_T));

  // Jdot qd: the tool's acceleration at qdd = 0. The Newton-Euler pass (no gravity in the
  // tree) gives body 5's spatial velocity V = [w; v_o] and acceleration A = [dw; a_o] in its
  // frame at its origin; at the tool point r the spatial acceleration is a_o + dw x r, and
  // the point's (classical) acceleration adds w x v_r, with v_r = v_o + w x r.
  multibody::Rnea(tree, &ws.data, q_v, qd_v, ws.zero);
  const Vector6d& V = ws.data.V[5];
  const Vector6d& A = ws.data.A[5];
  const Eigen::Vector3d& r = X_6T_.translation;
  const Eigen::Vector3d w = V.head<3>();
  const Eigen::Vector3d dw = A.head<3>();
  const Eigen::Vector3d v_r = V.tail<3>() + w.cross(r);
  const Eigen::Vector3d a_r = A.tail<3>() + dw.cross(r) + w.cross(v_r);
  // Rnea leaves X_WB as ForwardKinematics set it.
  const Eigen::Matrix3d& R_WB = ws.data.X_WB[5].rotation;
  Vector6d rhs = Eigen::Map<const Vector6d>(A_T);
  rhs.head<3>() -= R_WB * dw;
  rhs.tail<3>() -= R_WB * a_r;
  Eigen::Map<Vector6d> qdd_v(qdd);
  qdd_v = ws.lu.solve(rhs);
  return qd_v.allFinite() && qdd_v.allFinite();
}

bool InverseKinematics::Solve(const Pose& X_0T, const double* prev, double* q) const {
  // Modified frame 6 seen from the frame of axis 1 (B), and the wrist centre, which lies on
  // axis 6 at -d_6 from frame 6's origin.
  const Pose X_B6 = X_0B_.Inverse() * X_0T * X_6T_.Inverse();
  const Eigen::Vector3d p = X_B6.TransformPoint({0.0, 0.0, -d_[5]});
  if (!p.allFinite() || !X_B6.rotation.allFinite()) return false;

  // Joint 1. In frame 1 the wrist centre is (a_1 + Px, -sin(alpha_1) h, sin(alpha_1) Py),
  // with (Px, Py) the planar two-link position; rotating by theta_1 about axis 1 must bring
  // its y to e = -sin(alpha_1) h: rho sin(phi - theta_1) = e. The two roots are the shoulder
  // branches, told apart by the sign of the wrist centre's x in frame 1.
  const double s_a1 = std::sin(alpha_[1]);
  const double e = -s_a1 * h_;
  const double rho2 = p.x() * p.x() + p.y() * p.y();
  double r2 = rho2 - e * e;
  if (r2 < -kReachTol * (rho2 + e * e)) return false;
  r2 = std::max(r2, 0.0);
  double th[6];
  if (rho2 + e * e < 1e-24) {
    th[0] = prev[0] + offset_[0];  // wrist centre on axis 1: any theta_1 will do
  } else {
    th[0] = std::atan2(p.y(), p.x()) - std::atan2(e, shoulder_ * std::sqrt(r2));
  }
  const double c1 = std::cos(th[0]), s1 = std::sin(th[0]);
  const double Px = c1 * p.x() + s1 * p.y() - a_[1];
  const double Py = (p.z() - d_[0]) / s_a1;

  // Joint 3 from the distance to the wrist centre in the arm's plane (law of cosines):
  // Px^2 + Py^2 = a_2^2 + L^2 + 2 a_2 L cos(theta_3 + psi); the two roots are the elbow
  // branches, told apart by the sign of sin(theta_3 + psi).
  const double a2 = a_[2];
  const double L = forearm_;
  double k = (Px * Px + Py * Py - a2 * a2 - L * L) / (2.0 * a2 * L);
  if (std::abs(k) > 1.0 + kReachTol) return false;
  k = std::clamp(k, -1.0, 1.0);
  th[2] = elbow_ * std::acos(k) - psi_;
  // Joint 2: turns the forearm's in-plane vector (X3, sigma Y3) onto (Px, Py).
  const double c3 = std::cos(th[2]), s3 = std::sin(th[2]);
  const double X3 = a2 + c3 * ux_ - s3 * uy_;
  const double Y3 = s3 * ux_ + c3 * uy_;
  th[1] = std::atan2(Py, Px) - std::atan2(sigma_ * Y3, X3);

  // The wrist: M = Rx(alpha_3)^T R_B3^T R_B6 = Rz(theta_4) Rx(alpha_4) Rz(theta_5)
  // Rx(alpha_5) Rz(theta_6). The z column of M fixes theta_5 (two roots: the wrist branches,
  // by the sign of sin theta_5) and then theta_4; the rest is Rz(theta_6).
  const Eigen::Matrix3d R_B3 = Rz(th[0]) * Rx(alpha_[1]) * Rz(th[1]) * Rx(alpha_[2]) * Rz(th[2]);
  const Eigen::Matrix3d M = Rx(alpha_[3]).transpose() * R_B3.transpose() * X_B6.rotation;
  const double s_a4 = std::sin(alpha_[4]), c_a4 = std::cos(alpha_[4]);
  const double s_a5 = std::sin(alpha_[5]), c_a5 = std::cos(alpha_[5]);
  double c5 = (c_a4 * c_a5 - M(2, 2)) / (s_a4 * s_a5);
  if (std::abs(c5) > 1.0 + kReachTol) return false;
  c5 = std::clamp(c5, -1.0, 1.0);
  // sin theta_5 from the length of the z column's xy part, rz^2 = A^2 + B^2, rather than
  // from sqrt(1 - c5^2): near theta_5 = 0 the latter turns a rounding error of 1e-16 in c5
  // into 1e-8 in theta_5, and for the usual right-angle twists B = 0, so this is exact.
  const double rz2 = M(0, 2) * M(0, 2) + M(1, 2) * M(1, 2);
  const double B = -c_a4 * s_a5 * c5 - s_a4 * c_a5;
  th[4] = std::atan2(wrist_ * std::sqrt(std::max(rz2 - B * B, 0.0)) / std::abs(s_a5), c5);
  const double A = s_a5 * std::sin(th[4]);
  if (rz2 < 1e-24) {
    th[3] = prev[3] + offset_[3];  // axes 4 and 6 aligned: only theta_4 + theta_6 counts
  } else {
    th[3] = std::atan2(M(1, 2), M(0, 2)) - std::atan2(B, A);
  }
  const Eigen::Matrix3d N = (Rz(th[3]) * Rx(alpha_[4]) * Rz(th[4]) * Rx(alpha_[5])).transpose() * M;
  th[5] = std::atan2(N(1, 0), N(0, 0));

  for (int i = 0; i < 6; ++i) q[i] = Nearest(th[i] - offset_[i], prev[i]);
  return true;
}

void InverseKinematics::DoCalcOutputs(Context& c, int stage) const {
  const double* position = in(c, 0);
  const Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>> R(in(c, 1));
  const Pose X_0T(R, Eigen::Vector3d(position[0], position[1], position[2]));
  double* prev = dwork(c);
  double* q = out(c, 0);
  double solved[6];
  const bool ok = Solve(X_0T, prev, solved);
  for (int i = 0; i < 6; ++i) q[i] = ok ? solved[i] : prev[i];
  out(c, 1)[0] = ok ? 1.0 : 0.0;
  if (derivatives_) {
    double* qd = out(c, 2);
    double* qdd = out(c, 3);
    // Out of reach (q held) or singular: the rates of the last major step.
    if (!ok || !CalcRates(workspace<RateWorkspace>(c), q, in(c, 2), in(c, 3), qd, qdd)) {
      std::copy(prev + 6, prev + 12, qd);
      std::copy(prev + 12, prev + 18, qdd);
    }
    double* motion = out(c, 4);
    for (int i = 0; i < 6; ++i) {
      motion[3 * i] = q[i];
      motion[3 * i + 1] = qd[i];
      motion[3 * i + 2] = qdd[i];
    }
  }
  // Continuity follows accepted steps only, so a rejected solver stage leaves no trace.
  if (c.major) {
    for (int i = 0; i < 6; ++i) prev[i] = q[i];
    if (derivatives_) {
      std::copy(out(c, 2), out(c, 2) + 6, prev + 6);
      std::copy(out(c, 3), out(c, 3) + 6, prev + 12);
    }
  }
}

BlockType InverseKinematicsType() {
  BlockType t;
  t.name = "InverseKinematics";
  t.category = "Robotics";
  t.summary = "Closed-form inverse kinematics of a 6R arm with a spherical wrist.";
  t.doc =
      "Given the tool pose (position p and rotation R in the base frame), q solves "
      "T_base_tool(q) = (R, p) for a 6R arm described by a DH table, in closed form "
      "(Pieper): frame 6 is the tool pose times the inverse of the tool offset (and, in a "
      "standard table, of the flange Dx(a_6) Rx(alpha_6)); the wrist centre p_w = p_6 - "
      "d_6 z_6 depends on q1..q3 only. theta_1 from rho sin(phi - theta_1) = -sin(alpha_1) h "
      "(shoulder "
      "offset), theta_3 from the law of cosines in the arm's plane, theta_2 from the plane "
      "angle, then the wrist: Rx(alpha_3)^T R_03^T R_06 = Rz(theta_4) Rx(alpha_4) "
      "Rz(theta_5) Rx(alpha_5) Rz(theta_6). q_i = theta_i - theta_offset_i. Arms: axis 2 "
      "perpendicular to axis 1, axis 3 parallel to axis 2, axes 4-6 meeting in one point "
      "(PUMA, Staeubli, KUKA, ABB; checked when the model is compiled). Branches "
      "[shoulder, elbow, wrist], each +1 or -1: shoulder = sign of the wrist centre's x in "
      "frame 1, elbow = sign of sin(theta_3 + atan2(-sin(alpha_3) d_4, a_3)), wrist = sign of "
      "sin(theta_5) (modified-table indices). Outputs are continuous: each angle is shifted "
      "by 2 pi k to be nearest the output of the last major step (q_init at the start); at a "
      "singularity the free angle (q1 with the wrist centre on axis 1, q4 with axes 4 and 6 "
      "aligned) keeps its last value. A pose out of reach gives reachable = 0 and holds q. "
      "The rotation input is used as given (it should be orthonormal).\n"
      "derivatives = on adds inputs `velocity` [w; v] and `acceleration` [alpha; a] and "
      "outputs the exact joint rates, for a motion-driven arm (RevoluteJoint actuation = "
      "motion) that must follow the path without the lag of a motion filter: qd = J(q)^-1 "
      "[w; v], qdd = J(q)^-1 ([alpha; a] - Jdot qd), with q the output above and J the "
      "geometric Jacobian of the tool point (rows: angular velocity of the tool frame, "
      "velocity of the tool point, both in base axes; as the Jacobian block gives it). "
      "Jdot qd is the tool's acceleration at qdd = 0: angular dw from the Newton-Euler "
      "velocity-product pass of the arm's tree (massless, no gravity), linear the tool "
      "point's classical acceleration a_o + dw x r + w x (v_o + w x r) (o the origin of "
      "frame 6, r the tool offset), so w, v, alpha, a must be the derivatives of the pose "
      "input (w the angular velocity with dR/dt = [w]x R, v = dp/dt, a = d2p/dt2). Where "
      "|det J| <= 1e-9 (|a_2| + sqrt(a_3^2 + sin(alpha_3)^2 d_4^2))^3 (modified-table "
      "indices; the singularities above, and the "
      "elbow stretched or folded; det J does not depend on the tool point), and while the "
      "pose is out of reach, qd and qdd keep the values of the last major step (0 at the "
      "start). `motion` = [q1, qd1, qdd1, ..., q6, qd6, qdd6] splits with a Demux "
      "(widths 3) into six RevoluteJoint motion inputs. All outputs are computed together; "
      "velocity and acceleration feed through.";
  t.reference =
      "D. L. Pieper, The kinematics of manipulators under computer control, 1968; J. J. "
      "Craig, Introduction to Robotics, ch. 4 (PUMA 560) and ch. 5 (Jacobians); Boschetti & "
      "Sinico 2024, \"Designing Digital Twins of Robots Using Simscape Multibody\" (Robotics), "
      "section 2.4; compare Robotics System Toolbox analyticalInverseKinematics";
  t.params = {
      {"dh",
       ParamKind::kMatrix,
       "",
       "6 x 4 DH table, rows [alpha, a, d, theta_offset] (rad, m)",
       {},
       true},
      {"convention",
       ParamKind::kWord,
       "modified",
       "modified (Craig: Rx Dx Rz Dz) or standard (Rz Dz Dx Rx)",
       {"modified", "standard"}},
      {"tool", ParamKind::kVector, "[0, 0, 0]", "tool point in frame 6, [x, y, z] (m)"},
      {"branch", ParamKind::kVector, "[1, 1, 1]",
       "solution branch [shoulder, elbow, wrist], each +1 or -1"},
      {"q_init", ParamKind::kVector, "0", "output before the first solution, 6 or 1 values (rad)"},
      {"derivatives",
       ParamKind::kWord,
       "off",
       "on adds inputs velocity, acceleration and outputs qd, qdd, motion",
       {"off", "on"}}};
  t.inputs = {{"position", "tool point in the base frame, 3 (m)"},
              {"rotation", "rotation of the tool frame in the base frame, 9, row-major"},
              {"velocity",
               "[w; v] (derivatives = on), 6: angular velocity of the tool frame (rad/s) and "
               "velocity of the tool point (m/s), base frame"},
              {"acceleration",
               "[alpha; a] (derivatives = on), 6: angular acceleration of the tool frame "
               "(rad/s^2) and acceleration of the tool point (m/s^2), base frame"}};
  t.outputs = {{"q", "joint angles, 6 (rad), continuous in time"},
               {"reachable", "1 when the pose was solved, 0 when out of reach (q held)"},
               {"qd", "joint velocities (derivatives = on), 6 (rad/s); held when singular"},
               {"qdd", "joint accelerations (derivatives = on), 6 (rad/s^2); held when singular"},
               {"motion", "[q1, qd1, qdd1, ..., q6, qd6, qdd6] (derivatives = on), 18"}};
  t.create = [](const Params& p) { return std::make_unique<InverseKinematics>(p); };
  return t;
}

}  // namespace twinblocks::blocks
