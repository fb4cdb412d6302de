// Compile(): the driver, and phase 1 (variables and simulation settings).
#include "compiler/compile.h"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "blocks/math_expression.h"
#include "common/suggest.h"
#include "compiler/detail/compiler.h"
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
  static const char* const kKnown[] = {"solver",
                                       "t_start",
                                       "t_end",
                                       "step",
                                       "rtol",
                                       "atol",
                                       "auto_scale_atol",
                                       "max_step",
                                       "initial_step",
                                       "output_interval",
                                       "zero_crossings",
                                       "fixed_step_zero_crossings",
                                       "jacobian_steps",
                                       "sample_hits",
                                       "jacobian_method",
                                       "max_consecutive_zc",
                                       "zc_time_tolerance"};
  bool atol_auto = false;
  bool auto_scale_given = false;
  for (const Parameter& a : model_.simulation.attributes) {
    const bool known = std::any_of(std::begin(kKnown), std::end(kKnown),
                                   [&](const char* k) { return a.name == k; });
    if (!known) {
      std::vector<std::string> names(std::begin(kKnown), std::end(kKnown));
      FailAt(model_.simulation.where,
             "unknown simulation attribute '" + a.name + "'; valid attributes: " + Join(names));
    }
    if (a.name == "solver") {
      // Found here, where the file and line are known, not when the run makes its solver.
      const std::vector<std::string>& solvers = solvers::IntegratorNames();
      if (std::find(solvers.begin(), solvers.end(), a.value) == solvers.end()) {
        FailAt(model_.simulation.where, "simulation attribute 'solver': unknown solver '" +
                                            a.value + "'" + SuggestionFor(a.value, solvers) +
                                            "; valid solvers: " + Join(solvers));
      }
      s.solver = a.value;
    } else if (a.name == "atol" && a.value == "auto") {
      // Simulink's default: starts from rtol and scales with the states.
      s.atol.reset();
      atol_auto = true;
    } else if (a.name == "zero_crossings" || a.name == "fixed_step_zero_crossings" ||
               a.name == "auto_scale_atol") {
      if (a.value != "on" && a.value != "off") {
        FailAt(model_.simulation.where,
               "simulation attribute '" + a.name + "' must be on or off, got '" + a.value + "'");
      }
      (a.name == "zero_crossings"              ? s.zero_crossings
       : a.name == "fixed_step_zero_crossings" ? s.fixed_step_zero_crossings
                                               : s.auto_scale_atol) = a.value == "on";
      if (a.name == "auto_scale_atol") auto_scale_given = true;
    } else if (a.name == "sample_hits" || a.name == "jacobian_method") {
      try {
        if (a.name == "sample_hits") {
          s.sample_hits = ParseSampleHits(a.value);
        } else {
          s.jacobian_method = ParseJacobianMethod(a.value);
        }
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
      const bool positive = a.name == "step" || a.name == "rtol" || a.name == "atol" ||
                            a.name == "max_step" || a.name == "initial_step" ||
                            a.name == "output_interval";
      if (positive && !(v > 0.0)) {
        FailAt(model_.simulation.where,
               "simulation attribute '" + a.name + "' must be a positive number, got " + a.value);
      }
      if (a.name == "t_start") s.t_start = v;
      if (a.name == "t_end") s.t_end = v;
      if (a.name == "step") s.step = v;
      if (a.name == "rtol") s.rtol = v;
      if (a.name == "atol") s.atol = v;
      if (a.name == "max_step") s.max_step = v;
      if (a.name == "initial_step") s.initial_step = v;
      // Counts: whole numbers from 1.
      auto whole_number = [&](double most) {
        if (!(v >= 1.0 && v <= most && v == std::floor(v))) {
          FailAt(model_.simulation.where, "simulation attribute '" + a.name +
                                              "' must be a whole number >= 1, got " + a.value);
        }
        return static_cast<int>(v);
      };
      if (a.name == "jacobian_steps") s.jacobian_steps = whole_number(1e6);
      if (a.name == "max_consecutive_zc") s.max_consecutive_zc = whole_number(1e9);
      if (a.name == "output_interval") s.output_interval = v;
      if (a.name == "zc_time_tolerance") {
        if (!(v >= 0.0 && v < 1.0)) {
          FailAt(model_.simulation.where,
                 "simulation attribute 'zc_time_tolerance' must be in [0, 1), got " + a.value);
        }
        s.zc_time_tolerance = v;
      }
    }
  }
  if (atol_auto) {
    if (auto_scale_given && !s.auto_scale_atol) {
      FailAt(model_.simulation.where,
             "simulation attribute 'auto_scale_atol' cannot be off with atol=\"auto\", which "
             "always scales (Simulink's rule); give atol a number to keep it fixed");
    }
    s.auto_scale_atol = true;
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
