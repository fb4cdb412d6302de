#include "builders/barrett_grasp_model.h"

#include <stdexcept>
#include <utility>
#include <vector>

#include "common/suggest.h"

namespace twinblocks::graph {

namespace {

// Numbers as the model file shows them: the shortest text that reads back to the same double.
std::string Num(double v) { return FormatNumber(v); }

std::string Vec(const Eigen::Vector3d& v) {
  return "[" + Num(v.x()) + ", " + Num(v.y()) + ", " + Num(v.z()) + "]";
}

// The object's body: a frame welded to the world at its centre, and its Solid.
void AddObject(Model& m, const GraspedObject& o) {
  // A mesh is given in world coordinates: its frame is the world's.
  const bool mesh = o.shape == GraspedObject::Shape::kMesh;
  m.AddBlock("", "RigidTransform", "object", {{"translation", mesh ? "[0, 0, 0]" : Vec(o.centre)}});
  switch (o.shape) {
    case GraspedObject::Shape::kSphere:
      m.AddBlock("", "Solid", "object_solid",
                 {{"shape", "sphere"}, {"radius", Num(o.size.x())}, {"density", "100"}});
      break;
    case GraspedObject::Shape::kBox:
      m.AddBlock("", "Solid", "object_solid",
                 {{"shape", "box"}, {"size", Vec(o.size)}, {"density", "100"}});
      break;
    case GraspedObject::Shape::kMesh:
      m.AddBlock("", "Solid", "object_solid",
                 {{"shape", "mesh"}, {"file", o.mesh_file}, {"density", "100"}});
      break;
    case GraspedObject::Shape::kCylinder:
      m.AddBlock("", "Solid", "object_solid",
                 {{"shape", "cylinder"},
                  {"radius", Num(o.size.x())},
                  {"length", Num(o.size.y())},
                  {"density", "100"}});
      break;
  }
  m.AddBlock("", "Constant", "object_centre", {{"value", Vec(o.centre)}});
}

// The arm (models/robot6dof/arm.xml's Robot6DofMotion) holding its frame 6 where the wrist
// W, moved back along z_W by the wrist offset, must be, by its closed-form inverse kinematics,
// and the RigidTransform `wrist` from frame 6 to W.
void AddArmAtWrist(Model& m, const BarrettGraspSpec& spec) {
  // The reference arm's modified DH table (models/robot6dof/arm.xml), for its inverse
  // kinematics.
  m.SetVariable("dh",
                "[[0, 0, 0.5, 0], [-pi/2, 0.15, 0, 0], [0, 0.4, 0, 0], [-pi/2, 0.1, 0.54, 0], "
                "[pi/2, 0, 0, 0], [-pi/2, 0, 0.1, 0]]");
  m.AddBlock("", "Robot6DofMotion", "arm", {});
  m.AddBlock("", "InverseKinematics", "ik", {{"dh", "dh"}, {"derivatives", "on"}});
  // The arm's frame 6 where W, moved back along z_W by the wrist offset, must be.
  const Eigen::Matrix3d& R = spec.X_WW.rotation;
  const Eigen::Vector3d p6 = spec.X_WW.translation - spec.wrist_offset * R.col(2);
  std::string rotation = "[";
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) rotation += (r + c ? ", " : "") + Num(R(r, c));
  }
  rotation += "]";
  m.AddBlock("", "Constant", "frame6_position", {{"value", Vec(p6)}});
  m.AddBlock("", "Constant", "frame6_rotation", {{"value", rotation}});
  m.AddBlock("", "Constant", "at_rest", {{"value", "[0, 0, 0, 0, 0, 0]"}});
  m.AddBlock("", "RigidTransform", "wrist",
             {{"translation", "[0, 0, " + Num(spec.wrist_offset) + "]"}});
  for (const auto& [from, to] :
       std::vector<std::pair<const char*, const char*>>{{"world.W", "arm.base"},
                                                        {"frame6_position.y", "ik.position"},
                                                        {"frame6_rotation.y", "ik.rotation"},
                                                        {"at_rest.y", "ik.velocity"},
                                                        {"at_rest.y", "ik.acceleration"},
                                                        {"ik.motion", "arm.motion"},
                                                        {"arm.tool", "wrist.B"}}) {
    m.Connect("", from, to);
  }
}

// The run's settings and includes, shared by the rigid and the deformable grasp.
Model GraspModelFrame(const BarrettGraspSpec& spec, const std::string& file,
                      const std::function<Model(const std::string& path)>& read_file) {
  Model m;
  m.name = "barrett_" + spec.object.name;
  m.file = file;
  m.AddInclude(spec.hand_library, read_file);
  m.AddInclude(spec.arm_library, read_file);
  m.AddBlock("", "World", "world", {{"gravity", "[0, 0, -9.81]"}});
  return m;
}

// The fingertips' normal forces, `signal` (3), plotted and summarized at t_end.
void AddForcePlotAndSummary(Model& m, const std::string& object, const std::string& signal) {
  PlotSpec forces;
  forces.file = m.name + "_forces.svg";
  forces.title = "Barrett hand on the " + object + ": fingertip normal forces F1, F2, F3";
  forces.ylabel = "N";
  forces.signals = {signal};
  m.AddPlot(forces);
  SummarySpec final_forces;
  final_forces.signals = {signal};
  final_forces.op = SummaryOp::kFinal;
  final_forces.label = "fingertip normal forces at t_end, N: F1 F2 F3";
  m.AddSummary(final_forces);
}

}  // namespace

