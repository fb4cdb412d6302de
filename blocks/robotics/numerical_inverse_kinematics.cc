#include "blocks/robotics/numerical_inverse_kinematics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "common/format_value.h"

namespace twinblocks::blocks {

namespace {

/// A positive finite scalar parameter. @throws BlockError naming it.
double PositiveScalar(const Params& params, const char* name) {
  const double v = params.Scalar(name);
  if (!(v > 0.0) || !std::isfinite(v)) {
    throw BlockError(
        std::string("parameter '") + name + "' must be > 0 and finite, got " + FormatValue(v),
        name);
  }
  return v;
}

/// A per-joint vector parameter given as 1 value (for every joint) or nq; empty means
/// `fallback`. @throws BlockError naming it.
Eigen::VectorXd PerCoordinate(const Eigen::VectorXd& given, const Eigen::VectorXd& fallback, int nq,
                              const char* name, const std::string& robot) {
  if (given.size() == 0) return fallback;
  if (given.size() == 1) return Eigen::VectorXd::Constant(nq, given[0]);
  if (given.size() != nq) {
    throw BlockError(std::string("parameter '") + name + "' has " + std::to_string(given.size()) +
                         " values, expected 1 or nq = " + std::to_string(nq) + " of robot '" +
                         robot + "'",
                     name);
  }
  return given;
}

}  // namespace

struct NumericalInverseKinematics::SolverWorkspace final : BlockWorkspace {
  SolverWorkspace(multibody::ChainIk ik, int nq) : ik(std::move(ik)), q(nq), target() {}
  multibody::ChainIk ik;
  Eigen::VectorXd q;  ///< (nq) the solution
  multibody::Pose target;

