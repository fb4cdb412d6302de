// twinblocks.grasp, grasp synthesis for the Barrett hand (Zaidi et al. 2020, "Grasp Planning
// Pipeline for Robust Manipulation of 3D Deformable Objects with Industrial Robotic Hand + Arm
// Systems", Algorithm 2): the pregrasp and the candidate points of the reference objects and of
// closed triangle meshes. Points, normals and vertices are numpy arrays of shape (n, 3), one a
// row; angles are in rad, as in C++; bad input raises ValueError with the C++ message.
#include <pybind11/eigen.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <stdexcept>
#include <string>

#include "bindings.h"
#include "physics/grasp/barrett_pregrasp.h"
#include "physics/grasp/object_mesh.h"
#include "physics/grasp/object_surface.h"

namespace py = pybind11;
using namespace pybind11::literals;

namespace twinblocks::python {
namespace {

// (n, 3) rows to (3, n) columns.
template <typename Matrix>
Eigen::Matrix<typename Matrix::Scalar, 3, Eigen::Dynamic> SynthesisColumns(const Matrix& rows,
                                                                           const char* what) {
  if (rows.cols() != 3) {
    throw std::invalid_argument(std::string("grasp: ") + what + " has shape (" +
                                std::to_string(rows.rows()) + ", " + std::to_string(rows.cols()) +
                                "); expected (n, 3)");
  }
  return rows.transpose();
}

py::dict SamplesDict(const grasp::SurfaceSamples& s) {
  return py::dict("points"_a = Eigen::MatrixXd(s.p_W.transpose()),
                  "normals"_a = Eigen::MatrixXd(s.n_W.transpose()));
}

// Three 3-vectors as the rows of a (3, 3) array.
Eigen::Matrix3d SynthesisRows(const std::array<Eigen::Vector3d, 3>& v) {
  Eigen::Matrix3d rows;
  for (int i = 0; i < 3; ++i) {
    rows.row(i) = v[i].transpose();
  }
  return rows;
}

py::dict PregraspDict(const grasp::BarrettPregrasp& p) {
  py::dict d("found"_a = p.found, "message"_a = p.message, "has_hand"_a = p.has_hand,
             "triangle"_a = p.triangle, "finger_vertex"_a = p.finger_vertex, "Q1"_a = p.q1,
             "Q2"_a = p.q2, "centroid"_a = p.p_OT, "normal"_a = p.n_O,
             "plane_residual"_a = p.plane_residual);
  d["L"] = p.palm_distance;
  d["num_l_steps"] = p.num_l_steps;
  d["pose"] = py::make_tuple(p.X_OW.rotation, p.X_OW.translation);
  d["palm_clearance"] = p.palm_clearance;
  d["spread"] = p.spread;
  d["theta2"] = p.theta2;
  d["theta3"] = p.theta3;
  d["coupling_error_deg"] = p.coupling_error_deg;
  d["plane_distance"] = p.plane_distance;
  d["coupled_theta2"] = p.coupled_theta2;
  d["coupled_tip_distance"] = p.coupled_tip_distance;
  d["q_M"] = p.q_M;
  d["targets"] = SynthesisRows(p.p_OG);
  d["tips"] = SynthesisRows(p.p_OS);
  d["coupled_tips"] = SynthesisRows(p.coupled_p_OS);
  return d;
}

}  // namespace

void BindGraspSynthesis(py::module_& g) {
  g.def(
      "plan_barrett_pregrasp",
      [](const Eigen::MatrixXd& points, const Eigen::MatrixXd& normals,
         const Eigen::Vector3d& centre, double q1_max, double max_coupling_error_deg,
         double max_plane_distance, double l_step, double l_max, double closure_mu) {
        grasp::BarrettPregraspOptions options;
        options.closure_mu = closure_mu;
        options.q1_max = q1_max;
        options.max_coupling_error_deg = max_coupling_error_deg;
        options.max_plane_distance = max_plane_distance;
        options.l_step = l_step;
        options.l_max = l_max;
        return PregraspDict(grasp::PlanBarrettPregrasp(SynthesisColumns(points, "points"),
                                                       SynthesisColumns(normals, "normals"), centre,
                                                       options));
      },
      "points"_a, "normals"_a, "centre"_a, "q1_max"_a = 0.3, "max_coupling_error_deg"_a = 2.0,
      "max_plane_distance"_a = 0.001, "l_step"_a = 0.001, "l_max"_a = 0.3, "closure_mu"_a = 0.0,
      "The Barrett hand's pregrasp, Algorithm 2 of Zaidi et al. 2020: Algorithm 1's triangle,\n"
      "the palm on its normal, roll and spread, and the palm distance L in l_step steps until\n"
      "every finger's exact planar IK is within max_coupling_error_deg of Theta3 = Theta2 / 3.\n\n"
      "Args:\n    points, normals: candidate points (n, 3) in m and outward unit normals.\n"
      "    centre: the object's mass centre (m).\n"
      "    closure_mu: 0 for Algorithm 1 as published; > 0 chooses among the triangles force\n"
      "    closure with this mu, at the vertices and where the coupled fingers land.\n\n"
      "Returns:\n    dict with found, message, triangle, finger_vertex, Q1, Q2, centroid, normal,\n"
      "    L, pose (R, p) of the wrist frame, palm_clearance, spread, theta2, theta3 (exact IK,\n"
      "    rad), coupling_error_deg, plane_distance, coupled_theta2, coupled_tip_distance,\n"
      "    q_M (counts of the coupled angles), targets, tips, coupled_tips ((3, 3), m).\n\n"
      "Raises:\n    ValueError: fewer than 3 or more than 300 points, values not finite, normals\n"
      "    not unit, options out of range.");
  g.def(
      "sample_reference_object",
      [](const std::string& name, double spacing) {
        const grasp::ReferenceObject object = grasp::ParseReferenceObject(name);
        py::dict d = SamplesDict(grasp::SampleReferenceObject(object, spacing));
        d["centre"] = grasp::ReferenceObjectCentre(object);
        return d;
      },
      "name"_a, "spacing"_a = grasp::kReferenceSpacing,
      "Candidate points on a reference object of Zaidi et al. 2020 ('sphere', 'cube',\n"
      "'cylinder'), sampled at spacing (m), above z = 0.005.\n\n"
      "Returns:\n    dict with points, normals ((n, 3)) and centre (3).\n\n"
      "Raises:\n    ValueError: an unknown name, a bad spacing or more than 300 points.");
  g.def(
      "check_on_reference_object",
      [](const std::string& name, const Eigen::MatrixXd& points, double tolerance) {
        grasp::CheckOnReferenceObject(grasp::ParseReferenceObject(name),
                                      SynthesisColumns(points, "points"), tolerance);
      },
      "name"_a, "points"_a, "tolerance"_a = 1e-9,
      "Checks that points (n, 3) lie on a reference object's surface within tolerance (m).\n\n"
      "Raises:\n    ValueError: naming the first point off the object.");
  g.def(
      "sample_triangle_mesh",
      [](const Eigen::MatrixXd& vertices, const Eigen::MatrixXi& triangles, double spacing,
         double z_min) {
        return SamplesDict(grasp::SampleTriangleMeshSurface(
            SynthesisColumns(vertices, "vertices"), SynthesisColumns(triangles, "triangles"),
            spacing, z_min));
      },
      "vertices"_a, "triangles"_a, "spacing"_a = grasp::kReferenceSpacing,
      "z_min"_a = grasp::kTableClearance,
      "Candidate points on the faces of a closed triangle mesh (vertices (nv, 3) in m,\n"
      "triangles (nt, 3) vertex indices, counter-clockwise seen from outside), with the faces'\n"
      "outward normals; z > z_min, at most 300 points.\n\n"
      "Returns:\n    dict with points and normals ((n, 3)).\n\n"
      "Raises:\n    ValueError: naming what is wrong with the mesh and where (too few vertices\n"
      "    or triangles, an index out of range, a non-finite vertex, a degenerate triangle, an\n"
      "    edge not in exactly two triangles, inconsistent orientation, no positive volume).");
  g.def(
      "sample_mesh_file",
      [](const std::string& path, const Eigen::Matrix3d& R, const Eigen::Vector3d& p,
         double spacing, double z_min) {
        return SamplesDict(grasp::SampleMeshFileSurface(path, {R, p}, spacing, z_min));
      },
      "path"_a, "R"_a = Eigen::Matrix3d::Identity(), "p"_a = Eigen::Vector3d::Zero(),
      "spacing"_a = grasp::kReferenceSpacing, "z_min"_a = grasp::kTableClearance,
      "sample_triangle_mesh of a mesh file (STL, OBJ; m) placed by rotation R and\n"
      "translation p.\n\nRaises:\n    ValueError: an unreadable file or a bad mesh.");
}

}  // namespace twinblocks::python
