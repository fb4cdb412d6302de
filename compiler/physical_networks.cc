// Phase 3b of Compile(): physical networks reduced to minimal coordinates (docs/design.md,
// "The runtime shape"). The frame ports joined by lines form nodes; all frame elements go to
// the multibody builder, which returns one Mechanism block; that block takes over the signal
// ports of the elements, which then never run. Blocks that compute with a robot model
// (RobotUser) get the tree of the subsystem they name.
#include <algorithm>

#include "blocks/multibody/mechanism.h"
#include "blocks/multibody/mechanism_builder.h"
#include "common/union_find.h"
#include "compiler/detail/compiler.h"
#include "physics/multibody/robot_model.h"

namespace twinblocks::graph {

namespace {

const blocks::BlockType& MechanismBlockType() {
  static const blocks::BlockType type = [] {
    blocks::BlockType t;
    t.name = "Mechanism";
    t.category = "Multibody";
    t.summary = "The compiled frame network of a model (made by the compiler).";
    return t;
  }();
  return type;
}

bool IsUnder(const std::string& path, const std::string& prefix) {
  return prefix.empty() ||
         (path.size() > prefix.size() && path.compare(0, prefix.size(), prefix) == 0 &&
          path[prefix.size()] == '/');
}

}  // namespace

void Compiler::FailInput(const FlatBlock& fb, int input, const std::string& msg) const {
  if (input < 0 || input >= static_cast<int>(fb.input_origin.size())) FailBlock(fb, msg);
  const auto& [element, port] = fb.input_origin[input];
  const FlatBlock& el = flat_[element];
  // The network's port is "element-path.port": say it the way the user wrote it.
  std::string text = msg;
  const std::string long_name = el.path + "." + port;
  for (size_t at = text.find(long_name); at != std::string::npos; at = text.find(long_name)) {
    text.replace(at, long_name.size(), port);
  }
  throw ModelError(el.where, el.path, el.type->name, text);
}

void Compiler::ReducePhysicalNetworks() {
  // Nodes: physical points joined by lines (through subsystem boundary ports too).
  blocks::UnionFind nodes(static_cast<int>(points_.size()));
  for (const auto& [a, b] : physical_links_) nodes.Join(a, b);

  std::vector<int> element_flat;
  std::vector<multibody::NetworkElement> elements;
  std::vector<int> node_id(points_.size(), -1);
  int num_nodes = 0;
  for (int f = 0; f < static_cast<int>(flat_.size()); ++f) {
    const FlatBlock& fb = flat_[f];
    if (!fb.block || !fb.block->is_network_element()) continue;
    multibody::NetworkElement e;
    e.block = fb.block.get();
    e.name = fb.path;
    for (int i = 0; i < fb.block->num_physical_ports(); ++i) {
      const blocks::Block::PhysicalPort& port = fb.block->physical_port(i);
      if (port.domain != "frame" && port.domain != "rotational" && port.domain != "tendon") {
        FailBlock(fb, "physical port '" + port.name + "' of domain '" + port.domain +
                          "' has no network solver yet");
      }
      const int root = nodes.Find(point_index_.at(fb.path + "." + port.name));
      if (node_id[root] < 0) node_id[root] = num_nodes++;
      e.nodes.push_back(node_id[root]);
    }
    element_flat.push_back(f);
    elements.push_back(std::move(e));
  }
  auto fail_network = [&](const multibody::NetworkError& err, const FlatBlock* fallback) {
    if (err.element() >= 0) FailBlock(flat_[element_flat[err.element()]], err.what());
    if (fallback) FailBlock(*fallback, err.what());
    FailAt(SourceLocation{model_.file, 0}, err.what());
  };

  NetworkRecord record;
  // Robot models first: they read the elements, which the mechanism then takes over.
  for (FlatBlock& fb : flat_) {
    auto* user = dynamic_cast<multibody::RobotUser*>(fb.block.get());
    if (user == nullptr) continue;
    const std::string robot = user->robot_path();
    std::vector<unsigned char> in_robot(elements.size(), 0);
    bool any = false;
    for (size_t e = 0; e < elements.size(); ++e) {
      in_robot[e] = IsUnder(elements[e].name, robot) ? 1 : 0;
      any = any || in_robot[e];
    }
    if (!any) {
      FailBlock(fb, "robot '" + robot +
                        "' has no frame blocks (World, Solid, joints...): name "
                        "the subsystem that holds the robot's bodies and joints");
    }
    int frame_element = -1, frame_port = -1;
    const std::string frame = user->frame_path();
    if (!frame.empty()) {
      // Any frame port inside the robot: an element's ("link6/post.F") or a subsystem's
      // boundary port ("link6.F"); it names the node the frame is on.
      const std::string name = robot.empty() ? frame : robot + "/" + frame;
      auto it = point_index_.find(name);
      if (it != point_index_.end() && points_[it->second].role_outside == Role::kPhysical) {
        const int root = nodes.Find(it->second);
        for (size_t e = 0; e < elements.size() && frame_element < 0; ++e) {
          const blocks::Block& b = *elements[e].block;
          for (int p = 0; p < b.num_physical_ports(); ++p) {
            if (nodes.Find(point_index_.at(elements[e].name + "." + b.physical_port(p).name)) ==
                root) {
              frame_element = static_cast<int>(e);
              frame_port = p;
              break;
            }
          }
        }
      }
      if (frame_element < 0) {
        FailBlock(fb, "frame '" + frame + "' is not a frame port in robot '" + robot +
                          "' (write block.port relative to the robot, e.g. 'link6.F')");
      }
    }
    try {
      multibody::RobotModel model = multibody::BuildRobotModel(elements, num_nodes, in_robot,
                                                               frame_element, frame_port, robot);
      user->BindRobot(model);
      if (fb.tune) fb.tune->robot = std::move(model);  // to rebuild the block when retuned
      record.robots.push_back({static_cast<int>(&fb - flat_.data()), std::move(in_robot),
                               frame_element, frame_port, robot});
    } catch (const multibody::NetworkError& err) {
      FailBlock(fb, std::string("robot '") + robot + "': " + err.what());
    } catch (const blocks::BlockError& err) {
      FailBlock(fb, err.what());
    }
  }
  if (elements.empty()) return;

  multibody::MechanismModel model;
  try {
    model = multibody::BuildMechanism(elements, num_nodes, "mechanism");
  } catch (const multibody::NetworkError& err) {
    fail_network(err, nullptr);
  }
  // The mechanism stands where its World is written.
  const FlatBlock* world = nullptr;
  for (int f : element_flat) {
    if (flat_[f].type->name == "World") world = &flat_[f];
  }
  FlatBlock mech;
  mech.path = (world ? world->path : flat_[element_flat.front()].path) + ":mechanism";
  mech.type = &MechanismBlockType();
  mech.where = world ? world->where : flat_[element_flat.front()].where;
  std::vector<std::pair<int, std::string>> origin;
  for (const multibody::MechanismPort& p : model.inputs) {
    origin.emplace_back(element_flat[p.element],
                        elements[p.element].block->input_port(p.element_port).name);
  }
  auto block = std::make_unique<multibody::Mechanism>(std::move(model));
  const multibody::Mechanism& m = *block;
  mech.block = std::move(block);
  mech.input_origin = std::move(origin);
  mech.input_driver.assign(m.num_inputs(), -1);
  mech.input_driver_port.assign(m.num_inputs(), -1);
  const int mech_index = static_cast<int>(flat_.size());
  flat_.push_back(std::move(mech));
  record.elements = elements;
  record.element_flat = element_flat;
  record.num_nodes = num_nodes;
  record.mechanism_flat = mech_index;
  record.mechanism_declared_rate = m.sample_time();
  network_ = std::move(record);

  // The elements' signal points now belong to the mechanism's ports.
  const multibody::MechanismModel& mm = m.model();
  for (int i = 0; i < static_cast<int>(mm.inputs.size()); ++i) {
    Point& p = points_[point_index_.at(mm.inputs[i].name)];
    p.block = mech_index;
    p.port = i;
  }
  for (int i = 0; i < static_cast<int>(mm.outputs.size()); ++i) {
    Point& p = points_[point_index_.at(mm.outputs[i].name)];
    p.block = mech_index;
    p.port = i;
  }
  for (int f : element_flat) flat_[f].absorbed = true;
}

}  // namespace twinblocks::graph