Model BarrettGraspModel(const BarrettGraspSpec& spec, const std::string& file,
                        const std::function<Model(const std::string& path)>& read_file) {
  const GraspedObject& o = spec.object;
  Model m = GraspModelFrame(spec, file, read_file);
  m.SetSimulation("solver", "ode45");
  m.SetSimulation("t_end", Num(spec.t_end));
  m.SetSimulation("rtol", "1e-6");
  m.SetSimulation("atol", "1e-8");
  m.SetSimulation("output_interval", "0.01");
  AddArmAtWrist(m, spec);
  m.AddBlock("", "BarrettHand", "hand",
             {{"q_M4", Num(spec.spread_counts)},
              {"f_target", Num(spec.target_force)},
              {"E_obj", Num(o.young_modulus)},
              {"nu_obj", Num(o.poisson_ratio)},
              {"mu", Num(spec.mu)}});
  AddObject(m, o);
  m.AddBlock("", "GraspAnalysis", "grasp",
             {{"mu", Num(spec.mu)}, {"torque_length", Num(spec.torque_length)}, {"Ts", "0.01"}});

  const std::vector<std::pair<const char*, const char*>> lines = {
      {"wrist.F", "hand.wrist"},          {"world.W", "object.B"},
      {"object.F", "object_solid.R"},     {"object.F", "hand.object"},
      {"hand.touches", "grasp.contacts"}, {"object_centre.y", "grasp.center"}};
  for (const auto& [from, to] : lines) m.Connect("", from, to);

  for (const char* signal :
       {"hand.fn", "hand.q_M", "hand.touches", "ik.reachable", "grasp.n_active", "grasp.closure",
        "grasp.epsilon", "grasp.sigma_min", "grasp.slip"}) {
    m.AddLog(signal);
  }
  AddForcePlotAndSummary(m, o.name, "hand.fn");
  PlotSpec quality;
  quality.file = m.name + "_quality.svg";
  quality.title = "Barrett hand on the " + o.name + ": force closure (0/1) and epsilon";
  quality.ylabel = "1, N/N";
  quality.signals = {"grasp.closure", "grasp.epsilon"};
  m.AddPlot(quality);
  SummarySpec final_quality;
  final_quality.signals = {"grasp.closure", "grasp.epsilon"};
  final_quality.op = SummaryOp::kFinal;
  final_quality.label = "force closure, epsilon at t_end";
  m.AddSummary(final_quality);
  return m;
}

Model BarrettDeformableGraspModel(const BarrettGraspSpec& spec, const std::string& file,
                                  const std::function<Model(const std::string& path)>& read_file) {
  const GraspedObject& o = spec.object;
  std::string shape, size;
  switch (o.shape) {
    case GraspedObject::Shape::kSphere:
      shape = "sphere";
      size = "[" + Num(o.size.x()) + "]";
      break;
    case GraspedObject::Shape::kBox:
      shape = "box";
      size = Vec(o.size);
      break;
    case GraspedObject::Shape::kCylinder:
      shape = "cylinder";
      size = "[" + Num(o.size.x()) + ", " + Num(o.size.y()) + "]";
      break;
    case GraspedObject::Shape::kMesh:
      throw std::invalid_argument("a deformable grasp takes a sphere, box or cylinder");
  }
  Model m = GraspModelFrame(spec, file, read_file);
  m.name += "_deformable";
  // Stiff: the foam's springs and the tips' Hertz contacts (docs/deformable.md).
  m.SetSimulation("solver", "ode23s");
  m.SetSimulation("t_end", Num(spec.t_end));
  m.SetSimulation("rtol", "1e-4");
  m.SetSimulation("atol", "1e-7");
  m.SetSimulation("output_interval", "0.01");
  AddArmAtWrist(m, spec);
  m.AddBlock("", "BarrettHandSoft", "hand",
             {{"q_M4", Num(spec.spread_counts)}, {"f_target", Num(spec.target_force)}});
  m.AddBlock("", "DeformableBody", "object",
             {{"shape", shape},
              {"size", size},
              {"element_size", Num(o.element_size)},
              {"young_modulus", Num(o.young_modulus)},
              {"poisson_ratio", Num(o.poisson_ratio)},
              {"density", "100"},
              {"spring", "cubic"},
              {"position", Vec(o.centre)},
              {"contact_radius", "[0.01, 0.01, 0.01]"},
              {"contact_mu", Num(spec.mu)},
              {"table", "[0]"}});
  for (const auto& [from, to] : std::vector<std::pair<const char*, const char*>>{
           {"wrist.F", "hand.wrist"},
           {"world.W", "hand.world"},
           {"hand.tips", "object.solids"},
           {"object.contact_normal_force", "hand.fn"}}) {
    m.Connect("", from, to);
  }
  for (const char* signal :
       {"hand.q_M", "object.contact_normal_force", "object.contact_nodes", "object.centroid",
        "object.volume", "object.elastic_energy", "ik.reachable"}) {
    m.AddLog(signal);
  }
  AddForcePlotAndSummary(m, "foam " + o.name, "object.contact_normal_force");
  return m;
}

}  // namespace twinblocks::graph
