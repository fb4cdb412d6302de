#include "solvers/arkode_integrator.h"

#include <arkode/arkode_arkstep.h>

#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include "solvers/solver_table.h"

namespace twinblocks::solvers {
namespace {

// Restarts with a shorter first step after a recoverable failure of f (explicit ARKStep).
constexpr int kMaxRecoveries = 20;

}  // namespace

void ArkodeIntegrator::MemoryDeleter::operator()(void* mem) const { ARKStepFree(&mem); }

ArkodeIntegrator::ArkodeIntegrator(ArkodeMethod method, OdeProblem* problem,
                                   const IntegratorOptions& options)
    : SundialsIntegrator(
          method == ArkodeMethod::kExplicit ? solver_names::kArkodeErk : solver_names::kArkodeDirk,
          problem, options, problem->num_states(),
          options.locate_zero_crossings ? problem->num_zero_crossings() : 0),
      method_(method) {
  if (nx_ == 0) return;  // nothing to integrate: the base steps straight to t_stop
  const bool explicit_rhs = method_ == ArkodeMethod::kExplicit;
  ARKRhsFn rhs = &SundialsIntegrator::RhsCallback;
  mem_.reset(ARKStepCreate(explicit_rhs ? rhs : nullptr, explicit_rhs ? nullptr : rhs, 0.0,
                           y_.get(), context_.get()));
  if (!mem_) throw std::runtime_error(name_ + ": ARKStepCreate failed");
  void* mem = mem_.get();
  CheckFlag(ARKStepSetErrHandlerFn(mem, &SundialsIntegrator::ErrorHandler, this),
            "ARKStepSetErrHandlerFn");
  CheckFlag(ARKStepSetUserData(mem, this), "ARKStepSetUserData");
  if (scales_tolerances()) {
    CheckFlag(ARKStepWFtolerances(mem, &SundialsIntegrator::ErrorWeightsCallback),
              "ARKStepWFtolerances");
  } else if (N_Vector atol = absolute_tolerances()) {
    CheckFlag(ARKStepSVtolerances(mem, options_.rtol, atol), "ARKStepSVtolerances");
  } else {
    CheckFlag(ARKStepSStolerances(mem, options_.rtol, options_.atol), "ARKStepSStolerances");
  }
  if (!explicit_rhs) {
    jacobian_ = internal::MakeDenseMatrix(nx_, context_.get());
    linear_solver_ = std::make_unique<internal::BlockTriangularLinearSolver>(nx_, context_.get());
    CheckFlag(ARKStepSetLinearSolver(mem, linear_solver_->get(), jacobian_.get()),
              "ARKStepSetLinearSolver");
    CheckFlag(ARKStepSetJacFn(mem, &ArkodeIntegrator::JacobianCallback), "ARKStepSetJacFn");
    if (options_.jacobian_steps) {
      // As in CVODE: J is formed where the Newton matrix is set up (every 20 steps at most, by
      // default) if it is msbj steps old; a setup at every step makes msbj J's age bound.
      CheckFlag(ARKStepSetLSetupFrequency(mem, 1), "ARKStepSetLSetupFrequency");
      CheckFlag(ARKStepSetJacEvalFrequency(mem, *options_.jacobian_steps),
                "ARKStepSetJacEvalFrequency");
    }
    // With the default trivial predictor, ARKODE 6.4's Newton iteration stops with stage
    // errors above the tolerance: on x'' = -4x at rtol 1e-8 the global error was 7e-5 (and
    // 5e-6 at 1e-10). The maximum-order predictor (dense output of the last step) starts
    // Newton close enough that the error follows the tolerance (5e-9 and 3e-10).
    CheckFlag(ARKStepSetPredictorMethod(mem, 1), "ARKStepSetPredictorMethod");
  }
  if (options_.max_step > 0.0 && std::isfinite(options_.max_step)) {
    CheckFlag(ARKStepSetMaxStep(mem, options_.max_step), "ARKStepSetMaxStep");
  }
  if (options_.initial_step > 0.0) {
    CheckFlag(ARKStepSetInitStep(mem, options_.initial_step), "ARKStepSetInitStep");
  }
  if (options_.min_step > 0.0) {
    CheckFlag(ARKStepSetMinStep(mem, options_.min_step), "ARKStepSetMinStep");
  }
  if (options_.max_steps > 0) {
    CheckFlag(ARKStepSetMaxNumSteps(mem, options_.max_steps), "ARKStepSetMaxNumSteps");
  }
  if (ng_ > 0) {
    CheckFlag(ARKStepRootInit(mem, ng_, &SundialsIntegrator::RootCallback), "ARKStepRootInit");
    CheckFlag(ARKStepSetNoInactiveRootWarn(mem), "ARKStepSetNoInactiveRootWarn");
  }
  WarmUp();
}

int ArkodeIntegrator::JacobianCallback(double t, N_Vector y, N_Vector fy, SUNMatrix jac,
                                       void* user_data, N_Vector tmp1, N_Vector tmp2,
                                       N_Vector tmp3) {
  auto* self = static_cast<ArkodeIntegrator*>(user_data);
  double h = 0.0;
  ARKStepGetCurrentStep(self->mem_.get(), &h);
  if (ARKStepGetErrWeights(self->mem_.get(), self->ewt_.get()) != ARK_SUCCESS) return -1;
  return self->CalcDenseJacobian(t, y, fy, jac, h, tmp1);
}

void ArkodeIntegrator::DoReInit(double t) {
  const bool explicit_rhs = method_ == ArkodeMethod::kExplicit;
  ARKRhsFn rhs = &SundialsIntegrator::RhsCallback;
  CheckFlag(ARKStepReInit(mem_.get(), explicit_rhs ? rhs : nullptr, explicit_rhs ? nullptr : rhs, t,
                          y_.get()),
            "ARKStepReInit");
  CountersRestarted();
}

void ArkodeIntegrator::CorrectState(double t, const Eigen::Ref<const Eigen::VectorXd>& x) {
  double h_next = 0.0;
  ARKStepGetCurrentStep(mem_.get(), &h_next);
  Reset(t, x);
  if (h_next <= 0.0) return;
  CheckFlag(ARKStepSetInitStep(mem_.get(), h_next), "ARKStepSetInitStep");
  first_step_set_ = true;
}

void ArkodeIntegrator::DoSetStopTime(double t_stop) {
  CheckFlag(ARKStepSetStopTime(mem_.get(), t_stop), "ARKStepSetStopTime");
}

int ArkodeIntegrator::DoStep(double t_stop, double* t_reached) {
  int flag = ARKStepEvolve(mem_.get(), t_stop, y_.get(), t_reached, ARK_ONE_STEP);
  if (first_step_set_) {
    // Later restarts choose their first step as configured again.
    CheckFlag(ARKStepSetInitStep(mem_.get(), std::max(options_.initial_step, 0.0)),
              "ARKStepSetInitStep");
    first_step_set_ = false;
  }
  if (method_ != ArkodeMethod::kExplicit || warming_up()) return flag;
  // ARKStep's explicit methods treat a recoverable failure of f as fatal. Do what the other
  // solvers do instead: restart at the last accepted step with a quarter of the failed step.
  for (int retry = 0;
       retry < kMaxRecoveries && flag == ARK_UNREC_RHSFUNC_ERR && last_rhs_flag() > 0; ++retry) {
    double h_failed = 0.0;
    ARKStepGetCurrentStep(mem_.get(), &h_failed);
    CountRejectedStep();
    Restart(t_);
    CheckFlag(ARKStepSetInitStep(mem_.get(), 0.25 * std::min(h_failed, t_stop - t_)),
              "ARKStepSetInitStep");
    DoSetStopTime(t_stop);
    flag = ARKStepEvolve(mem_.get(), t_stop, y_.get(), t_reached, ARK_ONE_STEP);
    // Later restarts choose their first step as configured again.
    CheckFlag(ARKStepSetInitStep(mem_.get(), std::max(options_.initial_step, 0.0)),
              "ARKStepSetInitStep");
  }
  return flag;
}

int ArkodeIntegrator::DoGetDky(double t, N_Vector out) {
  return ARKStepGetDky(mem_.get(), t, 0, out);
}

void ArkodeIntegrator::DoGetRootInfo() {
  CheckFlag(ARKStepGetRootInfo(mem_.get(), root_info_.data()), "ARKStepGetRootInfo");
}

void ArkodeIntegrator::DoReadCounters(IntegratorStats* counters) {
  *counters = IntegratorStats{};
  if (!mem_) return;
  void* mem = mem_.get();
  long steps = 0, error_fails = 0, solve_fails = 0, fe = 0, fi = 0, ls_rhs = 0;
  ARKStepGetNumSteps(mem, &steps);
  ARKStepGetNumErrTestFails(mem, &error_fails);
  ARKStepGetNumRhsEvals(mem, &fe, &fi);
  if (method_ == ArkodeMethod::kImplicit) {
    ARKStepGetNumStepSolveFails(mem, &solve_fails);
    ARKStepGetNumLinRhsEvals(mem, &ls_rhs);
  }
  counters->steps = steps;
  counters->rejected_steps = error_fails + solve_fails;
  counters->rhs_evals = fe + fi + ls_rhs;
}

std::string ArkodeIntegrator::FlagName(int flag) const {
  char* text = ARKStepGetReturnFlagName(flag);
  std::string result = text != nullptr ? text : std::to_string(flag);
  std::free(text);
  return result;
}

bool ArkodeIntegrator::DoGetLocalErrors(N_Vector ele, N_Vector ewt) {
  return ARKStepGetEstLocalErrors(mem_.get(), ele) == ARK_SUCCESS &&
         ARKStepGetErrWeights(mem_.get(), ewt) == ARK_SUCCESS;
}

}  // namespace twinblocks::solvers
