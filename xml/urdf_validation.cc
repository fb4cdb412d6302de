// UrdfConverter, reading the document: the checks liburdfdom does not make (numbers, names,
// references), then liburdfdom's parse with its messages captured.

#ifdef TWINBLOCKS_URDF

#include "xml/detail/urdf_converter.h"

namespace twinblocks::xml::internal {

SourceLocation UrdfConverter::Where(const pugi::xml_node& n) const {
  return {file_, lines_.LineOf(n.offset_debug())};
}

void UrdfConverter::Warn(const pugi::xml_node& n, const std::string& message) {
  out_.warnings.push_back(Where(n).ToString() + ": warning: " + message);
}

void UrdfConverter::Note(const std::string& note) {
  for (const std::string& n : out_.notes) {
    if (n == note) return;
  }
  out_.notes.push_back(note);
}

// A number written in an attribute, strictly: garbage is an error, never 0.
[[noreturn]] void UrdfConverter::Fail(const pugi::xml_node& n, const std::string& message) const {
  throw ModelError(Where(n), message);
}

double UrdfConverter::Number(const pugi::xml_node& n, const char* attribute) const {
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

void UrdfConverter::Index() {
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
                         std::string(idx_.robot ? idx_.robot.name() : "") + ">, expected <robot>");
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

std::vector<std::string> UrdfConverter::LinkNames() const {
  std::vector<std::string> names;
  for (const auto& l : idx_.links) names.push_back(l.name);
  return names;
}

// Every number of the elements liburdfdom reads, checked at its own line: liburdfdom takes
// nan and inf as written, keeps a zero mesh scale and reports what it refuses without a line.
void UrdfConverter::ValidateNumbers() const {
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
    const std::string what =
        "<" + std::string(c.element) + " " + c.attribute + "=" + Quote(a.value()) + ">: expected ";
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
void UrdfConverter::Validate() {
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
pugi::xml_node UrdfConverter::ElementNamedIn(const std::string& message) const {
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

void UrdfConverter::Parse() {
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

}  // namespace twinblocks::xml::internal

#endif  // TWINBLOCKS_URDF
