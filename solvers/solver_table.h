#pragma once

// The one table of solvers: every solver's name, traits, options, constructor and doc line.
// Everything that depends on which solver runs (the factory, the lists in messages and help,
// the simulator's choices) reads these rows rather than comparing names.

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "solvers/integrator.h"

namespace twinblocks::solvers {

/// The names other code must spell: the default solver, and the solvers whose classes name
/// themselves. Every other name appears only in the table's rows.
namespace solver_names {
inline constexpr char kOde1be[] = "ode1be";
inline constexpr char kRos2[] = "ros2";
inline constexpr char kAvf[] = "avf";
inline constexpr char kOde45[] = "ode45";
inline constexpr char kOde23s[] = "ode23s";
inline constexpr char kCvodeBdf[] = "cvode-bdf";
inline constexpr char kCvodeAdams[] = "cvode-adams";
inline constexpr char kArkodeErk[] = "arkode-erk";
inline constexpr char kArkodeDirk[] = "arkode-dirk";
inline constexpr char kIda[] = "ida";
}  // namespace solver_names

/// The solver a run uses when its model names none.
inline constexpr std::string_view kDefaultSolver = solver_names::kOde45;

/// Steps of one size (the `step` setting), or sized by an error estimate (rtol, atol,
/// max_step, initial_step).
enum class StepKind { kFixed, kVariable };

/// Explicit methods evaluate f only; implicit ones (linearly implicit Rosenbrock methods
/// included) solve with a Jacobian and suit stiff problems.
enum class Stiffness { kExplicit, kImplicit };

/// What the solver integrates: ODEs x' = f(t, x) only, or also DAEs in residual form
/// F(t, y, y') = 0 (a model's algebraic variables, e.g. a mechanism's closed loops).
enum class Equations { kOde, kDae };

/// The run settings a solver honours besides t_start, t_end and output_interval, as bits.
enum SolverOption : unsigned {
  kOptionStep = 1u << 0,            ///< step (fixed-step solvers)
  kOptionTolerances = 1u << 1,      ///< rtol, atol, max_step, initial_step
  kOptionJacobianSteps = 1u << 2,   ///< jacobian_steps: the age rule of its Jacobian
  kOptionJacobianMethod = 1u << 3,  ///< jacobian_method: where its Jacobian comes from
};

/// One row of the table.
struct SolverInfo {
  std::string_view name;    ///< as the user selects it
  std::string_view family;  ///< the method family ("explicit Runge-Kutta", "SUNDIALS CVODE")
  StepKind step;
  Stiffness stiffness;
  Equations equations;
  unsigned options;  ///< SolverOption bits
  /// Keeps a continuous extension of its steps (Integrator::has_dense_output).
  bool dense_output;
  /// Named in the advice to try a stiff solver, in table order.
  bool suggested_for_stiff;
  /// Makes the integrator for an ODE.
  std::unique_ptr<Integrator> (*make)(OdeProblem* problem, const IntegratorOptions& options);
  std::string_view description;  ///< one line, for help and docs

  bool honours(SolverOption option) const { return (options & option) != 0; }
  bool is_fixed_step() const { return step == StepKind::kFixed; }
  bool solves_daes() const { return equations == Equations::kDae; }
  bool forms_jacobian() const { return honours(kOptionJacobianMethod); }
};

/// Every solver, in the order the docs list them.
std::span<const SolverInfo> SolverTable();

/// The row named `name`, or nullptr.
const SolverInfo* FindSolver(std::string_view name);

/// The row named `name`.
/// @throws std::invalid_argument "unknown solver 'NAME'; valid solvers: ..." when none is.
const SolverInfo& SolverNamed(std::string_view name);

/// The names of the rows `keep` accepts, in table order, joined by `separator`.
std::string SolverNamesWhere(const std::function<bool(const SolverInfo&)>& keep,
                             std::string_view separator);

/// "A or B": the first two solvers suggested for stiff problems other than `solver` (advice
/// after a run that crawled under it).
std::string StiffSolversBut(std::string_view solver);

}  // namespace twinblocks::solvers
