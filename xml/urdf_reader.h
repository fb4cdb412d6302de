#pragma once

// URDF robot descriptions as twinblocks models (docs/urdf.md): what `twinblocks import
// robot.urdf` writes and what `twinblocks run robot.urdf` simulates.
//
// The file is parsed by liburdfdom (the ROS reference parser), so that a robot reads here as it
// reads in ROS, and a second time by pugixml for what liburdfdom drops: the line of every
// element (for messages), the checks liburdfdom leaves out (negative masses, joints that form a
// cycle) and Drake's `drake:` extension tags. The result is an ordinary graph::Model: links
// become Solids, joints become RigidTransforms and joint blocks, mimic tags JointCouplers, and
// the whole is rooted at a World, ready to compile.

#include <string>
#include <string_view>
#include <vector>

#include "model/model.h"

namespace twinblocks::xml {

/// How the imported robot's joints are driven.
enum class UrdfActuation {
  kNone,    ///< passive: joint damping and limit stops only (the robot falls under gravity)
  kTorque,  ///< top-level inport `tau` (one element per driven joint, N m or N)
  kMotion,  ///< top-level inport `q` (one position per driven joint, rad or m), filtered
};

/// "none", "torque", "motion"; nullopt-like failure as std::invalid_argument naming the valid
/// words.
UrdfActuation ParseUrdfActuation(std::string_view word);

struct UrdfImportOptions {
  UrdfActuation actuation = UrdfActuation::kNone;
  /// Directories in which `package://PKG/PATH` meshes are looked up, in order: DIR/PKG/PATH, then
  /// DIR/PATH (DIR may hold the packages, or be the package itself).
  std::vector<std::string> mesh_paths;
  /// Simulated time the generated model runs for (its `<simulation t_end>`), s.
  double t_end = 1.0;
};

/// A URDF file turned into a model, with what the conversion had to say.
struct UrdfImport {
  graph::Model model;
  /// One line each, `FILE:LINE: warning: ...`: parts left out (a visual mesh not found, a
  /// second visual of a link), in file order.
  std::vector<std::string> warnings;
  /// One line each: what the model does not represent (velocity and effort limits, Coulomb
  /// friction ...), for the generated file's header comment.
  std::vector<std::string> notes;
};

/// True when this build reads URDF (liburdfdom was found at configure time).
bool UrdfSupported();

/// Reads a URDF file into a model named after the robot, whose `file` is `path` (so that data
/// files resolve from its directory).
/// @throws graph::ModelError with FILE:LINE for a file that cannot be read or is not XML, a
///   document liburdfdom rejects, a joint whose parent or child link is not defined, joints that
///   form a cycle, a negative or non-finite mass, a mesh file that exists but cannot be read, an
///   unsupported joint type (planar), a mimic tag naming no 1-DOF joint; and, in a build
///   without URDF support, one line saying so.
UrdfImport ReadUrdfFile(const std::string& path, const UrdfImportOptions& options = {});

/// As ReadUrdfFile, from text; `file_name` is used in messages and to resolve relative meshes.
UrdfImport ReadUrdfString(const std::string& text, const std::string& file_name,
                          const UrdfImportOptions& options = {});

/// The model as XML (xml::WriteModelString) with a header comment saying where it came from and
/// listing `notes`: what `twinblocks import` writes.
std::string WriteImportedModelString(const UrdfImport& import, const std::string& source);

}  // namespace twinblocks::xml
