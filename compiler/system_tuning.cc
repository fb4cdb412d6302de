// Tunable parameters: a compiled System's blocks rebuilt with new numbers between runs, exactly
// as a recompile would build them, without the rest of compile (flattening, networks, order,
// layout). A block is rebuilt from what the compiler kept of it (compiler/detail/tuning.h) and
// must come out with the same ports, sizes, states and sample time, so that the layout, the
// execution order and every other block stay valid. A frame element (a Solid's mass, a joint's
// damping, a contact's stiffness) never runs: the mechanism is built again from all elements,
// as compile builds it, and must keep its coordinates, states and ports.
#include <cctype>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string_view>

#include "blocks/block_error.h"
#include "blocks/math_expression.h"
#include "blocks/multibody/mechanism.h"
#include "common/suggest.h"
#include "compiler/detail/tuning.h"
#include "model/detail/block_params.h"
#include "model/detail/define_substitution.h"
#include "model/model_error.h"
#include "model/parameter_evaluator.h"
#include "physics/multibody/robot_model.h"
#include "runtime/system.h"

namespace twinblocks::graph {

using internal::ParamChange;
using internal::TunableBlock;

namespace {

std::string VectorText(const std::vector<double>& values) {
  if (values.size() == 1) return FormatNumber(values[0]);
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i) text += (i ? ", " : "") + FormatNumber(values[i]);
  return text + "]";
}

ModelError BlockFailure(const TunableBlock& t, const std::string& message) {
  return ModelError({}, t.path, t.type->name, message);
}

const char kRecompile[] = "; edit the model and compile it again";

bool SameValue(const blocks::ParamValue& a, const blocks::ParamValue& b) {
  if (a.is_set() != b.is_set() || a.is_numeric() != b.is_numeric()) return false;
  if (!a.is_numeric()) return a.text() == b.text();
  const Eigen::MatrixXd& x = a.numeric();
  const Eigen::MatrixXd& y = b.numeric();
  return x.rows() == y.rows() && x.cols() == y.cols() && x == y;
}

// True when the block would be built the same: every parameter value equal, and for a block
// with a formula (which reads the variables it sees), the variables too.
bool SameParams(const blocks::BlockType& type, const blocks::Params& a, const blocks::Params& b) {
  bool reads_variables = false;
  for (const blocks::ParamSpec& spec : type.params) {
    reads_variables = reads_variables || internal::IsFormulaParam(spec.kind, spec.name);
    if (a.has(spec.name) != b.has(spec.name)) return false;
    if (a.has(spec.name) && !SameValue(a.Get(spec.name), b.Get(spec.name))) return false;
  }
  return !reads_variables || a.variables() == b.variables();
}

// A set of names, searched with parts of a text.
using Names = std::set<std::string, std::less<>>;

// True when `text` mentions one of `names`: an identifier of it is one (function names are
// identifiers too, and never a variable's name).
bool MentionsAny(const std::string& text, const Names& names) {
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (std::isalpha(c) || c == '_') {
      size_t end = i + 1;
      while (end < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) {
        ++end;
      }
      if (names.count(std::string_view(text).substr(i, end - i))) return true;
      i = end;
    } else {
      ++i;
    }
  }
  return false;
}

// Which blocks a change of variable `name` can reach, found from the texts alone: the
// variables written from it (in file order, each may use the ones before), then per define
// instance the parameters written from those (a define's parameters are evaluated in the
// level above), then each block with a parameter written from either, or with a formula
// (which reads every variable). Over-approximate by design: a block reached is evaluated
// again and kept when its values come out the same; a block not reached cannot change.
class VariableReach {
 public:
  /// What a change of variable `name` reaches; "" for a change of no variable.
  VariableReach(const std::vector<Variable>& variables, const std::string& name) {
    if (name.empty()) return;
    vars_.insert(name);
    for (const Variable& v : variables) {
      if (MentionsAny(v.value, vars_)) vars_.insert(v.name);
    }
  }

  /// True when define parameter `param` of `level` may change.
  bool ReachesDefineParam(const internal::DefineLevel* level, const std::string& param) const {
    auto it = levels_.find(level);
    return it == levels_.end() || it->second.count(param) > 0;
  }

