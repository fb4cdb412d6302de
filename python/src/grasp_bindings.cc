// twinblocks.grasp: the grasp analysis library (physics/grasp/) from Python. Points and
// normals are numpy arrays of shape (n, 3), one contact a row; wrenches have 6 entries
// [force (N); torque (N m)]; docs/grasp-analysis.md has the equations.
#include <pybind11/eigen.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <stdexcept>
#include <string>

#include "bindings.h"
#include "physics/grasp/contact_forces.h"
#include "physics/grasp/grasp_matrix.h"
#include "physics/grasp/grasp_quality.h"
#include "physics/grasp/triangle_measures.h"

namespace py = pybind11;
using namespace pybind11::literals;

namespace twinblocks::python {
namespace {

using grasp::ContactModel;

ContactModel ParseContactModel(const std::string& name) {
  if (name == "point") return ContactModel::kPointWithoutFriction;
  if (name == "hard") return ContactModel::kHardFinger;
  if (name == "soft") return ContactModel::kSoftFinger;
  throw std::invalid_argument("grasp: contact model '" + name +
                              "'; expected 'point', 'hard' or 'soft'");
}

// (n, 3) rows to (3, n) columns.
Eigen::Matrix3Xd Columns(const Eigen::MatrixXd& rows, const char* what) {
  if (rows.cols() != 3) {
    throw std::invalid_argument(std::string("grasp: ") + what + " has shape (" +
                                std::to_string(rows.rows()) + ", " + std::to_string(rows.cols()) +
                                "); expected (n, 3)");
  }
  return rows.transpose();
}

grasp::Wrench ToWrench(const Eigen::VectorXd& w) {
  if (w.size() != 6) {
    throw std::invalid_argument("grasp: a wrench has 6 entries, got " + std::to_string(w.size()));
  }
  return w;
}

py::dict ForcesDict(const grasp::ContactForces& f) {
  return py::dict("feasible"_a = f.feasible, "f"_a = f.f, "margin"_a = f.margin,
                  "total_normal_force"_a = f.total_normal_force, "message"_a = f.message);
}

}  // namespace

void BindGrasp(py::module_& m) {
  py::module_ g = m.def_submodule(
      "grasp",
      "Grasp analysis: grasp matrix, contact forces, force closure and the Ferrari-Canny\n"
      "epsilon, and the triangle measures of Zaidi et al. 2020. Contacts are (n, 3) arrays of\n"
      "points and inward unit normals; models are 'point', 'hard' and 'soft'. Bad input\n"
      "raises ValueError naming the contact.");

  g.def(
      "grasp_matrix",
      [](const Eigen::MatrixXd& points, const Eigen::MatrixXd& normals,
         const Eigen::Vector3d& center, const std::string& model) {
        const grasp::GraspMatrix G =
            grasp::CalcGraspMatrix(Columns(points, "points"), Columns(normals, "normals"), center,
                                   ParseContactModel(model));
        py::list frames;
        for (const Eigen::Matrix3d& R : G.R_WC) frames.append(R);
        return py::dict("G"_a = G.G, "frames"_a = frames, "singular_values"_a = G.singular_values,
                        "min_singular_value"_a = G.min_singular_value);
      },
      "points"_a, "normals"_a, "center"_a, "model"_a = "hard",
      "The grasp matrix G (6 x m) mapping contact force components to the object wrench\n"
      "[force; torque about center].\n\n"
      "Returns:\n    dict with G, frames (per contact the 3x3 [n t1 t2]), singular_values (6),\n"
      "    min_singular_value.\nRaises:\n    ValueError: on bad contacts.");

  g.def(
      "internal_forces", [](const Eigen::MatrixXd& G) { return grasp::CalcInternalForceBasis(G); },
      "G"_a, "An orthonormal basis (m x k) of G's null space: the internal (squeezing) forces.");

  g.def(
      "min_norm_forces",
      [](const Eigen::MatrixXd& G, const Eigen::VectorXd& w) {
        return grasp::CalcMinNormForces(G, ToWrench(w)).f;
      },
      "G"_a, "w"_a,
      "The contact forces of least norm balancing the external wrench w: f = -pinv(G) w\n"
      "(friction ignored).");

  g.def(
      "friction_margin_forces",
      [](const Eigen::MatrixXd& G, const Eigen::VectorXd& w, double mu, double max_normal_force,
         const std::string& model, int edges, double torsional_mu) {
        return ForcesDict(grasp::CalcLargestMarginForces(
            G, ParseContactModel(model), {mu, torsional_mu, edges}, ToWrench(w), max_normal_force));
      },
      "G"_a, "w"_a, "mu"_a, "max_normal_force"_a, "model"_a = "hard", "edges"_a = 8,
      "torsional_mu"_a = 0.0,
      "The forces balancing w (G f = -w) with the largest distance from the linearized friction\n"
      "cones' facets, each normal force at most max_normal_force (N); a linear program (GLPK).\n\n"
      "Returns:\n    dict with feasible, f, margin, total_normal_force, message.");

  g.def(
      "least_squeeze_forces",
      [](const Eigen::MatrixXd& G, const Eigen::VectorXd& w, double mu, const std::string& model,
         int edges, double torsional_mu) {
        return ForcesDict(grasp::CalcLeastSqueezeForces(G, ParseContactModel(model),
                                                        {mu, torsional_mu, edges}, ToWrench(w)));
      },
      "G"_a, "w"_a, "mu"_a, "model"_a = "hard", "edges"_a = 8, "torsional_mu"_a = 0.0,
      "The forces balancing w inside the linearized friction cones with the smallest sum of\n"
      "normal forces; a linear program (GLPK).\n\n"
      "Returns:\n    dict with feasible, f, margin, total_normal_force, message.");

  g.def(
      "epsilon",
      [](const Eigen::MatrixXd& points, const Eigen::MatrixXd& normals,
         const Eigen::Vector3d& center, double mu, const std::string& model, int edges,
         double torsional_mu, const std::string& norm, double torque_length) {
        grasp::QualityOptions options;
        if (norm == "L1") {
          options.norm = grasp::QualityNorm::kL1;
        } else if (norm == "Linf") {
          options.norm = grasp::QualityNorm::kLInfinity;
        } else {
          throw std::invalid_argument("grasp: norm '" + norm + "'; expected 'L1' or 'Linf'");
        }
        options.torque_length = torque_length;
        const grasp::GraspQuality q =
            grasp::CalcGraspQuality(Columns(points, "points"), Columns(normals, "normals"), center,
                                    ParseContactModel(model), {mu, torsional_mu, edges}, options);
        return py::dict("force_closure"_a = q.force_closure, "epsilon"_a = q.epsilon,
                        "torque_length"_a = q.torque_length,
                        "weakest_direction"_a = q.weakest_direction, "message"_a = q.message);
      },
      "points"_a, "normals"_a, "center"_a, "mu"_a, "model"_a = "hard", "edges"_a = 8,
      "torsional_mu"_a = 0.0, "norm"_a = "L1", "torque_length"_a = 0.0,
      "Force closure and the Ferrari-Canny epsilon (qhull); torques divided by torque_length\n"
      "(0: the largest distance from center to a contact).\n\n"
      "Returns:\n    dict with force_closure, epsilon, torque_length, weakest_direction, message.");

  g.def(
      "force_closure",
      [](const Eigen::MatrixXd& points, const Eigen::MatrixXd& normals,
         const Eigen::Vector3d& center, double mu, const std::string& model, int edges,
         double torsional_mu) {
        return grasp::IsForceClosure(Columns(points, "points"), Columns(normals, "normals"), center,
                                     ParseContactModel(model), {mu, torsional_mu, edges});
      },
      "points"_a, "normals"_a, "center"_a, "mu"_a, "model"_a = "hard", "edges"_a = 8,
      "torsional_mu"_a = 0.0, "True when the grasp is force closure (linearized cones, L1 hull).");

  g.def("q1", &grasp::CalcQ1, "a"_a, "b"_a, "c"_a,
        "Q1 of Zaidi et al. 2020: 3/(2 pi) sum |angle - pi/3|; 0 equilateral, 2 flat.");
  g.def("q2", &grasp::CalcQ2, "a"_a, "b"_a, "c"_a, "center"_a,
        "Q2 of Zaidi et al. 2020: the distance (m) from center to the triangle's centroid.");
  g.def(
      "choose_triangle",
      [](const Eigen::MatrixXd& points, const Eigen::Vector3d& center, double q1_max) {
        const grasp::GraspTriangle t =
            grasp::ChooseGraspTriangle(Columns(points, "points"), center, q1_max);
        return py::dict("found"_a = t.found, "indices"_a = t.indices, "q1"_a = t.q1, "q2"_a = t.q2,
                        "num_near_equilateral"_a = t.num_near_equilateral);
      },
      "points"_a, "center"_a, "q1_max"_a = 0.3,
      "Algorithm 1 of Zaidi et al. 2020: among the triangles of candidate points with\n"
      "Q1 <= q1_max, the one with the smallest Q2.\n\n"
      "Returns:\n    dict with found, indices (3), q1, q2, num_near_equilateral.");
  BindGraspSynthesis(g);
}

}  // namespace twinblocks::python
