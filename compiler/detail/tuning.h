#pragma once

// What a compiled System keeps to retune its blocks without recompiling (System::SetParameter,
// System::SetVariable): for every block the compiler built from the catalog, how it was built.
// Made by the compiler (flatten.cc, layout.cc); used by system_tuning.cc. Not installed for
// users.

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"
#include "model/model.h"
#include "physics/multibody/robot_model.h"
#include "runtime/system.h"

namespace twinblocks::graph::internal {

/// The parameters of one define instance, as written, evaluated in the level above (`parent`,
/// or the model's variables when null): a define sees its own parameters and the variables.
struct DefineLevel {
  std::shared_ptr<const DefineLevel> parent;
  std::vector<std::pair<std::string, std::string>> params;  ///< name, text
};

/// How one block was built, to build it again with other numbers.
struct TunableBlock {
  std::string path;
  const blocks::BlockType* type = nullptr;
  SourceLocation where;
  std::vector<Parameter> params;                    ///< texts as written (retuned: the numbers)
  std::map<std::string, std::string> define_texts;  ///< the enclosing define's parameter texts
  std::shared_ptr<const DefineLevel> level;         ///< null at model level
  std::string base_dir;
  blocks::Params values;                       ///< as evaluated
  blocks::SampleTime declared_rate;            ///< before resolution
  std::optional<multibody::RobotModel> robot;  ///< bound by the compiler
  /// Set by Layout for blocks that run: their index in the System, input widths and layout.
  int system_index = -1;
  std::vector<int> input_widths;
  blocks::Block::Layout layout;
};

/// Everything a System needs to retune.
struct Tuning {
  std::vector<Variable> variables;  ///< the model's, in order (retuned: the numbers)
  std::vector<TunableBlock> blocks;
};

/// The compiler's SystemTuner: rebuilds a block from what the compiler kept of it, with the
/// parameter or variable changed (system_tuning.cc).
class CompiledTuning final : public SystemTuner {
 public:
  explicit CompiledTuning(Tuning data) : data_(std::move(data)) {}
  void SetParameter(System& system, const std::string& block_path, const std::string& param,
                    const std::vector<double>& values) override;
  std::vector<std::string> SetVariable(System& system, const std::string& name,
                                       const std::vector<double>& values) override;

 private:
  Tuning data_;
};

}  // namespace twinblocks::graph::internal
