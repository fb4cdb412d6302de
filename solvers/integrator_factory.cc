// The solver catalog: names, one-line descriptions and construction by name.

#include <algorithm>
#include <array>
#include <optional>
#include <stdexcept>
#include <string>

#include "solvers/arkode_integrator.h"
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

struct SolverEntry {
  std::string_view name;
  std::string_view description;
};

constexpr std::array<SolverEntry, 15> kSolvers = {{
    {"ode1", "fixed step, forward Euler, order 1"},
    {"ode2", "fixed step, Heun (explicit trapezoidal), order 2"},
    {"ode3", "fixed step, Bogacki-Shampine, order 3"},
    {"ode4", "fixed step, classic Runge-Kutta, order 4"},
    {"ode5", "fixed step, Dormand-Prince, order 5"},
    {"ode1be",
     "fixed step, backward Euler with one Newton iteration (linearly implicit Euler), order 1; "
     "stiff problems"},
    {"ros2",
     "fixed step, Rosenbrock-W ROS2 (two linear solves, no Newton iteration), order 2; stiff "
     "problems such as contact with friction"},
    {"ode23",
     "variable step, Bogacki-Shampine 3(2) with cubic Hermite dense output; non-stiff, loose "
     "tolerances"},
    {"ode45",
     "variable step, Dormand-Prince 5(4) with 4th-order dense output; the non-stiff default"},
    {"ode23s",
     "variable step, modified Rosenbrock 2(3) of Shampine and Reichelt (a W-method: one linear "
     "solve per stage, no Newton iteration); stiff problems such as contact with friction"},
    {"cvode-bdf", "variable step and order, SUNDIALS CVODE BDF 1-5 with Newton; stiff problems"},
    {"cvode-adams",
     "variable step and order, SUNDIALS CVODE Adams-Moulton 1-12 with Newton; smooth non-stiff "
     "problems at tight tolerances"},
    {"arkode-erk", "variable step, SUNDIALS ARKODE explicit Runge-Kutta (order 4); non-stiff"},
    {"arkode-dirk",
     "variable step, SUNDIALS ARKODE diagonally implicit Runge-Kutta (order 4); stiff problems"},
    {"ida",
     "variable step and order, SUNDIALS IDA BDF on the residual form: x' - f(t, x), and closed "
     "kinematic loops as stabilized index-2 constraints (DAEs)"},
}};

std::string ValidNames() {
  std::string names;
  for (const SolverEntry& entry : kSolvers) {
    if (!names.empty()) names += ' ';
    names += entry.name;
  }
  return names;
}

[[noreturn]] void ThrowUnknown(std::string_view name) {
  throw std::invalid_argument("unknown solver '" + std::string(name) +
                              "'; valid solvers: " + ValidNames());
}

// The solvers that use a Jacobian with a rule for its age (jacobian_steps), and the solvers
// that use a Jacobian at all (jacobian_method): IDA's, its iteration matrix, is re-formed
// when its step or order changes, by a rule of its own.
constexpr std::array<std::string_view, 6> kJacobianAgeSolvers = {
    "ode23s", "ros2", "ode1be", "cvode-bdf", "cvode-adams", "arkode-dirk"};
constexpr std::array<std::string_view, 7> kJacobianSolvers = {
    "ode23s", "ros2", "ode1be", "cvode-bdf", "cvode-adams", "arkode-dirk", "ida"};

// A Jacobian setting the solver would ignore is refused: the user meant it to change the run.
template <size_t N>
void RefuseUnlessOneOf(const std::array<std::string_view, N>& solvers, const std::string& setting,
                       const std::string& name, const char* why_not) {
  if (std::find(solvers.begin(), solvers.end(), name) != solvers.end()) return;
  std::string names;
  for (std::string_view n : solvers) names += (names.empty() ? "" : ", ") + std::string(n);
  throw std::invalid_argument(setting + " is for the solvers that use a Jacobian (" + names +
                              "); " + name + why_not);
}

void CheckJacobianSteps(const std::string& name, const std::optional<int>& jacobian_steps) {
  if (!jacobian_steps) return;
  const std::string setting = "jacobian_steps = " + std::to_string(*jacobian_steps);
  if (*jacobian_steps < 1) {
    throw std::invalid_argument(setting + ": expected a whole number of steps >= 1");
  }
  RefuseUnlessOneOf(
      kJacobianAgeSolvers, setting, name,
      name == "ida" ? " re-forms its own when its step or order changes" : " forms none");
}

