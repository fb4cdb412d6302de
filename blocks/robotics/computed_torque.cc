#include "blocks/robotics/computed_torque.h"

#include <cmath>
#include <memory>

#include "common/format_value.h"
#include "physics/multibody/algorithms.h"

namespace twinblocks::blocks {

namespace {

/// Which values a per-joint parameter may take.
enum class Allowed { kNonNegative, kNonZero };

/// A per-joint vector parameter (1 entry, or one per joint): non-empty, finite, and within
/// `allowed`. @throws BlockError naming the parameter and the first bad entry.
Eigen::VectorXd ReadPerJoint(const Params& params, const char* name, Allowed allowed) {
  Eigen::VectorXd v = params.Vector(name);
  if (v.size() == 0) {
    throw BlockError(
        std::string("parameter '") + name + "' is empty: give one value, or one per joint", name);
  }
  for (int k = 0; k < v.size(); ++k) {
    const bool ok =
        std::isfinite(v[k]) && (allowed == Allowed::kNonZero ? v[k] != 0.0 : v[k] >= 0.0);
    if (!ok) {
      throw BlockError(
          std::string("parameter '") + name + "' must be " +
              (allowed == Allowed::kNonZero ? "finite and non-zero" : "finite and >= 0") +
              ", got " + FormatValue(v[k]) + " at entry " + std::to_string(k),
          name);
    }
  }
  return v;
}

/// The sign of the Coulomb friction: tanh(v / v_c), or sign(v) for v_c = 0.
double CoulombShape(double v, double v_c) {
  if (v_c > 0.0) return std::tanh(v / v_c);
  return v > 0.0 ? 1.0 : (v < 0.0 ? -1.0 : 0.0);
}

}  // namespace

/// Scratch of one simulator: the tree's data and the commanded acceleration.
struct ComputedTorque::Workspace final : BlockWorkspace {
  explicit Workspace(const multibody::KinematicTree& tree) : data(tree), a(tree.nv()) {}
  multibody::KinematicTreeData data;
  Eigen::VectorXd a;  ///< (nv) qdd_ref + Kp e + Kd e_dot (rad/s^2, m/s^2)

