#pragma once

// The URDF reader's converter (urdf_reader.h), for its two files: urdf_validation.cc checks
// and parses the document (liburdfdom, and the checks it does not make), urdf_converter.cc
// builds the model from it. Only with TWINBLOCKS_URDF (liburdfdom).

#include <console_bridge/console.h>
#include <urdf_parser/urdf_parser.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <pugixml.hpp>
#include <set>
#include <sstream>
#include <utility>

#include "common/input_file.h"
#include "common/number_text.h"
#include "common/suggest.h"
#include "model/model_error.h"
#include "physics/multibody/mesh.h"
#include "xml/detail/element_depth.h"
#include "xml/detail/line_index.h"
#include "xml/model_writer.h"
#include "xml/urdf_reader.h"

namespace twinblocks::xml::internal {

using graph::FormatNumber;
using graph::ModelError;
using graph::SourceLocation;

// liburdfdom reports through console_bridge, which prints to the console by default. While a
// file is parsed its messages are kept here instead (the last error becomes the one line we
// report), and nothing reaches stderr.
class CapturedConsole : public console_bridge::OutputHandler {
 public:
  CapturedConsole() {
    previous_level_ = console_bridge::getLogLevel();
    console_bridge::setLogLevel(console_bridge::CONSOLE_BRIDGE_LOG_DEBUG);
    console_bridge::useOutputHandler(this);
  }
  ~CapturedConsole() override {
    console_bridge::restorePreviousOutputHandler();
    console_bridge::setLogLevel(previous_level_);
  }
  CapturedConsole(const CapturedConsole&) = delete;
  CapturedConsole& operator=(const CapturedConsole&) = delete;

  void log(const std::string& text, console_bridge::LogLevel level, const char*, int) override {
    if (level >= console_bridge::CONSOLE_BRIDGE_LOG_ERROR) errors_.push_back(text);
  }
  const std::vector<std::string>& errors() const { return errors_; }

 private:
  console_bridge::LogLevel previous_level_;
  std::vector<std::string> errors_;
};

inline std::string Quote(std::string_view s) { return "'" + graph::OneLine(s) + "'"; }

// Adding 0.0 writes -0 as 0.
inline std::string Vec(const Eigen::Vector3d& v) {
  return "[" + FormatNumber(v.x() + 0.0) + ", " + FormatNumber(v.y() + 0.0) + ", " +
         FormatNumber(v.z() + 0.0) + "]";
}

inline std::string Mat(const Eigen::Matrix3d& m) {
  std::string s = "[";
  for (int r = 0; r < 3; ++r) {
    s += r ? ", [" : "[";
    for (int c = 0; c < 3; ++c) s += (c ? ", " : "") + FormatNumber(m(r, c));
    s += "]";
  }
  return s + "]";
}

inline Eigen::Vector3d ToEigen(const urdf::Vector3& v) { return {v.x, v.y, v.z}; }

inline Eigen::Matrix3d RotationOf(const urdf::Pose& pose) {
  const urdf::Rotation& r = pose.rotation;
  return Eigen::Quaterniond(r.w, r.x, r.y, r.z).normalized().toRotationMatrix();
}

inline bool IsIdentity(const urdf::Pose& pose) {
  const urdf::Rotation& r = pose.rotation;
  return pose.position.x == 0.0 && pose.position.y == 0.0 && pose.position.z == 0.0 && r.x == 0.0 &&
         r.y == 0.0 && r.z == 0.0;
}

// The elements of the document, by name, with their lines: for messages, for the checks
// liburdfdom does not make, and for the drake: tags it drops.
struct UrdfIndex {
  struct LinkEntry {
    std::string name;
    pugi::xml_node node;
  };
  struct JointEntry {
    std::string name, type, parent, child;
    pugi::xml_node node;
  };
  struct Rotor {
    double gear_ratio = 1.0;
    double rotor_inertia = 0.0;  // kg m^2, motor side
    pugi::xml_node node;
  };
  pugi::xml_node robot;
  std::vector<LinkEntry> links;    // file order
  std::vector<JointEntry> joints;  // file order
  std::map<std::string, size_t> link_index, joint_index;
  std::map<std::string, Rotor> rotors;  // by joint name
};

inline bool Is1Dof(std::string_view type) {
  return type == "revolute" || type == "continuous" || type == "prismatic";
}

/// Turns one URDF document into a model (ReadUrdfString).
class UrdfConverter {
 public:
  UrdfConverter(const std::string& text, std::string file, const UrdfImportOptions& options)
      : text_(text), file_(std::move(file)), lines_(text), options_(options) {}

  UrdfImport Convert();

 private:
  SourceLocation Where(const pugi::xml_node& n) const;
  [[noreturn]] void Fail(const pugi::xml_node& n, const std::string& message) const;
  void Warn(const pugi::xml_node& n, const std::string& message);
  void Note(const std::string& note);

  double Number(const pugi::xml_node& n, const char* attribute) const;

  void Index();

  std::vector<std::string> LinkNames() const;

  void ValidateNumbers() const;

  void Validate();

  pugi::xml_node ElementNamedIn(const std::string& message) const;

  void Parse();

  // ---- Building the model ----

  static std::string IdentifierFrom(const std::string& wanted);

  std::string UniqueName(const std::string& wanted);

  graph::BlockNode& Add(const std::string& type, const std::string& name,
                        std::vector<graph::Parameter> params, const pugi::xml_node& from);

  std::string Transform(const std::string& name, const urdf::Pose& pose, const std::string& base,
                        const pugi::xml_node& from);

  static bool ReadTriple(const char* text, Eigen::Vector3d* out);

  std::optional<std::string> ResolveMesh(const std::string& uri) const;

  const pugi::xml_node& LinkNode(const std::string& name) const;
  const pugi::xml_node& JointNode(const std::string& name) const;

  void AddLink(const urdf::Link& link, const std::string& frame);

  // Where a mimic follower's coordinate comes from: q = ratio * q_leader + offset, leader free.
  struct Affine {
    std::string leader;
    double ratio = 1.0, offset = 0.0;
  };
  Affine MimicRoot(const urdf::Joint& j) const;

  void AddJoint(const urdf::Joint& j, const std::string& parent_frame);

  bool SubtreeHasMass(const std::string& link_name) const;

  bool HasRotor(const urdf::Joint& j) const;
  bool IsLeader(const urdf::Joint& j) const;

  std::string Actuation(const urdf::Joint& j) const;

  void AddSubtree(const std::string& link_name);

  void AddCouplingsAndInputs();

  void Build();

  const std::string& text_;
  std::string file_;
  internal::LineIndex lines_;
  UrdfImportOptions options_;
  pugi::xml_document doc_;
  UrdfIndex idx_;
  urdf::ModelInterfaceSharedPtr urdf_;
  UrdfImport out_;
  std::set<std::string> used_names_;
  std::set<std::string> leaders_;                   // joints some mimic tag follows
  std::map<std::string, std::string> link_frame_;   // link -> "block.port" of its frame
  std::map<std::string, std::string> joint_block_;  // URDF joint -> block name
};

}  // namespace twinblocks::xml::internal
