#include "graph/compile.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/strong_components.hpp>
#include <boost/graph/topological_sort.hpp>
#include <filesystem>
#include <map>
#include <set>
#include <unordered_map>

#include "blocks/block_registry.h"
#include "blocks/math_expression.h"
#include "graph/model_error.h"
#include "graph/parameter_evaluator.h"
#include "graph/suggest.h"

namespace twinblocks::graph {

namespace {

using blocks::Block;
using blocks::BlockError;
using blocks::BlockType;
using blocks::ExpressionError;
using blocks::SampleTime;

std::string DirectoryOf(const std::string& file) {
  if (file.empty() || file.front() == '<') return ".";
  std::filesystem::path p(file);
  return p.has_parent_path() ? p.parent_path().string() : std::string(".");
}

std::string JoinPath(const std::string& prefix, const std::string& name) {
  return prefix.empty() ? name : prefix + "/" + name;
}

std::string Join(const std::vector<std::string>& items, const char* sep = ", ") {
  std::string s;
  for (const std::string& item : items) {
    if (!s.empty()) s += sep;
    s += item;
  }
  return s;
}

std::string DescribeRate(const SampleTime& st) {
  switch (st.kind) {
    case SampleTime::Kind::kContinuous:
      return "continuous";
    case SampleTime::Kind::kConstant:
      return "constant";
    case SampleTime::Kind::kInherited:
      return "inherited";
    case SampleTime::Kind::kDiscrete: {
      std::string s = "discrete Ts=" + FormatNumber(st.period);
      if (st.offset != 0.0) s += " offset=" + FormatNumber(st.offset);
      return s;
    }
  }
  return "";
}

}  // namespace

/// Does the work of Compile. One object per compile; phases run in order and each leaves its
/// results in members for the next.
class Compiler {
 public:
  Compiler(const Model& model, const CompileOptions& options)
      : model_(model), options_(options), root_scope_(nullptr) {}

  System Run() {
    EvaluateVariables();
    EvaluateSettings();
    std::vector<std::string> define_stack;
    Flatten(model_.root, "", root_scope_, {}, &define_stack, nullptr);
    ResolveGotoFrom();
    ResolveInputs();
    PropagateWidths();
    ResolveSampleTimes();
    Order();
    Layout();
    ResolveLogs();
    return std::move(system_);
  }

 private:
  // ---- Flat diagram ----
  struct FlatBlock {
    std::string path;
    const BlockType* type = nullptr;
    SourceLocation where;
    std::unique_ptr<Block> block;   ///< null for virtual blocks (Goto, From)
    std::string tag;                ///< Goto/From
    std::vector<int> input_driver;  ///< per input: the flat output (block, port) feeding it
    std::vector<int> input_driver_port;
    bool configured = false;
    SampleTime rate;
    bool rate_resolved = false;
  };

  enum class Role { kSource, kSink, kPhysical };
  struct Point {
    std::string name;                   ///< "path.port", for messages
    Role role_outside = Role::kSource;  ///< how the point is seen from the diagram it is named in
    int block = -1;                     ///< real block output/input: flat index
    int port = -1;
    bool is_real_output = false;
    bool is_real_input = false;
    std::string domain;  ///< physical points
    int driver = -1;
    SourceLocation driver_where;
  };

  /// What a name in one diagram refers to, for resolving its connections.
  struct LocalName {
    int flat = -1;              ///< a real or virtual block
    std::string instance_path;  ///< a subsystem or define instance
    const std::vector<PortDecl>* instance_ports = nullptr;
  };

  [[noreturn]] void FailAt(const SourceLocation& where, const std::string& msg) const {
    throw ModelError(where, msg);
  }
  [[noreturn]] void FailBlock(const FlatBlock& b, const std::string& msg) const {
    throw ModelError(b.where, b.path, b.type->name, msg);
  }

