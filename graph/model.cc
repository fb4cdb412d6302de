#include "graph/model.h"

#include <algorithm>
#include <utility>

#include "blocks/math_expression.h"
#include "graph/model_error.h"

namespace twinblocks::graph {

namespace {

ModelError Error(const std::string& message) { return ModelError({}, OneLine(message)); }

ModelError Error(const std::string& block_path, const std::string& block_type,
                 const std::string& message) {
  return ModelError({}, OneLine(block_path), OneLine(block_type), OneLine(message));
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// BlockNode, Diagram, SimulationSettings

BlockNode::BlockNode(const BlockNode& other)
    : name(other.name),
      type(other.type),
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
  if (name != o.name || type != o.type || params != o.params || commented != o.commented) {
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
    throw Error("invalid simulation setting name '" + attribute +
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

namespace {

const char kIdentifierRule[] = "names are letters, digits and '_', not starting with a digit";

// Parameter names the block element uses for itself.
bool IsReservedAttribute(std::string_view name) {
  return name == "type" || name == "name" || name == "commented";
}

std::vector<std::string_view> SplitPath(std::string_view path) {
  std::vector<std::string_view> parts;
  if (path.empty()) return parts;
  size_t start = 0;
  while (true) {
    size_t slash = path.find('/', start);
    parts.push_back(path.substr(start, slash - start));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return parts;
}

// "a/b/c" -> {"a/b", "c"}; "c" -> {"", "c"}.
std::pair<std::string_view, std::string_view> SplitLast(std::string_view path) {
  size_t slash = path.rfind('/');
  if (slash == std::string_view::npos) return {std::string_view(), path};
  return {path.substr(0, slash), path.substr(slash + 1)};
}

std::string DiagramName(std::string_view path) {
  if (path.empty()) return "the top level";
  return "subsystem '" + std::string(path) + "'";
}

std::string Join(std::string_view diagram_path, std::string_view name) {
  if (diagram_path.empty()) return std::string(name);
  return std::string(diagram_path) + "/" + std::string(name);
}

// The diagram at `path`, or null with the reason in `why`.
const Diagram* LookUpDiagram(const Diagram& root, std::string_view path, std::string* why) {
  const Diagram* d = &root;
  std::string walked;
  for (std::string_view part : SplitPath(path)) {
    const BlockNode* b = d->Find(part);
    std::string here = walked.empty() ? std::string(part) : walked + "/" + std::string(part);
    if (b == nullptr) {
      *why = "no block '" + here + "' in the model";
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
    throw Error("invalid block name '" + name + "': " + kIdentifierRule);
  }
  if (d.Find(name) != nullptr) {
    throw Error("a block named '" + name + "' already exists in " + DiagramName(diagram_path));
  }
}

void CheckParamName(const std::string& block_path, const BlockNode& b, const std::string& param) {
  if (!IsIdentifier(param)) {
    throw Error(block_path, b.type, "invalid parameter name '" + param + "': " + kIdentifierRule);
  }
  if (IsReservedAttribute(param)) {
    throw Error(block_path, b.type,
                "'" + param +
                    "' is not a parameter: type, name and commented are written "
                    "by the block itself");
  }
}

void CheckEndpoint(const std::string& endpoint, std::string_view diagram_path, const Diagram& d) {
  if (!IsEndpoint(endpoint)) {
    throw Error("invalid port reference '" + endpoint + "'; expected 'block.port' or '.port'");
  }
  // At the top level, '.name' is one of the model's <inport>s (external inputs); inside a
  // subsystem or define the ports may still be declared later, so compile checks them.
  if (endpoint[0] == '.' && diagram_path.empty()) {
    for (const PortDecl& p : d.ports) {
      if (p.kind == PortDecl::Kind::kInport && "." + p.name == endpoint) return;
    }
    throw Error("'" + endpoint +
                "' names a top-level <inport>, but the model declares no <inport> '" +
                endpoint.substr(1) + "'");
  }
}

// The block an endpoint names ("" for a boundary port).
std::string_view EndpointBlock(std::string_view endpoint) {
  return endpoint.substr(0, endpoint.find('.'));
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Model: looking up

Diagram& Model::GetDiagram(std::string_view path) {
  return const_cast<Diagram&>(static_cast<const Model*>(this)->GetDiagram(path));
}

const Diagram& Model::GetDiagram(std::string_view path) const {
  std::string why;
  const Diagram* d = LookUpDiagram(root, path, &why);
  if (d == nullptr) throw Error(why);
  return *d;
}

BlockNode* Model::FindBlock(std::string_view path) {
  return const_cast<BlockNode*>(static_cast<const Model*>(this)->FindBlock(path));
}

const BlockNode* Model::FindBlock(std::string_view path) const {
  if (path.empty()) return nullptr;
  auto [parent, name] = SplitLast(path);
  std::string why;
  const Diagram* d = LookUpDiagram(root, parent, &why);
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

namespace {

BlockNode& GetBlock(Model& m, std::string_view path) {
  BlockNode* b = m.FindBlock(path);
  if (b == nullptr) {
    // Say which part of the path is wrong.
    auto [parent, name] = SplitLast(path);
    m.GetDiagram(parent);
    throw Error("no block '" + std::string(path) + "' in the model");
  }
  return *b;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Model: editing

BlockNode& Model::AddBlock(std::string_view diagram_path, const std::string& type,
                           const std::string& block_name, std::vector<Parameter> params) {
  Diagram& d = GetDiagram(diagram_path);
  CheckBlockName(d, diagram_path, block_name);
  std::string path = Join(diagram_path, block_name);
  if (type.empty()) throw Error(path, "", "a block needs a type");
  BlockNode b;
  b.name = block_name;
  b.type = type;
  for (size_t i = 0; i < params.size(); ++i) {
    CheckParamName(path, b, params[i].name);
    for (size_t j = 0; j < i; ++j) {
      if (params[j].name == params[i].name) {
        throw Error(path, type, "parameter '" + params[i].name + "' given twice");
      }
    }
  }
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
  std::string parent_path(parent);
  std::string old_name(old_name_view);
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
  // Logged signals name the block by its path ("a/old.q", "a/old/inner.q"): keep them on it.
  std::string old_path = Join(parent_path, old_name);
  std::string renamed = Join(parent_path, new_name);
  for (LogSpec& log : logs) {
    if (log.signal.size() > old_path.size() &&
        log.signal.compare(0, old_path.size(), old_path) == 0 &&
        (log.signal[old_path.size()] == '.' || log.signal[old_path.size()] == '/')) {
      log.signal = renamed + log.signal.substr(old_path.size());
    }
  }
}

void Model::SetParam(std::string_view path, const std::string& param, const std::string& value) {
  BlockNode& b = GetBlock(*this, path);
  std::string block_path(path);
  if (b.is_subsystem()) {
    throw Error(block_path, "", "a subsystem has no parameters (setting '" + param + "')");
  }
  CheckParamName(block_path, b, param);
  for (Parameter& p : b.params) {
    if (p.name == param) {
      p.value = value;
      return;
    }
  }
  b.params.push_back({param, value});
}

std::optional<std::string> Model::GetParam(std::string_view path, std::string_view param) const {
  const BlockNode* b = FindBlock(path);
  if (b == nullptr) {
    GetDiagram(SplitLast(path).first);
    throw Error("no block '" + std::string(path) + "' in the model");
  }
  return b->GetParam(param);
}

void Model::SetCommented(std::string_view path, bool is_commented) {
  GetBlock(*this, path).commented = is_commented;
}

void Model::Connect(std::string_view diagram_path, const std::string& from, const std::string& to) {
  Diagram& d = GetDiagram(diagram_path);
  CheckEndpoint(from, diagram_path, d);
  CheckEndpoint(to, diagram_path, d);
  for (const Connection& c : d.connections) {
    if (c.from == from && c.to == to) {
      throw Error("a line from '" + from + "' to '" + to + "' already exists in " +
                  DiagramName(diagram_path));
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
    throw Error("invalid variable name '" + var_name + "': " + kIdentifierRule);
  }
  if (blocks::MathExpression::IsReservedName(var_name)) {
    throw Error("variable '" + var_name + "' takes the name of a built-in constant or function");
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
