#include "model/model.h"

#include <algorithm>
#include <filesystem>
#include <utility>

#include "blocks/math_expression.h"
#include "common/suggest.h"
#include "model/detail/model_support.h"
#include "model/model_error.h"

namespace twinblocks::graph {

using internal::EditError;
using internal::GetBlock;
using internal::JoinPath;
using internal::kIdentifierRule;
using internal::SplitLast;

// ---------------------------------------------------------------------------------------------
// BlockNode, Diagram, SimulationSettings

BlockNode::BlockNode(const BlockNode& other)
    : name(other.name),
      type(other.type),
      library(other.library),
      params(other.params),
      commented(other.commented),
      where(other.where),
      body(other.body ? std::make_unique<Diagram>(*other.body) : nullptr) {}

BlockNode& BlockNode::operator=(const BlockNode& other) {
  if (this != &other) {
    BlockNode copy(other);
    *this = std::move(copy);
  }
  return *this;
}

BlockNode::~BlockNode() = default;

std::optional<std::string> BlockNode::GetParam(std::string_view param) const {
  for (const Parameter& p : params) {
    if (p.name == param) return p.value;
  }
  return std::nullopt;
}

bool BlockNode::operator==(const BlockNode& o) const {
  if (name != o.name || type != o.type || library != o.library || params != o.params ||
      commented != o.commented) {
    return false;
  }
  if (is_subsystem() != o.is_subsystem()) return false;
  return !is_subsystem() || *body == *o.body;
}

BlockNode* Diagram::Find(std::string_view name) {
  for (BlockNode& b : blocks) {
    if (b.name == name) return &b;
  }
  return nullptr;
}

const BlockNode* Diagram::Find(std::string_view name) const {
  return const_cast<Diagram*>(this)->Find(name);
}

std::optional<std::string> SimulationSettings::Get(std::string_view attribute) const {
  for (const Parameter& p : attributes) {
    if (p.name == attribute) return p.value;
  }
  return std::nullopt;
}

void SimulationSettings::Set(const std::string& attribute, const std::string& value) {
  if (!IsIdentifier(attribute)) {
    throw EditError("invalid simulation setting name '" + attribute +
                    "'; expected letters, digits and '_', not starting with a digit");
  }
  for (Parameter& p : attributes) {
    if (p.name == attribute) {
      p.value = value;
      return;
    }
  }
  attributes.push_back({attribute, value});
}

// ---------------------------------------------------------------------------------------------
// Names

bool IsIdentifier(std::string_view name) {
  if (name.empty()) return false;
  auto alpha = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; };
  if (!alpha(name[0])) return false;
  return std::all_of(name.begin(), name.end(),
                     [&](char c) { return alpha(c) || (c >= '0' && c <= '9'); });
}

bool IsEndpoint(std::string_view endpoint) {
  size_t dot = endpoint.find('.');
  if (dot == std::string_view::npos) return false;
  std::string_view block = endpoint.substr(0, dot);
  std::string_view port = endpoint.substr(dot + 1);
  return (block.empty() || IsIdentifier(block)) && IsIdentifier(port);
}

std::string ResultsFileProblem(std::string_view file) {
  if (file.empty()) return "an empty file name";
  for (char c : file) {
    if (static_cast<unsigned char>(c) < 0x20) {
      return "a control character in the file name; expected a relative path";
    }
  }
  const std::filesystem::path path{std::string(file)};
  if (path.is_absolute() || path.has_root_name()) {
    return "'" + std::string(file) +
           "' is an absolute path; a model writes only inside the results folder (the folder of "
           "-o): give a relative path";
  }
  // Lexically, before anything exists: `a/../../x` leaves as surely as `../x` does.
  int depth = 0;
  for (const std::filesystem::path& part : path) {
    if (part == "..") {
      if (--depth < 0) {
        return "'" + std::string(file) +
               "' leads out of the results folder (the folder of -o) through '..'; a model "
               "writes only inside it";
      }
    } else if (part != "." && !part.empty()) {
      ++depth;
    }
  }
  if (depth == 0) return "'" + std::string(file) + "' names the results folder itself, not a file";
  return "";
}