  // ---- Phase 1: variables and settings ----
  void EvaluateVariables() {
    for (const Variable& v : model_.variables) {
      if (blocks::MathExpression::IsReservedName(v.name)) {
        FailAt(v.where, "variable '" + v.name +
                            "' takes the name of a built-in constant or "
                            "function; choose another name");
      }
      try {
        root_scope_.Set(v.name, EvaluateNumeric(v.value, root_scope_));
      } catch (const ExpressionError& e) {
        FailAt(v.where, "variable '" + v.name + "': " + e.what());
      }
    }
  }

  double EvaluateSettingScalar(const std::string& attribute, const std::string& text) {
    try {
      Eigen::MatrixXd m = EvaluateNumeric(text, root_scope_);
      if (m.size() != 1) throw ExpressionError("expected a scalar");
      return m(0, 0);
    } catch (const ExpressionError& e) {
      FailAt(model_.simulation.where, "simulation attribute '" + attribute + "': " + e.what());
    }
  }

  void EvaluateSettings() {
    SimulationSettingsValues& s = system_.settings_;
    static const char* const kKnown[] = {
        "solver",   "t_start",      "t_end",           "step",          "rtol", "atol",
        "max_step", "initial_step", "output_interval", "zero_crossings"};
    for (const Parameter& a : model_.simulation.attributes) {
      const bool known = std::any_of(std::begin(kKnown), std::end(kKnown),
                                     [&](const char* k) { return a.name == k; });
      if (!known) {
        std::vector<std::string> names(std::begin(kKnown), std::end(kKnown));
        FailAt(model_.simulation.where,
               "unknown simulation attribute '" + a.name + "'; valid attributes: " + Join(names));
      }
      if (a.name == "solver") {
        s.solver = a.value;
      } else if (a.name == "zero_crossings") {
        if (a.value != "on" && a.value != "off") {
          FailAt(model_.simulation.where,
                 "simulation attribute 'zero_crossings' must be on or "
                 "off, got '" +
                     a.value + "'");
        }
        s.zero_crossings = a.value == "on";
      } else {
        const double v = EvaluateSettingScalar(a.name, a.value);
        if (a.name == "t_start") s.t_start = v;
        if (a.name == "t_end") s.t_end = v;
        if (a.name == "step") s.step = v;
        if (a.name == "rtol") s.rtol = v;
        if (a.name == "atol") s.atol = v;
        if (a.name == "max_step") s.max_step = v;
        if (a.name == "initial_step") s.initial_step = v;
        if (a.name == "output_interval") s.output_interval = v;
      }
    }
  }

  // ---- Phase 2: flatten the hierarchy, instantiate blocks, connect points ----
  int AddPoint(Point p) {
    const std::string key = p.name;
    points_.push_back(std::move(p));
    point_index_[key] = static_cast<int>(points_.size()) - 1;
    return static_cast<int>(points_.size()) - 1;
  }

