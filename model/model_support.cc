// What the editing API knows of types, parameters and ports before anything is compiled
// (model/detail/model_support.h).
#include "model/detail/model_support.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <functional>

#include "blocks/block_registry.h"
#include "blocks/math_expression.h"
#include "blocks/user/block_library.h"
#include "blocks/user/block_types.h"
#include "common/suggest.h"

namespace twinblocks::graph::internal {

ModelError EditError(const std::string& message) { return ModelError({}, OneLine(message)); }

ModelError EditError(const std::string& block_path, const std::string& block_type,
                     const std::string& message, const SourceLocation& where) {
  return ModelError(where, OneLine(block_path), OneLine(block_type), OneLine(message));
}

std::vector<std::string_view> SplitPath(std::string_view path) {
  std::vector<std::string_view> parts;
  if (path.empty()) return parts;
  size_t start = 0;
  while (true) {
    const size_t slash = path.find('/', start);
    parts.push_back(path.substr(start, slash - start));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return parts;
}

std::pair<std::string_view, std::string_view> SplitLast(std::string_view path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string_view::npos) return {std::string_view(), path};
  return {path.substr(0, slash), path.substr(slash + 1)};
}

std::string DiagramName(std::string_view path) {
  if (path.empty()) return "the top level";
  if (path.starts_with(kDefinePrefix) && path.find('/') == std::string_view::npos) {
    return "define '" + std::string(path.substr(std::size(kDefinePrefix) - 1)) + "'";
  }
  return "subsystem '" + std::string(path) + "'";
}

std::string JoinPath(std::string_view diagram_path, std::string_view name) {
  if (diagram_path.empty()) return std::string(name);
  return std::string(diagram_path) + "/" + std::string(name);
}

std::string JoinNames(const std::vector<std::string>& names) {
  if (names.empty()) return "none";
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

BlockNode& GetBlock(Model& model, std::string_view path) {
  return const_cast<BlockNode&>(GetBlock(static_cast<const Model&>(model), path));
}

const BlockNode& GetBlock(const Model& model, std::string_view path) {
  const BlockNode* b = model.FindBlock(path);
  if (b == nullptr) {
    // Say which part of the path is wrong: the diagram's lookup names it.
    model.GetDiagram(SplitLast(path).first);
    std::vector<std::string> names;
    if (!path.empty()) {
      for (const BlockNode& n : model.GetDiagram(SplitLast(path).first).blocks) {
        names.push_back(n.name);
      }
    }
    throw EditError("no block '" + std::string(path) + "' in the model" +
                    SuggestionFor(std::string(SplitLast(path).second), names));
  }
  return *b;
}

std::pair<std::string_view, std::string_view> SplitEndpoint(std::string_view endpoint) {
  const size_t dot = endpoint.find('.');
  if (dot == std::string_view::npos) return {endpoint, {}};
  return {endpoint.substr(0, dot), endpoint.substr(dot + 1)};
}

// ---------------------------------------------------------------------------------------------
// Types and parameters

TypeRef LookUpType(const Model& model, std::string_view type) {
  TypeRef ref;
  // A define shadows nothing: compile looks at the defines first, and so does this.
  ref.define = model.FindDefine(type);
  if (ref.define == nullptr) ref.catalog = blocks::FindBlockType(std::string(type), "", "");
  return ref;
}

TypeRef LookUpType(const Model& model, const BlockNode& block) {
  if (block.library.empty()) return LookUpType(model, block.type);
  TypeRef ref;
  try {
    ref.catalog = blocks::FindBlockType(block.type, block.library, BaseDirOf(model, block.where));
  } catch (const blocks::BlockLibraryError&) {
    // Unknown here; compile reports it with the block's file and line.
  }
  return ref;
}

std::string BaseDirOf(const Model& model, const SourceLocation& where) {
  const std::string& file = where.file.empty() ? model.file : where.file;
  if (file.empty() || file.front() == '<') return ".";
  const std::filesystem::path p(file);
  return p.has_parent_path() ? p.parent_path().string() : std::string(".");
}

TypeRef CheckType(const Model& model, const std::string& block_path, const std::string& type,
                  const std::string& library, const SourceLocation& where) {
  if (type.empty()) throw EditError(block_path, "", "a block needs a type", where);
  if (!library.empty()) {
    TypeRef ref;
    try {
      ref.catalog = blocks::FindBlockType(type, library, BaseDirOf(model, where));
    } catch (const blocks::BlockLibraryError& e) {
      throw EditError(block_path, type, e.what(), where);
    }
    return ref;
  }
  const TypeRef ref = LookUpType(model, type);
  if (ref.known()) return ref;
  std::vector<std::string> valid = blocks::KnownBlockTypeNames();
  std::vector<std::string> defines;
  for (const Define& d : model.defines) defines.push_back(d.name);
  for (const Define& d : model.library) defines.push_back(d.name);
  valid.insert(valid.end(), defines.begin(), defines.end());
  throw EditError(block_path, type,
                  "unknown block type '" + type + "'" + SuggestionFor(type, valid) +
                      " (`twinblocks blocks` lists the catalog; defines: " + JoinNames(defines) +
                      ")",
                  where);
}

namespace {

// Parameter names the block element uses for itself.
bool IsReservedAttribute(std::string_view name) {
  return name == "type" || name == "name" || name == "commented" || name == "library";
}

}  // namespace

void CheckParam(const TypeRef& type, const std::string& block_path, const std::string& type_name,
                const Parameter& param, const SourceLocation& where) {
  if (!IsIdentifier(param.name)) {
    throw EditError(block_path, type_name,
                    "invalid parameter name '" + param.name + "': " + kIdentifierRule, where);
  }
  if (IsReservedAttribute(param.name)) {
    throw EditError(block_path, type_name,
                    "'" + param.name +
                        "' is not a parameter: type, name, library and commented are "
                        "written by the block itself",
                    where);
  }
  if (type.define != nullptr) {
    const std::vector<std::string>& valid = type.define->params;
    if (std::find(valid.begin(), valid.end(), param.name) == valid.end()) {
      throw EditError(block_path, type_name,
                      "unknown parameter '" + param.name + "'" + SuggestionFor(param.name, valid) +
                          "; parameters of define '" + type.define->name + "': " + JoinNames(valid),
                      where);
    }
    return;
  }
  if (type.catalog == nullptr) return;
  const blocks::ParamSpec* spec = type.catalog->FindParam(param.name);
  if (spec == nullptr) {
    std::vector<std::string> valid;
    for (const blocks::ParamSpec& s : type.catalog->params) valid.push_back(s.name);
    throw EditError(block_path, type_name,
                    "unknown parameter '" + param.name + "'" + SuggestionFor(param.name, valid) +
                        "; valid parameters: " + JoinNames(valid),
                    where);
  }
  // A word is checked now; numbers may name variables the model does not have yet, so they are
  // evaluated at compile (or by GetParamValue).
  if (spec->kind == blocks::ParamKind::kWord && !spec->words.empty()) {
    try {
      EvaluateParameter(param.value, *spec, Scope());
    } catch (const blocks::ExpressionError& e) {
      throw EditError(block_path, type_name, "parameter '" + param.name + "': " + e.what(), where);
    }
  }
}

void CheckParams(const TypeRef& type, const std::string& block_path, const std::string& type_name,
                 const std::vector<Parameter>& params, const SourceLocation& where) {
  for (size_t i = 0; i < params.size(); ++i) {
    CheckParam(type, block_path, type_name, params[i], where);
    for (size_t j = 0; j < i; ++j) {
      if (params[j].name == params[i].name) {
        throw EditError(block_path, type_name, "parameter '" + params[i].name + "' given twice",
                        where);
      }
    }
  }
  auto given = [&](const std::string& name) {
    return std::any_of(params.begin(), params.end(),
                       [&](const Parameter& p) { return p.name == name; });
  };
  if (type.define != nullptr) {
    for (const std::string& name : type.define->params) {
      if (!given(name)) {
        throw EditError(block_path, type_name,
                        "parameter '" + name + "' of define '" + type.define->name +
                            "' is not set (it needs: " + JoinNames(type.define->params) + ")",
                        where);
      }
    }
  }
  if (type.catalog != nullptr) {
    for (const blocks::ParamSpec& spec : type.catalog->params) {
      if (spec.required && !given(spec.name)) {
        throw EditError(block_path, type_name,
                        "parameter '" + spec.name + "' is required (" + spec.doc + ")", where);
      }
    }
  }
}

Scope EvaluateVariables(const Model& model) {
  Scope scope;
  for (const Variable& v : model.variables) {
    try {
      scope.Set(v.name, EvaluateNumeric(v.value, scope));
    } catch (const blocks::ExpressionError& e) {
      throw ModelError(v.where, "variable '" + v.name + "': " + e.what());
    }
  }
  return scope;
}

// ---------------------------------------------------------------------------------------------
// Ports

namespace {

// "frame: where the force acts", "rotational, with actuation=port only: ..." -> the domain.
std::string DomainOfDoc(const std::string& doc) {
  for (const char* d : {"frame", "rotational", "electrical"}) {
    const std::string domain = d;
    if (doc.compare(0, domain.size(), domain) == 0 &&
        (doc.size() == domain.size() ||
         !std::isalnum(static_cast<unsigned char>(doc[domain.size()])))) {
      return domain;
    }
  }
  return {};
}

// The count a numbered port family has from the block's own parameters, when they say it
// plainly: `inputs`/`outputs` as a number, Sum's signs, Product's ops. -1 when not known.
int NumberedCount(const blocks::BlockType& type, const BlockNode& block, const Scope* variables,
                  bool input) {
  auto text_of = [&](const std::string& name) -> std::optional<std::string> {
    if (std::optional<std::string> v = block.GetParam(name)) return v;
    if (const blocks::ParamSpec* s = type.FindParam(name)) return s->default_text;
    return std::nullopt;
  };
  auto count_chars = [](const std::string& text, const char* chars) {
    return static_cast<int>(std::count_if(text.begin(), text.end(), [&](char c) {
      return std::string_view(chars).find(c) != std::string_view::npos;
    }));
  };
  if (input && type.FindParam("signs")) {
    if (auto t = text_of("signs")) return count_chars(*t, "+-");
  }
  if (input && type.FindParam("ops")) {
    if (auto t = text_of("ops")) return count_chars(*t, "*/");
  }
  const std::string name = input ? "inputs" : "outputs";
  if (!type.FindParam(name) || variables == nullptr) return -1;
  const std::optional<std::string> text = text_of(name);
  if (!text) return -1;
  try {
    const Eigen::MatrixXd m = EvaluateNumeric(*text, *variables);
    if (m.size() == 1 && m(0, 0) >= 1 && m(0, 0) == static_cast<int>(m(0, 0))) {
      return static_cast<int>(m(0, 0));
    }
  } catch (const blocks::ExpressionError&) {
    // Not evaluable yet (a variable still to come): the count is not known.
  }
  return -1;
}

// "u12" against the family "u1..un": true with `index` 12.
bool MatchNumbered(const std::string& family, std::string_view port, int* index) {
  const size_t dots = family.find("..");
  if (dots == std::string::npos || dots == 0 || family[dots - 1] != '1') return false;
  const std::string prefix = family.substr(0, dots - 1);
  if (port.size() <= prefix.size() || port.compare(0, prefix.size(), prefix) != 0) return false;
  const std::string_view digits = port.substr(prefix.size());
  if (digits.front() == '0') return false;
  int value = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc() || end != digits.data() + digits.size()) return false;
  *index = value;
  return true;
}

PortLookup FromDecls(const std::vector<PortDecl>& ports, std::string_view port, bool inside) {
  PortLookup out;
  out.status = PortLookup::Status::kNoSuchPort;
  for (const PortDecl& d : ports) {
    out.valid.push_back(d.name);
    if (d.name != port) continue;
    out.status = PortLookup::Status::kFound;
    switch (d.kind) {
      case PortDecl::Kind::kInport:
      case PortDecl::Kind::kEnable:
      case PortDecl::Kind::kTrigger:
        out.info.role = inside ? PortRole::kOutput : PortRole::kInput;
        break;
      case PortDecl::Kind::kOutport:
        out.info.role = inside ? PortRole::kInput : PortRole::kOutput;
        break;
      case PortDecl::Kind::kPhysical:
        out.info.role = PortRole::kPhysical;
        out.info.domain = d.domain;
        break;
    }
  }
  return out;
}

}  // namespace

PortLookup LookUpPort(const Model& model, const Scope* variables, const BlockNode& block,
                      std::string_view port) {
  if (block.is_subsystem()) return FromDecls(block.body->ports, port, false);
  const TypeRef type = LookUpType(model, block);
  if (type.define != nullptr) return FromDecls(type.define->body.ports, port, false);
  PortLookup out;
  if (type.catalog == nullptr) return out;
  out.status = PortLookup::Status::kNoSuchPort;
  const blocks::BlockType& t = *type.catalog;
  struct Family {
    const std::vector<blocks::PortDoc>* docs;
    PortRole role;
    const char* what;
  };
  for (const Family& f : {Family{&t.inputs, PortRole::kInput, "input"},
                          Family{&t.outputs, PortRole::kOutput, "output"},
                          Family{&t.physical_ports, PortRole::kPhysical, ""}}) {
    for (const blocks::PortDoc& doc : *f.docs) {
      const std::string domain = f.role == PortRole::kPhysical ? DomainOfDoc(doc.doc) : "";
      out.valid.push_back(
          doc.name + " (" +
          (f.role == PortRole::kPhysical ? (domain.empty() ? "physical" : domain) : f.what) + ")");
      if (out.status == PortLookup::Status::kFound) continue;
      int index = 0;
      bool match = doc.name == port;
      if (!match && MatchNumbered(doc.name, port, &index)) {
        const int count = NumberedCount(t, block, variables, f.role == PortRole::kInput);
        match = count < 0 || index <= count;
      }
      if (match) {
        out.status = PortLookup::Status::kFound;
        out.info.role = f.role;
        out.info.domain = domain;
      }
    }
  }
  return out;
}

PortLookup LookUpBoundaryPort(const std::vector<PortDecl>& ports, std::string_view port) {
  return FromDecls(ports, port, true);
}

PortLookup ResolveEndpoint(const Model& model, const Scope* variables,
                           std::string_view diagram_path, const Diagram& diagram,
                           const std::string& endpoint) {
  const auto [block_name, port] = SplitEndpoint(endpoint);
  if (block_name.empty()) {
    PortLookup p = LookUpBoundaryPort(diagram.ports, port);
    if (p.status != PortLookup::Status::kFound) {
      throw EditError("no boundary port '" + std::string(port) + "' of " +
                      DiagramName(diagram_path) + SuggestionFor(std::string(port), p.valid) +
                      "; its boundary ports: " + JoinNames(p.valid));
    }
    return p;
  }
  const BlockNode* b = diagram.Find(block_name);
  if (b == nullptr) {
    std::vector<std::string> names;
    for (const BlockNode& n : diagram.blocks) names.push_back(n.name);
    throw EditError("no block '" + std::string(block_name) + "' in " + DiagramName(diagram_path) +
                    SuggestionFor(std::string(block_name), names) + " (in '" + endpoint + "')");
  }
  PortLookup p = LookUpPort(model, variables, *b, port);
  if (p.status == PortLookup::Status::kNoSuchPort) {
    throw EditError(JoinPath(diagram_path, block_name), b->type,
                    "no port '" + std::string(port) + "'" +
                        SuggestionFor(std::string(port), p.valid) +
                        "; its ports are: " + JoinNames(p.valid),
                    b->where);
  }
  return p;
}

void RewritePathReferences(Model* model, const std::string& old_path, const std::string& new_path) {
  // "a/old.q", "a/old/inner.q", "a/old" (a robot) -> the same under the new path.
  auto rewrite = [&](std::string* text, bool whole_allowed) {
    if (text->size() < old_path.size() || text->compare(0, old_path.size(), old_path) != 0) return;
    if (text->size() == old_path.size()) {
      if (whole_allowed) *text = new_path;
      return;
    }
    const char next = (*text)[old_path.size()];
    if (next == '.' || next == '/') *text = new_path + text->substr(old_path.size());
  };
  for (LogSpec& log : model->logs) rewrite(&log.signal, false);
  for (PlotSpec& plot : model->plots) {
    for (std::string& s : plot.signals) rewrite(&s, false);
  }
  for (SummarySpec& summary : model->summaries) {
    for (std::string& s : summary.signals) rewrite(&s, false);
  }
  // The `robot` parameter names a subsystem by its path from the top level.
  std::function<void(Diagram&)> visit = [&](Diagram& d) {
    for (BlockNode& b : d.blocks) {
      if (b.is_subsystem()) {
        visit(*b.body);
        continue;
      }
      const blocks::BlockType* type = blocks::Catalog().Find(b.type);
      if (type == nullptr || type->FindParam("robot") == nullptr) continue;
      for (Parameter& p : b.params) {
        if (p.name == "robot") rewrite(&p.value, true);
      }
    }
  };
  visit(model->root);
}

}  // namespace twinblocks::graph::internal
