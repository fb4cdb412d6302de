// UrdfConverter, building the model: World, a Solid per link, joints with their limits,
// mimic couplings, rotors and the input ports.

#ifdef TWINBLOCKS_URDF

#include "xml/detail/urdf_converter.h"

namespace twinblocks::xml::internal {

UrdfImport UrdfConverter::Convert() {
  Index();
  ValidateNumbers();
  Validate();
  Parse();
  Build();
  return std::move(out_);
}

std::string UrdfConverter::IdentifierFrom(const std::string& wanted) {
  std::string base;
  for (char c : wanted) {
    base += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  }
  if (base.empty() || std::isdigit(static_cast<unsigned char>(base[0]))) base = "_" + base;
  return base;
}

std::string UrdfConverter::UniqueName(const std::string& wanted) {
  const std::string base = IdentifierFrom(wanted);
  std::string name = base;
  for (int k = 2; !used_names_.insert(name).second; ++k) name = base + "_" + std::to_string(k);
  return name;
}

graph::BlockNode& UrdfConverter::Add(const std::string& type, const std::string& name,
                                     std::vector<graph::Parameter> params,
                                     const pugi::xml_node& from) {
  graph::BlockNode& b = out_.model.AddBlock("", type, name, std::move(params));
  b.where = Where(from);
  return b;
}

// A RigidTransform for `pose` from the frame `base` ("block.port"); returns its F port, or
// `base` itself when the pose is the identity.
// The angles are taken as written in <origin rpy>: liburdfdom keeps a quaternion, and its
// conversion back snaps a pitch within 1e-5 of pi/2 to pi/2 exactly (the UR5's 1.57079632679
// would become another robot, 4.9e-12 rad apart).
std::string UrdfConverter::Transform(const std::string& name, const urdf::Pose& pose,
                                     const std::string& base, const pugi::xml_node& from) {
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

bool UrdfConverter::ReadTriple(const char* text, Eigen::Vector3d* out) {
  std::istringstream in(text);
  in >> (*out)[0] >> (*out)[1] >> (*out)[2];
  if (!in) return false;
  std::string rest;
  return !(in >> rest);
}

std::optional<std::string> UrdfConverter::ResolveMesh(const std::string& uri) const {
  namespace fs = std::filesystem;
  std::vector<fs::path> candidates;
  const std::string package = "package://", file = "file://";
  if (uri.rfind(package, 0) == 0) {
    const std::string rest = uri.substr(package.size());
    const size_t slash = rest.find('/');
    for (const std::string& dir : options_.mesh_paths) {
      candidates.push_back(fs::path(dir) / rest);
      if (slash != std::string::npos) candidates.push_back(fs::path(dir) / rest.substr(slash + 1));
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

const pugi::xml_node& UrdfConverter::LinkNode(const std::string& name) const {
  return idx_.links[idx_.link_index.at(name)].node;
}

const pugi::xml_node& UrdfConverter::JointNode(const std::string& name) const {
  return idx_.joints[idx_.joint_index.at(name)].node;
}

// The Solid of a link: its inertial, in the shape of its first usable visual.
void UrdfConverter::AddLink(const urdf::Link& link, const std::string& frame) {
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

UrdfConverter::Affine UrdfConverter::MimicRoot(const urdf::Joint& j) const {
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

void UrdfConverter::AddJoint(const urdf::Joint& j, const std::string& parent_frame) {
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
    if (const auto it = idx_.rotors.find(j.name); it != idx_.rotors.end() && actuation == "port") {
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

bool UrdfConverter::SubtreeHasMass(const std::string& link_name) const {
  const urdf::LinkConstSharedPtr link = urdf_->getLink(link_name);
  if (link->inertial && link->inertial->mass > 0.0) return true;
  for (const urdf::JointSharedPtr& j : link->child_joints) {
    if (SubtreeHasMass(j->child_link_name)) return true;
  }
  return false;
}

bool UrdfConverter::HasRotor(const urdf::Joint& j) const {
  const auto it = idx_.rotors.find(j.name);
  return it != idx_.rotors.end() && it->second.rotor_inertia > 0.0;
}

bool UrdfConverter::IsLeader(const urdf::Joint& j) const { return leaders_.count(j.name) > 0; }

// The joint block's actuation: a shaft ("port") where a coupler or a rotor needs one, else
// what the option asks for.
std::string UrdfConverter::Actuation(const urdf::Joint& j) const {
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
void UrdfConverter::AddSubtree(const std::string& link_name) {
  const urdf::LinkConstSharedPtr link = urdf_->getLink(link_name);
  AddLink(*link, link_frame_.at(link_name));
  for (const UrdfIndex::JointEntry& e : idx_.joints) {
    if (e.parent != link_name) continue;
    AddJoint(*urdf_->getJoint(e.name), link_frame_.at(link_name));
    if (link_frame_.count(e.child)) AddSubtree(e.child);
  }
}

// Mimic tags become JointCouplers; the actuation option becomes top-level inports.
void UrdfConverter::AddCouplingsAndInputs() {
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

void UrdfConverter::Build() {
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

}  // namespace twinblocks::xml::internal

#endif  // TWINBLOCKS_URDF
