// Phases 2 and 3 of Compile(): subsystems and defines flattened into paths, blocks built from
// their evaluated parameters, lines resolved through boundary ports and Goto/From tags.
#include <algorithm>
#include <map>
#include <set>

#include "blocks/block_registry.h"
#include "blocks/math_expression.h"
#include "blocks/user/block_library.h"
#include "blocks/user/block_types.h"
#include "common/suggest.h"
#include "compiler/detail/compiler.h"
#include "model/detail/block_params.h"
#include "model/detail/define_substitution.h"

namespace twinblocks::graph {

using blocks::BlockError;
using blocks::ExpressionError;
using internal::DirectoryOf;
using internal::Join;
using internal::JoinPath;

int Compiler::AddPoint(Point p) {
  const std::string key = p.name;
  points_.push_back(std::move(p));
  point_index_[key] = static_cast<int>(points_.size()) - 1;
  return static_cast<int>(points_.size()) - 1;
}

/// Evaluates the parameters of a block of `type` (the catalog's, a registered or a library's)
/// and constructs it.
void Compiler::Instantiate(const BlockNode& node, const BlockType* type, const std::string& path,
                           const Scope& scope,
                           const std::map<std::string, std::string>& define_texts) {
  FlatBlock fb;
  fb.path = path;
  fb.type = type;
  fb.where = node.where;
  const std::string base_dir = DirectoryOf(node.where.file.empty() ? model_.file : node.where.file);
  blocks::Params params = internal::EvaluateBlockParams(*type, path, node.where, node.params, scope,
                                                        define_texts, base_dir);
  if (!type->is_virtual) {
    internal::TunableBlock t;
    t.path = path;
    t.type = type;
    t.where = node.where;
    t.params = node.params;
    t.define_texts = define_texts;
    t.level = define_level_;
    t.base_dir = base_dir;
    t.values = params;
    fb.tune = std::move(t);
  }

  if (type->is_virtual) {
    fb.tag = params.has("tag") ? params.Word("tag") : std::string();
  } else {
    try {
      fb.block = type->create(params);
      fb.tune->declared_rate = fb.block->sample_time();
    } catch (const BlockError& e) {
      throw ModelError(node.where, path, type->name, e.what());
    } catch (const ExpressionError& e) {
      throw ModelError(node.where, path, type->name, e.what());
    }
  }
  flat_.push_back(std::move(fb));
}

/// Creates the points of a flat block's ports.
void Compiler::AddBlockPoints(int flat) {
  FlatBlock& fb = flat_[flat];
  if (fb.block == nullptr) {
    // Goto has an input u, From an output y: both pass a signal through.
    Point p;
    if (fb.type->name == "Goto") {
      p.name = fb.path + ".u";
      p.role_outside = Role::kSink;
    } else {
      p.name = fb.path + ".y";
      p.role_outside = Role::kSource;
    }
    p.block = flat;
    AddPoint(std::move(p));
    return;
  }
  const Block& b = *fb.block;
  fb.input_driver.assign(b.num_inputs(), -1);
  fb.input_driver_port.assign(b.num_inputs(), -1);
  for (int i = 0; i < b.num_inputs(); ++i) {
    Point p;
    p.name = fb.path + "." + b.input_port(i).name;
    p.role_outside = Role::kSink;
    p.block = flat;
    p.port = i;
    p.is_real_input = true;
    AddPoint(std::move(p));
  }
  for (int i = 0; i < b.num_outputs(); ++i) {
    Point p;
    p.name = fb.path + "." + b.output_port(i).name;
    p.role_outside = Role::kSource;
    p.block = flat;
    p.port = i;
    p.is_real_output = true;
    AddPoint(std::move(p));
  }
  for (int i = 0; i < b.num_physical_ports(); ++i) {
    Point p;
    p.name = fb.path + "." + b.physical_port(i).name;
    p.role_outside = Role::kPhysical;
    p.domain = b.physical_port(i).domain;
    p.block = flat;
    p.port = i;
    AddPoint(std::move(p));
  }
}

/// Creates the boundary points of a subsystem or define instance at `path`.
void Compiler::AddBoundaryPoints(const std::string& path, const std::vector<PortDecl>& ports) {
  for (const PortDecl& d : ports) {
    Point p;
    p.name = path + "." + d.name;
    switch (d.kind) {
      case PortDecl::Kind::kInport:
      case PortDecl::Kind::kEnable:
      case PortDecl::Kind::kTrigger:
        p.role_outside = Role::kSink;
        break;
      case PortDecl::Kind::kOutport:
        p.role_outside = Role::kSource;
        break;
      case PortDecl::Kind::kPhysical:
        p.role_outside = Role::kPhysical;
        p.domain = d.domain;
        break;
    }
    AddPoint(std::move(p));
  }
}

void Compiler::Flatten(const Diagram& diagram, const std::string& prefix, const Scope& scope,
                       const std::map<std::string, std::string>& define_texts,
                       std::vector<std::string>* define_stack,
                       const std::vector<PortDecl>* own_ports) {
  std::map<std::string, LocalName> names;
  std::set<std::string> commented;
  for (const BlockNode& node : diagram.blocks) {
    if (node.commented) {
      commented.insert(node.name);
      continue;
    }
    const std::string path = JoinPath(prefix, node.name);
    if (node.is_subsystem()) {
      AddBoundaryPoints(path, node.body->ports);
      names[node.name] = LocalName{-1, path, &node.body->ports};
      const size_t first_flat = flat_.size();
      Flatten(*node.body, path, scope, define_texts, define_stack, &node.body->ports);
      AddCondition(path, node.body->ports, scope, first_flat);
      continue;
    }
    const Define* def = node.library.empty() ? model_.FindDefine(node.type) : nullptr;
    if (def != nullptr) {
      InstantiateDefine(node, *def, path, scope, define_stack);
      names[node.name] = LocalName{-1, path, &def->body.ports};
      continue;
    }
    const BlockType* type = nullptr;
    try {
      type =
          blocks::FindBlockType(node.type, node.library, internal::BaseDirOf(model_, node.where));
    } catch (const blocks::BlockLibraryError& e) {
      throw ModelError(node.where, path, node.type, e.what());
    }
    if (type == nullptr) {
      std::vector<std::string> valid = blocks::KnownBlockTypeNames();
      for (const Define& d : model_.defines) valid.push_back(d.name);
      for (const Define& d : model_.library) valid.push_back(d.name);
      throw ModelError(node.where, path, node.type,
                       "unknown block type '" + node.type + "'" + SuggestionFor(node.type, valid) +
                           " (`twinblocks blocks` lists the catalog; defines: " + DefineNames() +
                           ")");
    }
    Instantiate(node, type, path, scope, define_texts);
    const int flat = static_cast<int>(flat_.size()) - 1;
    AddBlockPoints(flat);
    names[node.name] = LocalName{flat, {}, nullptr};
  }
  // A commented-out block leaves the simulation with its lines (Simulink's comment out).
  auto touches_commented = [&commented](const std::string& endpoint) {
    const size_t dot = endpoint.rfind('.');
    return dot != std::string::npos && commented.count(endpoint.substr(0, dot)) > 0;
  };
  for (const Connection& c : diagram.connections) {
    if (touches_commented(c.from) || touches_commented(c.to)) continue;
    Connect(c, prefix, names, own_ports);
  }
}

std::string Compiler::DefineNames() const {
  std::vector<std::string> names;
  for (const Define& d : model_.defines) names.push_back(d.name);
  for (const Define& d : model_.library) names.push_back(d.name);
  return names.empty() ? "none" : Join(names);
}

void Compiler::InstantiateDefine(const BlockNode& node, const Define& def, const std::string& path,
                                 const Scope& scope, std::vector<std::string>* define_stack) {
  if (std::find(define_stack->begin(), define_stack->end(), def.name) != define_stack->end()) {
    std::string chain = Join(*define_stack, " -> ") + " -> " + def.name;
    throw ModelError(node.where, path, def.name, "recursive define: " + chain);
  }
  // A define sees its own parameters and the model's variables, nothing of the diagram it
  // is used in: like a masked library block, it means the same wherever it is placed.
  Scope inner(&root_scope_);
  std::map<std::string, std::string> texts;
  for (const Parameter& p : node.params) {
    if (std::find(def.params.begin(), def.params.end(), p.name) == def.params.end()) {
      throw ModelError(node.where, path, def.name,
                       "unknown parameter '" + p.name + "'" + SuggestionFor(p.name, def.params) +
                           "; parameters of define '" + def.name +
                           "': " + (def.params.empty() ? "none" : Join(def.params)));
    }
    texts[p.name] = p.value;
    try {
      inner.Set(p.name, EvaluateNumeric(p.value, scope));
    } catch (const ExpressionError&) {
      // Not a number: a word (shape="cylinder", op=">="), kept as text for the word and
      // string parameters inside. Used as a number there, it is reported at that use.
    }
  }
  for (const std::string& name : def.params) {
    if (!node.GetParam(name)) {
      throw ModelError(node.where, path, def.name,
                       "parameter '" + name + "' of define '" + def.name + "' is not set");
    }
  }
  auto level = std::make_shared<internal::DefineLevel>();
  level->parent = define_level_;
  for (const Parameter& p : node.params) level->params.emplace_back(p.name, p.value);
  std::shared_ptr<const internal::DefineLevel> outer = std::move(define_level_);
  define_level_ = std::move(level);
  AddBoundaryPoints(path, def.body.ports);
  define_stack->push_back(def.name);
  const size_t first_flat = flat_.size();
  Flatten(def.body, path, inner, texts, define_stack, &def.body.ports);
  AddCondition(path, def.body.ports, inner, first_flat);
  define_stack->pop_back();
  define_level_ = std::move(outer);
}

/// Finds the point a connection endpoint names, and how it is seen from this diagram.
int Compiler::ResolveEndpoint(const std::string& text, const SourceLocation& where,
                              const std::string& prefix,
                              const std::map<std::string, LocalName>& names,
                              const std::vector<PortDecl>* own_ports, Role* role) {
  const size_t dot = text.rfind('.');
  if (dot == std::string::npos) {
    FailAt(where, "'" + text +
                      "' is not a port: write block.port, or .port for a boundary "
                      "port of the enclosing subsystem");
  }
  const std::string block_name = text.substr(0, dot);
  const std::string port_name = text.substr(dot + 1);
  if (block_name.empty()) {
    // The enclosing subsystem's own boundary port: seen from inside, roles flip.
    if (own_ports == nullptr) {
      FailAt(where, "'" + text +
                        "' names a boundary port, but the top-level diagram has "
                        "none (boundary ports belong to subsystems and defines)");
    }
    std::vector<std::string> valid;
    for (const PortDecl& d : *own_ports) {
      valid.push_back(d.name);
      if (d.name != port_name) continue;
      const int id = point_index_.at(prefix + "." + d.name);
      const Role outside = points_[id].role_outside;
      *role = outside == Role::kSink     ? Role::kSource
              : outside == Role::kSource ? Role::kSink
                                         : Role::kPhysical;
      return id;
    }
    if (prefix.empty()) {
      FailAt(where, "no <inport> '" + port_name + "' at the top level" +
                        SuggestionFor(port_name, valid) +
                        "; the model's inports: " + (valid.empty() ? "none" : Join(valid)));
    }
    FailAt(where, "no boundary port '" + port_name + "'" + SuggestionFor(port_name, valid) +
                      "; boundary ports here: " + (valid.empty() ? "none" : Join(valid)));
  }
  auto it = names.find(block_name);
  if (it == names.end()) {
    std::vector<std::string> valid;
    for (const auto& [n, v] : names) valid.push_back(n);
    FailAt(where, "no block '" + block_name + "' in this diagram" +
                      SuggestionFor(block_name, valid) + " (in '" + text + "')");
  }
  const std::string path = JoinPath(prefix, block_name);
  auto pit = point_index_.find(path + "." + port_name);
  if (pit == point_index_.end()) {
    std::vector<std::string> valid;
    const LocalName& ln = it->second;
    if (ln.flat >= 0 && flat_[ln.flat].block) {
      const Block& b = *flat_[ln.flat].block;
      for (int i = 0; i < b.num_inputs(); ++i) valid.push_back(b.input_port(i).name + " (input)");
      for (int i = 0; i < b.num_outputs(); ++i) {
        valid.push_back(b.output_port(i).name + " (output)");
      }
      for (int i = 0; i < b.num_physical_ports(); ++i) {
        valid.push_back(b.physical_port(i).name + " (" + b.physical_port(i).domain + ")");
      }
    } else if (ln.flat >= 0) {
      valid.push_back(flat_[ln.flat].type->name == "Goto" ? "u (input)" : "y (output)");
    } else if (ln.instance_ports != nullptr) {
      for (const PortDecl& d : *ln.instance_ports) valid.push_back(d.name);
    }
    const std::string type = ln.flat >= 0 ? flat_[ln.flat].type->name : std::string();
    // A port the type has under other parameters (a joint's shaft, tau or motion): say when.
    if (ln.flat >= 0 && flat_[ln.flat].block) {
      const blocks::BlockType& t = *flat_[ln.flat].type;
      for (const auto* docs : {&t.inputs, &t.outputs, &t.physical_ports}) {
        for (const blocks::PortDoc& d : *docs) {
          if (d.name != port_name) continue;
          throw ModelError(where, path, type,
                           "no port '" + port_name + "' with these parameters (" + type +
                               " has it as: " + d.doc +
                               "); its ports are: " + (valid.empty() ? "none" : Join(valid)));
        }
      }
    }
    throw ModelError(
        where, path, type,
        "no port '" + port_name + "'; its ports are: " + (valid.empty() ? "none" : Join(valid)));
  }
  *role = points_[pit->second].role_outside;
  return pit->second;
}

const char* Compiler::RoleName(Role r) {
  switch (r) {
    case Role::kSource:
      return "a signal output";
    case Role::kSink:
      return "a signal input";
    case Role::kPhysical:
      return "a physical port";
  }
  return "";
}

void Compiler::Connect(const Connection& c, const std::string& prefix,
                       const std::map<std::string, LocalName>& names,
                       const std::vector<PortDecl>* own_ports) {
  Role from_role, to_role;
  const int from = ResolveEndpoint(c.from, c.where, prefix, names, own_ports, &from_role);
  const int to = ResolveEndpoint(c.to, c.where, prefix, names, own_ports, &to_role);
  if (from_role == Role::kPhysical || to_role == Role::kPhysical) {
    if (from_role != to_role) {
      FailAt(c.where, "port kind mismatch: '" + c.from + "' is " + RoleName(from_role) + " and '" +
                          c.to + "' is " + RoleName(to_role) +
                          "; a line joins two signal ports or two physical ports");
    }
    if (points_[from].domain != points_[to].domain) {
      FailAt(c.where, "port domain mismatch: '" + c.from + "' is a " + points_[from].domain +
                          " port and '" + c.to + "' a " + points_[to].domain + " port");
    }
    physical_links_.push_back({from, to});
    return;
  }
  if (from_role != Role::kSource) {
    FailAt(c.where, "port kind mismatch: 'from' names '" + c.from + "', which is " +
                        RoleName(from_role) + "; a line goes from an output to an input");
  }
  if (to_role != Role::kSink) {
    FailAt(c.where, "port kind mismatch: 'to' names '" + c.to + "', which is " + RoleName(to_role) +
                        "; a line goes from an output to an input");
  }
  Point& sink = points_[to];
  if (sink.driver >= 0) {
    FailAt(c.where, "input '" + c.to + "' already has a line (from '" + points_[sink.driver].name +
                        "' at " + sink.driver_where.ToString() +
                        "); an input takes exactly one line");
  }
  sink.driver = from;
  sink.driver_where = c.where;
}

void Compiler::ResolveGotoFrom() {
  std::map<std::string, int> gotos;  // tag -> point of the Goto's input
  for (int i = 0; i < static_cast<int>(flat_.size()); ++i) {
    const FlatBlock& fb = flat_[i];
    if (fb.block || fb.type->name != "Goto") continue;
    auto [it, inserted] = gotos.emplace(fb.tag, point_index_.at(fb.path + ".u"));
    if (!inserted) {
      FailBlock(fb, "a second Goto with tag '" + fb.tag + "' (the first is '" +
                        points_[it->second].name + "'); a tag has one Goto");
    }
  }
  for (int i = 0; i < static_cast<int>(flat_.size()); ++i) {
    const FlatBlock& fb = flat_[i];
    if (fb.block || fb.type->name != "From") continue;
    auto it = gotos.find(fb.tag);
    if (it == gotos.end()) FailBlock(fb, "no Goto block with tag '" + fb.tag + "'");
    Point& out = points_[point_index_.at(fb.path + ".y")];
    out.driver = it->second;
    out.driver_where = fb.where;
  }
}

/// Follows drivers through virtual points to a real block output; -1 when the chain ends
/// unconnected. `last` receives the last point reached.
int Compiler::FollowToSource(int point, int* last) const {
  int p = point;
  for (size_t hops = 0; hops <= points_.size(); ++hops) {
    if (points_[p].is_real_output) return p;
    *last = p;
    if (points_[p].driver < 0) return -1;
    p = points_[p].driver;
  }
  return -2;  // a cycle of virtual points
}

void Compiler::ResolveInputs() {
  for (int p = 0; p < static_cast<int>(points_.size()); ++p) {
    const Point& pt = points_[p];
    if (!pt.is_real_input) continue;
    FlatBlock& fb = flat_[pt.block];
    int last = p;
    const int src = FollowToSource(p, &last);
    if (src == -2) {
      FailBlock(fb, "input '" + fb.block->input_port(pt.port).name +
                        "' is fed by a loop of Goto/From or subsystem ports with no block");
    }
    if (src < 0) {
      std::string msg = "input '" + fb.block->input_port(pt.port).name + "' is not connected";
      if (last != p) msg += " ('" + points_[last].name + "', which feeds it, has no line)";
      FailInput(fb, pt.port, msg);
    }
    fb.input_driver[pt.port] = points_[src].block;
    fb.input_driver_port[pt.port] = points_[src].port;
  }
  for (FlatBlock& fb : flat_) {
    if (fb.block && !fb.absorbed) real_.push_back(static_cast<int>(&fb - flat_.data()));
  }
}

}  // namespace twinblocks::graph
