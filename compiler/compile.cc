// Compile(): the driver, and phase 1 (variables and simulation settings).
#include "compiler/compile.h"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "blocks/math_expression.h"
#include "common/suggest.h"
#include "compiler/detail/compiler.h"
#include "runtime/simulation_settings.h"
#include "solvers/integrator.h"

namespace twinblocks::graph {

using blocks::ExpressionError;
using internal::Join;

System Compiler::Run() {
  try {
    EvaluateVariables();
    EvaluateSettings();
    std::vector<std::string> define_stack;
    AddExternalInputs();
    CheckDefineNames();
    CheckExpansionSize();
    Flatten(model_.root, "", root_scope_, {}, &define_stack, &model_.root.ports);
    ResolveGotoFrom();
    ReducePhysicalNetworks();
    ResolveInputs();
    PropagateWidths();
    ResolveSampleTimes();
    Order();
    Layout();
    ResolveLogs();
    ResolveExternalInputs();
  } catch (const ModelError& e) {
    throw WithPlacement(e);
  }
  return std::move(system_);
}

ModelError Compiler::WithPlacement(const ModelError& e) const {
  if (e.block_path().empty() || !e.where().known()) return e;
  // Down the block's path from the top, through subsystems (written where they stand) and
  // into the body of each define instance on it: every instance written in another file than
  // the error's line is a place the user may look for the cause, innermost first, as a
  // compiler's "required from" trace.
  const std::string& path = e.block_path();
  const Diagram* diagram = &model_.root;
  std::vector<std::string> placements;
  for (size_t start = 0;;) {
    const size_t slash = path.find('/', start);
    if (slash == std::string::npos) break;  // the failing block itself
    const BlockNode* node = diagram->Find(std::string_view(path).substr(start, slash - start));
    if (node == nullptr) break;
    start = slash + 1;
    if (node->is_subsystem()) {
      diagram = node->body.get();
      continue;
    }
    const Define* define = model_.FindDefine(node->type);
    if (define == nullptr) break;
    if (node->where.known() && node->where.file != e.where().file) {
      placements.push_back("in '" + path.substr(0, slash) + "', placed at " +
                           node->where.ToString());
    }
    diagram = &define->body;
  }
  if (placements.empty()) return e;
  std::string trace;
  for (auto it = placements.rbegin(); it != placements.rend(); ++it) {
    trace += (trace.empty() ? "" : "; ") + *it;
  }
  return ModelError(e.where(), e.block_path(), e.block_type(), e.message() + " (" + trace + ")");
}

void Compiler::EvaluateVariables() {
  for (const Variable& v : model_.variables) {
    if (blocks::MathExpression::IsReservedName(v.name)) {
      FailAt(v.where, "variable '" + v.name +
                          "' takes the name of a built-in constant or "
                          "function; choose another name");
    }
    try {
      root_scope_.Set(v.name, EvaluateNumeric(v.value, root_scope_));
    } catch (const ExpressionError& e) {
      FailAt(v.where, "variable '" + v.name + "': " + e.what());
    }
  }
}

double Compiler::EvaluateSettingScalar(const std::string& attribute, const std::string& text) {
  try {
    Eigen::MatrixXd m = EvaluateNumeric(text, root_scope_);
    if (m.size() != 1) throw ExpressionError("expected a scalar");
    return m(0, 0);
  } catch (const ExpressionError& e) {
    FailAt(model_.simulation.where, "simulation attribute '" + attribute + "': " + e.what());
  }
}

void Compiler::EvaluateSettings() {
  SimulationSettingsValues& s = system_.settings_;
  std::vector<std::pair<const SimulationSetting*, SettingValue>> words;  // for the rules between
  for (const Parameter& a : model_.simulation.attributes) {
    const SimulationSetting* setting = FindSimulationSetting(a.name);
    if (setting == nullptr) {
      FailAt(model_.simulation.where, "unknown simulation attribute '" + a.name +
                                          "'; valid attributes: " + Join(SimulationSettingNames()));
    }
    if (setting->kind == SettingKind::kSolver) {
      // Found here, where the file and line are known, not when the run makes its solver.
      const std::vector<std::string>& solvers = solvers::IntegratorNames();
      if (std::find(solvers.begin(), solvers.end(), a.value) == solvers.end()) {
        FailAt(model_.simulation.where, "simulation attribute 'solver': unknown solver '" +
                                            a.value + "'" + SuggestionFor(a.value, solvers) +
                                            "; valid solvers: " + Join(solvers));
      }
      setting->set(s, a.value);
    } else if (setting->kind == SettingKind::kSwitch || setting->kind == SettingKind::kWord ||
               (!setting->words.empty() && a.value == setting->words)) {
      try {
        words.emplace_back(setting, ParseSettingText(*setting, a.value));
        setting->set(s, words.back().second);
      } catch (const std::invalid_argument& e) {
        FailAt(model_.simulation.where, std::string("simulation attribute ") + e.what());
      }
    } else {
      const double v = EvaluateSettingScalar(a.name, a.value);
      // Found here, with the file's line, rather than when the run starts.
      if (!std::isfinite(v)) {
        FailAt(model_.simulation.where,
               "simulation attribute '" + a.name + "' must be a finite number, got " + a.value);
      }
      if (!SettingNumberIsValid(*setting, v)) {
        FailAt(model_.simulation.where, "simulation attribute '" + a.name + "' must be " +
                                            SettingRequirement(*setting) + ", got " + a.value);
      }
      setting->set(s, v);
    }
  }
  if (const auto conflict = FindSettingConflict(words)) {
    const auto text = [this](const SimulationSetting& setting) {
      for (const Parameter& a : model_.simulation.attributes) {
        if (a.name == setting.name) return a.value;
      }
      return std::string();
    };
    FailAt(model_.simulation.where,
           "simulation attribute '" + std::string(conflict->setting->name) + "' cannot be " +
               text(*conflict->setting) + " with " + std::string(conflict->other->name) + "=\"" +
               text(*conflict->other) + "\", " + std::string(conflict->why) + "; give " +
               std::string(conflict->other->name) + " " + std::string(conflict->remedy));
  }
  // Only an end the file gives: a start after the default end may await --t-end.
  const bool end_given =
      std::any_of(model_.simulation.attributes.begin(), model_.simulation.attributes.end(),
                  [](const Parameter& a) { return a.name == "t_end"; });
  if (end_given && !(s.t_end > s.t_start)) {
    FailAt(model_.simulation.where, "simulation attribute 't_end' (" + FormatNumber(s.t_end) +
                                        ") must be after t_start (" + FormatNumber(s.t_start) +
                                        ")");
  }
}

System Compile(const Model& model, const CompileOptions& options) {
  return Compiler(model, options).Run();
}

}  // namespace twinblocks::graph