  /// Evaluates the parameters of a catalog block and constructs it.
  void Instantiate(const BlockNode& node, const std::string& path, const Scope& scope,
                   const std::map<std::string, std::string>& define_texts) {
    const BlockType* type = blocks::Catalog().Find(node.type);
    FlatBlock fb;
    fb.path = path;
    fb.type = type;
    fb.where = node.where;
    blocks::Params params;
    for (const Parameter& p : node.params) {
      const blocks::ParamSpec* spec = type->FindParam(p.name);
      if (spec == nullptr) {
        std::vector<std::string> valid;
        for (const blocks::ParamSpec& s : type->params) valid.push_back(s.name);
        throw ModelError(node.where, path, type->name,
                         "unknown parameter '" + p.name + "'" + SuggestionFor(p.name, valid) +
                             "; valid parameters: " + (valid.empty() ? "none" : Join(valid)));
      }
      std::string text = p.value;
      if (spec->kind == blocks::ParamKind::kWord || spec->kind == blocks::ParamKind::kString) {
        auto it = define_texts.find(text);
        if (it != define_texts.end()) text = it->second;
      }
      try {
        params.Set(p.name, EvaluateParameter(text, *spec, scope));
      } catch (const ExpressionError& e) {
        throw ModelError(node.where, path, type->name, "parameter '" + p.name + "': " + e.what());
      }
    }
    for (const blocks::ParamSpec& spec : type->params) {
      if (node.GetParam(spec.name)) continue;
      if (spec.required) {
        throw ModelError(node.where, path, type->name,
                         "parameter '" + spec.name + "' is required (" + spec.doc + ")");
      }
      if (spec.default_text.empty()) continue;
      try {
        params.Set(spec.name, EvaluateParameter(spec.default_text, spec, Scope()));
      } catch (const ExpressionError& e) {
        throw std::logic_error("default of " + type->name + "." + spec.name +
                               " does not evaluate: " + e.what());
      }
    }
    std::vector<std::pair<std::string, double>> vars;
    for (const auto& [name, value] : scope.Scalars()) vars.emplace_back(name, value);
    params.set_variables(std::move(vars));
    params.set_base_dir(DirectoryOf(node.where.file.empty() ? model_.file : node.where.file));

    if (type->is_virtual) {
      fb.tag = params.has("tag") ? params.Word("tag") : std::string();
    } else {
      try {
        fb.block = type->create(params);
      } catch (const BlockError& e) {
        throw ModelError(node.where, path, type->name, e.what());
      } catch (const ExpressionError& e) {
        throw ModelError(node.where, path, type->name, e.what());
      }
    }
    flat_.push_back(std::move(fb));
  }

  /// Creates the points of a flat block's ports.
  void AddBlockPoints(int flat) {
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
  }

  /// Creates the boundary points of a subsystem or define instance at `path`.
  void AddBoundaryPoints(const std::string& path, const std::vector<PortDecl>& ports) {
    for (const PortDecl& d : ports) {
      Point p;
      p.name = path + "." + d.name;
      switch (d.kind) {
        case PortDecl::Kind::kInport:
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

  void Flatten(const Diagram& diagram, const std::string& prefix, const Scope& scope,
               const std::map<std::string, std::string>& define_texts,
               std::vector<std::string>* define_stack, const std::vector<PortDecl>* own_ports) {
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
        Flatten(*node.body, path, scope, define_texts, define_stack, &node.body->ports);
        continue;
      }
      if (const Define* def = model_.FindDefine(node.type)) {
        InstantiateDefine(node, *def, path, scope, define_stack);
        names[node.name] = LocalName{-1, path, &def->body.ports};
        continue;
      }
      if (blocks::Catalog().Find(node.type) == nullptr) {
        std::vector<std::string> valid = blocks::Catalog().Names();
        for (const Define& d : model_.defines) valid.push_back(d.name);
        for (const Define& d : model_.library) valid.push_back(d.name);
        throw ModelError(
            node.where, path, node.type,
            "unknown block type '" + node.type + "'" + SuggestionFor(node.type, valid) +
                " (`twinblocks blocks` lists the catalog; defines: " + DefineNames() + ")");
      }
      Instantiate(node, path, scope, define_texts);
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

  std::string DefineNames() const {
    std::vector<std::string> names;
    for (const Define& d : model_.defines) names.push_back(d.name);
    for (const Define& d : model_.library) names.push_back(d.name);
    return names.empty() ? "none" : Join(names);
  }

  void InstantiateDefine(const BlockNode& node, const Define& def, const std::string& path,
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
      } catch (const ExpressionError& e) {
        // A plain name that is no variable is a word (shape="cylinder"): kept as text.
        if (!IsIdentifier(p.value) || scope.Find(p.value) != nullptr) {
          throw ModelError(node.where, path, def.name, "parameter '" + p.name + "': " + e.what());
        }
      }
    }
    for (const std::string& name : def.params) {
      if (!node.GetParam(name)) {
        throw ModelError(node.where, path, def.name,
                         "parameter '" + name + "' of define '" + def.name + "' is not set");
      }
    }
    AddBoundaryPoints(path, def.body.ports);
    define_stack->push_back(def.name);
    Flatten(def.body, path, inner, texts, define_stack, &def.body.ports);
    define_stack->pop_back();
  }

  /// Finds the point a connection endpoint names, and how it is seen from this diagram.
  int ResolveEndpoint(const std::string& text, const SourceLocation& where,
                      const std::string& prefix, const std::map<std::string, LocalName>& names,
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
      } else if (ln.flat >= 0) {
        valid.push_back(flat_[ln.flat].type->name == "Goto" ? "u (input)" : "y (output)");
      } else if (ln.instance_ports != nullptr) {
        for (const PortDecl& d : *ln.instance_ports) valid.push_back(d.name);
      }
      const std::string type = ln.flat >= 0 ? flat_[ln.flat].type->name : std::string();
      throw ModelError(
          where, path, type,
          "no port '" + port_name + "'; its ports are: " + (valid.empty() ? "none" : Join(valid)));
    }
    *role = points_[pit->second].role_outside;
    return pit->second;
  }

