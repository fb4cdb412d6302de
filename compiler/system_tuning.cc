// Tunable parameters: a compiled System's blocks rebuilt with new numbers between runs, exactly
// as a recompile would build them, without the rest of compile (flattening, networks, order,
// layout). A block is rebuilt from what the compiler kept of it (compiler/detail/tuning.h) and
// must come out with the same ports, sizes, states and sample time, so that the layout, the
// execution order and every other block stay valid.
#include <map>
#include <memory>

#include "blocks/block_error.h"
#include "blocks/math_expression.h"
#include "common/suggest.h"
#include "compiler/detail/tuning.h"
#include "model/detail/block_params.h"
#include "model/detail/define_substitution.h"
#include "model/model_error.h"
#include "model/parameter_evaluator.h"
#include "physics/multibody/robot_model.h"
#include "runtime/system.h"

namespace twinblocks::graph {

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

// The model's variables and the parameters of define instances, evaluated as compile does:
// a define sees its own parameters (evaluated where the instance is written) and the variables.
class Scopes {
 public:
  explicit Scopes(const std::vector<Variable>& variables) {
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
    if (it != cache_.end()) return *it->second;
    const Scope& outer = For(level->parent);
    auto scope = std::make_unique<Scope>(&root_);
    for (const auto& [name, text] : level->params) {
      try {
        scope->Set(name, EvaluateNumeric(text, outer));
      } catch (const blocks::ExpressionError&) {
        // A word for the blocks inside, as in compile.
      }
    }
    return *cache_.emplace(level.get(), std::move(scope)).first->second;
  }

 private:
  Scope root_;
  std::map<const internal::DefineLevel*, std::unique_ptr<Scope>> cache_;
};

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

std::string NotTunableReason(const TunableBlock& t) {
  return "it is a multibody element compiled into the mechanism, so its parameters are not "
         "tunable";
}

}  // namespace

void internal::CompiledTuning::SetParameter(System& system, const std::string& block_path,
                                            const std::string& param,
                                            const std::vector<double>& values) {
  TunableBlock* t = nullptr;
  std::vector<std::string> paths;
  for (TunableBlock& candidate : data_.blocks) {
    paths.push_back(candidate.path);
    if (candidate.path == block_path) t = &candidate;
  }
  if (t == nullptr) {
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
  if (t->system_index < 0) {
    throw BlockFailure(*t, "cannot tune '" + param + "': " + NotTunableReason(*t) + kRecompile);
  }
  std::vector<Parameter> params = t->params;
  bool written = false;
  for (Parameter& p : params) {
    if (p.name == param) {
      p.value = VectorText(values);
      written = true;
    }
  }
  if (!written) params.push_back({param, VectorText(values)});
  Scopes scopes(data_.variables);
  blocks::Params evaluated = internal::EvaluateBlockParams(
      *t->type, t->path, t->where, params, scopes.For(t->level), t->define_texts, t->base_dir);
  std::unique_ptr<blocks::Block> b = Rebuild(*t, evaluated, system.block(t->system_index));
  ReplaceBlock(system, t->system_index, std::move(b));
  t->params = std::move(params);
  t->values = std::move(evaluated);
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
  Scopes scopes(variables);

  // Everything is built before anything is replaced: a block that refuses leaves the System as
  // it was.
  struct Change {
    TunableBlock* t;
    blocks::Params values;
    std::unique_ptr<blocks::Block> block;
  };
  std::vector<Change> changes;
  for (TunableBlock& t : data_.blocks) {
    blocks::Params evaluated = internal::EvaluateBlockParams(
        *t.type, t.path, t.where, t.params, scopes.For(t.level), t.define_texts, t.base_dir);
    if (SameParams(*t.type, evaluated, t.values)) continue;
    if (t.system_index < 0) {
      throw BlockFailure(
          t, "variable '" + name + "' reaches this block, but " + NotTunableReason(t) + kRecompile);
    }
    std::unique_ptr<blocks::Block> b = Rebuild(t, evaluated, system.block(t.system_index));
    changes.push_back({&t, std::move(evaluated), std::move(b)});
  }
  std::vector<std::string> rebuilt;
  for (Change& c : changes) {
    ReplaceBlock(system, c.t->system_index, std::move(c.block));
    c.t->values = std::move(c.values);
    rebuilt.push_back(c.t->path);
  }
  data_.variables = std::move(variables);
  return rebuilt;
}

}  // namespace twinblocks::graph
