#include "solvers/cvode_integrator.h"

#include <cvode/cvode.h>
#include <cvode/cvode_ls.h>
#include <cvode/cvode_proj.h>

#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include "solvers/detail/step_helpers.h"
#include "solvers/solver_table.h"

namespace twinblocks::solvers {

void CvodeIntegrator::MemoryDeleter::operator()(void* mem) const { CVodeFree(&mem); }

CvodeIntegrator::CvodeIntegrator(CvodeMethod method, OdeProblem* problem,
                                 const IntegratorOptions& options)
    : SundialsIntegrator(
          method == CvodeMethod::kBdf ? solver_names::kCvodeBdf : solver_names::kCvodeAdams,
          problem, options, problem->num_states(),
          options.locate_zero_crossings ? problem->num_zero_crossings() : 0) {
  if (nx_ == 0) return;  // nothing to integrate: the base steps straight to t_stop
  mem_.reset(CVodeCreate(method == CvodeMethod::kBdf ? CV_BDF : CV_ADAMS, context_.get()));
  if (!mem_) throw std::runtime_error(name_ + ": CVodeCreate failed");
  void* mem = mem_.get();
  CheckFlag(CVodeSetErrHandlerFn(mem, &SundialsIntegrator::ErrorHandler, this),
            "CVodeSetErrHandlerFn");
  CheckFlag(CVodeInit(mem, &SundialsIntegrator::RhsCallback, 0.0, y_.get()), "CVodeInit");
  CheckFlag(CVodeSetUserData(mem, this), "CVodeSetUserData");
  if (scales_tolerances()) {
    CheckFlag(CVodeWFtolerances(mem, &SundialsIntegrator::ErrorWeightsCallback),
              "CVodeWFtolerances");
  } else if (N_Vector atol = absolute_tolerances()) {
    CheckFlag(CVodeSVtolerances(mem, options_.rtol, atol), "CVodeSVtolerances");
  } else {
    CheckFlag(CVodeSStolerances(mem, options_.rtol, options_.atol), "CVodeSStolerances");
  }
  jacobian_ = internal::MakeDenseMatrix(nx_, context_.get());
  linear_solver_ = std::make_unique<internal::BlockTriangularLinearSolver>(nx_, context_.get());
  CheckFlag(CVodeSetLinearSolver(mem, linear_solver_->get(), jacobian_.get()),
            "CVodeSetLinearSolver");
  CheckFlag(CVodeSetJacFn(mem, &CvodeIntegrator::JacobianCallback), "CVodeSetJacFn");
  if (options_.jacobian_steps) {
    // CVODE forms J only where it sets up its Newton matrix, every 20 steps at most by default,
    // and there only if J is msbj steps old: with a setup at every step, msbj is J's age bound.
    CheckFlag(CVodeSetLSetupFrequency(mem, 1), "CVodeSetLSetupFrequency");
    CheckFlag(CVodeSetJacEvalFrequency(mem, *options_.jacobian_steps), "CVodeSetJacEvalFrequency");
  }
  if (options_.max_step > 0.0 && std::isfinite(options_.max_step)) {
    CheckFlag(CVodeSetMaxStep(mem, options_.max_step), "CVodeSetMaxStep");
  }
  if (options_.initial_step > 0.0) {
    CheckFlag(CVodeSetInitStep(mem, options_.initial_step), "CVodeSetInitStep");
  }
  if (options_.min_step > 0.0) {
    CheckFlag(CVodeSetMinStep(mem, options_.min_step), "CVodeSetMinStep");
  }
  if (options_.max_steps > 0) {
    CheckFlag(CVodeSetMaxNumSteps(mem, options_.max_steps), "CVodeSetMaxNumSteps");
  }
  if (method == CvodeMethod::kBdf && problem->has_projection()) {
    // Each step's solution onto the problem's invariants, with CVODE's history kept
    // consistent: a projection is then no restart. (CVODE projects with BDF only.) The error
    // estimate is left unprojected: it bounds the step's error as it is.
    CheckFlag(CVodeSetProjFn(mem, &CvodeIntegrator::ProjectionCallback), "CVodeSetProjFn");
    CheckFlag(CVodeSetProjErrEst(mem, SUNFALSE), "CVodeSetProjErrEst");
  }
  if (ng_ > 0) {
    CheckFlag(CVodeRootInit(mem, ng_, &SundialsIntegrator::RootCallback), "CVodeRootInit");
    CheckFlag(CVodeSetNoInactiveRootWarn(mem), "CVodeSetNoInactiveRootWarn");
  }
  WarmUp();
}

int CvodeIntegrator::JacobianCallback(double t, N_Vector y, N_Vector fy, SUNMatrix jac,
                                      void* user_data, N_Vector tmp1, N_Vector tmp2,
                                      N_Vector tmp3) {
  auto* self = static_cast<CvodeIntegrator*>(user_data);
  double h = 0.0;
  CVodeGetCurrentStep(self->mem_.get(), &h);
  if (CVodeGetErrWeights(self->mem_.get(), self->ewt_.get()) != CV_SUCCESS) return -1;
  return self->CalcDenseJacobian(t, y, fy, jac, h, tmp1);
}

int CvodeIntegrator::ProjectionCallback(double t, N_Vector ycur, N_Vector corr, double eps_proj,
                                        N_Vector err, void* user_data) {
  auto* self = static_cast<CvodeIntegrator*>(user_data);
  if (self->warming_up()) {
    N_VConst(0.0, corr);
    return 0;
  }
  return self->Guarded("the projection", t, [&]() -> int {
    const Eigen::Map<const Eigen::VectorXd> y(N_VGetArrayPointer(ycur), self->nx_);
    Eigen::Map<Eigen::VectorXd> correction = internal::AsEigen(corr);
    const int flag = self->problem_->CalcProjection(t, y, correction);
    if (flag != 0) {
      self->RecordCallbackError("the projection returned %d at t = %.17g s: %s", flag, t,
                                Text(self->problem_->last_error()));
      return flag;
    }
    const int bad = internal::FirstNonFinite(correction);
    if (bad >= 0) {
      self->RecordCallbackError("the projection's correction of state %d is %g at t = %.17g s", bad,
                                correction[bad], t);
      return 1;
    }
    return 0;
  });
}

void CvodeIntegrator::DoReInit(double t) {
  CheckFlag(CVodeReInit(mem_.get(), t, y_.get()), "CVodeReInit");
  CountersRestarted();
}

void CvodeIntegrator::DoSetStopTime(double t_stop) {
  CheckFlag(CVodeSetStopTime(mem_.get(), t_stop), "CVodeSetStopTime");
}

int CvodeIntegrator::DoStep(double t_stop, double* t_reached) {
  return CVode(mem_.get(), t_stop, y_.get(), t_reached, CV_ONE_STEP);
}

int CvodeIntegrator::DoGetDky(double t, N_Vector out) { return CVodeGetDky(mem_.get(), t, 0, out); }

void CvodeIntegrator::DoGetRootInfo() {
  CheckFlag(CVodeGetRootInfo(mem_.get(), root_info_.data()), "CVodeGetRootInfo");
}

void CvodeIntegrator::DoReadCounters(IntegratorStats* counters) {
  *counters = IntegratorStats{};
  if (!mem_) return;
  void* mem = mem_.get();
  long steps = 0, error_fails = 0, conv_fails = 0, rhs = 0, ls_rhs = 0;
  CVodeGetNumSteps(mem, &steps);
  CVodeGetNumErrTestFails(mem, &error_fails);
  CVodeGetNumStepSolveFails(mem, &conv_fails);
  CVodeGetNumRhsEvals(mem, &rhs);
  CVodeGetNumLinRhsEvals(mem, &ls_rhs);
  counters->steps = steps;
  counters->rejected_steps = error_fails + conv_fails;
  counters->rhs_evals = rhs + ls_rhs;
}

std::string CvodeIntegrator::FlagName(int flag) const {
  char* text = CVodeGetReturnFlagName(flag);
  std::string result = text != nullptr ? text : std::to_string(flag);
  std::free(text);
  return result;
}

bool CvodeIntegrator::DoGetLocalErrors(N_Vector ele, N_Vector ewt) {
  return CVodeGetEstLocalErrors(mem_.get(), ele) == CV_SUCCESS &&
         CVodeGetErrWeights(mem_.get(), ewt) == CV_SUCCESS;
}

}  // namespace twinblocks::solvers