  bool Reaches(const TunableBlock& t) {
    const Names& level = LevelNames(t.level);
    for (const blocks::ParamSpec& spec : t.type->params) {
      if (internal::IsFormulaParam(spec.kind, spec.name)) return true;
    }
    for (const Parameter& p : t.params) {
      if (MentionsAny(p.value, vars_) || MentionsAny(p.value, level)) return true;
    }
    return false;
  }

 private:
  // The parameters of a define level that the change reaches, with the variables it reaches.
  const Names& LevelNames(const std::shared_ptr<const internal::DefineLevel>& l) {
    if (!l) return vars_;
    auto it = levels_.find(l.get());
    if (it != levels_.end()) return it->second;
    Names names = vars_;
    const Names& outer = LevelNames(l->parent);
    for (const auto& [param, text] : l->params) {
      if (MentionsAny(text, outer)) names.insert(param);
    }
    return levels_.emplace(l.get(), std::move(names)).first->second;
  }

  Names vars_;
  std::map<const internal::DefineLevel*, Names> levels_;
};

// The model's variables and the parameters of define instances, evaluated as compile does:
// a define sees its own parameters (evaluated where the instance is written) and the variables.
// A define's parameters that the change cannot reach (`reach`) keep the values of the last
// change (`committed`), as they would evaluate to them again: parsing every define's parameters
// anew would cost most of a retune.
class Scopes {
 public:
  Scopes(const std::vector<Variable>& variables, internal::LevelValues* committed,
         const VariableReach& reach)
      : committed_(committed), reach_(reach) {
    for (const Variable& v : variables) {
      try {
        root_.Set(v.name, EvaluateNumeric(v.value, root_));
      } catch (const blocks::ExpressionError& e) {
        throw ModelError(v.where, "variable '" + v.name + "': " + e.what());
      }
    }
  }

  const Scope& For(const std::shared_ptr<const internal::DefineLevel>& level) {
    if (!level) return root_;
    auto it = cache_.find(level.get());
    if (it != cache_.end()) return *it->second.scope;
    const Scope& outer = For(level->parent);
    Level made{std::make_unique<Scope>(&root_), {}};
    auto before = committed_->find(level.get());
    for (const auto& [name, text] : level->params) {
      std::optional<Eigen::MatrixXd> value;
      if (before != committed_->end() && !reach_.ReachesDefineParam(level.get(), name)) {
        value = before->second.at(name);
      } else {
        try {
          value = EvaluateNumeric(text, outer);
        } catch (const blocks::ExpressionError&) {
          // A word for the blocks inside, as in compile.
        }
      }
      if (value) made.scope->Set(name, *value);
      made.values.emplace(name, std::move(value));
    }
    return *cache_.emplace(level.get(), std::move(made)).first->second.scope;
  }

  /// After a change that succeeded: the define parameters' values it used are the ones the next
  /// change starts from.
  void Commit() {
    for (auto& [level, made] : cache_) (*committed_)[level] = std::move(made.values);
  }

 private:
  struct Level {
    std::unique_ptr<Scope> scope;
    std::map<std::string, std::optional<Eigen::MatrixXd>> values;  ///< nullopt: a word
  };
  Scope root_;
  std::map<const internal::DefineLevel*, Level> cache_;
  internal::LevelValues* committed_;
  const VariableReach& reach_;
};

