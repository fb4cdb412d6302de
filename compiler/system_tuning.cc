// Tunable parameters: a compiled System's blocks rebuilt with new numbers between runs, exactly
// as a recompile would build them, without the rest of compile (flattening, networks, order,
// layout). A block is rebuilt from what the compiler kept of it (compiler/detail/tuning.h) and
// must come out with the same ports, sizes, states and sample time, so that the layout, the
// execution order and every other block stay valid. A frame element (a Solid's mass, a joint's
// damping, a contact's stiffness) never runs: its new numbers are patched into the mechanism,
// or, when they change its tree, the mechanism is built again from all elements, as compile
// builds it, and must keep its coordinates, states and ports. Which parameters a change reaches,
// and the values they see, are tuning_scopes.cc's.
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "blocks/block_error.h"
#include "blocks/math_expression.h"
#include "blocks/multibody/mechanism.h"
#include "common/suggest.h"
#include "compiler/detail/tuning.h"
#include "compiler/detail/tuning_scopes.h"
#include "model/detail/block_params.h"
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
  for (const blocks::ParamSpec& spec : type.params) {
    if (a.has(spec.name) != b.has(spec.name)) return false;
    if (a.has(spec.name) && !SameValue(a.Get(spec.name), b.Get(spec.name))) return false;
  }
  return !internal::ReadsVariables(type) || a.variables() == b.variables();
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
    if (!(p.shape == q.shape)) {
      return "the shape of output " + q.name + " (" + q.shape.Describe() + " -> " +
             p.shape.Describe() + ")";
    }
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
    // The shapes its drivers gave it at compile time: a retune changes no other block.
    std::vector<blocks::SignalShape> shapes;
    for (int i = 0; i < old_block.num_inputs(); ++i)
      shapes.push_back(old_block.input_port(i).shape);
    b->Configure(t.input_widths, shapes);
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
  /// The mechanism's model with new numbers, to set in place (PatchMechanism); when it could
  /// not be patched, the mechanism built again is among `blocks`.
  std::optional<multibody::MechanismModel> mechanism_numbers;
};

// The mechanism with the changed elements (`out->elements`) in place of theirs: their numbers
// patched into a copy of its model when they leave its tree as it is (out->mechanism_numbers),
// else the mechanism built again, exactly as compile builds it, then checked and laid out like
// any rebuilt block; and every block bound to a robot that holds a changed element, bound to
// the robot built again.
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
  const blocks::Block& old_mechanism = system.block(m.block.system_index);
  std::unique_ptr<blocks::Block> mechanism;
  try {
    // Most retunes change numbers the tree does not depend on: patched into a copy of the
    // running mechanism's model, as BuildMechanism would build them, and set in place.
    out->mechanism_numbers =
        multibody::PatchMechanism(dynamic_cast<const multibody::Mechanism&>(old_mechanism).model(),
                                  m.elements, elements, changed, m.num_nodes);
    if (!out->mechanism_numbers) {
      mechanism = std::make_unique<multibody::Mechanism>(
          multibody::BuildMechanism(elements, m.num_nodes, "mechanism"));
      mechanism->Configure(m.block.input_widths);
    }
  } catch (const multibody::NetworkError& e) {
    throw BlockFailure(failure_at(e.element()), e.what());
  } catch (const blocks::BlockError& e) {
    throw BlockFailure(cause, e.what());
  }
  if (mechanism) {
    const std::string change = StructureChange(old_mechanism, *mechanism, m.block);
    if (!change.empty()) {
      throw BlockFailure(cause, "the new value changes the mechanism's " +
                                    change.substr(change.find(' ') + 1) +
                                    ": only values that keep its coordinates, states and ports "
                                    "are tunable" +
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
  }

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
  VariableReach reach(data_.variables, "", &index_);  // no variable changes
  scopes_.Begin(data_.variables, &reach);
  try {
    blocks::Params evaluated = internal::EvaluateBlockParams(
        *t->type, t->path, t->where, params, scopes_.For(t->level), t->define_texts, t->base_dir);
    std::vector<ParamChange> changes;
    changes.push_back({t, std::move(evaluated)});
    Apply(system, changes);
  } catch (...) {
    scopes_.Undo();
    throw;
  }
  scopes_.Commit();
  t->params = std::move(params);
  index_.Forget(*t);
}

void internal::CompiledTuning::Apply(System& system, std::vector<ParamChange>& changes) {
  Rebuilt rebuilt = RebuildAll(data_, system, changes);
  for (auto& [index, block] : rebuilt.blocks) ReplaceBlock(system, index, std::move(block));
  if (rebuilt.mechanism_numbers) {
    dynamic_cast<multibody::Mechanism&>(MutableBlock(system, data_.mechanism->block.system_index))
        .SetNumbers(std::move(*rebuilt.mechanism_numbers));
  }
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
  VariableReach reach(variables, name, &index_);
  scopes_.Begin(variables, &reach);
  try {
    for (TunableBlock& t : data_.blocks) {
      const std::vector<unsigned char> reached = reach.ReachedParams(t);
      if (reached.empty()) continue;
      blocks::Params evaluated =
          internal::ReevaluateBlockParams(*t.type, t.path, t.where, t.params, scopes_.For(t.level),
                                          t.define_texts, t.values, reached);
      if (SameParams(*t.type, evaluated, t.values)) continue;
      changes.push_back({&t, std::move(evaluated)});
    }
    Apply(system, changes);
  } catch (...) {
    scopes_.Undo();
    throw;
  }
  scopes_.Commit();
  std::vector<std::string> rebuilt;
  for (const ParamChange& c : changes) rebuilt.push_back(c.t->path);
  data_.variables = std::move(variables);
  return rebuilt;
}

}  // namespace twinblocks::graph
