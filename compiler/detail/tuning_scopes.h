#pragma once

// What a change of a compiled System's variable reaches, and the values it sees: the two
// halves of a retune that come before any block is built (system_tuning.cc). Not installed.

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/model.h"
#include "model/parameter_evaluator.h"

namespace twinblocks::graph::internal {

struct DefineLevel;   // compiler/detail/tuning.h
struct TunableBlock;  // compiler/detail/tuning.h

/// A set of names, searched with parts of a text.
using Names = std::set<std::string, std::less<>>;

/// The identifiers in an expression's text: the names of variables, define parameters and
/// functions it mentions (a function's name is never a variable's).
Names IdentifiersIn(const std::string& text);

/// The identifiers of every parameter text of the tuned blocks and define levels, found once:
/// reading the texts again at every retune cost a tenth of it.
class TextIndex {
 public:
  /// Per parameter of `t`, in order. Forget(t) after its texts change.
  const std::vector<Names>& Of(const TunableBlock& t);
  /// Per parameter of `level`, in order.
  const std::vector<Names>& Of(const DefineLevel& level);
  void Forget(const TunableBlock& t) { blocks_.erase(&t); }

 private:
  std::map<const TunableBlock*, std::vector<Names>> blocks_;
  std::map<const DefineLevel*, std::vector<Names>> levels_;
};

/// Which blocks and parameters a change of variable `name` can reach, found from the texts
/// alone: the variables written from it (in file order, each may use the ones before), then per
/// define instance the parameters written from those (a define's parameters are evaluated in
/// the level above), then each block parameter written from either. A block with a formula
/// (Expression) reads every variable and is always reached. Over-approximate by design: a
/// block reached is evaluated again and kept when its values come out the same; a parameter
/// not reached cannot change.
class VariableReach {
 public:
  /// What a change of variable `name` reaches; "" for a change of no variable.
  VariableReach(const std::vector<Variable>& variables, const std::string& name, TextIndex* index);

  /// True when variable `name` may change.
  bool ReachesVariable(const std::string& name) const { return vars_.count(name) > 0; }
  /// True when define parameter `param` (its index in level.params) may change.
  bool ReachesDefineParam(const DefineLevel& level, size_t param);
  /// Per parameter of `t`: whether it may change. Empty when the change cannot reach `t` at all.
  std::vector<unsigned char> ReachedParams(const TunableBlock& t);

 private:
  // The parameters of a define level that the change reaches.
  const std::vector<unsigned char>& LevelReach(const DefineLevel* level);
  // True when one of `names` may change where `level`'s parameters and the variables are seen.
  bool Reached(const Names& names, const DefineLevel* level);

  TextIndex& index_;
  Names vars_;
  std::map<const DefineLevel*, std::vector<unsigned char>> levels_;
};

/// The values blocks see when they are evaluated again: the model's variables, and each define
/// instance's parameters evaluated in the level above, as compile evaluates them. Kept from one
/// retune to the next, so that a change evaluates only what it reaches: a change begins
/// (Begin), evaluates what it reaches as blocks ask for it (For), and then is kept (Commit) or
/// undone (Undo), leaving the values as they were.
class TuningScopes {
 public:
  /// Starts a change with the model's variables as `variables` now are.
  /// @throws ModelError for a variable that does not evaluate (the change is undone).
  void Begin(const std::vector<Variable>& variables, VariableReach* reach);
  /// The scope a block in `level` (null: at model level) is evaluated in.
  const Scope& For(const std::shared_ptr<const DefineLevel>& level);
  void Commit();
  void Undo();

 private:
  // Sets `name` in `scope`, or removes it (nullopt: a word, not a number), remembering the old
  // value for Undo.
  void Assign(Scope* scope, const std::string& name, std::optional<Eigen::MatrixXd> value);

  struct Change {
    Scope* scope;
    std::string name;
    std::optional<Eigen::MatrixXd> before;
  };
  bool started_ = false;    ///< the variables have been evaluated once
  bool made_root_ = false;  ///< ... in this change
  Scope root_;
  /// A define instance's scope: its own parameters over the variables.
  std::map<const DefineLevel*, std::unique_ptr<Scope>> levels_;
  VariableReach* reach_ = nullptr;
  std::set<const DefineLevel*> fresh_;    ///< levels brought up to date in this change
  std::vector<const DefineLevel*> made_;  ///< levels first evaluated in this change
  std::vector<Change> undo_;
};

}  // namespace twinblocks::graph::internal