  void CopyFrom(const BlockWorkspace& other) override {
    *this = static_cast<const Workspace&>(other);
  }
};

ComputedTorque::ComputedTorque(const Params& params)
    : RobotBlock(params, false),
      n_param_(ReadPerJoint(params, "n", Allowed::kNonZero)),
      Jm_param_(ReadPerJoint(params, "Jm", Allowed::kNonNegative)),
      Kp_param_(ReadPerJoint(params, "Kp", Allowed::kNonNegative)),
      Kd_param_(ReadPerJoint(params, "Kd", Allowed::kNonNegative)),
      Fc_param_(ReadPerJoint(params, "Fc", Allowed::kNonNegative)),
      Fv_param_(ReadPerJoint(params, "Fv", Allowed::kNonNegative)),
      friction_velocity_(params.Scalar("friction_velocity")) {
  if (!(friction_velocity_ >= 0.0) || !std::isfinite(friction_velocity_)) {
    throw BlockError(
        "parameter 'friction_velocity' must be >= 0 and finite (rad/s; 0 for an exact sign), "
        "got " +
            std::to_string(friction_velocity_),
        "friction_velocity");
  }
  // The compiler checks words against the catalog entry; this guards direct construction.
  const std::string& mode = params.Word("friction_compensation");
  if (mode != "on" && mode != "off") {
    throw BlockError("parameter 'friction_compensation' must be 'on' or 'off', got '" + mode + "'",
                     "friction_compensation");
  }
  friction_on_ = mode == "on";
  DeclareInput("q");
  DeclareInput("qd");
  DeclareInput("q_ref");
  DeclareInput("qd_ref");
  DeclareInput("qdd_ref");
  DeclareOutput("tau");
}

void ComputedTorque::DoConfigure(const std::vector<int>& input_widths) {
  const multibody::KinematicTree& tree = BoundTree();
  for (int i = 0; i < tree.num_bodies(); ++i) {
    if (tree.joint(i).nq() != tree.joint(i).nv()) {
      throw BlockError("joint '" + tree.body(i).name + "' of robot '" + robot_path() +
                           "' is spherical or free: ComputedTorque needs revolute and "
                           "prismatic joints, whose position error q_ref - q is a difference of "
                           "coordinates",
                       "robot");
    }
  }
  const int nv = tree.nv();
  auto expand = [&](const Eigen::VectorXd& v, const char* name) -> Eigen::VectorXd {
    if (v.size() == nv) return v;
    if (v.size() == 1) return Eigen::VectorXd::Constant(nv, v[0]);
    throw BlockError(std::string("parameter '") + name + "' has " + std::to_string(v.size()) +
                         " entries, but robot '" + robot_path() + "' has nv = " +
                         std::to_string(nv) + " joints (give one value, or one per joint)",
                     name);
  };
  n_ = expand(n_param_, "n");
  reflected_ = n_.cwiseAbs2().cwiseProduct(expand(Jm_param_, "Jm"));
  Kp_ = expand(Kp_param_, "Kp");
  Kd_ = expand(Kd_param_, "Kd");
  Fc_ = expand(Fc_param_, "Fc");
  Fv_ = expand(Fv_param_, "Fv");
  for (int port = 0; port < 5; ++port) CheckInputWidth(input_widths, port, nv, "nv");
  SetOutputWidth(0, nv);
}

void ComputedTorque::DoCalcOutputs(Context& c, int stage) const {
  const multibody::KinematicTree& tree = *robot_.tree;
  const int nv = tree.nv();
  Workspace& ws = workspace<Workspace>(c);
  const Eigen::Map<const Eigen::VectorXd> q = InVector(c, 0, nv);
  const Eigen::Map<const Eigen::VectorXd> qd = InVector(c, 1, nv);
  ws.a = InVector(c, 4, nv) + Kp_.cwiseProduct(InVector(c, 2, nv) - q) +
         Kd_.cwiseProduct(InVector(c, 3, nv) - qd);
  // M(q) a + c(q, qd) + g(q) in one Newton-Euler pass.
  const Eigen::VectorXd& tau = multibody::Rnea(tree, &ws.data, q, qd, ws.a);
  double* tau_m = out(c, 0);
  for (int k = 0; k < nv; ++k) {
    double t = tau[k] + reflected_[k] * ws.a[k];
    if (friction_on_) t += Fc_[k] * CoulombShape(qd[k], friction_velocity_) + Fv_[k] * qd[k];
    tau_m[k] = t / n_[k];
  }
}

std::unique_ptr<BlockWorkspace> ComputedTorque::DoMakeWorkspace() const {
  return std::make_unique<Workspace>(BoundTree());
}

BlockType ComputedTorqueType() {
  BlockType t;
  t.name = "ComputedTorque";
  t.category = "Robotics";
  t.summary =
      "Computed-torque control: the robot's inverse dynamics at qdd_ref + Kp e + Kd e_dot, "
      "plus friction, as motor torques behind gears n.";
  t.doc =
      "tau = diag(1/n) [ (M(q) + diag(n^2 Jm)) a + c(q, qd) + g(q) + Fc tanh(qd / "
      "friction_velocity) + Fv qd ], a = qdd_ref + Kp (q_ref - q) + Kd (qd_ref - qd), "
      "e = q_ref - q, all per joint (Boschetti & Sinico 2024, section 5, eq. 30-31; their "
      "experiment E4, docs/multibody.md). M, c (Coriolis and centrifugal) and g (gravity) are "
      "the model of `robot`, as MassMatrix, VelocityProductTorque and GravityTorque give "
      "them; M(q) a + c + g is one recursive Newton-Euler pass with qdd = a. The rotor "
      "inertias Jm behind gear ratios n add n^2 Jm to the mass matrix's diagonal (Boschetti & "
      "Sinico 2024, eq. 29's B_m), so the law cancels the reflected inertia too; the joint-side "
      "torque is "
      "divided by n, since tau_joint = n tau_motor. With an exact model each joint's error "
      "obeys e'' + Kd e' + Kp e = 0. The friction estimate (link side) is left out with "
      "friction_compensation=\"off\". Its Coulomb part uses tanh(qd / friction_velocity) "
      "rather than sign(qd): a torque that jumps at qd = 0 forces a variable-step solver into "
      "tiny steps wherever a joint rests or reverses, and chatters; the default 0.01 rad/s is "
      "the Coulomb velocity w_brk/10 of the reference arm's (Simscape) friction, so the "
      "estimate has the plant's shape. friction_velocity = 0 gives the exact sign. A static "
      "law: every input feeds tau directly; fed back from a mechanism this is no algebraic loop, "
      "since the mechanism's q and qd are states that do not depend on its torque input. "
      "Every joint of the robot must be revolute or prismatic; all widths are nv.";
  t.reference =
      "Boschetti & Sinico 2024, \"Designing Digital Twins of Robots Using Simscape Multibody\" "
      "(Robotics), section 5, eq. "
      "30-31 (computed-torque control); Siciliano et al., Robotics: "
      "Modelling, Planning and Control (2009), inverse dynamics control";
  t.params = {
      internal::RobotParam(),
      {"n", ParamKind::kVector, "1",
       "gear ratios, 1 or nv: the motor turns n times faster, tau_joint = n tau_motor"},
      {"Jm", ParamKind::kVector, "0",
       "rotor inertias on the motor side, 1 or nv, kg m^2; n^2 Jm joins M's diagonal"},
      {"Kp", ParamKind::kVector, "100", "position gains, 1 or nv, 1/s^2 (>= 0)"},
      {"Kd", ParamKind::kVector, "20", "velocity gains, 1 or nv, 1/s (>= 0)"},
      {"Fc", ParamKind::kVector, "0",
       "Coulomb friction estimates, link side, 1 or nv, N m (N for a prismatic joint)"},
      {"Fv", ParamKind::kVector, "0",
       "viscous friction estimates, link side, 1 or nv, N m s/rad (N s/m)"},
      {"friction_velocity", ParamKind::kScalar, "0.01",
       "velocity scale of the Coulomb term Fc tanh(qd / friction_velocity), rad/s (>= 0; 0: "
       "exact sign)"},
      {"friction_compensation",
       ParamKind::kWord,
       "on",
       "on: add the friction estimate Fc, Fv; off: leave it out",
       {"on", "off"}}};
  t.inputs = {{"q", "measured joint positions, nv (rad, m)"},
              {"qd", "measured joint velocities, nv (rad/s, m/s)"},
              {"q_ref", "desired joint positions, nv (rad, m)"},
              {"qd_ref", "desired joint velocities, nv (rad/s, m/s)"},
              {"qdd_ref", "desired joint accelerations, nv (rad/s^2, m/s^2)"}};
  t.outputs = {{"tau", "motor torque command, nv (N m on the motor side; N if prismatic)"}};
  t.create = [](const Params& p) { return std::make_unique<ComputedTorque>(p); };
  return t;
}

}  // namespace twinblocks::blocks