  static const char* RoleName(Role r) {
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

  void Connect(const Connection& c, const std::string& prefix,
               const std::map<std::string, LocalName>& names,
               const std::vector<PortDecl>* own_ports) {
    Role from_role, to_role;
    const int from = ResolveEndpoint(c.from, c.where, prefix, names, own_ports, &from_role);
    const int to = ResolveEndpoint(c.to, c.where, prefix, names, own_ports, &to_role);
    if (from_role == Role::kPhysical || to_role == Role::kPhysical) {
      if (from_role != to_role) {
        FailAt(c.where, "port kind mismatch: '" + c.from + "' is " + RoleName(from_role) +
                            " and '" + c.to + "' is " + RoleName(to_role) +
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
      FailAt(c.where, "port kind mismatch: 'to' names '" + c.to + "', which is " +
                          RoleName(to_role) + "; a line goes from an output to an input");
    }
    Point& sink = points_[to];
    if (sink.driver >= 0) {
      FailAt(c.where, "input '" + c.to + "' already has a line (from '" +
                          points_[sink.driver].name + "' at " + sink.driver_where.ToString() +
                          "); an input takes exactly one line");
    }
    sink.driver = from;
    sink.driver_where = c.where;
  }

  // ---- Phase 3: Goto/From, then every input to the block output that feeds it ----
  void ResolveGotoFrom() {
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
  int FollowToSource(int point, int* last) const {
    int p = point;
    for (size_t hops = 0; hops <= points_.size(); ++hops) {
      if (points_[p].is_real_output) return p;
      *last = p;
      if (points_[p].driver < 0) return -1;
      p = points_[p].driver;
    }
    return -2;  // a cycle of virtual points
  }

  void ResolveInputs() {
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
        FailBlock(fb, msg);
      }
      fb.input_driver[pt.port] = points_[src].block;
      fb.input_driver_port[pt.port] = points_[src].port;
    }
    for (FlatBlock& fb : flat_) {
      if (fb.block) real_.push_back(static_cast<int>(&fb - flat_.data()));
    }
  }

  // ---- Phase 4: widths ----
  int DriverWidth(const FlatBlock& fb, int input) const {
    const FlatBlock& src = flat_[fb.input_driver[input]];
    return src.block->output_port(fb.input_driver_port[input]).width;
  }

  void ConfigureBlock(FlatBlock& fb, bool assume_defaults) {
    const Block& b = *fb.block;
    std::vector<int> widths(b.num_inputs());
    for (int i = 0; i < b.num_inputs(); ++i) {
      const int w = DriverWidth(fb, i);
      widths[i] = w >= 0 ? w : (assume_defaults ? b.DefaultInputWidth() : -1);
    }
    try {
      fb.block->Configure(widths);
    } catch (const BlockError& e) {
      FailBlock(fb, e.what());
    }
    fb.configured = true;
  }

  void PropagateWidths() {
    size_t remaining = real_.size();
    while (remaining > 0) {
      bool progress = false;
      for (int f : real_) {
        FlatBlock& fb = flat_[f];
        if (fb.configured) continue;
        bool ready = true;
        for (int i = 0; i < fb.block->num_inputs() && ready; ++i) {
          ready = DriverWidth(fb, i) >= 0;
        }
        if (!ready) continue;
        ConfigureBlock(fb, false);
        --remaining;
        progress = true;
      }
      if (progress) continue;
      // A feedback loop with no width to start from: assume the first unresolved block's
      // default input width (1, or an integrator's x0 size) and check everything afterwards.
      for (int f : real_) {
        if (flat_[f].configured) continue;
        ConfigureBlock(flat_[f], true);
        --remaining;
        break;
      }
    }
    for (int f : real_) {
      const FlatBlock& fb = flat_[f];
      for (int i = 0; i < fb.block->num_inputs(); ++i) {
        const int have = DriverWidth(fb, i);
        const int want = fb.block->input_port(i).width;
        if (have != want) {
          const FlatBlock& src = flat_[fb.input_driver[i]];
          FailBlock(fb, "input '" + fb.block->input_port(i).name + "' has width " +
                            std::to_string(want) + " but '" + src.path + "." +
                            src.block->output_port(fb.input_driver_port[i]).name +
                            "' gives width " + std::to_string(have));
        }
      }
    }
  }

  // ---- Phase 5: sample times ----
  void ResolveSampleTimes() {
    for (int f : real_) {
      FlatBlock& fb = flat_[f];
      const SampleTime& st = fb.block->sample_time();
      if (st.is_discrete()) {
        if (!(st.period > 0.0) || !std::isfinite(st.period)) {
          FailBlock(fb,
                    "sample time Ts must be positive, -1 (inherited) or 0 (continuous), "
                    "got " +
                        FormatNumber(st.period));
        }
        if (st.offset < 0.0 || st.offset >= st.period) {
          FailBlock(fb, "sample time offset must satisfy 0 <= offset < Ts, got offset " +
                            FormatNumber(st.offset) + " with Ts " + FormatNumber(st.period));
        }
      }
      if (!st.is_inherited()) {
        fb.rate = st;
        fb.rate_resolved = true;
      }
    }
    bool progress = true;
    bool relaxed = false;  // after a deadlock, resolve from the drivers that are known
    while (true) {
      progress = false;
      bool pending = false;
      for (int f : real_) {
        FlatBlock& fb = flat_[f];
        if (fb.rate_resolved) continue;
        std::vector<SampleTime> driver_rates;
        bool ready = true;
        for (int i = 0; i < fb.block->num_inputs(); ++i) {
          const FlatBlock& src = flat_[fb.input_driver[i]];
          if (src.rate_resolved) {
            driver_rates.push_back(src.rate);
          } else {
            ready = false;
          }
        }
        if (!ready && !(relaxed && !driver_rates.empty())) {
          pending = true;
          continue;
        }
        fb.rate = InheritRate(fb, driver_rates);
        fb.rate_resolved = true;
        progress = true;
        relaxed = false;
      }
      if (!pending) break;
      if (!progress) {
        if (relaxed) {
          // A loop of inherited blocks with nothing known around it runs continuously.
          for (int f : real_) {
            FlatBlock& fb = flat_[f];
            if (fb.rate_resolved) continue;
            fb.rate = InheritRate(fb, {});
            fb.rate_resolved = true;
            break;
          }
        }
        relaxed = true;
      }
    }
    std::vector<SampleTime> rates;
    for (int f : real_) {
      if (flat_[f].rate.is_discrete() &&
          std::find(rates.begin(), rates.end(), flat_[f].rate) == rates.end()) {
        rates.push_back(flat_[f].rate);
      }
    }
    std::sort(rates.begin(), rates.end(), [](const SampleTime& a, const SampleTime& b) {
      return a.period != b.period ? a.period < b.period : a.offset < b.offset;
    });
    system_.rates_ = rates;
  }

  SampleTime InheritRate(const FlatBlock& fb, const std::vector<SampleTime>& drivers) {
    const bool needs_discrete = fb.block->requires_discrete_rate();
    bool any_continuous = false, all_constant = !drivers.empty();
    std::vector<SampleTime> discrete;
    for (const SampleTime& st : drivers) {
      if (st.is_continuous()) any_continuous = true;
      if (!st.is_constant()) all_constant = false;
      if (st.is_discrete() && std::find(discrete.begin(), discrete.end(), st) == discrete.end()) {
        discrete.push_back(st);
      }
    }
    if (needs_discrete) {
      if (discrete.size() == 1 && !any_continuous) return discrete.front();
      std::string why = drivers.empty()       ? "nothing it could inherit from"
                        : any_continuous      ? "a continuous input"
                        : all_constant        ? "only constant inputs"
                        : discrete.size() > 1 ? "inputs at different rates"
                                              : "no rate it could inherit";
      FailBlock(fb,
                "cannot inherit a discrete sample time (Ts=-1): it has " + why + "; give it a Ts");
    }
    if (all_constant) return SampleTime::Constant();
    if (!any_continuous && discrete.size() == 1) return discrete.front();
    // Mixed rates or continuous inputs: running at every evaluation is always right for a
    // block without memory, since its discrete inputs are held between their hits.
    return SampleTime::Continuous();
  }

  // ---- Phase 6: execution order ----
  void Order() {
    std::vector<int> stage_base(flat_.size(), -1);
    std::vector<std::pair<int, int>> node_owner;  // node -> (flat, stage)
    for (int f : real_) {
      stage_base[f] = static_cast<int>(node_owner.size());
      for (int s = 0; s < flat_[f].block->num_stages(); ++s) node_owner.emplace_back(f, s);
    }
    using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
    Graph g(node_owner.size());
    for (int f : real_) {
      const Block& b = *flat_[f].block;
      for (int s = 1; s < b.num_stages(); ++s) {
        boost::add_edge(stage_base[f] + s - 1, stage_base[f] + s, g);
      }
      for (int i = 0; i < b.num_inputs(); ++i) {
        const unsigned mask = b.input_port(i).feedthrough;
        if (mask == 0) continue;
        const int src = flat_[f].input_driver[i];
        const int src_stage = flat_[src].block->output_port(flat_[f].input_driver_port[i]).stage;
        for (int s = 0; s < b.num_stages(); ++s) {
          if (mask & (1u << s)) boost::add_edge(stage_base[src] + src_stage, stage_base[f] + s, g);
        }
      }
    }
    std::vector<Graph::vertex_descriptor> order;
    try {
      boost::topological_sort(g, std::back_inserter(order));
    } catch (const boost::not_a_dag&) {
      ReportAlgebraicLoop(g, node_owner);
    }
    std::reverse(order.begin(), order.end());
    for (auto v : order) {
      const auto [f, s] = node_owner[v];
      order_.emplace_back(f, s);
    }
  }

  template <class Graph>
  [[noreturn]] void ReportAlgebraicLoop(const Graph& g,
                                        const std::vector<std::pair<int, int>>& owner) {
    std::vector<int> component(boost::num_vertices(g));
    boost::strong_components(g, component.data());
    // Pick the component of a node that lies on a cycle: a component of more than one node,
    // or a node with an edge to itself.
    std::map<int, int> sizes;
    for (int c : component) ++sizes[c];
    int start = -1;
    for (int v = 0; v < static_cast<int>(component.size()) && start < 0; ++v) {
      if (sizes[component[v]] > 1) start = v;
      for (auto [e, end] = boost::out_edges(v, g); e != end && start < 0; ++e) {
        if (static_cast<int>(boost::target(*e, g)) == v) start = v;
      }
    }
    // Shortest cycle through `start` inside its component, by breadth-first search.
    std::vector<int> parent(component.size(), -1);
    std::vector<int> queue{start};
    int closing = -1;
    for (size_t head = 0; head < queue.size() && closing < 0; ++head) {
      const int v = queue[head];
      for (auto [e, end] = boost::out_edges(v, g); e != end; ++e) {
        const int w = static_cast<int>(boost::target(*e, g));
        if (component[w] != component[start]) continue;
        if (w == start) {
          closing = v;
          break;
        }
        if (parent[w] < 0) {
          parent[w] = v;
          queue.push_back(w);
        }
      }
    }
    std::vector<int> cycle;
    for (int v = closing; v != start && v >= 0; v = parent[v]) cycle.push_back(v);
    cycle.push_back(start);
    std::reverse(cycle.begin(), cycle.end());
    std::vector<std::string> names;
    for (int v : cycle) {
      const std::string& path = flat_[owner[v].first].path;
      if (names.empty() || names.back() != path) names.push_back(path);
    }
    names.push_back(names.front());
    const FlatBlock& first = flat_[owner[start].first];
    throw ModelError(first.where, "algebraic loop: " + Join(names, " -> ") +
                                      " (each block on the cycle needs the next one's output "
                                      "at the same instant; break it with a UnitDelay, an "
                                      "Integrator or another block without direct "
                                      "feedthrough)");
  }

  // ---- Phase 7: the per-run layout ----
  void Layout() {
    std::vector<int> system_index(flat_.size(), -1);
    int next_index = 0;
    int signals = 0, x = 0, xd = 0, dwork = 0, modes = 0, zc = 0;
    for (int f : real_) {
      FlatBlock& fb = flat_[f];
      Block& b = *fb.block;
      system_index[f] = next_index++;
      for (int i = 0; i < b.num_outputs(); ++i) {
        b.SetOutputOffset(i, signals);
        signals += b.output_port(i).width;
      }
      Block::Layout layout;
      layout.index = system_index[f];
      layout.x = x;
      layout.xd = xd;
      layout.dwork = dwork;
      layout.modes = modes;
      layout.sample_time = fb.rate;
      layout.rate_index = -1;
      if (fb.rate.is_discrete()) {
        const auto& rates = system_.rates_;
        layout.rate_index =
            static_cast<int>(std::find(rates.begin(), rates.end(), fb.rate) - rates.begin());
      }
      // Only continuous blocks get zero-crossing slots: a discrete block's modes change only
      // at its own hits, which are major steps anyway.
      const bool continuous = fb.rate.is_continuous();
      layout.zc = continuous ? zc : 0;
      b.SetLayout(layout);
      x += b.num_continuous_states();
      xd += b.num_discrete_states();
      dwork += b.num_dwork();
      modes += b.num_modes();
      if (continuous) zc += b.num_zero_crossings();
      system_.paths_.push_back(fb.path);
      system_.types_.push_back(fb.type->name);
    }
    for (int f : real_) {
      FlatBlock& fb = flat_[f];
      for (int i = 0; i < fb.block->num_inputs(); ++i) {
        const FlatBlock& src = flat_[fb.input_driver[i]];
        fb.block->SetInputOffset(i, src.block->output_port(fb.input_driver_port[i]).offset);
      }
    }
    for (const auto& [f, s] : order_) {
      const Block* b = flat_[f].block.get();
      const SampleTime& st = flat_[f].rate;
      if (st.is_constant()) {
        system_.constant_order_.push_back({b, s});
      } else {
        system_.major_order_.push_back({b, s});
        if (st.is_continuous()) system_.minor_order_.push_back({b, s});
      }
    }
    for (int f : real_) {
      const Block* b = flat_[f].block.get();
      if (b->num_continuous_states() > 0) {
        if (!flat_[f].rate.is_continuous()) {
          FailBlock(flat_[f],
                    "a block with continuous states must run continuously, but it "
                    "resolved to " +
                        DescribeRate(flat_[f].rate));
        }
        system_.derivative_blocks_.push_back(b);
      }
      if (b->has_update()) system_.update_blocks_.push_back(b);
      if (flat_[f].rate.is_continuous() && b->num_zero_crossings() > 0) {
        system_.zc_blocks_.push_back(b);
      }
      if (b->has_breakpoints()) system_.breakpoint_blocks_.push_back(b);
    }
    for (int f : real_) system_.blocks_.push_back(std::move(flat_[f].block));
    system_.num_signals_ = signals;
    system_.nx_ = x;
    system_.nxd_ = xd;
    system_.ndwork_ = dwork;
    system_.nmodes_ = modes;
    system_.nzc_ = zc;
    system_index_ = std::move(system_index);
  }

  // ---- Phase 8: logs ----
  std::optional<LoggedSignal> ResolveSignal(const std::string& path_port) const {
    auto it = point_index_.find(path_port);
    if (it == point_index_.end()) return std::nullopt;
    const Point& p = points_[it->second];
    if (p.role_outside == Role::kPhysical) return std::nullopt;
    int source = -1;
    if (p.is_real_input) {
      const FlatBlock& fb = flat_[p.block];
      const int f = fb.input_driver[p.port];
      const int port = fb.input_driver_port[p.port];
      const Block& b = *system_.blocks_[system_index_[f]];
      return LoggedSignal{path_port, flat_[f].path + "." + b.output_port(port).name,
                          b.output_port(port).offset, b.output_port(port).width};
    }
    int last = it->second;
    source = FollowToSource(it->second, &last);
    if (source < 0) return std::nullopt;
    const Point& sp = points_[source];
    const Block& b = *system_.blocks_[system_index_[sp.block]];
    return LoggedSignal{path_port, sp.name, b.output_port(sp.port).offset,
                        b.output_port(sp.port).width};
  }

  void AddLog(const std::string& signal, const std::string& as, const SourceLocation& where) {
    std::optional<LoggedSignal> s = ResolveSignal(signal);
    if (!s) {
      std::string msg = "cannot log '" + signal +
                        "': no such signal (write path.port of a "
                        "block output, e.g. 'sub/gain.y')";
      if (where.known()) FailAt(where, msg);
      throw ModelError(SourceLocation{"--log", 0}, msg);
    }
    s->name = as.empty() ? signal : as;
    for (const LoggedSignal& other : system_.logged_) {
      if (other.name == s->name) {
        const std::string msg =
            "two logged signals are named '" + s->name + "'; give one an `as` name";
        if (where.known()) FailAt(where, msg);
        throw ModelError(SourceLocation{"--log", 0}, msg);
      }
    }
    system_.logged_.push_back(*s);
  }

  void ResolveLogs() {
    for (const LogSpec& log : model_.logs) AddLog(log.signal, log.as, log.where);
    for (const std::string& s : options_.extra_logs) AddLog(s, "", {});
    for (const auto& [name, index] : point_index_) {
      if (std::optional<LoggedSignal> s = ResolveSignal(name)) system_.directory_.push_back(*s);
    }
    std::sort(system_.directory_.begin(), system_.directory_.end(),
              [](const LoggedSignal& a, const LoggedSignal& b) { return a.name < b.name; });
  }

  const Model& model_;
  const CompileOptions& options_;
  Scope root_scope_;
  System system_;
  std::vector<FlatBlock> flat_;
  std::vector<int> real_;  ///< flat indices of blocks that run
  std::vector<Point> points_;
  std::unordered_map<std::string, int> point_index_;
  std::vector<std::pair<int, int>> physical_links_;
  std::vector<std::pair<int, int>> order_;  ///< (flat, stage) in execution order
  std::vector<int> system_index_;           ///< flat index -> System block index
};

System Compile(const Model& model, const CompileOptions& options) {
  return Compiler(model, options).Run();
}

}  // namespace twinblocks::graph
