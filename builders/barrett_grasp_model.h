#pragma once
// The model of a BarrettHand grasp (Zaidi et al. 2020, "Grasp Planning Pipeline for Robust
// Manipulation of 3D Deformable Objects with Industrial Robotic Hand + Arm Systems"): the hand
// of models/lib/barrett.xml on the reference 6-DOF arm (models/robot6dof/arm.xml), whose
// closed-form inverse kinematics holds the wrist at the pregrasp pose, closing on an object
// welded to the table until each fingertip presses with the target force, with a GraspAnalysis
// of the three fingertip contacts. The pregrasp itself is planned by physics/grasp
// (PlanBarrettPregrasp); this only writes it into a diagram.

#include <Eigen/Core>
#include <functional>
#include <string>

#include "model/model.h"
#include "physics/spatial/spatial.h"

namespace twinblocks::graph {

/// The object grasped: a primitive welded to the table (rigid in this model).
struct GraspedObject {
  enum class Shape { kSphere, kBox, kCylinder, kMesh };
  Shape shape = Shape::kSphere;
  std::string name = "sphere";                       ///< used in the model's name and plot titles
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();  ///< in the world (m)
  /// Sphere: [radius, -, -]; box: the edges [x, y, z]; cylinder (upright): [radius, height, -].
  Eigen::Vector3d size = Eigen::Vector3d::Zero();
  /// Mesh: its file (absolute, or relative to the model's), in world coordinates (m): the
  /// object's frame is the world's, and `centre` its mass centre.
  std::string mesh_file;
  double young_modulus = 4.928e6;  ///< E of the object's contact (Pa): foam, as the paper's
  double poisson_ratio = 0.39;
  /// The deformable object's mesh (BarrettDeformableGraspModel): Gmsh's element size (m).
  double element_size = 0.03;
};

struct BarrettGraspSpec {
  GraspedObject object;
  multibody::Pose X_WW;         ///< the wrist frame W (palm base) in the world
  double spread_counts = 0.0;   ///< q_M4 of the spread, [0, 3150]
  double target_force = 2.0;    ///< f* per fingertip (N)
  double mu = 0.5;              ///< fingertip friction
  double t_end = 10.0;          ///< s
  double wrist_offset = 0.020;  ///< W is the arm's frame 6 moved this far along z6 (m)
  double torque_length = 0.04;  ///< GraspAnalysis's L (m)
  /// Where the model's includes are, relative to its file: the hand's library and the arm.
  std::string hand_library = "lib/barrett.xml";
  std::string arm_library = "robot6dof/arm.xml";
};

/// The grasp model, named barrett_<object>, to be written at `file` (its includes are read
/// through `read_file` relative to it, so they must exist there: WriteEmbeddedModelFiles).
/// Logs hand.fn, hand.q_M, hand.touches, ik.reachable and the GraspAnalysis outputs; plots the
/// forces and the quality; summarizes the final forces, closure and epsilon.
/// @throws ModelError from the model's editing calls (an include that cannot be read).
Model BarrettGraspModel(const BarrettGraspSpec& spec, const std::string& file,
                        const std::function<Model(const std::string& path)>& read_file);

/// The grasp of a deformable object (Zaidi et al. 2020's experiment): the same arm and wrist,
/// the hand of models/lib/barrett.xml without rigid contacts (BarrettHandSoft), and the object
/// a DeformableBody of foam (E, nu of the object, 100 kg/m^3, cubic springs, the table at
/// z = 0) touched by the three fingertips, whose normal forces close the fingers' force
/// loops. A sphere, box or cylinder (no mesh). Solver ode23s. Logs hand.q_M,
/// object.contact_normal_force, object.contact_nodes, object.centroid, object.volume and
/// object.elastic_energy; plots the forces; summarizes the final forces.
/// @throws ModelError as BarrettGraspModel; std::invalid_argument for a mesh object.
Model BarrettDeformableGraspModel(const BarrettGraspSpec& spec, const std::string& file,
                                  const std::function<Model(const std::string& path)>& read_file);

}  // namespace twinblocks::graph
