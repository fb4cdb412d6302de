// `twinblocks grasp OBJECT`: grasp synthesis for the BarrettHand end to end (Zaidi et al.
// 2020, "Grasp Planning Pipeline for Robust Manipulation of 3D Deformable Objects with
// Industrial Robotic Hand + Arm Systems", Algorithms 1 and 2). Samples the object's surface,
// chooses the triangle and the pregrasp (physics/grasp), writes the model of the hand on the
// arm (builders/barrett_grasp_model.h) with the library files it includes into the results
// folder, runs it as `twinblocks run` would, and reports the grasp the fingers reached.
#include <Eigen/Core>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <memory>
#include <numbers>
#include <string>

#include "builders/barrett_grasp_model.h"
#include "builders/embedded_models.h"
#include "cli/commands.h"
#include "common/output_file.h"
#include "io/results_reader.h"
#include "physics/grasp/barrett_pregrasp.h"
#include "physics/grasp/grasp_matrix.h"
#include "physics/grasp/grasp_quality.h"
#include "physics/grasp/object_mesh.h"
#include "physics/grasp/object_surface.h"
#include "physics/grasp/triangle_measures.h"
#include "xml/model_reader.h"
#include "xml/model_writer.h"

namespace twinblocks::cli {

namespace {

namespace fs = std::filesystem;

struct GraspArgs {
  std::string object;
  std::string output = "grasp";  ///< the results folder
  double spacing = grasp::kReferenceSpacing;
  double force = 2.0;
  double t_end = 10.0;
  double edge_margin = 0.010;
  /// Choose among force-closure triangles only, with this mu (0: Algorithm 1 as published).
  double closure_mu = 0.5;  ///< candidates this far from an edge or rim at least (m)
  bool quiet = false;
  /// The object as a deformable foam body (DeformableBody) rather than a rigid one.
  bool deformable = false;
};

graph::GraspedObject ObjectOf(grasp::ReferenceObject object) {
  graph::GraspedObject o;
  o.name = grasp::ReferenceObjectName(object);
  o.centre = grasp::ReferenceObjectCentre(object);
  switch (object) {
    case grasp::ReferenceObject::kSphere:
      o.shape = graph::GraspedObject::Shape::kSphere;
      o.size = {grasp::kReferenceSphereRadius, 0.0, 0.0};
      break;
    case grasp::ReferenceObject::kCube:
      o.shape = graph::GraspedObject::Shape::kBox;
      o.size = Eigen::Vector3d::Constant(grasp::kReferenceCubeEdge);
      break;
    case grasp::ReferenceObject::kCylinder:
      o.shape = graph::GraspedObject::Shape::kCylinder;
      o.size = {grasp::kReferenceCylinderRadius, grasp::kReferenceCylinderHeight, 0.0};
      break;
  }
  return o;
}

std::string Point(const Eigen::Vector3d& p) {
  char text[96];
  std::snprintf(text, sizeof text, "(%.5f, %.5f, %.5f)", p.x(), p.y(), p.z());
  return text;
}

// The grasp at the end of the run, from the fingertip contacts the results hold.
void ReportReachedGrasp(const std::string& results, const Eigen::Vector3d& centre, double force) {
  const graph::ResultsTable table = graph::ReadResultsCsv(results);
  const int last = table.num_rows() - 1;
  auto value = [&](const std::string& column) {
    const int c = table.FindColumn(column);
    return c < 0 || last < 0 ? std::nan("") : table.values[c][last];
  };
  Eigen::Matrix3Xd p(3, 3), n(3, 3);
  bool reached = true;
  for (int k = 0; k < 3; ++k) {
    const double fn = value("hand.fn[" + std::to_string(k) + "]");
    reached = reached && std::abs(fn - force) <= 0.05;
    for (int r = 0; r < 3; ++r) {
      p(r, k) = value("hand.touches[" + std::to_string(9 * k + r) + "]");
      n(r, k) = value("hand.touches[" + std::to_string(9 * k + 3 + r) + "]");
    }
    std::printf("grasp: F%d f_n %.4f N at %s\n", k + 1, fn, Point(p.col(k)).c_str());
  }
  if (!p.allFinite() || !n.allFinite() || n.colwise().norm().minCoeff() < 0.5) {
    std::printf("grasp: the fingers did not all touch the object\n");
    return;
  }
  const grasp::GraspMatrix G =
      grasp::CalcGraspMatrix(p, n, centre, grasp::ContactModel::kHardFinger);
  grasp::QualityOptions options;
  options.torque_length = 0.04;
  const grasp::GraspQuality quality = grasp::CalcGraspQuality(
      p, n, centre, grasp::ContactModel::kHardFinger, grasp::FrictionCone{0.5, 0.0, 8}, options);
  std::printf("grasp: reached Q1 %.4f, Q2 %.5f m; G's singular values",
              grasp::CalcQ1(p.col(0), p.col(1), p.col(2)),
              grasp::CalcQ2(p.col(0), p.col(1), p.col(2), centre));
  for (int i = 0; i < 6; ++i) std::printf(" %.4g", G.singular_values[i]);
  std::printf("\ngrasp: target forces %s; force closure %s, epsilon %.4g (L = 0.04 m, mu 0.5)\n",
              reached ? "reached" : "NOT reached", quality.force_closure ? "yes" : "no",
              quality.epsilon);
}

int Grasp(const GraspArgs& args) {
  if (!(args.spacing > 0.0) || !(args.force > 0.0) || !(args.t_end > 0.0)) {
    throw UsageError("--spacing, --force and --t-end must be positive");
  }
  if (!(args.edge_margin >= 0.0) || !(args.closure_mu >= 0.0)) {
    throw UsageError("--edge-margin and --closure-mu must be 0 or positive");
  }
  // The object: a reference one by name, or a closed triangle mesh from a file (STL, OBJ), in
  // world coordinates, standing on the table.
  graph::GraspedObject object;
  grasp::SurfaceSamples samples;
  const bool is_mesh = args.object.find('.') != std::string::npos;
  if (is_mesh) {
    const grasp::PlacedMesh mesh = grasp::LoadPlacedMesh(args.object, multibody::Pose());
    object.shape = graph::GraspedObject::Shape::kMesh;
    object.name = "mesh";
    object.mesh_file = fs::absolute(args.object).string();
    object.centre = grasp::CalcClosedMeshCentroid(mesh.vertices, mesh.triangles);
    samples = grasp::SampleTriangleMeshSurface(mesh.vertices, mesh.triangles, args.spacing);
  } else {
    const grasp::ReferenceObject reference = grasp::ParseReferenceObject(args.object);
    object = ObjectOf(reference);
    samples = grasp::KeepAwayFromEdges(
        reference, grasp::SampleReferenceObject(reference, args.spacing), args.edge_margin);
  }
  const Eigen::Vector3d centre = object.centre;
  grasp::BarrettPregraspOptions options;
  options.closure_mu = args.closure_mu;
  const grasp::BarrettPregrasp plan =
      grasp::PlanBarrettPregrasp(samples.p_W, samples.n_W, centre, options);
  const std::string& name = object.name;
  std::printf("pregrasp: %s, %d candidate points; triangle (%d, %d, %d), Q1 %.4f, Q2 %.5f m\n",
              name.c_str(), static_cast<int>(samples.p_W.cols()), plan.triangle[0],
              plan.triangle[1], plan.triangle[2], plan.q1, plan.q2);
  if (!plan.has_hand) {
    std::printf("pregrasp: none: %s\n", plan.message.c_str());
    return 1;
  }
  std::printf(
      "pregrasp: W at %s, z_W %s, L %.3f m, spread %.2f deg, q_M (%.0f, %.0f, %.0f, "
      "%.0f); coupling errors %.2f, %.2f, %.2f deg%s\n",
      Point(plan.X_OW.translation).c_str(), Point(plan.X_OW.rotation.col(2)).c_str(),
      plan.palm_distance, plan.spread * 180.0 / std::numbers::pi, plan.q_M[0], plan.q_M[1],
      plan.q_M[2], plan.q_M[3], plan.coupling_error_deg[0], plan.coupling_error_deg[1],
      plan.coupling_error_deg[2], plan.found ? "" : " (the nearest miss of the 2-degree test)");

  // The model and the library files it includes, in the results folder's own models/ layout.
  const fs::path dir = args.output;
  fs::create_directories(dir);
  for (const graph::EmbeddedModelFile& f : graph::EmbeddedModelFiles()) {
    const fs::path path = dir / f.path;
    fs::create_directories(path.parent_path());
    graph::WriteWholeFile(path.string(), f.text);
  }
  fs::create_directories(dir / "barrett");
  const std::string stem = "barrett_" + name + (args.deformable ? "_deformable" : "");
  const fs::path model_file = dir / "barrett" / (stem + ".xml");
  graph::BarrettGraspSpec spec;
  spec.object = object;
  spec.X_WW = plan.X_OW;
  spec.spread_counts = plan.q_M[3];
  spec.target_force = args.force;
  spec.t_end = args.t_end;
  spec.hand_library = "../lib/barrett.xml";
  spec.arm_library = "../robot6dof/arm.xml";
  if (args.deformable) {
    if (is_mesh)
      throw UsageError("--deformable takes a reference object: sphere, cube or cylinder");
    // Gmsh's element size for about the paper's node counts (Table 1: 182, 162, 226): 166,
    // 142 and 222 nodes.
    spec.object.element_size = name == "sphere" ? 0.028 : (name == "cube" ? 0.04 : 0.03);
  }
  xml::WriteModelFile(
      args.deformable
          ? graph::BarrettDeformableGraspModel(spec, model_file.string(), xml::ReadModelFile)
          : graph::BarrettGraspModel(spec, model_file.string(), xml::ReadModelFile),
      model_file.string());
  if (!args.quiet) std::printf("wrote %s\n", model_file.c_str());

  const fs::path results = dir / (stem + ".csv");
  const int status = RunWrittenModel(model_file.string(), results.string(), args.quiet);
  if (status != kExitOk) return status;
  if (!args.deformable) ReportReachedGrasp(results.string(), centre, args.force);
  return kExitOk;
}

}  // namespace

Runner AddGraspCommand(CLI::App& app) {
  auto args = std::make_shared<GraspArgs>();
  CLI::App* cmd = app.add_subcommand(
      "grasp",
      "Plan a BarrettHand grasp of a reference object (Zaidi et al. 2020, Algorithms 1-2), "
      "then simulate the hand on the arm closing on it");
  cmd->add_option("object", args->object,
                  "sphere, cube or cylinder (docs/grasp-analysis.md), or a closed triangle mesh "
                  "file (.stl, .obj) in world coordinates, m")
      ->required();
  cmd->add_option("-o,--output", args->output,
                  "Results folder: the model, the files it includes, results, plots (default "
                  "grasp)");
  cmd->add_option("--spacing", args->spacing, "Candidate points' spacing on the surface, m")
      ->check(PositiveNumber());
  cmd->add_option("--force", args->force, "Target normal force of each fingertip, N")
      ->check(PositiveNumber());
  cmd->add_option("--edge-margin", args->edge_margin,
                  "Leave out candidate points nearer an edge or rim than this, m (default "
                  "0.010, the fingertip's radius; 0 keeps them all)");
  cmd->add_option("--closure-mu", args->closure_mu,
                  "Choose among the triangles whose contacts are force closure with this "
                  "friction coefficient (default 0.5, the fingertips'; 0: Algorithm 1 as "
                  "published, whatever the normals)");
  cmd->add_option("--t-end", args->t_end, "Simulated time, s")->check(PositiveNumber());
  cmd->add_flag("--deformable", args->deformable,
                "The object as a foam DeformableBody (docs/deformable.md) touched by the "
                "fingertips, on the table");
  cmd->add_flag("--quiet,-q", args->quiet, "No progress line, no 'wrote' lines");
  return [args] { return Grasp(*args); };
}

}  // namespace twinblocks::cli
