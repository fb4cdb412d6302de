// twinblocks.kinematics: the finger of Mattar 2013 in closed form, and the numerical inverse
// kinematics of any serial chain of a model (the NumericalInverseKinematics block's solver)
// from Python. Positions are (3,) arrays (m), rotations (3, 3), joint vectors (nq,).
#include <pybind11/eigen.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <stdexcept>
#include <string>

#include "bindings.h"
#include "compiler/robot_model.h"
#include "physics/multibody/chain_ik.h"
#include "physics/multibody/finger_kinematics.h"

namespace py = pybind11;
using namespace pybind11::literals;

namespace twinblocks::python {
namespace {

multibody::FingerGeometry Finger(double l1, double l2, double l3,
                                 const std::optional<Eigen::Vector3d>& lower,
                                 const std::optional<Eigen::Vector3d>& upper) {
  multibody::FingerGeometry g;
  for (double l : {l1, l2, l3}) {
    if (!(l > 0.0) || !std::isfinite(l)) {
      throw std::invalid_argument("kinematics: finger lengths must be > 0 and finite, got " +
                                  std::to_string(l));
    }
  }
  g.l1 = l1, g.l2 = l2, g.l3 = l3;
  if (lower) g.lower = *lower;
  if (upper) g.upper = *upper;
  for (int i = 0; i < 3; ++i) {
    if (std::isnan(g.lower[i]) || std::isnan(g.upper[i]) || g.lower[i] > g.upper[i]) {
      throw std::invalid_argument("kinematics: joint limits need lower <= upper, got " +
                                  std::to_string(g.lower[i]) + " and " +
                                  std::to_string(g.upper[i]) + " at joint " +
                                  std::to_string(i + 1));
    }
  }
  return g;
}

/// A model's robot and the solver of its chain to one frame (Python's Robot).
class Robot {
 public:
  Robot(const graph::Model& model, const std::string& frame, const std::string& robot)
      : model_(graph::CompileRobotModel(model, robot, frame)),
        ik_(*model_.tree, model_.frame_body, model_.X_BF, model_.lower, model_.upper) {}

  int nq() const { return model_.tree->nq(); }
  const Eigen::VectorXd& lower() const { return model_.lower; }
  const Eigen::VectorXd& upper() const { return model_.upper; }
  std::vector<int> chain() const { return ik_.q_index(); }

  py::tuple Pose(const Eigen::VectorXd& q) {
    CheckSize(q, "q");
    const multibody::Pose X = ik_.CalcPose(q);
    return py::make_tuple(X.translation, X.rotation);
  }

  py::dict Inverse(const Eigen::Vector3d& position,
                   const std::optional<Eigen::Matrix3d>& rotation,
                   const std::optional<Eigen::VectorXd>& q_start,
                   const std::optional<Eigen::VectorXd>& weights, double position_tolerance,
                   double rotation_tolerance, int max_iterations, int restarts, int seed) {
    multibody::IkOptions o;
    o.position_only = !rotation.has_value();
    if (weights) {
      if (weights->size() != 6 || !weights->allFinite() || (weights->array() < 0.0).any()) {
        throw std::invalid_argument(
            "kinematics: weights must be 6 finite values >= 0 [rotation (3); position (3)]");
      }
      o.weights = *weights;
    }
    if (!(position_tolerance > 0.0) || !(rotation_tolerance > 0.0) || max_iterations < 1 ||
        restarts < 0 || seed < 0) {
      throw std::invalid_argument(
          "kinematics: tolerances must be > 0, max_iterations >= 1, restarts and seed >= 0");
    }
    if ((static_cast<double>(restarts) + 1.0) * max_iterations > 1e6) {
      throw std::invalid_argument("kinematics: (restarts + 1) * max_iterations must be <= 1e6");
    }
    o.position_tolerance = position_tolerance;
    o.rotation_tolerance = rotation_tolerance;
    o.max_iterations = max_iterations;
    o.restarts = restarts;
    o.seed = static_cast<std::uint64_t>(seed);
    multibody::Pose target;
    target.translation = position;
    if (rotation) target.rotation = *rotation;
    if (!position.allFinite() || !target.rotation.allFinite()) {
      throw std::invalid_argument("kinematics: the target has a NaN or an infinity");
    }
    const Eigen::VectorXd start = q_start ? *q_start : Eigen::VectorXd::Zero(nq());
    CheckSize(start, "q_start");
    Eigen::VectorXd q(nq());
    const multibody::IkResult r = ik_.Solve(target, start, o, q);
    return py::dict("q"_a = q, "success"_a = r.success, "position_error"_a = r.position_error,
                    "rotation_error"_a = r.rotation_error, "iterations"_a = r.iterations,
                    "attempts"_a = r.attempts);
  }

 private:
  void CheckSize(const Eigen::VectorXd& q, const char* name) const {
    if (q.size() != nq() || !q.allFinite()) {
      throw std::invalid_argument(std::string("kinematics: ") + name + " needs nq = " +
                                  std::to_string(nq()) + " finite values, got " +
                                  std::to_string(q.size()));
    }
  }

