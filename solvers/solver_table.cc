// The solver table: names, traits, options, constructors and one-line descriptions.

#include "solvers/solver_table.h"

#include <algorithm>
#include <array>
#include <optional>
#include <stdexcept>
#include <string>

#include "solvers/arkode_integrator.h"
#include "solvers/average_vector_field_integrator.h"
#include "solvers/butcher_tableau.h"
#include "solvers/cvode_integrator.h"
#include "solvers/embedded_runge_kutta_integrator.h"
#include "solvers/explicit_runge_kutta_integrator.h"
#include "solvers/ida_integrator.h"
#include "solvers/integrator.h"
#include "solvers/modified_rosenbrock_integrator.h"
#include "solvers/rosenbrock_integrator.h"

namespace twinblocks::solvers {
namespace {

using Options = IntegratorOptions;
using Made = std::unique_ptr<Integrator>;

constexpr unsigned kFixedExplicit = kOptionStep;
constexpr unsigned kFixedImplicit = kOptionStep | kOptionJacobianSteps | kOptionJacobianMethod;
constexpr unsigned kVariableExplicit = kOptionTolerances;
constexpr unsigned kVariableImplicit =
    kOptionTolerances | kOptionJacobianSteps | kOptionJacobianMethod;
// IDA re-forms its iteration matrix when its step or order changes, by a rule of its own.
constexpr unsigned kIdaOptions = kOptionTolerances | kOptionJacobianMethod;

template <const char* kName>
Made ExplicitRk(ButcherTableau tableau, OdeProblem* p, const Options& o) {
  return std::make_unique<ExplicitRungeKuttaIntegrator>(kName, std::move(tableau), p, o);
}

constexpr char kOde1[] = "ode1";
constexpr char kOde2[] = "ode2";
constexpr char kOde3[] = "ode3";
constexpr char kOde4[] = "ode4";
constexpr char kOde5[] = "ode5";
constexpr char kOde23[] = "ode23";

const std::array<SolverInfo, 16> kSolvers = {{
    {kOde1, "explicit Runge-Kutta", StepKind::kFixed, Stiffness::kExplicit, Equations::kOde,
     kFixedExplicit, false, false,
     [](OdeProblem* p, const Options& o) { return ExplicitRk<kOde1>(EulerTableau(), p, o); },
     "fixed step, forward Euler, order 1"},
    {kOde2, "explicit Runge-Kutta", StepKind::kFixed, Stiffness::kExplicit, Equations::kOde,
     kFixedExplicit, false, false,
     [](OdeProblem* p, const Options& o) { return ExplicitRk<kOde2>(HeunTableau(), p, o); },
     "fixed step, Heun (explicit trapezoidal), order 2"},
    {kOde3, "explicit Runge-Kutta", StepKind::kFixed, Stiffness::kExplicit, Equations::kOde,
     kFixedExplicit, false, false,
     [](OdeProblem* p, const Options& o) {
       return ExplicitRk<kOde3>(DropFsalStage(BogackiShampineTableau()), p, o);
     },
     "fixed step, Bogacki-Shampine, order 3"},
    {kOde4, "explicit Runge-Kutta", StepKind::kFixed, Stiffness::kExplicit, Equations::kOde,
     kFixedExplicit, false, false,
     [](OdeProblem* p, const Options& o) {
       return ExplicitRk<kOde4>(ClassicRungeKuttaTableau(), p, o);
     },
     "fixed step, classic Runge-Kutta, order 4"},
    {kOde5, "explicit Runge-Kutta", StepKind::kFixed, Stiffness::kExplicit, Equations::kOde,
     kFixedExplicit, false, false,
     [](OdeProblem* p, const Options& o) {
       return ExplicitRk<kOde5>(DropFsalStage(DormandPrinceTableau()), p, o);
     },
     "fixed step, Dormand-Prince, order 5"},
    {solver_names::kOde1be, "Rosenbrock", StepKind::kFixed, Stiffness::kImplicit, Equations::kOde,
     kFixedImplicit, false, false,
     [](OdeProblem* p, const Options& o) -> Made {
       return std::make_unique<RosenbrockIntegrator>(RosenbrockMethod::kLinearlyImplicitEuler, p,
                                                     o);
     },
     "fixed step, backward Euler with one Newton iteration (linearly implicit Euler), order 1; "
     "stiff problems"},
    {solver_names::kRos2, "Rosenbrock", StepKind::kFixed, Stiffness::kImplicit, Equations::kOde,
     kFixedImplicit, false, false,
     [](OdeProblem* p, const Options& o) -> Made {
       return std::make_unique<RosenbrockIntegrator>(RosenbrockMethod::kRos2, p, o);
     },
     "fixed step, Rosenbrock-W ROS2 (two linear solves, no Newton iteration), order 2; stiff "
     "problems such as contact with friction"},
    {solver_names::kAvf, "average vector field", StepKind::kFixed, Stiffness::kImplicit,
     Equations::kOde, kFixedImplicit, false, false,
     [](OdeProblem* p, const Options& o) -> Made {
       return std::make_unique<AverageVectorFieldIntegrator>(p, o);
     },
     "fixed step, average vector field of Quispel and McLaren (Gauss quadrature, Newton "
     "iterations to round-off), order 2, no numerical damping; keeps the energy of a "
     "conservative mass-spring body exactly"},
    {kOde23, "embedded Runge-Kutta", StepKind::kVariable, Stiffness::kExplicit, Equations::kOde,
     kVariableExplicit, true, false,
     [](OdeProblem* p, const Options& o) -> Made {
       return std::make_unique<EmbeddedRungeKuttaIntegrator>(kOde23, BogackiShampineTableau(),
                                                             DenseOutput::kHermite, 0.0, p, o);
     },
     "variable step, Bogacki-Shampine 3(2) with cubic Hermite dense output; non-stiff, loose "
     "tolerances"},
    {solver_names::kOde45, "embedded Runge-Kutta", StepKind::kVariable, Stiffness::kExplicit,
     Equations::kOde, kVariableExplicit, true, false,
     [](OdeProblem* p, const Options& o) -> Made {
       // beta = 0.04: Hairer's DOPRI5 choice for the PI (Lund) stabilization.
       return std::make_unique<EmbeddedRungeKuttaIntegrator>(
           solver_names::kOde45, DormandPrinceTableau(), DenseOutput::kDormandPrince, 0.04, p, o);
     },
     "variable step, Dormand-Prince 5(4) with 4th-order dense output; the non-stiff default"},
    {solver_names::kOde23s, "Rosenbrock", StepKind::kVariable, Stiffness::kImplicit,
     Equations::kOde, kVariableImplicit, true, true,
     [](OdeProblem* p, const Options& o) -> Made {
       return std::make_unique<ModifiedRosenbrockIntegrator>(p, o);
     },
     "variable step, modified Rosenbrock 2(3) of Shampine and Reichelt (a W-method: one linear "
     "solve per stage, no Newton iteration); stiff problems such as contact with friction"},
    {solver_names::kCvodeBdf, "SUNDIALS CVODE", StepKind::kVariable, Stiffness::kImplicit,
     Equations::kOde, kVariableImplicit, true, true,
     [](OdeProblem* p, const Options& o) -> Made {
       return std::make_unique<CvodeIntegrator>(CvodeMethod::kBdf, p, o);
     },
     "variable step and order, SUNDIALS CVODE BDF 1-5 with Newton; stiff problems"},
    {solver_names::kCvodeAdams, "SUNDIALS CVODE", StepKind::kVariable, Stiffness::kImplicit,
     Equations::kOde, kVariableImplicit, true, false,
     [](OdeProblem* p, const Options& o) -> Made {
       return std::make_unique<CvodeIntegrator>(CvodeMethod::kAdams, p, o);
     },
     "variable step and order, SUNDIALS CVODE Adams-Moulton 1-12 with Newton; smooth non-stiff "
     "problems at tight tolerances"},
    {solver_names::kArkodeErk, "SUNDIALS ARKODE", StepKind::kVariable, Stiffness::kExplicit,
     Equations::kOde, kVariableExplicit, true, false,
     [](OdeProblem* p, const Options& o) -> Made {
       return std::make_unique<ArkodeIntegrator>(ArkodeMethod::kExplicit, p, o);
     },
     "variable step, SUNDIALS ARKODE explicit Runge-Kutta (order 4); non-stiff"},
    {solver_names::kArkodeDirk, "SUNDIALS ARKODE", StepKind::kVariable, Stiffness::kImplicit,
     Equations::kOde, kVariableImplicit, true, false,
     [](OdeProblem* p, const Options& o) -> Made {
       return std::make_unique<ArkodeIntegrator>(ArkodeMethod::kImplicit, p, o);
     },
     "variable step, SUNDIALS ARKODE diagonally implicit Runge-Kutta (order 4); stiff problems"},
    {solver_names::kIda, "SUNDIALS IDA", StepKind::kVariable, Stiffness::kImplicit, Equations::kDae,
     kIdaOptions, true, true,
     [](OdeProblem* p, const Options& o) -> Made { return std::make_unique<IdaIntegrator>(p, o); },
     "variable step and order, SUNDIALS IDA BDF on the residual form: x' - f(t, x), and closed "
     "kinematic loops as stabilized index-2 constraints (DAEs)"},
}};

std::string ValidNames() {
  return SolverNamesWhere([](const SolverInfo&) { return true; }, " ");
}

[[noreturn]] void ThrowUnknown(std::string_view name) {
  throw std::invalid_argument("unknown solver '" + std::string(name) +
                              "'; valid solvers: " + ValidNames());
}

// A Jacobian setting the solver would ignore is refused: the user meant it to change the run.
void RefuseUnlessHonoured(SolverOption option, const std::string& setting, const SolverInfo& solver,
                          const char* why_not) {
  if (solver.honours(option)) return;
  const std::string names =
      SolverNamesWhere([option](const SolverInfo& s) { return s.honours(option); }, ", ");
  throw std::invalid_argument(setting + " is for the solvers that use a Jacobian (" + names +
                              "); " + std::string(solver.name) + why_not);
}

void CheckJacobianSteps(const SolverInfo& solver, const std::optional<int>& jacobian_steps) {
  if (!jacobian_steps) return;
  const std::string setting = "jacobian_steps = " + std::to_string(*jacobian_steps);
  if (*jacobian_steps < 1) {
    throw std::invalid_argument(setting + ": expected a whole number of steps >= 1");
  }
  RefuseUnlessHonoured(
      kOptionJacobianSteps, setting, solver,
      solver.forms_jacobian() ? " re-forms its own when its step or order changes" : " forms none");
}

void CheckJacobianMethod(const SolverInfo& solver, JacobianMethod method, bool has_jacobian) {
  if (method == JacobianMethod::kAuto) return;
  RefuseUnlessHonoured(kOptionJacobianMethod, "a jacobian_method other than auto", solver,
                       " forms none");
  if (method == JacobianMethod::kProblem && !has_jacobian) {
    throw std::invalid_argument(std::string("jacobian_method = ") + JacobianMethodName(method) +
                                ": the problem gives no Jacobian of its own");
  }
}

}  // namespace

std::span<const SolverInfo> SolverTable() { return kSolvers; }

const SolverInfo* FindSolver(std::string_view name) {
  for (const SolverInfo& s : kSolvers) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

const SolverInfo& SolverNamed(std::string_view name) {
  const SolverInfo* s = FindSolver(name);
  if (s == nullptr) ThrowUnknown(name);
  return *s;
}

std::string SolverNamesWhere(const std::function<bool(const SolverInfo&)>& keep,
                             std::string_view separator) {
  std::string names;
  for (const SolverInfo& s : kSolvers) {
    if (!keep(s)) continue;
    if (!names.empty()) names += separator;
    names += s.name;
  }
  return names;
}

std::string StiffSolversBut(std::string_view solver) {
  // A suggestion never names the solver that just failed.
  std::vector<std::string_view> names;
  for (const SolverInfo& s : kSolvers) {
    if (s.suggested_for_stiff && s.name != solver && names.size() < 2) names.push_back(s.name);
  }
  return std::string(names[0]) + " or " + std::string(names[1]);
}

const char* JacobianMethodName(JacobianMethod method) {
  switch (method) {
    case JacobianMethod::kAuto:
      return "auto";
    case JacobianMethod::kPerturbation:
      return "perturbation";
    case JacobianMethod::kProblem:
      return "problem";
  }
  return "?";
}

const std::vector<std::string>& IntegratorNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> result;
    for (const SolverInfo& s : kSolvers) result.emplace_back(s.name);
    return result;
  }();
  return names;
}

