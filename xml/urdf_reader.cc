#include "xml/urdf_reader.h"

#include <stdexcept>
#include <string>
#include <string_view>

#include "model/model_error.h"
#include "xml/model_writer.h"

#ifdef TWINBLOCKS_URDF

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
#include "physics/multibody/mesh.h"
#include "xml/detail/element_depth.h"
#include "xml/detail/line_index.h"

#endif

namespace twinblocks::xml {

UrdfActuation ParseUrdfActuation(std::string_view word) {
  if (word == "none") return UrdfActuation::kNone;
  if (word == "torque") return UrdfActuation::kTorque;
  if (word == "motion") return UrdfActuation::kMotion;
  throw std::invalid_argument("unknown actuation '" + std::string(word) +
                              "'; expected one of: none torque motion");
}

std::string WriteImportedModelString(const UrdfImport& import, const std::string& source) {
  std::string text = WriteModelString(import.model);
  // "--" may not appear inside an XML comment.
  auto clean = [](std::string s) {
    for (size_t i = s.find("--"); i != std::string::npos; i = s.find("--", i))
      s.replace(i, 2, "- ");
    return s;
  };
  std::string comment = "<!-- Imported from " + clean(source) +
                        " by `twinblocks import` (docs/urdf.md): links are Solids, joints are "
                        "RigidTransforms and joint blocks in URDF's frames.";
  if (!import.notes.empty()) {
    comment += "\n     Not represented (no parameter for it):";
    for (const std::string& n : import.notes) comment += "\n     - " + clean(n);
  }
  comment += " -->\n";
  const size_t first_line = text.find('\n');
  text.insert(first_line == std::string::npos ? 0 : first_line + 1, comment);
  return text;
}

#ifndef TWINBLOCKS_URDF

bool UrdfSupported() { return false; }

namespace {
[[noreturn]] void NoUrdf(const std::string& file) {
  throw graph::ModelError({file, 0},
                          "this build of twinblocks has no URDF support (liburdfdom was not found "
                          "when it was configured: apt-get install liburdfdom-dev and rebuild)");
}
}  // namespace

UrdfImport ReadUrdfFile(const std::string& path, const UrdfImportOptions&) { NoUrdf(path); }
UrdfImport ReadUrdfString(const std::string&, const std::string& file_name,
                          const UrdfImportOptions&) {
  NoUrdf(file_name);
}

#else

bool UrdfSupported() { return true; }

namespace {

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

std::string Quote(std::string_view s) { return "'" + graph::OneLine(s) + "'"; }

// Adding 0.0 writes -0 as 0.
std::string Vec(const Eigen::Vector3d& v) {
  return "[" + FormatNumber(v.x() + 0.0) + ", " + FormatNumber(v.y() + 0.0) + ", " +
         FormatNumber(v.z() + 0.0) + "]";
}

std::string Mat(const Eigen::Matrix3d& m) {
  std::string s = "[";
  for (int r = 0; r < 3; ++r) {
    s += r ? ", [" : "[";
    for (int c = 0; c < 3; ++c) s += (c ? ", " : "") + FormatNumber(m(r, c));
    s += "]";
  }
  return s + "]";
}

Eigen::Vector3d ToEigen(const urdf::Vector3& v) { return {v.x, v.y, v.z}; }

Eigen::Matrix3d RotationOf(const urdf::Pose& pose) {
  const urdf::Rotation& r = pose.rotation;
  return Eigen::Quaterniond(r.w, r.x, r.y, r.z).normalized().toRotationMatrix();
}

bool IsIdentity(const urdf::Pose& pose) {
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

bool Is1Dof(std::string_view type) {
  return type == "revolute" || type == "continuous" || type == "prismatic";
}

class UrdfConverter {
 public:
  UrdfConverter(const std::string& text, std::string file, const UrdfImportOptions& options)
      : text_(text), file_(std::move(file)), lines_(text), options_(options) {}

  UrdfImport Convert() {
    Index();
    ValidateNumbers();
    Validate();
    Parse();
    Build();
    return std::move(out_);
  }

 private:
  SourceLocation Where(const pugi::xml_node& n) const {
    return {file_, lines_.LineOf(n.offset_debug())};
  }
  [[noreturn]] void Fail(const pugi::xml_node& n, const std::string& message) const {
    throw ModelError(Where(n), message);
  }
  void Warn(const pugi::xml_node& n, const std::string& message) {
    out_.warnings.push_back(Where(n).ToString() + ": warning: " + message);
  }
  void Note(const std::string& note) {
    for (const std::string& n : out_.notes) {
      if (n == note) return;
    }
    out_.notes.push_back(note);
  }

  // A number written in an attribute, strictly: garbage is an error, never 0.
  double Number(const pugi::xml_node& n, const char* attribute) const {
    const pugi::xml_attribute a = n.attribute(attribute);
    if (!a) Fail(n, "<" + std::string(n.name()) + "> needs attribute '" + attribute + "'");
    const char* s = a.value();
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(s, &end);
    while (end && (*end == ' ' || *end == '\t')) ++end;
    if (end == s || *end != '\0' || errno == ERANGE) {
      Fail(n,
           "<" + std::string(n.name()) + " " + attribute + "=" + Quote(s) + ">: expected a number");
    }
    return v;
  }

  void Index() {
    pugi::xml_parse_result result =
        doc_.load_buffer(text_.data(), text_.size(), pugi::parse_default, pugi::encoding_utf8);
    if (!result) {
      throw ModelError({file_, lines_.LineOf(result.offset)},
                       std::string("not a URDF file: malformed XML: ") + result.description());
    }
    // liburdfdom's TinyXML parses recursively: a deep file would overflow the stack in it.
    internal::CheckElementDepth(doc_, text_, file_);
    idx_.robot = doc_.document_element();
    if (!idx_.robot || std::string_view(idx_.robot.name()) != "robot") {
      throw ModelError(idx_.robot ? Where(idx_.robot) : SourceLocation{file_, 1},
                       "not a URDF file: the root element is <" +
                           std::string(idx_.robot ? idx_.robot.name() : "") +
                           ">, expected <robot>");
    }
    for (pugi::xml_node n : idx_.robot.children("link")) {
      const std::string name = n.attribute("name").value();
      if (name.empty()) Fail(n, "<link> needs a name");
      if (!idx_.link_index.emplace(name, idx_.links.size()).second) {
        Fail(n, "link " + Quote(name) + " is defined twice");
      }
      idx_.links.push_back({name, n});
    }
    for (pugi::xml_node n : idx_.robot.children("joint")) {
      UrdfIndex::JointEntry j;
      j.name = n.attribute("name").value();
      j.type = n.attribute("type").value();
      j.parent = n.child("parent").attribute("link").value();
      j.child = n.child("child").attribute("link").value();
      j.node = n;
      if (j.name.empty()) Fail(n, "<joint> needs a name");
      if (!idx_.joint_index.emplace(j.name, idx_.joints.size()).second) {
        Fail(n, "joint " + Quote(j.name) + " is defined twice");
      }
      idx_.joints.push_back(std::move(j));
    }
    // Drake's reflected rotor inertia: <transmission><joint name/><actuator><drake:gear_ratio
    // value/><drake:rotor_inertia value/></actuator></transmission>.
    for (pugi::xml_node t : idx_.robot.children("transmission")) {
      const std::string joint = t.child("joint").attribute("name").value();
      const pugi::xml_node actuator = t.child("actuator");
      const pugi::xml_node ratio = actuator.child("drake:gear_ratio");
      const pugi::xml_node rotor = actuator.child("drake:rotor_inertia");
      if (joint.empty() || !rotor) continue;
      UrdfIndex::Rotor r;
      r.node = rotor;
      r.rotor_inertia = Number(rotor, "value");
      if (ratio) r.gear_ratio = Number(ratio, "value");
      if (!(r.rotor_inertia >= 0.0) || !std::isfinite(r.rotor_inertia)) {
        Fail(rotor, "drake:rotor_inertia must be zero or positive (kg m^2), got " +
                        FormatNumber(r.rotor_inertia));
      }
      if (!std::isfinite(r.gear_ratio) || r.gear_ratio == 0.0) {
        Fail(ratio,
             "drake:gear_ratio must be finite and non-zero, got " + FormatNumber(r.gear_ratio));
      }
      idx_.rotors[joint] = r;
    }
  }

  std::vector<std::string> LinkNames() const {
    std::vector<std::string> names;
    for (const auto& l : idx_.links) names.push_back(l.name);
    return names;
  }

  // Every number of the elements liburdfdom reads, checked at its own line: liburdfdom takes
  // nan and inf as written, keeps a zero mesh scale and reports what it refuses without a line.
  void ValidateNumbers() const {
    enum class Rule { kFinite, kPositive, kNonNegative, kNonZero };
    struct Check {
      const char* element;
      const char* attribute;
      int count;  // numbers in the attribute
      Rule rule;
    };
    static const Check kChecks[] = {
        {"origin", "xyz", 3, Rule::kFinite},
        {"origin", "rpy", 3, Rule::kFinite},
        {"axis", "xyz", 3, Rule::kFinite},
        {"inertia", "ixx", 1, Rule::kFinite},
        {"inertia", "ixy", 1, Rule::kFinite},
        {"inertia", "ixz", 1, Rule::kFinite},
        {"inertia", "iyy", 1, Rule::kFinite},
        {"inertia", "iyz", 1, Rule::kFinite},
        {"inertia", "izz", 1, Rule::kFinite},
        {"limit", "lower", 1, Rule::kFinite},
        {"limit", "upper", 1, Rule::kFinite},
        {"limit", "effort", 1, Rule::kNonNegative},
        {"limit", "velocity", 1, Rule::kNonNegative},
        {"dynamics", "damping", 1, Rule::kNonNegative},
        {"dynamics", "friction", 1, Rule::kNonNegative},
        {"box", "size", 3, Rule::kPositive},
        {"cylinder", "radius", 1, Rule::kPositive},
        {"cylinder", "length", 1, Rule::kPositive},
        {"sphere", "radius", 1, Rule::kPositive},
        {"mesh", "scale", 3, Rule::kNonZero},
        {"mimic", "multiplier", 1, Rule::kFinite},
        {"mimic", "offset", 1, Rule::kFinite},
        {"calibration", "rising", 1, Rule::kFinite},
        {"calibration", "falling", 1, Rule::kFinite},
        {"safety_controller", "soft_lower_limit", 1, Rule::kFinite},
        {"safety_controller", "soft_upper_limit", 1, Rule::kFinite},
        {"safety_controller", "k_position", 1, Rule::kFinite},
        {"safety_controller", "k_velocity", 1, Rule::kFinite},
    };
    auto check = [this](pugi::xml_node n, const Check& c) {
      const pugi::xml_attribute a = n.attribute(c.attribute);
      if (!a) return;
      std::istringstream in(a.value());
      std::string word;
      int count = 0;
      const std::string what = "<" + std::string(c.element) + " " + c.attribute + "=" +
                               Quote(a.value()) + ">: expected ";
      const char* rule = c.rule == Rule::kPositive      ? "positive"
                         : c.rule == Rule::kNonNegative ? "zero or positive"
                         : c.rule == Rule::kNonZero     ? "non-zero, finite"
                                                        : "finite";
      std::string expected =
          what + (c.count == 1 ? std::string("a ") + rule + " number"
                               : std::to_string(c.count) + " " + rule + " numbers");
      // A shape's numbers are its <visual>'s or <collision>'s: the error is placed there,
      // naming the shape's own line too.
      const pugi::xml_node shape_of = n.parent().parent();
      const std::string_view owner = shape_of.name();
      if (std::string_view(n.parent().name()) == "geometry" &&
          (owner == "visual" || owner == "collision")) {
        expected +=
            " (the <" + std::string(c.element) + "> at line " + std::to_string(Where(n).line) + ")";
        n = shape_of;
      }
      while (in >> word) {
        const std::optional<double> parsed = blocks::ParseDecimal(word);
        const double v = parsed.value_or(0.0);
        const bool ok = parsed && (c.rule != Rule::kPositive || v > 0.0) &&
                        (c.rule != Rule::kNonNegative || v >= 0.0) &&
                        (c.rule != Rule::kNonZero || v != 0.0);
        if (!ok) Fail(n, expected + ", got " + Quote(word));
        ++count;
      }
      if (count != c.count) Fail(n, expected);
    };
    // Every element, in document order, without recursion.
    std::int64_t depth = 1;
    for (pugi::xml_node n = idx_.robot.first_child(); n;
         n = internal::NextInDocumentOrder(n, idx_.robot, &depth)) {
      if (n.type() != pugi::node_element) continue;
      for (const Check& c : kChecks) {
        if (std::string_view(n.name()) == c.element) check(n, c);
      }
    }
    for (const UrdfIndex::JointEntry& j : idx_.joints) {
      const pugi::xml_node axis = j.node.child("axis");
      if (axis.attribute("xyz") && Is1Dof(j.type)) {
        std::istringstream in(axis.attribute("xyz").value());
        double x = 0, y = 0, z = 0;
        in >> x >> y >> z;  // three finite numbers, checked above
        if (x == 0.0 && y == 0.0 && z == 0.0) {
          Fail(axis, "joint " + Quote(j.name) + ": <axis xyz> is zero; expected a direction");
        }
      }
      const pugi::xml_node limit = j.node.child("limit");
      if (!limit.attribute("lower") || !limit.attribute("upper")) continue;
      const double lower = limit.attribute("lower").as_double();  // checked numbers above
      const double upper = limit.attribute("upper").as_double();
      if (lower > upper) {
        Fail(limit, "joint " + Quote(j.name) + ": <limit> lower = " + FormatNumber(lower) +
                        " is above upper = " + FormatNumber(upper));
      }
    }
  }

  // What liburdfdom leaves unchecked or reports without a line.
  void Validate() {
    std::map<std::string, const UrdfIndex::JointEntry*> parent_joint;  // child link -> joint
    for (const UrdfIndex::JointEntry& j : idx_.joints) {
      static const std::vector<std::string> kTypes = {"revolute", "continuous", "prismatic",
                                                      "fixed",    "floating",   "planar"};
      if (j.type == "planar") {
        Fail(j.node, "joint " + Quote(j.name) +
                         ": type 'planar' is not supported (twinblocks has no planar joint; "
                         "write it as two prismatic joints and a revolute joint)");
      }
      if (std::find(kTypes.begin(), kTypes.end(), j.type) == kTypes.end()) {
        Fail(j.node, "joint " + Quote(j.name) + ": unknown type " + Quote(j.type) +
                         "; expected one of: revolute continuous prismatic fixed floating");
      }
      for (const auto& [role, link] : {std::pair{"parent", j.parent}, {"child", j.child}}) {
        const pugi::xml_node at = j.node.child(role) ? j.node.child(role) : j.node;
        if (link.empty()) Fail(at, "joint " + Quote(j.name) + " has no " + role + " link");
        if (!idx_.link_index.count(link)) {
          Fail(at, "joint " + Quote(j.name) + ": " + role + " link " + Quote(link) +
                       " is not defined" + graph::SuggestionFor(link, LinkNames()));
        }
      }
      if (j.parent == j.child) {
        Fail(j.node, "joint " + Quote(j.name) + " joins link " + Quote(j.child) + " to itself");
      }
      if (auto [it, added] = parent_joint.emplace(j.child, &j); !added) {
        Fail(j.node, "link " + Quote(j.child) + " is the child of two joints, " +
                         Quote(it->second->name) + " and " + Quote(j.name) +
                         " (a kinematic loop: URDF describes trees only)");
      }
    }
    // A cycle: following parents from a link comes back to it.
    for (const UrdfIndex::JointEntry& start : idx_.joints) {
      std::vector<std::string> path = {start.child};
      std::set<std::string> seen = {start.child};
      const UrdfIndex::JointEntry* j = &start;
      while (j) {
        path.push_back(j->parent);
        if (j->parent == start.child) {
          std::string chain;
          for (auto it = path.rbegin(); it != path.rend(); ++it) {
            chain += (chain.empty() ? "" : " -> ") + *it;
          }
          Fail(start.node,
               "the joints form a cycle through links " + chain + " (URDF describes trees only)");
        }
        if (!seen.insert(j->parent).second) break;  // a cycle not through `start`
        auto it = parent_joint.find(j->parent);
        j = it == parent_joint.end() ? nullptr : it->second;
      }
    }
    std::vector<std::string> roots;
    for (const auto& l : idx_.links) {
      if (!parent_joint.count(l.name)) roots.push_back(l.name);
    }
    if (idx_.links.empty()) Fail(idx_.robot, "the robot has no <link>");
    if (roots.size() != 1) {
      std::string list;
      for (const std::string& r : roots) list += (list.empty() ? "" : ", ") + r;
      Fail(idx_.robot, "the robot must have one root link (a link that is no joint's child), has " +
                           std::to_string(roots.size()) + ": " + list);
    }
    for (const auto& l : idx_.links) {
      const pugi::xml_node mass = l.node.child("inertial").child("mass");
      if (!mass) continue;
      const double m = Number(mass, "value");
      if (!std::isfinite(m) || m < 0.0) {
        Fail(mass, "link " + Quote(l.name) + ": mass must be zero or positive (kg), got " +
                       FormatNumber(m));
      }
    }
    // Mimic tags: the joint followed must be a 1-DOF joint, and following must end.
    for (const UrdfIndex::JointEntry& j : idx_.joints) {
      const pugi::xml_node mimic = j.node.child("mimic");
      if (!mimic) continue;
      if (!Is1Dof(j.type)) {
        Fail(mimic, "joint " + Quote(j.name) + " (" + j.type +
                        ") cannot mimic: only revolute, continuous and prismatic joints can");
      }
      const std::string leader = mimic.attribute("joint").value();
      auto it = idx_.joint_index.find(leader);
      if (it == idx_.joint_index.end() || !Is1Dof(idx_.joints[it->second].type)) {
        Fail(mimic, "joint " + Quote(j.name) + " mimics " + Quote(leader) +
                        ", which is no revolute, continuous or prismatic joint of the robot");
      }
      std::set<std::string> seen = {j.name};
      for (std::string at = leader;;) {
        if (!seen.insert(at).second) {
          Fail(mimic, "joint " + Quote(j.name) + ": mimic tags form a cycle through " + Quote(at));
        }
        const pugi::xml_node next = idx_.joints[idx_.joint_index.at(at)].node.child("mimic");
        if (!next) break;
        at = next.attribute("joint").value();
        if (!idx_.joint_index.count(at)) break;  // reported at that joint
      }
    }
  }

  // The element a liburdfdom message is about: it names links and joints in brackets or quotes.
  pugi::xml_node ElementNamedIn(const std::string& message) const {
    for (const auto& j : idx_.joints) {
      if (message.find("[" + j.name + "]") != std::string::npos ||
          message.find("'" + j.name + "'") != std::string::npos) {
        return j.node;
      }
    }
    for (const auto& l : idx_.links) {
      if (message.find("[" + l.name + "]") != std::string::npos ||
          message.find("'" + l.name + "'") != std::string::npos) {
        return l.node;
      }
    }
    return idx_.robot;
  }

  void Parse() {
    CapturedConsole console;
    std::string thrown;
    try {
      urdf_ = urdf::parseURDF(text_);
    } catch (const std::exception& e) {
      thrown = e.what();
    }
    if (urdf_) return;
    // liburdfdom logs the specific problem first and a generic "failed to build tree" last.
    std::string message = thrown;
    if (message.empty() && !console.errors().empty()) message = console.errors().front();
    if (message.empty()) message = "the file is not a valid URDF";
    Fail(ElementNamedIn(message), "liburdfdom rejected the robot: " + graph::OneLine(message));
  }

  // ---- Building the model ----

  static std::string IdentifierFrom(const std::string& wanted) {
    std::string base;
    for (char c : wanted) {
      base += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
    }
    if (base.empty() || std::isdigit(static_cast<unsigned char>(base[0]))) base = "_" + base;
    return base;
  }

  std::string UniqueName(const std::string& wanted) {
    const std::string base = IdentifierFrom(wanted);
    std::string name = base;
    for (int k = 2; !used_names_.insert(name).second; ++k) name = base + "_" + std::to_string(k);
    return name;
  }

  graph::BlockNode& Add(const std::string& type, const std::string& name,
                        std::vector<graph::Parameter> params, const pugi::xml_node& from) {
    graph::BlockNode& b = out_.model.AddBlock("", type, name, std::move(params));
    b.where = Where(from);
    return b;
  }

  // A RigidTransform for `pose` from the frame `base` ("block.port"); returns its F port, or
  // `base` itself when the pose is the identity.
  // The angles are taken as written in <origin rpy>: liburdfdom keeps a quaternion, and its
  // conversion back snaps a pitch within 1e-5 of pi/2 to pi/2 exactly (the UR5's 1.57079632679
  // would become another robot, 4.9e-12 rad apart).
  std::string Transform(const std::string& name, const urdf::Pose& pose, const std::string& base,
                        const pugi::xml_node& from) {
    if (IsIdentity(pose)) return base;
    std::vector<graph::Parameter> p = {{"translation", Vec(ToEigen(pose.position))}};
    if (pose.rotation.x != 0.0 || pose.rotation.y != 0.0 || pose.rotation.z != 0.0) {
      Eigen::Vector3d rpy;
      if (!ReadTriple(from.child("origin").attribute("rpy").value(), &rpy)) {
        pose.rotation.getRPY(rpy.x(), rpy.y(), rpy.z());
      }
      p.push_back({"rotation", "rpy"});
      p.push_back({"rpy", Vec(rpy)});
    }
    const std::string block = UniqueName(name);
    Add("RigidTransform", block, std::move(p), from);
    out_.model.Connect("", base, block + ".B");
    return block + ".F";
  }

  static bool ReadTriple(const char* text, Eigen::Vector3d* out) {
    std::istringstream in(text);
    in >> (*out)[0] >> (*out)[1] >> (*out)[2];
    if (!in) return false;
    std::string rest;
    return !(in >> rest);
  }

  std::optional<std::string> ResolveMesh(const std::string& uri) const {
    namespace fs = std::filesystem;
    std::vector<fs::path> candidates;
    const std::string package = "package://", file = "file://";
    if (uri.rfind(package, 0) == 0) {
      const std::string rest = uri.substr(package.size());
      const size_t slash = rest.find('/');
      for (const std::string& dir : options_.mesh_paths) {
        candidates.push_back(fs::path(dir) / rest);
        if (slash != std::string::npos)
          candidates.push_back(fs::path(dir) / rest.substr(slash + 1));
      }
    } else if (uri.rfind(file, 0) == 0) {
      candidates.push_back(uri.substr(file.size()));
    } else {
      fs::path p(uri);
      if (p.is_relative()) p = fs::path(file_).parent_path() / p;
      candidates.push_back(p);
    }
    // The first that exists: one that is no regular file (a FIFO, /dev/zero) is then refused
    // by the mesh reader, not taken for missing.
    for (const fs::path& c : candidates) {
      std::error_code ec;
      if (fs::exists(c, ec)) return c.lexically_normal().string();
    }
    return std::nullopt;
  }

  const pugi::xml_node& LinkNode(const std::string& name) const {
    return idx_.links[idx_.link_index.at(name)].node;
  }
  const pugi::xml_node& JointNode(const std::string& name) const {
    return idx_.joints[idx_.joint_index.at(name)].node;
  }

  // The Solid of a link: its inertial, in the shape of its first usable visual.
  void AddLink(const urdf::Link& link, const std::string& frame) {
    const pugi::xml_node node = LinkNode(link.name);
    const double mass = link.inertial ? link.inertial->mass : 0.0;
    Eigen::Vector3d com_L = Eigen::Vector3d::Zero();
    Eigen::Matrix3d I_L = Eigen::Matrix3d::Zero();
    if (link.inertial) {
      const urdf::Inertial& in = *link.inertial;
      const Eigen::Matrix3d R = RotationOf(in.origin);
      Eigen::Matrix3d I;
      I << in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz;
      com_L = ToEigen(in.origin.position);
      I_L = R * I * R.transpose();  // the inertial frame's tensor in the link's axes
    }
    const pugi::xml_node inertial_node = node.child("inertial") ? node.child("inertial") : node;

    // The visual that gives the Solid its shape: the first one twinblocks can draw.
    std::string shape_frame = frame;
    std::vector<graph::Parameter> shape;
    int visual_number = 0;
    pugi::xml_node visual_node = node.child("visual");
    for (const urdf::VisualSharedPtr& visual : link.visual_array) {
      ++visual_number;
      const pugi::xml_node vnode = visual_node;
      visual_node = visual_node.next_sibling("visual");
      if (!visual || !visual->geometry) continue;
      const pugi::xml_node gnode = vnode.child("geometry").first_child();
      const pugi::xml_node at = gnode ? gnode : (vnode ? vnode : node);
      std::vector<graph::Parameter> s;
      const urdf::Geometry& g = *visual->geometry;
      switch (g.type) {
        case urdf::Geometry::SPHERE:
          s = {{"shape", "sphere"},
               {"radius", FormatNumber(static_cast<const urdf::Sphere&>(g).radius)}};
          break;
        case urdf::Geometry::BOX:
          s = {{"shape", "box"}, {"size", Vec(ToEigen(static_cast<const urdf::Box&>(g).dim))}};
          break;
        case urdf::Geometry::CYLINDER: {
          const auto& c = static_cast<const urdf::Cylinder&>(g);
          s = {{"shape", "cylinder"},
               {"radius", FormatNumber(c.radius)},
               {"length", FormatNumber(c.length)}};
          break;
        }
        case urdf::Geometry::MESH: {
          const auto& m = static_cast<const urdf::Mesh&>(g);
          const std::optional<std::string> path = ResolveMesh(m.filename);
          if (!path) {
            Warn(at, "link " + Quote(link.name) + ": visual mesh " + Quote(m.filename) +
                         " not found" +
                         (options_.mesh_paths.empty() ? " (no --mesh-path given)"
                                                      : " under the mesh path") +
                         "; left out");
            continue;
          }
          multibody::TriangleMesh mesh;
          try {
            mesh = multibody::LoadMesh(*path);
          } catch (const multibody::MeshError& e) {
            Fail(at, "link " + Quote(link.name) + ": visual mesh " + Quote(m.filename) +
                         " cannot be read: " + graph::OneLine(e.what()));
          }
          // An open mesh is fine: the Solid is given the link's mass, centre of mass and
          // inertia, so the mesh only shows the link (contact on it would be refused).
          s = {{"shape", "mesh"}, {"file", *path}};
          if (m.scale.x != 1.0 || m.scale.y != 1.0 || m.scale.z != 1.0) {
            s.push_back({"scale", Vec({m.scale.x, m.scale.y, m.scale.z})});
          }
          break;
        }
      }
      if (!shape.empty()) {
        Warn(at, "link " + Quote(link.name) + ": visual " + std::to_string(visual_number) +
                     " left out (a Solid takes one shape; the first is used)");
        continue;
      }
      if (!(mass > 0.0)) {
        Warn(at, "link " + Quote(link.name) +
                     ": visual left out (the link has no mass, and a Solid's shape carries the "
                     "link's mass)");
        continue;
      }
      // The Solid sits at the visual's origin V and carries the link's inertial, moved there.
      const Eigen::Matrix3d R_LV = RotationOf(visual->origin);
      const Eigen::Vector3d p_LV = ToEigen(visual->origin.position);
      com_L = R_LV.transpose() * (com_L - p_LV);
      I_L = R_LV.transpose() * I_L * R_LV;
      shape_frame = Transform(link.name + "_visual", visual->origin, frame, vnode);
      shape = std::move(s);
      if (visual->material) {
        const urdf::Color& c = visual->material->color;
        shape.push_back({"color", Vec({c.r, c.g, c.b})});
      }
    }
    if (!(mass > 0.0) && shape.empty()) {
      if (I_L.cwiseAbs().maxCoeff() > 0.0) {
        Fail(inertial_node, "link " + Quote(link.name) +
                                ": zero mass with a non-zero inertia (no rigid body has it)");
      }
      return;  // a massless frame: no Solid
    }
    if (shape.empty()) shape = {{"shape", "none"}};
    shape.push_back({"mass", FormatNumber(mass)});
    shape.push_back({"com", Vec(com_L)});
    shape.push_back({"inertia", Mat(0.5 * (I_L + I_L.transpose()))});
    const std::string name = UniqueName(link.name);
    Add("Solid", name, std::move(shape), inertial_node);
    out_.model.Connect("", shape_frame, name + ".R");
  }

  // Where a mimic follower's coordinate comes from: q = ratio * q_leader + offset, leader free.
  struct Affine {
    std::string leader;
    double ratio = 1.0, offset = 0.0;
  };
  Affine MimicRoot(const urdf::Joint& j) const {
    Affine a{j.name, 1.0, 0.0};
    const urdf::Joint* at = &j;
    while (at->mimic) {
      a.offset += a.ratio * at->mimic->offset;
      a.ratio *= at->mimic->multiplier;
      a.leader = at->mimic->joint_name;
      at = urdf_->getJoint(a.leader).get();
    }
    return a;
  }

  void AddJoint(const urdf::Joint& j, const std::string& parent_frame) {
    const pugi::xml_node node = JointNode(j.name);
    const urdf::Pose& origin = j.parent_to_joint_origin_transform;
    const std::string child = j.child_link_name;
    if (!SubtreeHasMass(child)) {
      // A bare frame (a tool point, ROS's `base`) has nothing to attach: a fixed joint to it is
      // left out, and a moving joint to it would move no mass.
      if (j.type == urdf::Joint::FIXED) return;
      Fail(node, "joint " + Quote(j.name) + " moves no mass: link " + Quote(child) +
                     " and every link below it are massless (give them an <inertial>)");
    }
    if (j.type == urdf::Joint::FIXED) {
      std::string frame = parent_frame;
      if (!IsIdentity(origin)) frame = Transform(j.name, origin, parent_frame, node);
      link_frame_[child] = frame;
      return;
    }
    const std::string joint_frame = Transform(j.name + "_origin", origin, parent_frame, node);
    const std::string name = UniqueName(j.name);
    joint_block_[j.name] = name;
    if (j.type == urdf::Joint::FLOATING) {
      Add("FreeJoint", name, {}, node);
      Note("joint '" + j.name + "' (floating) is a passive FreeJoint, never actuated");
    } else {
      const bool prismatic = j.type == urdf::Joint::PRISMATIC;
      std::vector<graph::Parameter> p = {{"axis", Vec(ToEigen(j.axis))}};
      double q0 = 0.0;
      if (j.type != urdf::Joint::CONTINUOUS && j.limits) {
        if (j.limits->lower < j.limits->upper) {
          p.push_back({"lower", FormatNumber(j.limits->lower)});
          p.push_back({"upper", FormatNumber(j.limits->upper)});
          // The robot starts at its zero configuration, or at the nearest limit when zero is
          // out of range (so that no stop pushes at t = 0).
          q0 = std::clamp(0.0, j.limits->lower, j.limits->upper);
        }
        if (j.limits->effort > 0.0 || j.limits->velocity > 0.0) {
          Note(
              "effort and velocity limits (<limit effort velocity>): joint blocks have no such "
              "parameter; only lower/upper become stops");
        }
      }
      if (j.mimic) {
        const Affine a = MimicRoot(j);
        q0 = a.offset;  // consistent with its leader's start at 0
        p.push_back({"priority", "low"});
      }
      if (q0 != 0.0) p.push_back({"q0", FormatNumber(q0)});
      if (j.dynamics && j.dynamics->damping != 0.0) {
        p.push_back({"damping", FormatNumber(j.dynamics->damping)});
      }
      if (j.dynamics && j.dynamics->friction != 0.0) {
        Note(
            "Coulomb friction (<dynamics friction>): joint blocks have none; add a "
            "RotationalFriction on the joint's shaft");
      }
      if (j.safety) Note("<safety_controller>: not simulated");
      const std::string actuation = Actuation(j);
      if (actuation != "none") p.push_back({"actuation", actuation});
      Add(prismatic ? "PrismaticJoint" : "RevoluteJoint", name, std::move(p), node);
      if (const auto it = idx_.rotors.find(j.name);
          it != idx_.rotors.end() && actuation == "port") {
        const double J = it->second.rotor_inertia * it->second.gear_ratio * it->second.gear_ratio;
        const std::string rotor = UniqueName(j.name + "_rotor");
        Add("Inertia", rotor, {{"J", FormatNumber(J)}}, it->second.node);
        out_.model.Connect("", rotor + ".I", name + ".shaft");
      }
      out_.model.AddLog(name + ".q");
    }
    out_.model.Connect("", joint_frame, name + ".B");
    link_frame_[child] = name + ".F";
  }

  bool SubtreeHasMass(const std::string& link_name) const {
    const urdf::LinkConstSharedPtr link = urdf_->getLink(link_name);
    if (link->inertial && link->inertial->mass > 0.0) return true;
    for (const urdf::JointSharedPtr& j : link->child_joints) {
      if (SubtreeHasMass(j->child_link_name)) return true;
    }
    return false;
  }

  bool HasRotor(const urdf::Joint& j) const {
    const auto it = idx_.rotors.find(j.name);
    return it != idx_.rotors.end() && it->second.rotor_inertia > 0.0;
  }
  bool IsLeader(const urdf::Joint& j) const { return leaders_.count(j.name) > 0; }

  // The joint block's actuation: a shaft ("port") where a coupler or a rotor needs one, else
  // what the option asks for.
  std::string Actuation(const urdf::Joint& j) const {
    if (options_.actuation == UrdfActuation::kMotion) {
      if (HasRotor(j)) {
        const_cast<UrdfConverter*>(this)->Note(
            "drake:rotor_inertia under actuation=motion: the joints follow their inputs, so the "
            "reflected inertia would only change the reported torque; left out");
      }
      return "motion";
    }
    if (j.mimic || IsLeader(j) || HasRotor(j)) return "port";
    return options_.actuation == UrdfActuation::kTorque ? "torque" : "none";
  }

  // Depth-first from the root, children in file order, so blocks follow the kinematic chain.
  void AddSubtree(const std::string& link_name) {
    const urdf::LinkConstSharedPtr link = urdf_->getLink(link_name);
    AddLink(*link, link_frame_.at(link_name));
    for (const UrdfIndex::JointEntry& e : idx_.joints) {
      if (e.parent != link_name) continue;
      AddJoint(*urdf_->getJoint(e.name), link_frame_.at(link_name));
      if (link_frame_.count(e.child)) AddSubtree(e.child);
    }
  }

  // Mimic tags become JointCouplers; the actuation option becomes top-level inports.
  void AddCouplingsAndInputs() {
    std::vector<const urdf::Joint*> driven;  // independent 1-DOF joints, in file order
    for (const UrdfIndex::JointEntry& e : idx_.joints) {
      const urdf::Joint& j = *urdf_->getJoint(e.name);
      if (j.type != urdf::Joint::REVOLUTE && j.type != urdf::Joint::CONTINUOUS &&
          j.type != urdf::Joint::PRISMATIC) {
        continue;
      }
      if (!j.mimic) {
        driven.push_back(&j);
        continue;
      }
      const pugi::xml_node mimic = JointNode(j.name).child("mimic");
      if (options_.actuation == UrdfActuation::kMotion) continue;  // follows its own input
      const std::string coupler = UniqueName(j.name + "_mimic");
      Add("JointCoupler", coupler,
          {{"ratio", FormatNumber(j.mimic->multiplier)}, {"offset", FormatNumber(j.mimic->offset)}},
          mimic);
      out_.model.Connect("", coupler + ".A", joint_block_.at(j.name) + ".shaft");
      out_.model.Connect("", coupler + ".B", joint_block_.at(j.mimic->joint_name) + ".shaft");
    }
    if (options_.actuation == UrdfActuation::kNone || driven.empty()) return;
    const bool torque = options_.actuation == UrdfActuation::kTorque;
    const std::string input = torque ? "tau" : "q";
    graph::PortDecl port;
    port.kind = graph::PortDecl::Kind::kInport;
    port.name = input;
    port.width = std::to_string(driven.size());
    out_.model.AddPort("", port);
    std::map<std::string, std::string> signal;  // joint name -> its element of the input
    if (driven.size() == 1) {
      signal[driven[0]->name] = "." + input;
    } else {
      const std::string split = UniqueName(input + "_split");
      Add("Demux", split, {{"outputs", std::to_string(driven.size())}}, idx_.robot);
      out_.model.Connect("", "." + input, split + ".u");
      for (size_t i = 0; i < driven.size(); ++i) {
        signal[driven[i]->name] = split + ".y" + std::to_string(i + 1);
      }
    }
    for (const urdf::Joint* j : driven) {
      const std::string& block = joint_block_.at(j->name);
      const pugi::xml_node node = JointNode(j->name);
      if (!torque) {
        out_.model.Connect("", signal.at(j->name), block + ".motion");
      } else if (Actuation(*j) == "torque") {
        out_.model.Connect("", signal.at(j->name),
                           block + (j->type == urdf::Joint::PRISMATIC ? ".f" : ".tau"));
      } else {
        // A joint with a shaft is driven through it, against its base body.
        const std::string source = UniqueName(j->name + "_drive");
        const std::string base = UniqueName(j->name + "_base");
        Add("TorqueSource", source, {}, node);
        Add("RotationalReference", base, {}, node);
        out_.model.Connect("", signal.at(j->name), source + ".tau");
        out_.model.Connect("", source + ".R", block + ".shaft");
        out_.model.Connect("", source + ".C", base + ".R");
      }
    }
    if (torque) return;
    // Under motion, a mimic joint follows its leader's input through its own affine map.
    for (const UrdfIndex::JointEntry& e : idx_.joints) {
      const urdf::Joint& j = *urdf_->getJoint(e.name);
      if (!j.mimic) continue;
      const Affine a = MimicRoot(j);
      const pugi::xml_node mimic = e.node.child("mimic");
      const std::string gain = UniqueName(j.name + "_mimic_ratio");
      const std::string offset = UniqueName(j.name + "_mimic_offset");
      const std::string sum = UniqueName(j.name + "_mimic");
      Add("Gain", gain, {{"k", FormatNumber(a.ratio)}}, mimic);
      Add("Constant", offset, {{"value", FormatNumber(a.offset)}}, mimic);
      Add("Sum", sum, {{"signs", "++"}}, mimic);
      out_.model.Connect("", signal.at(a.leader), gain + ".u");
      out_.model.Connect("", gain + ".y", sum + ".u1");
      out_.model.Connect("", offset + ".y", sum + ".u2");
      out_.model.Connect("", sum + ".y", joint_block_.at(j.name) + ".motion");
    }
  }

  void Build() {
    graph::Model& m = out_.model;
    // A model's name is an identifier; URDF's is any text (`my-robot`). The original is kept
    // in the imported file's comment.
    const std::string robot = urdf_->getName();
    m.name = robot.empty() ? "robot" : IdentifierFrom(robot);
    if (!robot.empty() && m.name != robot) {
      Note("the robot's name " + Quote(robot) + ": the model is named " + Quote(m.name) +
           " (model names are letters, digits and '_')");
    }
    m.file = file_;
    m.SetSimulation("t_end", FormatNumber(options_.t_end));
    for (const UrdfIndex::JointEntry& e : idx_.joints) {
      const urdf::JointConstSharedPtr j = urdf_->getJoint(e.name);
      if (j && j->mimic) leaders_.insert(j->mimic->joint_name);
    }
    used_names_.insert("world");
    Add("World", "world", {}, idx_.robot);
    const std::string root = urdf_->getRoot()->name;
    // The root is fixed in World: a link named "world" is World itself (the ROS convention),
    // any other root is welded to it (a robot on its mount).
    link_frame_[root] = "world.W";
    AddSubtree(root);
    AddCouplingsAndInputs();
    if (!idx_.rotors.empty() && options_.actuation != UrdfActuation::kMotion) {
      Note(
          "drake:rotor_inertia and drake:gear_ratio: become an Inertia of J = rotor_inertia * "
          "gear_ratio^2 on the joint's shaft (the reflected inertia on M's diagonal)");
    }
  }

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

}  // namespace

UrdfImport ReadUrdfString(const std::string& text, const std::string& file_name,
                          const UrdfImportOptions& options) {
  return UrdfConverter(text, file_name, options).Convert();
}

UrdfImport ReadUrdfFile(const std::string& path, const UrdfImportOptions& options) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw ModelError({path, 0}, "no such URDF file");
  std::string text;
  try {
    text = blocks::ReadTextFile(path);
  } catch (const blocks::InputFileError& e) {
    throw ModelError({path, 0}, "cannot read the URDF file: " + e.reason());
  }
  return ReadUrdfString(text, path, options);
}

#endif  // TWINBLOCKS_URDF

}  // namespace twinblocks::xml
