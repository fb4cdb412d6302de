#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "blocks/block.h"
#include "blocks/param.h"

namespace twinblocks::blocks {

/// A port as the docs list it. Variable-count ports are written once, as `u1..un`.
struct PortDoc {
  std::string name;
  std::string doc;  ///< one line: meaning, width, unit
};

/// Everything about one block type: the single place that drives parsing (which parameters
/// exist and how to read them), validation, construction, and `twinblocks blocks TYPE`.
struct BlockType {
  std::string name;       ///< "Gain": the `type` attribute in a model file
  std::string category;   ///< catalog section: "Sources", "Math and continuous", ...
  std::string summary;    ///< one line
  std::string doc;        ///< a paragraph: behaviour and equation
  std::string reference;  ///< the Simulink/Simscape block or paper it follows
  std::vector<ParamSpec> params;
  std::vector<PortDoc> inputs;
  std::vector<PortDoc> outputs;
  std::vector<PortDoc> physical_ports;  ///< frame, rotational or electrical ports
  /// Virtual blocks (Goto, From) are resolved into plain connections by the compiler and
  /// never run; `create` is null for them.
  bool is_virtual = false;
  /// Builds an instance from evaluated parameters. @throws BlockError
  std::function<std::unique_ptr<Block>(const Params&)> create;

  const ParamSpec* FindParam(std::string_view param) const;
};

/// The block types known to the program, by name.
class BlockRegistry {
 public:
  /// @throws std::logic_error when a type of that name is already registered.
  void Add(BlockType type);
  const BlockType* Find(std::string_view name) const;
  /// All names, sorted.
  std::vector<std::string> Names() const;
  const std::vector<BlockType>& types() const { return types_; }

 private:
  std::vector<BlockType> types_;
};

/// The catalog of every built-in block type, built on first use.
const BlockRegistry& Catalog();

/// The text `twinblocks blocks TYPE` prints: summary, behaviour, ports, parameters with
/// defaults, reference.
std::string FormatBlockDoc(const BlockType& type);

}  // namespace twinblocks::blocks