// What differs between the compiled block and its rebuilt twin, "" when nothing that the
// layout depends on.
std::string StructureChange(const blocks::Block& old_block, const blocks::Block& b,
                            const TunableBlock& t) {
  auto change = [](const std::string& what, auto before, auto after) {
    return what + " (" + std::to_string(before) + " -> " + std::to_string(after) + ")";
  };
  if (b.num_inputs() != old_block.num_inputs()) {
    return change("its number of inputs", old_block.num_inputs(), b.num_inputs());
  }
  if (b.num_outputs() != old_block.num_outputs()) {
    return change("its number of outputs", old_block.num_outputs(), b.num_outputs());
  }
  for (int i = 0; i < b.num_inputs(); ++i) {
    const auto& p = b.input_port(i);
    const auto& q = old_block.input_port(i);
    if (p.name != q.name) return "its input " + q.name + " (now " + p.name + ")";
    if (p.feedthrough != q.feedthrough) return "which outputs input " + q.name + " feeds directly";
  }
  for (int i = 0; i < b.num_outputs(); ++i) {
    const auto& p = b.output_port(i);
    const auto& q = old_block.output_port(i);
    if (p.name != q.name) return "its output " + q.name + " (now " + p.name + ")";
    if (p.width != q.width) return change("the width of output " + q.name, q.width, p.width);
    if (p.stage != q.stage) return "the stage of output " + q.name;
  }
  if (b.num_continuous_states() != old_block.num_continuous_states()) {
    return change("its number of continuous states", old_block.num_continuous_states(),
                  b.num_continuous_states());
  }
  if (b.num_algebraic_variables() != old_block.num_algebraic_variables()) {
    return change("its number of algebraic variables", old_block.num_algebraic_variables(),
                  b.num_algebraic_variables());
  }
  if (b.num_discrete_states() != old_block.num_discrete_states()) {
    return change("its number of discrete states", old_block.num_discrete_states(),
                  b.num_discrete_states());
  }
  if (b.num_dwork() != old_block.num_dwork()) {
    return change("its scratch size", old_block.num_dwork(), b.num_dwork());
  }
  if (b.num_modes() != old_block.num_modes()) {
    return change("its number of modes", old_block.num_modes(), b.num_modes());
  }
  if (b.num_zero_crossings() != old_block.num_zero_crossings()) {
    return change("its number of zero crossings", old_block.num_zero_crossings(),
                  b.num_zero_crossings());
  }
  if (b.has_update() != old_block.has_update()) return "whether it has discrete updates";
  if (b.has_breakpoints() != old_block.has_breakpoints()) return "whether it has breakpoints";
  if (!(b.sample_time() == t.declared_rate) ||
      b.requires_discrete_rate() != old_block.requires_discrete_rate()) {
    return "its sample time";
  }
  return {};
}

// Builds the block again from `values`, bound and configured as the compiler did, laid out
// where the old one is. @throws ModelError when the block refuses the values or would differ
// in structure.
std::unique_ptr<blocks::Block> Rebuild(const TunableBlock& t, const blocks::Params& values,
                                       const blocks::Block& old_block) {
  std::unique_ptr<blocks::Block> b;
  try {
    b = t.type->create(values);
    if (t.robot) {
      auto* user = dynamic_cast<multibody::RobotUser*>(b.get());
      if (user == nullptr) throw std::logic_error(t.path + ": a robot but no RobotUser");
      user->BindRobot(*t.robot);
    }
    b->Configure(t.input_widths);
  } catch (const blocks::BlockError& e) {
    throw BlockFailure(t, e.what());
  } catch (const blocks::ExpressionError& e) {
    throw BlockFailure(t, e.what());
  }
  const std::string change = StructureChange(old_block, *b, t);
  if (!change.empty()) {
    throw BlockFailure(t, "the new value changes " + change +
                              ": only values that keep a block's ports, sizes, states and sample "
                              "time are tunable" +
                              kRecompile);
  }
  b->SetLayout(t.layout);
  for (int i = 0; i < b->num_inputs(); ++i) b->SetInputOffset(i, old_block.input_port(i).offset);
  for (int i = 0; i < b->num_outputs(); ++i) {
    b->SetOutputOffset(i, old_block.output_port(i).offset);
  }
  return b;
}

// Everything a set of changes rebuilds, built but not yet in place.
struct Rebuilt {
  std::vector<std::pair<int, std::unique_ptr<blocks::Block>>> blocks;  ///< System index, block
  /// Frame elements built anew: element index, block (they never run; the mechanism is built
  /// from them).
  std::vector<std::pair<int, std::unique_ptr<blocks::Block>>> elements;
  std::vector<std::pair<int, multibody::RobotModel>> robots;  ///< Tuning::blocks index, model
};