void CheckJacobianMethod(const std::string& name, JacobianMethod method, bool has_jacobian) {
  if (method == JacobianMethod::kAuto) return;
  RefuseUnlessOneOf(kJacobianSolvers, "a jacobian_method other than auto", name, " forms none");
  if (method == JacobianMethod::kProblem && !has_jacobian) {
    throw std::invalid_argument(std::string("jacobian_method = ") + JacobianMethodName(method) +
                                ": the problem gives no Jacobian of its own");
  }
}

}  // namespace

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
    for (const SolverEntry& entry : kSolvers) result.emplace_back(entry.name);
    return result;
  }();
  return names;
}

bool IntegratorFormsJacobian(std::string_view name) {
  return std::find(kJacobianSolvers.begin(), kJacobianSolvers.end(), name) !=
         kJacobianSolvers.end();
}

std::string_view IntegratorDescription(std::string_view name) {
  for (const SolverEntry& entry : kSolvers) {
    if (entry.name == name) return entry.description;
  }
  ThrowUnknown(name);
}

std::unique_ptr<Integrator> MakeIntegrator(std::string_view name, OdeProblem* problem,
                                           const IntegratorOptions& options) {
  if (problem == nullptr) throw std::invalid_argument("MakeIntegrator: problem is null");
  const std::string n(name);
  IntegratorDescription(name);  // an unknown name is named as such first
  CheckJacobianSteps(n, options.jacobian_steps);
  CheckJacobianMethod(n, options.jacobian_method, problem->has_jacobian());
  if (n == "ode1") {
    return std::make_unique<ExplicitRungeKuttaIntegrator>(n, EulerTableau(), problem, options);
  }
  if (n == "ode2") {
    return std::make_unique<ExplicitRungeKuttaIntegrator>(n, HeunTableau(), problem, options);
  }
  if (n == "ode3") {
    return std::make_unique<ExplicitRungeKuttaIntegrator>(
        n, DropFsalStage(BogackiShampineTableau()), problem, options);
  }
  if (n == "ode4") {
    return std::make_unique<ExplicitRungeKuttaIntegrator>(n, ClassicRungeKuttaTableau(), problem,
                                                          options);
  }
  if (n == "ode5") {
    return std::make_unique<ExplicitRungeKuttaIntegrator>(n, DropFsalStage(DormandPrinceTableau()),
                                                          problem, options);
  }
  if (n == "ode1be") {
    return std::make_unique<RosenbrockIntegrator>(RosenbrockMethod::kLinearlyImplicitEuler, problem,
                                                  options);
  }
  if (n == "ros2") {
    return std::make_unique<RosenbrockIntegrator>(RosenbrockMethod::kRos2, problem, options);
  }
  if (n == "ode23") {
    return std::make_unique<EmbeddedRungeKuttaIntegrator>(
        n, BogackiShampineTableau(), DenseOutput::kHermite, 0.0, problem, options);
  }
  if (n == "ode45") {
    // beta = 0.04: Hairer's DOPRI5 choice for the PI (Lund) stabilization.
    return std::make_unique<EmbeddedRungeKuttaIntegrator>(
        n, DormandPrinceTableau(), DenseOutput::kDormandPrince, 0.04, problem, options);
  }
  if (n == "ode23s") return std::make_unique<ModifiedRosenbrockIntegrator>(problem, options);
  if (n == "cvode-bdf") {
    return std::make_unique<CvodeIntegrator>(CvodeMethod::kBdf, problem, options);
  }
  if (n == "cvode-adams") {
    return std::make_unique<CvodeIntegrator>(CvodeMethod::kAdams, problem, options);
  }
  if (n == "arkode-erk") {
    return std::make_unique<ArkodeIntegrator>(ArkodeMethod::kExplicit, problem, options);
  }
  if (n == "arkode-dirk") {
    return std::make_unique<ArkodeIntegrator>(ArkodeMethod::kImplicit, problem, options);
  }
  if (n == "ida") return std::make_unique<IdaIntegrator>(problem, options);
  ThrowUnknown(name);
}

std::unique_ptr<Integrator> MakeDaeIntegrator(DaeProblem* problem,
                                              const IntegratorOptions& options) {
  if (problem == nullptr) throw std::invalid_argument("MakeDaeIntegrator: problem is null");
  CheckJacobianSteps("ida", options.jacobian_steps);
  CheckJacobianMethod("ida", options.jacobian_method, problem->has_jacobian());
  return std::make_unique<IdaIntegrator>(problem, options);
}

}  // namespace twinblocks::solvers