  multibody::RobotModel model_;
  multibody::ChainIk ik_;
};

}  // namespace

void BindKinematics(py::module_& m) {
  py::module_ k = m.def_submodule(
      "kinematics",
      "Kinematics: the three-joint finger of Mattar 2013 in closed form (finger_pose,\n"
      "finger_jacobian, finger_ik) and the numerical inverse kinematics of any serial chain of\n"
      "a model (Robot). Bad input raises ValueError (or ModelError for the model).");

  k.def(
      "finger_pose",
      [](const Eigen::Vector3d& q, double l1, double l2, double l3) {
        const multibody::Pose X =
            multibody::FingertipPose(Finger(l1, l2, l3, std::nullopt, std::nullopt), q);
        return py::make_tuple(X.translation, X.rotation);
      },
      "q"_a, "l1"_a, "l2"_a, "l3"_a,
      "The fingertip frame in the finger's base (eq. 16): (position (3,), rotation (3, 3)) for\n"
      "q = [abduction, proximal, distal] (rad) and link lengths l1, l2, l3 (m).");

  k.def(
      "finger_jacobian",
      [](const Eigen::Vector3d& q, double l1, double l2, double l3, const std::string& frame) {
        const multibody::FingerGeometry g = Finger(l1, l2, l3, std::nullopt, std::nullopt);
        if (frame == "base") return Eigen::Matrix3d(multibody::FingertipJacobianInBase(g, q));
        if (frame == "tip") return Eigen::Matrix3d(multibody::FingertipJacobianInTip(g, q));
        throw std::invalid_argument("kinematics: frame '" + frame + "'; expected 'base' or 'tip'");
      },
      "q"_a, "l1"_a, "l2"_a, "l3"_a, "frame"_a = "base",
      "d(fingertip position)/dq (3, 3), in the base frame or the tip frame (eq. 23).");

  k.def(
      "finger_ik",
      [](const Eigen::Vector3d& position, double l1, double l2, double l3,
         const std::optional<Eigen::Vector3d>& lower, const std::optional<Eigen::Vector3d>& upper,
         const std::optional<Eigen::Matrix3d>& rotation) {
        const multibody::FingerGeometry g = Finger(l1, l2, l3, lower, upper);
        const multibody::FingerIkResult r =
            rotation ? multibody::FingerInverseAlgebraic(g, multibody::Pose(*rotation, position))
                     : multibody::FingerInverseGeometric(g, position);
        Eigen::Matrix<double, 2, 3, Eigen::RowMajor> branches;
        branches.row(0) = r.branch[0].transpose();
        branches.row(1) = r.branch[1].transpose();
        return py::dict("reachable"_a = r.reachable,
                        "valid"_a = py::make_tuple(r.valid[0], r.valid[1]),
                        "branches"_a = branches, "first_valid"_a = r.first_valid());
      },
      "position"_a, "l1"_a, "l2"_a, "l3"_a, "lower"_a = py::none(), "upper"_a = py::none(),
      "rotation"_a = py::none(),
      "The finger's inverse kinematics in closed form: geometric (eq. 12-13, a position) or,\n"
      "with rotation, algebraic (eq. 8-11, a whole frame).\n\n"
      "Returns:\n    dict with reachable (in the workspace, limits aside), valid (per branch: up\n"
      "    q3 >= 0, down q3 <= 0, within the limits), branches (2, 3; zero where not valid),\n"
      "    first_valid (0, 1 or -1). Never NaN.");

  py::class_<Robot>(k, "Robot",
                    "A model's robot (the subsystem `robot`, '' for the whole model) and the\n"
                    "chain from its base to `frame` (block.port inside it), as the\n"
                    "NumericalInverseKinematics block sees them; joint limits from the joints.")
      .def(py::init<const graph::Model&, const std::string&, const std::string&>(), "model"_a,
           "frame"_a, "robot"_a = "")
      .def_property_readonly("nq", &Robot::nq, "number of position coordinates of the robot")
      .def_property_readonly("lower", &Robot::lower, "lower limits (nq,), -inf where none")
      .def_property_readonly("upper", &Robot::upper, "upper limits (nq,), +inf where none")
      .def_property_readonly("chain", &Robot::chain, "the q entries of the chain's joints")
      .def("pose", &Robot::Pose, "q"_a,
           "The frame's pose in the base at q: (position (3,), rotation (3, 3)).")
      .def("inverse", &Robot::Inverse, "position"_a, "rotation"_a = py::none(),
           "q_start"_a = py::none(), "weights"_a = py::none(), "position_tolerance"_a = 1e-9,
           "rotation_tolerance"_a = 1e-9, "max_iterations"_a = 100, "restarts"_a = 30,
           "seed"_a = 1,
           "Joint positions that put the frame at position (and rotation, if given; else the\n"
           "rotation is free), within the limits, by Levenberg-Marquardt from q_start (zeros\n"
           "if not given), with random restarts on failure (docs/kinematics.md).\n\n"
           "Returns:\n    dict with q (nq,), success, position_error (m), rotation_error (rad),\n"
           "    iterations, attempts.");
}

}  // namespace twinblocks::python
