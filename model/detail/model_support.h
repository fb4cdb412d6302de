#pragma once

// What the files of the editing API (model.cc, model_query.cc, model_restructure.cc) share:
// paths, error messages, and what the catalog and the defines say about a block's parameters
// and ports, so that every edit can be checked at once. Not installed for users: the public
// API is model/model.h.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/model.h"
#include "model/model_error.h"
#include "model/parameter_evaluator.h"

namespace twinblocks::blocks {
struct BlockType;
}

namespace twinblocks::graph::internal {

/// The first segment of a diagram path into a define's body: "define:NAME/...".
inline constexpr char kDefinePrefix[] = "define:";

inline constexpr char kIdentifierRule[] =
    "names are letters, digits and '_', not starting with a digit";

/// An edit error that concerns no block ("no block 'a/b' in the model").
ModelError EditError(const std::string& message);
/// An edit error about one block: "FILE:LINE: block 'PATH' (TYPE): message", with the place
/// the block was written when it was read from a file (`where`; nothing for a block made in
/// code), so that an edit refused on a model read from a file points into that file.
ModelError EditError(const std::string& block_path, const std::string& block_type,
                     const std::string& message, const SourceLocation& where = {});

/// "a/b/c" -> {"a", "b", "c"}; "" -> {}.
std::vector<std::string_view> SplitPath(std::string_view path);
/// "a/b/c" -> {"a/b", "c"}; "c" -> {"", "c"}.
std::pair<std::string_view, std::string_view> SplitLast(std::string_view path);
/// "the top level", "subsystem 'a/b'", or "define 'X'" for "define:X".
std::string DiagramName(std::string_view path);
/// `diagram_path`/`name`, or `name` at the top level.
std::string JoinPath(std::string_view diagram_path, std::string_view name);
/// "a, b, c", or "none".
std::string JoinNames(const std::vector<std::string>& names);

/// The block at `path`. @throws ModelError saying which part of the path is wrong.
BlockNode& GetBlock(Model& model, std::string_view path);
const BlockNode& GetBlock(const Model& model, std::string_view path);

/// The block an endpoint names ("" for a boundary port) and its port.
std::pair<std::string_view, std::string_view> SplitEndpoint(std::string_view endpoint);

// ---- Types and parameters ----

/// What a block's type names: a catalog type, a define, or neither (a subsystem has type "").
struct TypeRef {
  const blocks::BlockType* catalog = nullptr;
  const Define* define = nullptr;
  bool known() const { return catalog != nullptr || define != nullptr; }
};
/// A define of the model, a catalog type or a type registered at run time (no library).
TypeRef LookUpType(const Model& model, std::string_view type);
/// What the block's type and library name. A library that cannot be used (not on this
/// machine) leaves the type unknown: a model that names one can still be edited, and compile
/// says what is wrong.
TypeRef LookUpType(const Model& model, const BlockNode& block);

/// The folder relative library and file names of a block written at `where` are found from:
/// that file's folder, the model file's when `where` names no file, the working directory
/// for a model made in code.
std::string BaseDirOf(const Model& model, const SourceLocation& where);

/// Checks that `type` names a catalog type, a registered type or a define of the model, or
/// with `library` a type of that block library (loaded at once).
/// @throws ModelError naming the block, with a suggestion and where to find valid types, or
///   why the library cannot be used. `where`: where the block was written (a block
///   replaced), else nothing.
TypeRef CheckType(const Model& model, const std::string& block_path, const std::string& type,
                  const std::string& library = "", const SourceLocation& where = {});

/// Checks one parameter name against the type: an identifier, not type/name/commented, one
/// the catalog type or the define has; and a word parameter's text against its words.
/// @throws ModelError naming block, type and parameter, at `where` (where the block was
///   written, when it was read from a file).
void CheckParam(const TypeRef& type, const std::string& block_path, const std::string& type_name,
                const Parameter& param, const SourceLocation& where = {});

/// Checks a whole parameter list: each as CheckParam, none twice, and every parameter a
/// define declares (or a catalog type requires) given.
void CheckParams(const TypeRef& type, const std::string& block_path, const std::string& type_name,
                 const std::vector<Parameter>& params, const SourceLocation& where = {});

/// The model's variables evaluated in order, as compile does.
/// @throws ModelError naming the variable that does not evaluate.
Scope EvaluateVariables(const Model& model);

// ---- Ports ----

/// How a port is seen from the diagram a line is drawn in.
enum class PortRole { kInput, kOutput, kPhysical };

struct PortInfo {
  PortRole role = PortRole::kInput;
  std::string domain;  ///< physical ports: frame, rotational, electrical; "" when not known
};

/// A port looked up on a block or on the enclosing diagram's boundary.
struct PortLookup {
  enum class Status { kFound, kNoSuchPort, kUnknown };
  Status status = Status::kUnknown;  ///< kUnknown: the block's type is not known
  PortInfo info;
  std::vector<std::string> valid;  ///< for messages: the ports there are
};

/// The port `port` of `block` as the catalog schema (fixed and numbered ports, `u1..un` up to
/// the count its parameters give when they are plain numbers), the define's or the
/// subsystem's boundary ports say.
PortLookup LookUpPort(const Model& model, const Scope* variables, const BlockNode& block,
                      std::string_view port);

/// A boundary port `.port` of the diagram itself, seen from inside (an inport is a source).
PortLookup LookUpBoundaryPort(const std::vector<PortDecl>& ports, std::string_view port);

/// The endpoint's port, seen from the diagram; ModelError when the block or port does not
/// exist. Status kUnknown when the block's type is not known.
PortLookup ResolveEndpoint(const Model& model, const Scope* variables,
                           std::string_view diagram_path, const Diagram& diagram,
                           const std::string& endpoint);

/// Rewrites what names blocks under `old_path` by path to `new_path`: logged, plotted and
/// summarized signals, and the `robot` parameters of blocks that compute with a robot.
void RewritePathReferences(Model* model, const std::string& old_path, const std::string& new_path);

}  // namespace twinblocks::graph::internal