bool IntegratorFormsJacobian(std::string_view name) {
  const SolverInfo* s = FindSolver(name);
  return s != nullptr && s->forms_jacobian();
}

std::string_view IntegratorDescription(std::string_view name) {
  return SolverNamed(name).description;
}

std::unique_ptr<Integrator> MakeIntegrator(std::string_view name, OdeProblem* problem,
                                           const IntegratorOptions& options) {
  if (problem == nullptr) throw std::invalid_argument("MakeIntegrator: problem is null");
  const SolverInfo& solver = SolverNamed(name);  // an unknown name is named as such first
  CheckJacobianSteps(solver, options.jacobian_steps);
  CheckJacobianMethod(solver, options.jacobian_method, problem->has_jacobian());
  return solver.make(problem, options);
}

std::unique_ptr<Integrator> MakeDaeIntegrator(DaeProblem* problem,
                                              const IntegratorOptions& options) {
  if (problem == nullptr) throw std::invalid_argument("MakeDaeIntegrator: problem is null");
  // The DAE solver of the table (its one row that takes residual forms).
  const SolverInfo* dae = nullptr;
  for (const SolverInfo& s : kSolvers) {
    if (s.solves_daes()) dae = &s;
  }
  CheckJacobianSteps(*dae, options.jacobian_steps);
  CheckJacobianMethod(*dae, options.jacobian_method, problem->has_jacobian());
  return std::make_unique<IdaIntegrator>(problem, options);
}

}  // namespace twinblocks::solvers
