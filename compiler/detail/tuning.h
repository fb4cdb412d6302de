#pragma once

// What a compiled System keeps to retune its blocks without recompiling (System::SetParameter,
// System::SetVariable): for every block the compiler built from the catalog, how it was built.
// Made by the compiler (flatten.cc, layout.cc); used by system_tuning.cc. Not installed for
// users.

#include <Eigen/Core>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "blocks/multibody/mechanism_builder.h"
#include "blocks/param.h"
#include "compiler/detail/tuning_scopes.h"
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
  /// For a frame element absorbed into the mechanism: its index among the mechanism's
  /// elements (TunableMechanism); -1 for any other block.
  int mechanism_element = -1;
  std::vector<int> input_widths;
  blocks::Block::Layout layout;
};

/// A block bound to a robot model built from frame elements (ComputedTorque, the robotics
/// blocks): how to build that model again when one of the elements is retuned.
struct RobotBinding {
  int block = -1;                       ///< the RobotUser's index in Tuning::blocks
  std::vector<unsigned char> in_robot;  ///< per mechanism element: part of the robot
  int frame_element = -1, frame_port = -1;
  std::string name;  ///< the robot's path
};

/// The mechanism and the frame elements it was built from, to build it again with an
/// element's new numbers (a mass, a joint's damping, a friction or contact coefficient)
/// exactly as compile builds it: the same elements, in the same order, on the same nodes.
struct TunableMechanism {
  /// The elements' blocks, in element order: they hold the parameters, and never run.
  std::vector<std::unique_ptr<blocks::Block>> element_blocks;
  std::vector<multibody::NetworkElement> elements;  ///< .block: into element_blocks
  int num_nodes = 0;
  std::vector<int> element_tunable;  ///< per element: its index in Tuning::blocks
  TunableBlock block;                ///< the Mechanism block itself: where it is laid out
  std::vector<RobotBinding> robots;
};

/// Everything a System needs to retune.
struct Tuning {
  std::vector<Variable> variables;  ///< the model's, in order (retuned: the numbers)
  std::vector<TunableBlock> blocks;
  std::optional<TunableMechanism> mechanism;  ///< when the model has frame elements
};

/// A block's parameters evaluated anew, waiting to be built.
struct ParamChange {
  TunableBlock* t;
  blocks::Params values;
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
  /// Builds every block the changes reach (system_tuning.cc), then puts them in place and
  /// keeps the new values; throws before changing anything.
  void Apply(System& system, std::vector<ParamChange>& changes);

  Tuning data_;
  TextIndex index_;
  TuningScopes scopes_;
};

}  // namespace twinblocks::graph::internal