  void CopyFrom(const BlockWorkspace& other) override {
    *this = static_cast<const SolverWorkspace&>(other);
  }
};

NumericalInverseKinematics::NumericalInverseKinematics(const Params& params)
    : RobotBlock(params, true) {
  options_.position_only = params.Word("target") == "position";
  const Eigen::VectorXd w = params.Vector("weights");
  if (w.size() != 6 || !w.allFinite() || (w.array() < 0.0).any()) {
    throw BlockError(
        "parameter 'weights' must be 6 finite values >= 0 [rotation x, y, z; "
        "position x, y, z], got " +
            std::to_string(w.size()) + " values",
        "weights");
  }
  const bool rotation_free = options_.position_only || w.head<3>().isZero();
  if (w.tail<3>().isZero() && rotation_free) {
    throw BlockError(
        "parameter 'weights' leaves nothing to solve for: every targeted axis "
        "has weight 0",
        "weights");
  }
  options_.weights = w;
  options_.position_tolerance = PositiveScalar(params, "position_tolerance");
  options_.rotation_tolerance = PositiveScalar(params, "rotation_tolerance");
  options_.max_iterations = params.Integer("max_iterations");
  if (options_.max_iterations < 1 || options_.max_iterations > 100000) {
    throw BlockError("parameter 'max_iterations' must be 1 to 100000, got " +
                         std::to_string(options_.max_iterations),
                     "max_iterations");
  }
  options_.restarts = params.Integer("restarts");
  if (options_.restarts < 0 || options_.restarts > 10000) {
    throw BlockError(
        "parameter 'restarts' must be 0 to 10000, got " + std::to_string(options_.restarts),
        "restarts");
  }
  // Bounds one evaluation's work (about a second at worst), so that a model cannot stall a
  // run in one solve.
  if ((static_cast<double>(options_.restarts) + 1.0) * options_.max_iterations > 1e6) {
    throw BlockError("(restarts + 1) * max_iterations must be at most 1e6, got (" +
                         std::to_string(options_.restarts) + " + 1) * " +
                         std::to_string(options_.max_iterations),
                     "restarts");
  }
  const int seed = params.Integer("seed");
  if (seed < 0) {
    throw BlockError("parameter 'seed' must be >= 0, got " + std::to_string(seed), "seed");
  }
  options_.seed = static_cast<std::uint64_t>(seed);
  if (params.has("lower") && params.Get("lower").is_set()) lower_param_ = params.Vector("lower");
  if (params.has("upper") && params.Get("upper").is_set()) upper_param_ = params.Vector("upper");
  q_init_param_ = params.Vector("q_init");
  DeclareInput("position");
  if (!options_.position_only) DeclareInput("rotation");
  DeclareOutput("q");
  DeclareOutput("success", 1);
  DeclareOutput("error", 2);
  DeclareOutput("iterations", 1);
}

void NumericalInverseKinematics::DoConfigure(const std::vector<int>& input_widths) {
  const multibody::KinematicTree& tree = BoundTree();
  const int nq = tree.nq();
  CheckInputWidth(input_widths, 0, 3, "3");
  if (!options_.position_only) CheckInputWidth(input_widths, 1, 9, "9");
  // A robot model made without limits (in code) has none.
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if (robot_.lower.size() != nq) robot_.lower = Eigen::VectorXd::Constant(nq, -kInf);
  if (robot_.upper.size() != nq) robot_.upper = Eigen::VectorXd::Constant(nq, kInf);
  robot_.lower = PerCoordinate(lower_param_, robot_.lower, nq, "lower", robot_path());
  robot_.upper = PerCoordinate(upper_param_, robot_.upper, nq, "upper", robot_path());
  for (int i = 0; i < nq; ++i) {
    if (std::isnan(robot_.lower[i]) || std::isnan(robot_.upper[i]) ||
        robot_.lower[i] > robot_.upper[i]) {
      throw BlockError("joint limits need lower <= upper, got lower " +
                           FormatValue(robot_.lower[i]) + " and upper " +
                           FormatValue(robot_.upper[i]) + " at coordinate " + std::to_string(i),
                       lower_param_.size() ? "lower" : "upper");
    }
  }
  if (q_init_param_.size() == 0) q_init_param_ = Eigen::VectorXd::Zero(1);
  q_init_ = PerCoordinate(q_init_param_, Eigen::VectorXd::Zero(nq), nq, "q_init", robot_path());
  if (!q_init_.allFinite()) throw BlockError("parameter 'q_init' must be finite", "q_init");
  try {
    const multibody::ChainIk ik(tree, robot_.frame_body, robot_.X_BF, robot_.lower, robot_.upper);
    if (ik.num_joints() == 0) {
      throw BlockError("frame '" + frame_path() + "' is fixed to the base of robot '" +
                           robot_path() + "': no joint moves it",
                       "frame");
    }
  } catch (const std::invalid_argument& e) {
    throw BlockError(std::string("robot '") + robot_path() + "': " + e.what(), "frame");
  }
  SetOutputWidth(0, nq);
  DeclareDWork(nq);
}

std::unique_ptr<BlockWorkspace> NumericalInverseKinematics::DoMakeWorkspace() const {
  const multibody::KinematicTree& tree = BoundTree();
  return std::make_unique<SolverWorkspace>(
      multibody::ChainIk(tree, robot_.frame_body, robot_.X_BF, robot_.lower, robot_.upper),
      tree.nq());
}

void NumericalInverseKinematics::DoInitialize(Context& c) const {
  std::copy(q_init_.data(), q_init_.data() + q_init_.size(), dwork(c));
}

void NumericalInverseKinematics::DoCalcOutputs(Context& c, int stage) const {
  SolverWorkspace& ws = workspace<SolverWorkspace>(c);
  const int nq = static_cast<int>(q_init_.size());
  const double* p = in(c, 0);
  ws.target.translation = Eigen::Vector3d(p[0], p[1], p[2]);
  if (!options_.position_only) {
    ws.target.rotation = Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(in(c, 1));
  }
  double* prev = dwork(c);
  const multibody::IkResult r =
      ws.ik.Solve(ws.target, Eigen::Map<const Eigen::VectorXd>(prev, nq), options_, ws.q);
  std::copy(ws.q.data(), ws.q.data() + nq, out(c, 0));
  out(c, 1)[0] = r.success ? 1.0 : 0.0;
  out(c, 2)[0] = r.position_error;
  out(c, 2)[1] = r.rotation_error;
  out(c, 3)[0] = r.iterations;
  // The warm start follows accepted steps only, so a rejected solver stage leaves no trace.
  if (c.major) std::copy(ws.q.data(), ws.q.data() + nq, prev);
}

BlockType NumericalInverseKinematicsType() {
  BlockType t;
  t.name = "NumericalInverseKinematics";
  t.category = "Robotics";
  t.summary = "Inverse kinematics of any serial chain of a robot, by Levenberg-Marquardt.";
  t.doc =
      "q such that the pose of `frame` in the robot's base, X(q), reaches the target within "
      "the joint limits: min over lower <= q <= upper of |W e(q)|^2 with e = [log(R_t R(q)^T); "
      "p_t - p(q)] (rotation vector and position error, base axes) and W = diag(weights). "
      "target = position ignores the rotation (input `rotation` is then absent). The chain "
      "is the path of the robot's tree from its base to the body of `frame`; its joints must "
      "be revolute or prismatic, other joints keep q_init. Steps: (J^T W^2 J + mu I) h = "
      "J^T W^2 e with J the frame's geometric Jacobian (as the Jacobian block), q <- clamp(q + "
      "h, lower, upper) (a joint with a whole turn between its limits is wrapped by 2 pi "
      "instead, and a joint on a limit that the step pushes outward is held for that step); mu "
      "starts at 1e-3 max diag(J^T W^2 J) and follows the gain ratio "
      "(Madsen, Nielsen & Tingleff). Stopping rule: success when the position error (m) and "
      "the rotation angle (rad), over the axes with non-zero weight, are within "
      "position_tolerance and rotation_tolerance; an attempt fails after max_iterations or "
      "when the step no longer changes q, or when a step and its linear model both gain "
      "less than 1e-6 of the remaining cost (a local minimum); then up to `restarts` attempts "
      "start from "
      "uniformly random configurations within the limits ([-pi, pi] or [-1, 1] m where a "
      "joint has none), drawn from `seed`. Each evaluation starts from the output of the "
      "last major step (q_init at the start): a smoothly moving target is tracked on its "
      "branch. On failure q is the best configuration found, success = 0 and error gives "
      "how far it is. Limits are the joints' `lower`/`upper` unless given here.";
  t.reference =
      "K. Madsen, H. B. Nielsen, O. Tingleff, Methods for Non-Linear Least Squares Problems, "
      "2004, sec. 3.2; compare Robotics System Toolbox inverseKinematics (solver "
      "LevenbergMarquardt) and KDL ChainIkSolverPos_LMA";
  t.params = {
      internal::RobotParam(),
      internal::FrameParam(),
      {"target",
       ParamKind::kWord,
       "pose",
       "pose (position and rotation) or position (the rotation is free)",
       {"pose", "position"}},
      {"weights", ParamKind::kVector, "[1, 1, 1, 1, 1, 1]",
       "[rotation x, y, z (1/rad); position x, y, z (1/m)], >= 0; 0 frees an axis"},
      {"lower", ParamKind::kVector, "", "lower joint limits, 1 or nq (rad, m); the joints' own"},
      {"upper", ParamKind::kVector, "", "upper joint limits, 1 or nq (rad, m); the joints' own"},
      {"position_tolerance", ParamKind::kScalar, "1e-9", "success when within, m (> 0)"},
      {"rotation_tolerance", ParamKind::kScalar, "1e-9", "success when within, rad (> 0)"},
      {"max_iterations", ParamKind::kScalar, "100", "iterations per attempt (1 to 100000)"},
      {"restarts", ParamKind::kScalar, "30", "random restarts after a failed attempt (>= 0)"},
      {"seed", ParamKind::kScalar, "1", "of the restarts' random configurations (>= 0)"},
      {"q_init", ParamKind::kVector, "0", "warm start before the first solution, 1 or nq"}};
  t.inputs = {{"position", "target position of the frame in the base, 3 (m)"},
              {"rotation", "target rotation in the base, 9, row-major (target = pose)"}};
  t.outputs = {{"q", "joint positions, nq of the robot (rad, m)"},
               {"success", "1 when within the tolerances, else 0"},
               {"error", "[position error (m), rotation error (rad)] of q, 2"},
               {"iterations", "Levenberg-Marquardt iterations over all attempts, 1"}};
  t.create = [](const Params& p) { return std::make_unique<NumericalInverseKinematics>(p); };
  return t;
}

}  // namespace twinblocks::blocks