// The mechanism built again from its elements with `elements` in place of theirs, exactly as
// compile builds it, then checked and laid out like any rebuilt block; and every block bound
// to a robot that holds a changed element, bound to the robot built again.
void RebuildMechanism(const internal::Tuning& data, const System& system,
                      const std::map<const TunableBlock*, const blocks::Params*>& new_values,
                      const TunableBlock& cause, Rebuilt* out) {
  const internal::TunableMechanism& m = *data.mechanism;
  std::vector<multibody::NetworkElement> elements = m.elements;
  std::vector<unsigned char> changed(elements.size(), 0);
  for (const auto& [e, block] : out->elements) {
    elements[e].block = block.get();
    changed[e] = 1;
  }
  auto failure_at = [&](int element) -> const TunableBlock& {
    return element >= 0 ? data.blocks[m.element_tunable[element]] : cause;
  };
  std::unique_ptr<blocks::Block> mechanism;
  try {
    mechanism = std::make_unique<multibody::Mechanism>(
        multibody::BuildMechanism(elements, m.num_nodes, "mechanism"));
    mechanism->Configure(m.block.input_widths);
  } catch (const multibody::NetworkError& e) {
    throw BlockFailure(failure_at(e.element()), e.what());
  } catch (const blocks::BlockError& e) {
    throw BlockFailure(cause, e.what());
  }
  const blocks::Block& old_mechanism = system.block(m.block.system_index);
  const std::string change = StructureChange(old_mechanism, *mechanism, m.block);
  if (!change.empty()) {
    throw BlockFailure(cause, "the new value changes the mechanism's " +
                                  change.substr(change.find(' ') + 1) +
                                  ": only values that keep its coordinates, states and ports are "
                                  "tunable" +
                                  kRecompile);
  }
  mechanism->SetLayout(m.block.layout);
  for (int i = 0; i < mechanism->num_inputs(); ++i) {
    mechanism->SetInputOffset(i, old_mechanism.input_port(i).offset);
  }
  for (int i = 0; i < mechanism->num_outputs(); ++i) {
    mechanism->SetOutputOffset(i, old_mechanism.output_port(i).offset);
  }
  out->blocks.emplace_back(m.block.system_index, std::move(mechanism));

  for (const internal::RobotBinding& r : m.robots) {
    bool reached = false;
    for (size_t e = 0; e < elements.size(); ++e) reached = reached || (changed[e] && r.in_robot[e]);
    if (!reached) continue;
    TunableBlock user = data.blocks[r.block];
    try {
      user.robot = multibody::BuildRobotModel(elements, m.num_nodes, r.in_robot, r.frame_element,
                                              r.frame_port, r.name);
    } catch (const multibody::NetworkError& e) {
      throw BlockFailure(user, "robot '" + r.name + "': " + e.what());
    }
    auto own = new_values.find(&data.blocks[r.block]);
    const blocks::Params& values = own != new_values.end() ? *own->second : user.values;
    out->blocks.emplace_back(user.system_index,
                             Rebuild(user, values, system.block(user.system_index)));
    out->robots.emplace_back(r.block, std::move(*user.robot));
  }
}

// Builds every block that `changes` reach: each changed block that runs; for changed frame
// elements, the mechanism and the blocks bound to a robot built from them. Nothing is put in
// place: a block that refuses leaves the System as it was.
Rebuilt RebuildAll(const internal::Tuning& data, const System& system,
                   const std::vector<ParamChange>& changes) {
  Rebuilt out;
  std::map<const TunableBlock*, const blocks::Params*> new_values;
  for (const ParamChange& c : changes) new_values[c.t] = &c.values;
  const TunableBlock* first_element = nullptr;
  for (const ParamChange& c : changes) {
    if (c.t->system_index >= 0 || c.t->mechanism_element < 0 || !data.mechanism) continue;
    try {
      out.elements.emplace_back(c.t->mechanism_element, c.t->type->create(c.values));
    } catch (const blocks::BlockError& e) {
      throw BlockFailure(*c.t, e.what());
    } catch (const blocks::ExpressionError& e) {
      throw BlockFailure(*c.t, e.what());
    }
    if (!first_element) first_element = c.t;
  }
  if (first_element) RebuildMechanism(data, system, new_values, *first_element, &out);
  for (const ParamChange& c : changes) {
    if (c.t->system_index < 0) {
      if (c.t->mechanism_element >= 0 && data.mechanism) continue;
      throw std::logic_error("SystemTuner: block '" + c.t->path +
                             "' is neither run nor a frame element");
    }
    bool done = false;
    for (const auto& [index, block] : out.blocks) done = done || index == c.t->system_index;
    if (done) continue;  // a robot user, rebuilt with its robot
    out.blocks.emplace_back(c.t->system_index,
                            Rebuild(*c.t, c.values, system.block(c.t->system_index)));
  }
  return out;
}

}  // namespace