namespace {

// The diagram at `path`, or null with the reason in `why`. A first segment "define:NAME" starts
// from the body of the model's own define NAME.
const Diagram* LookUpDiagram(const Model& m, std::string_view path, std::string* why) {
  const Diagram* d = &m.root;
  std::string walked;
  std::vector<std::string_view> parts = internal::SplitPath(path);
  if (!parts.empty() && parts.front().starts_with(internal::kDefinePrefix)) {
    const std::string define_name(parts.front().substr(std::size(internal::kDefinePrefix) - 1));
    const Define* def = nullptr;
    std::vector<std::string> names;
    for (const Define& candidate : m.defines) {
      names.push_back(candidate.name);
      if (candidate.name == define_name) def = &candidate;
    }
    if (def == nullptr) {
      const bool in_library = std::any_of(m.library.begin(), m.library.end(),
                                          [&](const Define& l) { return l.name == define_name; });
      *why = in_library ? "define '" + define_name +
                              "' is read from an include, and only the model's own defines "
                              "are edited; edit its file"
                        : "no define '" + define_name + "' in the model" +
                              SuggestionFor(define_name, names) +
                              " (its defines: " + internal::JoinNames(names) + ")";
      return nullptr;
    }
    d = &def->body;
    walked = std::string(parts.front());
    parts.erase(parts.begin());
  }
  for (std::string_view part : parts) {
    const BlockNode* b = d->Find(part);
    std::string here = JoinPath(walked, part);
    if (b == nullptr) {
      std::vector<std::string> names;
      for (const BlockNode& n : d->blocks) names.push_back(n.name);
      *why = "no block '" + here + "' in the model" + SuggestionFor(std::string(part), names);
      return nullptr;
    }
    if (!b->is_subsystem()) {
      *why = "'" + here + "' is a block of type '" + b->type + "', not a subsystem";
      return nullptr;
    }
    d = b->body.get();
    walked = here;
  }
  return d;
}

void CheckBlockName(const Diagram& d, std::string_view diagram_path, const std::string& name) {
  if (!IsIdentifier(name)) {
    throw EditError("invalid block name '" + name + "': " + kIdentifierRule);
  }
  if (d.Find(name) != nullptr) {
    throw EditError("a block named '" + name + "' already exists in " +
                    internal::DiagramName(diagram_path));
  }
}

void CheckEndpointText(const std::string& endpoint, std::string_view diagram_path,
                       const Diagram& d) {
  if (!IsEndpoint(endpoint)) {
    throw EditError("invalid port reference '" + endpoint + "'; expected 'block.port' or '.port'");
  }
  // At the top level, '.name' is one of the model's <inport>s (external inputs); inside a
  // subsystem or define the ports may still be declared later, so compile checks them.
  if (endpoint[0] == '.' && diagram_path.empty()) {
    for (const PortDecl& p : d.ports) {
      if (p.kind == PortDecl::Kind::kInport && "." + p.name == endpoint) return;
    }
    throw EditError("'" + endpoint +
                    "' names a top-level <inport>, but the model declares no <inport> '" +
                    endpoint.substr(1) + "'");
  }
}

// The block an endpoint names ("" for a boundary port).
std::string_view EndpointBlock(std::string_view endpoint) {
  return endpoint.substr(0, endpoint.find('.'));
}

// The model's variables when they evaluate (to count numbered ports), else null: an edit is
// not refused because a variable elsewhere is wrong; compile reports that.
std::optional<Scope> VariablesIfValid(const Model& m) {
  try {
    return internal::EvaluateVariables(m);
  } catch (const ModelError&) {
    return std::nullopt;
  }
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Model: looking up

Diagram& Model::GetDiagram(std::string_view path) {
  return const_cast<Diagram&>(static_cast<const Model*>(this)->GetDiagram(path));
}

const Diagram& Model::GetDiagram(std::string_view path) const {
  std::string why;
  const Diagram* d = LookUpDiagram(*this, path, &why);
  if (d == nullptr) throw EditError(why);
  return *d;
}

BlockNode* Model::FindBlock(std::string_view path) {
  return const_cast<BlockNode*>(static_cast<const Model*>(this)->FindBlock(path));
}

const BlockNode* Model::FindBlock(std::string_view path) const {
  if (path.empty()) return nullptr;
  auto [parent, name] = SplitLast(path);
  std::string why;
  const Diagram* d = LookUpDiagram(*this, parent, &why);
  return d == nullptr ? nullptr : d->Find(name);
}

const Define* Model::FindDefine(std::string_view define_name) const {
  for (const Define& d : defines) {
    if (d.name == define_name) return &d;
  }
  for (const Define& d : library) {
    if (d.name == define_name) return &d;
  }
  return nullptr;
}

// ---------------------------------------------------------------------------------------------
// Model: editing

BlockNode& Model::AddBlock(std::string_view diagram_path, const std::string& type,
                           const std::string& block_name, std::vector<Parameter> params,
                           const std::string& library) {
  Diagram& d = GetDiagram(diagram_path);
  CheckBlockName(d, diagram_path, block_name);
  const std::string path = JoinPath(diagram_path, block_name);
  const internal::TypeRef ref = internal::CheckType(*this, path, type, library);
  internal::CheckParams(ref, path, type, params);
  BlockNode b;
  b.name = block_name;
  b.type = type;
  b.library = library;
  b.params = std::move(params);
  d.blocks.push_back(std::move(b));
  return d.blocks.back();
}

Diagram& Model::AddSubsystem(std::string_view diagram_path, const std::string& subsystem_name) {
  Diagram& d = GetDiagram(diagram_path);
  CheckBlockName(d, diagram_path, subsystem_name);
  BlockNode b;
  b.name = subsystem_name;
  b.body = std::make_unique<Diagram>();
  d.blocks.push_back(std::move(b));
  return *d.blocks.back().body;
}

void Model::RemoveBlock(std::string_view path) {
  GetBlock(*this, path);
  auto [parent, block_name] = SplitLast(path);
  Diagram& d = GetDiagram(parent);
  std::erase_if(d.blocks, [&](const BlockNode& b) { return b.name == block_name; });
  std::erase_if(d.connections, [&](const Connection& c) {
    return EndpointBlock(c.from) == block_name || EndpointBlock(c.to) == block_name;
  });
}

void Model::RenameBlock(std::string_view path, const std::string& new_name) {
  BlockNode& b = GetBlock(*this, path);
  auto [parent, old_name_view] = SplitLast(path);
  const std::string parent_path(parent);
  const std::string old_name(old_name_view);
  if (new_name == old_name) return;
  Diagram& d = GetDiagram(parent_path);
  CheckBlockName(d, parent_path, new_name);
  b.name = new_name;

  auto rewrite = [&](std::string* endpoint) {
    if (EndpointBlock(*endpoint) == old_name) {
      *endpoint = new_name + endpoint->substr(old_name.size());
    }
  };
  for (Connection& c : d.connections) {
    rewrite(&c.from);
    rewrite(&c.to);
  }
  // Logged signals and robots name the block by its path ("a/old.q", "a/old/inner.q").
  internal::RewritePathReferences(this, JoinPath(parent_path, old_name),
                                  JoinPath(parent_path, new_name));
}

void Model::SetParam(std::string_view path, const std::string& param, const std::string& value) {
  BlockNode& b = GetBlock(*this, path);
  const std::string block_path(path);
  if (b.is_subsystem()) {
    throw EditError(block_path, "", "a subsystem has no parameters (setting '" + param + "')",
                    b.where);
  }
  internal::CheckParam(internal::LookUpType(*this, b), block_path, b.type, {param, value}, b.where);
  for (Parameter& p : b.params) {
    if (p.name == param) {
      p.value = value;
      return;
    }
  }
  b.params.push_back({param, value});
}

void Model::SetParam(std::string_view path, const std::string& param, double value) {
  SetParam(path, param, FormatNumber(value));
}

void Model::SetParam(std::string_view path, const std::string& param,
                     const std::vector<double>& value) {
  std::string text = "[";
  for (size_t i = 0; i < value.size(); ++i) text += (i ? ", " : "") + FormatNumber(value[i]);
  SetParam(path, param, text + "]");
}

std::optional<std::string> Model::GetParam(std::string_view path, std::string_view param) const {
  return GetBlock(*this, path).GetParam(param);
}

void Model::SetCommented(std::string_view path, bool is_commented) {
  GetBlock(*this, path).commented = is_commented;
}

void Model::Connect(std::string_view diagram_path, const std::string& from, const std::string& to) {
  using internal::PortLookup;
  using internal::PortRole;
  Diagram& d = GetDiagram(diagram_path);
  CheckEndpointText(from, diagram_path, d);
  CheckEndpointText(to, diagram_path, d);
  for (const Connection& c : d.connections) {
    if (c.from == from && c.to == to) {
      throw EditError("a line from '" + from + "' to '" + to + "' already exists in " +
                      internal::DiagramName(diagram_path));
    }
  }
  const std::optional<Scope> vars = VariablesIfValid(*this);
  const Scope* scope = vars ? &*vars : nullptr;
  const PortLookup a = internal::ResolveEndpoint(*this, scope, diagram_path, d, from);
  const PortLookup b = internal::ResolveEndpoint(*this, scope, diagram_path, d, to);
  const bool a_known = a.status == PortLookup::Status::kFound;
  const bool b_known = b.status == PortLookup::Status::kFound;
  auto role_name = [](PortRole r) {
    return r == PortRole::kInput    ? "a signal input"
           : r == PortRole::kOutput ? "a signal output"
                                    : "a physical port";
  };
  const bool a_physical = a_known && a.info.role == PortRole::kPhysical;
  const bool b_physical = b_known && b.info.role == PortRole::kPhysical;
  if (a_known && b_known && a_physical != b_physical) {
    throw EditError("cannot connect '" + from + "' (" + role_name(a.info.role) + ") to '" + to +
                    "' (" + role_name(b.info.role) +
                    "): a line joins two signal ports or two physical ports");
  }
  if (a_physical && b_physical) {
    if (!a.info.domain.empty() && !b.info.domain.empty() && a.info.domain != b.info.domain) {
      throw EditError("cannot connect '" + from + "' (a " + a.info.domain + " port) to '" + to +
                      "' (a " + b.info.domain + " port): a physical line joins one domain");
    }
  } else {
    if (a_known && !a_physical && a.info.role != PortRole::kOutput) {
      throw EditError("'" + from + "' is " + role_name(a.info.role) +
                      ", not an output: a line goes from an output to an input");
    }
    if (b_known && !b_physical && b.info.role != PortRole::kInput) {
      throw EditError("'" + to + "' is " + role_name(b.info.role) +
                      ", not an input: a line goes from an output to an input");
    }
    if (b_known) {
      // A line from a block commented out leaves with it (compile skips it), so the input may
      // take another one meanwhile.
      auto commented = [&](const std::string& endpoint) {
        const BlockNode* n = d.Find(EndpointBlock(endpoint));
        return n != nullptr && n->commented;
      };
      for (const Connection& c : d.connections) {
        if (c.to == to && !commented(c.from) && !commented(c.to)) {
          throw EditError("input '" + to + "' already has a line (from '" + c.from +
                          "'); an input takes exactly one line");
        }
      }
    }
  }
  d.connections.push_back({from, to, {}});
}

bool Model::Disconnect(std::string_view diagram_path, const std::string& from,
                       const std::string& to) {
  Diagram& d = GetDiagram(diagram_path);
  auto removed = std::erase_if(d.connections,
                               [&](const Connection& c) { return c.from == from && c.to == to; });
  return removed > 0;
}

void Model::SetVariable(const std::string& var_name, const std::string& value) {
  if (!IsIdentifier(var_name)) {
    throw EditError("invalid variable name '" + var_name + "': " + kIdentifierRule);
  }
  if (blocks::MathExpression::IsReservedName(var_name)) {
    throw EditError("variable '" + var_name +
                    "' takes the name of a built-in constant or function");
  }
  for (Variable& v : variables) {
    if (v.name == var_name) {
      v.value = value;
      return;
    }
  }
  variables.push_back({var_name, value, {}});
}

bool Model::operator==(const Model& o) const {
  return name == o.name && format == o.format && variables == o.variables &&
         simulation == o.simulation && includes == o.includes && defines == o.defines &&
         root == o.root && logs == o.logs && plots == o.plots && summaries == o.summaries;
}

}  // namespace twinblocks::graph
