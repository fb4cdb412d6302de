// Edits that change the structure of a model but not what it computes: replacing a block,
// grouping blocks into a subsystem, expanding a define instance into a subsystem.
#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "blocks/block_registry.h"
#include "model/detail/define_substitution.h"
#include "model/detail/model_support.h"
#include "model/model.h"

namespace twinblocks::graph {

using internal::EditError;
using internal::JoinPath;
using internal::PortLookup;
using internal::PortRole;
using internal::SplitEndpoint;

namespace {

const char* RoleName(PortRole r) {
  return r == PortRole::kInput    ? "a signal input"
         : r == PortRole::kOutput ? "a signal output"
                                  : "a physical port";
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// ReplaceBlock

void Model::ReplaceBlock(std::string_view path, const std::string& new_type,
                         std::vector<Parameter> params, const std::string& library) {
  BlockNode& b = internal::GetBlock(*this, path);
  const std::string block_path(path);
  const internal::TypeRef type = internal::CheckType(*this, block_path, new_type, library, b.where);
  internal::CheckParams(type, block_path, new_type, params, b.where);

  BlockNode replacement;
  replacement.name = b.name;
  replacement.type = new_type;
  replacement.library = library;
  replacement.params = std::move(params);
  replacement.commented = b.commented;
  replacement.where = b.where;

  // Every line of the old block must find its port on the new one, used the same way.
  const Diagram& d = GetDiagram(internal::SplitLast(path).first);
  std::optional<Scope> variables;
  try {
    variables = internal::EvaluateVariables(*this);
  } catch (const ModelError&) {
    // Numbered port counts stay unchecked; compile reports the variable.
  }
  for (const Connection& c : d.connections) {
    for (bool is_from : {true, false}) {
      const std::string& end = is_from ? c.from : c.to;
      const auto [block_name, port] = SplitEndpoint(end);
      if (block_name != b.name) continue;
      const PortLookup p =
          internal::LookUpPort(*this, variables ? &*variables : nullptr, replacement, port);
      const std::string line = "the line '" + c.from + "' -> '" + c.to + "'";
      if (p.status == PortLookup::Status::kNoSuchPort) {
        throw EditError(block_path, new_type,
                        "cannot replace: " + line + " uses port '" + std::string(port) +
                            "', which " + new_type +
                            " does not have; its ports are: " + internal::JoinNames(p.valid),
                        b.where);
      }
      if (p.status != PortLookup::Status::kFound || p.info.role == PortRole::kPhysical) continue;
      const PortRole expected = is_from ? PortRole::kOutput : PortRole::kInput;
      if (p.info.role != expected) {
        throw EditError(block_path, new_type,
                        "cannot replace: " + line + " needs '" + std::string(port) + "' to be " +
                            RoleName(expected) + ", but on " + new_type + " it is " +
                            RoleName(p.info.role),
                        b.where);
      }
    }
  }
  b = std::move(replacement);
}

// ---------------------------------------------------------------------------------------------
// CreateSubsystem

void Model::CreateSubsystem(std::string_view diagram_path,
                            const std::vector<std::string>& block_names,
                            const std::string& new_name) {
  Diagram& d = GetDiagram(diagram_path);
  const std::string where = internal::DiagramName(diagram_path);
  if (block_names.empty())
    throw EditError("CreateSubsystem: no blocks to move into '" + new_name + "'");
  std::set<std::string> moved;
  for (const std::string& name : block_names) {
    if (d.Find(name) == nullptr) {
      internal::GetBlock(*this, JoinPath(diagram_path, name));  // says what is wrong
    }
    if (!moved.insert(name).second) {
      throw EditError("CreateSubsystem: block '" + name + "' is named twice");
    }
  }
  if (!IsIdentifier(new_name)) {
    throw EditError("invalid block name '" + new_name + "': " + internal::kIdentifierRule);
  }
  if (d.Find(new_name) != nullptr) {
    throw EditError("a block named '" + new_name + "' already exists in " + where);
  }

  std::optional<Scope> variables;
  try {
    variables = internal::EvaluateVariables(*this);
  } catch (const ModelError&) {
  }
  // How the inner end of a crossing line is used: from the schema, or from its place in the
  // line when the block's type is not known.
  auto role_of = [&](const std::string& endpoint, bool is_from, std::string* domain) {
    const auto [block_name, port] = SplitEndpoint(endpoint);
    const PortLookup p =
        internal::LookUpPort(*this, variables ? &*variables : nullptr, *d.Find(block_name), port);
    if (p.status == PortLookup::Status::kFound) {
      *domain = p.info.domain;
      return p.info.role;
    }
    return is_from ? PortRole::kOutput : PortRole::kInput;
  };
  auto is_inside = [&](const std::string& endpoint) {
    const std::string_view block = SplitEndpoint(endpoint).first;
    return !block.empty() && moved.count(std::string(block)) > 0;
  };

  BlockNode sub;
  sub.name = new_name;
  sub.body = std::make_unique<Diagram>();
  Diagram& body = *sub.body;
  std::vector<Connection> outside;
  std::map<std::string, std::string> boundary_of;  // inner endpoint -> boundary port name
  std::set<std::string> port_names;
  for (const Connection& c : d.connections) {
    const bool from_in = is_inside(c.from), to_in = is_inside(c.to);
    if (from_in && to_in) {
      body.connections.push_back(c);
      continue;
    }
    if (!from_in && !to_in) {
      outside.push_back(c);
      continue;
    }
    const std::string& inner = from_in ? c.from : c.to;
    auto it = boundary_of.find(inner);
    if (it == boundary_of.end()) {
      std::string domain;
      const PortRole role = role_of(inner, from_in, &domain);
      const auto [block_name, port] = SplitEndpoint(inner);
      const std::string base = std::string(block_name) + "_" + std::string(port);
      std::string name = base;
      for (int k = 2; port_names.count(name) > 0; ++k) name = base + "_" + std::to_string(k);
      port_names.insert(name);
      PortDecl decl;
      decl.name = name;
      if (role == PortRole::kPhysical) {
        decl.kind = PortDecl::Kind::kPhysical;
        if (domain.empty()) {
          // The schema does not say: the outer end may.
          const std::string& outer = from_in ? c.to : c.from;
          const auto [outer_block, outer_port] = SplitEndpoint(outer);
          const BlockNode* ob = outer_block.empty() ? nullptr : d.Find(outer_block);
          PortLookup o =
              ob ? internal::LookUpPort(*this, variables ? &*variables : nullptr, *ob, outer_port)
                 : internal::LookUpBoundaryPort(d.ports, outer_port);
          domain = o.status == PortLookup::Status::kFound ? o.info.domain : "";
        }
        decl.domain = domain.empty() ? "frame" : domain;
      } else {
        decl.kind = role == PortRole::kOutput ? PortDecl::Kind::kOutport : PortDecl::Kind::kInport;
      }
      body.ports.push_back(decl);
      // The inner half of the line, written once per boundary port.
      if (from_in) {
        body.connections.push_back({inner, "." + name, c.where});
      } else {
        body.connections.push_back({"." + name, inner, c.where});
      }
      it = boundary_of.emplace(inner, name).first;
    }
    Connection outer = c;
    (from_in ? outer.from : outer.to) = new_name + "." + it->second;
    outside.push_back(outer);
  }

  // The subsystem stands where the first moved block stood.
  std::vector<BlockNode> kept;
  size_t place = 0;
  for (BlockNode& b : d.blocks) {
    if (moved.count(b.name) == 0) {
      kept.push_back(std::move(b));
      continue;
    }
    if (body.blocks.empty()) place = kept.size();
    body.blocks.push_back(std::move(b));
  }
  kept.insert(kept.begin() + static_cast<std::ptrdiff_t>(place), std::move(sub));
  d.blocks = std::move(kept);
  d.connections = std::move(outside);
  for (const std::string& name : block_names) {
    internal::RewritePathReferences(this, JoinPath(diagram_path, name),
                                    JoinPath(diagram_path, new_name + "/" + name));
  }
}

// ---------------------------------------------------------------------------------------------
// ExpandDefine

namespace {

// Writes the instance's parameters into every parameter text of the body, nested subsystems
// included; instances of other defines take them in their own parameters.
void SubstituteInto(const Model& m, Diagram* body,
                    const std::map<std::string, std::string>& define_texts) {
  for (BlockNode& b : body->blocks) {
    if (b.is_subsystem()) {
      SubstituteInto(m, b.body.get(), define_texts);
      continue;
    }
    const internal::TypeRef type = internal::LookUpType(m, b);
    for (Parameter& p : b.params) {
      const blocks::ParamSpec* spec = type.catalog ? type.catalog->FindParam(p.name) : nullptr;
      p.value = internal::ExpandParamText(spec ? spec->kind : blocks::ParamKind::kMatrix, p.name,
                                          p.value, define_texts);
    }
  }
}

}  // namespace

void Model::ExpandDefine(std::string_view path) {
  BlockNode& b = internal::GetBlock(*this, path);
  const std::string block_path(path);
  if (b.is_subsystem()) {
    throw EditError(block_path, "", "is a subsystem already, not an instance of a define", b.where);
  }
  const Define* def = FindDefine(b.type);
  if (def == nullptr) {
    throw EditError(block_path, b.type,
                    "'" + b.type + "' is not a define (only define instances expand)", b.where);
  }
  internal::CheckParams(internal::TypeRef{nullptr, def}, block_path, b.type, b.params, b.where);
  std::map<std::string, std::string> texts;
  for (const Parameter& p : b.params) texts[p.name] = p.value;
  auto body = std::make_unique<Diagram>(def->body);
  SubstituteInto(*this, body.get(), texts);
  b.type.clear();
  b.params.clear();
  b.body = std::move(body);
}

}  // namespace twinblocks::graph