void internal::CompiledTuning::SetParameter(System& system, const std::string& block_path,
                                            const std::string& param,
                                            const std::vector<double>& values) {
  TunableBlock* t = nullptr;
  for (TunableBlock& candidate : data_.blocks) {
    if (candidate.path == block_path) t = &candidate;
  }
  if (t == nullptr) {
    std::vector<std::string> paths;
    for (const TunableBlock& candidate : data_.blocks) paths.push_back(candidate.path);
    const int i = system.FindBlock(block_path);
    if (i >= 0) {
      throw ModelError({}, block_path, system.block_type(i),
                       "made by the compiler, it has no parameters to tune (retune its elements "
                       "in the model and compile again)");
    }
    throw ModelError({}, "no block '" + block_path + "' in the compiled system" +
                             SuggestionFor(block_path, paths));
  }
  const blocks::ParamSpec* spec = t->type->FindParam(param);
  if (spec == nullptr) {
    std::vector<std::string> valid;
    for (const blocks::ParamSpec& s : t->type->params) valid.push_back(s.name);
    std::string list;
    for (const std::string& v : valid) list += (list.empty() ? "" : ", ") + v;
    throw BlockFailure(*t, "unknown parameter '" + param + "'" + SuggestionFor(param, valid) +
                               "; valid parameters: " + (list.empty() ? "none" : list));
  }
  if (spec->kind == blocks::ParamKind::kWord || spec->kind == blocks::ParamKind::kString) {
    throw BlockFailure(*t, "parameter '" + param +
                               "' is a word or text, not a number: it is not tunable" + kRecompile);
  }
  if (values.empty()) throw BlockFailure(*t, "parameter '" + param + "': no value given");
  std::vector<Parameter> params = t->params;
  bool written = false;
  for (Parameter& p : params) {
    if (p.name == param) {
      p.value = VectorText(values);
      written = true;
    }
  }
  if (!written) params.push_back({param, VectorText(values)});
  VariableReach reach(data_.variables, "");
  reach.Reaches(*t);  // no define parameter changes: each keeps its value
  Scopes scopes(data_.variables, &level_values_, reach);
  blocks::Params evaluated = internal::EvaluateBlockParams(
      *t->type, t->path, t->where, params, scopes.For(t->level), t->define_texts, t->base_dir);
  std::vector<ParamChange> changes;
  changes.push_back({t, std::move(evaluated)});
  Apply(system, changes);
  scopes.Commit();
  t->params = std::move(params);
}

void internal::CompiledTuning::Apply(System& system, std::vector<ParamChange>& changes) {
  Rebuilt rebuilt = RebuildAll(data_, system, changes);
  for (auto& [index, block] : rebuilt.blocks) ReplaceBlock(system, index, std::move(block));
  for (auto& [e, block] : rebuilt.elements) {
    data_.mechanism->element_blocks[e] = std::move(block);
    data_.mechanism->elements[e].block = data_.mechanism->element_blocks[e].get();
  }
  for (auto& [t, model] : rebuilt.robots) data_.blocks[t].robot = std::move(model);
  for (ParamChange& c : changes) c.t->values = std::move(c.values);
}

std::vector<std::string> internal::CompiledTuning::SetVariable(System& system,
                                                               const std::string& name,
                                                               const std::vector<double>& values) {
  std::vector<Variable> variables = data_.variables;
  Variable* var = nullptr;
  std::vector<std::string> names;
  for (Variable& v : variables) {
    names.push_back(v.name);
    if (v.name == name) var = &v;
  }
  if (var == nullptr) {
    throw ModelError({}, "no variable '" + name + "' in the model" + SuggestionFor(name, names));
  }
  if (values.empty()) throw ModelError({}, "variable '" + name + "': no value given");
  var->value = VectorText(values);

  std::vector<ParamChange> changes;
  VariableReach reach(variables, name);
  Scopes scopes(variables, &level_values_, reach);
  for (TunableBlock& t : data_.blocks) {
    if (!reach.Reaches(t)) continue;
    blocks::Params evaluated = internal::EvaluateBlockParams(
        *t.type, t.path, t.where, t.params, scopes.For(t.level), t.define_texts, t.base_dir);
    if (SameParams(*t.type, evaluated, t.values)) continue;
    changes.push_back({&t, std::move(evaluated)});
  }
  std::vector<std::string> rebuilt;
  for (const ParamChange& c : changes) rebuilt.push_back(c.t->path);
  Apply(system, changes);
  scopes.Commit();
  data_.variables = std::move(variables);
  return rebuilt;
}

}  // namespace twinblocks::graph
