#include "solvers/ida_integrator.h"

#include <ida/ida.h>
#include <ida/ida_ls.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <cmath>
#include <cstdlib>
#include <exception>
#include <limits>
#include <stdexcept>

#include "solvers/detail/step_helpers.h"
#include "solvers/solver_table.h"

namespace twinblocks::solvers {

/// The ODE x' = f(t, x) seen as the residual x' - f(t, x): every variable is differential.
class IdaIntegrator::OdeResidual final : public DaeProblem {
 public:
  explicit OdeResidual(OdeProblem* ode) : ode_(ode), f_(Eigen::VectorXd::Zero(ode->num_states())) {}

  int num_states() const override { return ode_->num_states(); }

  int CalcResidual(double t, const Eigen::Ref<const Eigen::VectorXd>& y,
                   const Eigen::Ref<const Eigen::VectorXd>& yp,
                   Eigen::Ref<Eigen::VectorXd> residual) override {
    const int flag = ode_->CalcDerivatives(t, y, f_);
    if (flag != 0) return flag;
    residual = yp - f_;
    return 0;
  }

  void GetDifferentialMask(Eigen::Ref<Eigen::VectorXd> is_differential) const override {
    is_differential.setOnes();
  }

  bool has_jacobian() const override { return ode_->has_jacobian(); }

  /// d(x' - f)/dx + cj d(x' - f)/dx' = cj I - df/dx.
  int CalcJacobian(double t, const Eigen::Ref<const Eigen::VectorXd>& y,
                   const Eigen::Ref<const Eigen::VectorXd>& yp, double cj,
                   Eigen::Ref<Eigen::MatrixXd> J) override {
    // OdeProblem::CalcJacobian reads what the evaluation of f just before it found.
    int flag = ode_->CalcDerivatives(t, y, f_);
    if (flag == 0) flag = ode_->CalcJacobian(t, y, J);
    if (flag != 0) return flag;
    J = -J;
    J.diagonal().array() += cj;
    return 0;
  }

  int num_zero_crossings() const override { return ode_->num_zero_crossings(); }

  int CalcZeroCrossings(double t, const Eigen::Ref<const Eigen::VectorXd>& y,
                        const Eigen::Ref<const Eigen::VectorXd>& yp,
                        Eigen::Ref<Eigen::VectorXd> g) override {
    return ode_->CalcZeroCrossings(t, y, g);
  }

  const char* last_error() const override { return ode_->last_error(); }
  std::string DescribeState(int i) const override { return ode_->DescribeState(i); }

  OdeProblem* ode() const { return ode_; }

 private:
  OdeProblem* ode_;
  Eigen::VectorXd f_;  // (nx x 1) scratch
};

void IdaIntegrator::MemoryDeleter::operator()(void* mem) const { IDAFree(&mem); }

IdaIntegrator::IdaIntegrator(DaeProblem* problem, const IntegratorOptions& options)
    : IdaIntegrator(problem, nullptr, nullptr, options) {}

IdaIntegrator::IdaIntegrator(OdeProblem* problem, const IntegratorOptions& options)
    : IdaIntegrator(nullptr, std::make_unique<OdeResidual>(problem), problem, options) {}

IdaIntegrator::IdaIntegrator(DaeProblem* dae, std::unique_ptr<OdeResidual> ode_residual,
                             OdeProblem* ode, const IntegratorOptions& options)
    : SundialsIntegrator(solver_names::kIda, ode, options,
                         ode_residual ? ode_residual->num_states() : dae->num_states(),
                         !options.locate_zero_crossings ? 0
                         : ode_residual                 ? ode_residual->num_zero_crossings()
                                                        : dae->num_zero_crossings()),
      ode_residual_(std::move(ode_residual)),
      dae_(ode_residual_ ? ode_residual_.get() : dae),
      yp_(internal::MakeSerialVector(nx_ > 0 ? nx_ : 1, context_.get())),
      id_(internal::MakeSerialVector(nx_ > 0 ? nx_ : 1, context_.get())) {
  if (nx_ == 0) return;  // nothing to integrate: the base steps straight to t_stop
  Eigen::Map<Eigen::VectorXd> id = internal::AsEigen(id_.get());
  dae_->GetDifferentialMask(id);
  for (int i = 0; i < nx_; ++i) {
    id[i] = id[i] != 0.0 ? 1.0 : 0.0;
    if (id[i] == 0.0) has_algebraic_ = true;
  }

  mem_.reset(IDACreate(context_.get()));
  if (!mem_) throw std::runtime_error("ida: IDACreate failed");
  void* mem = mem_.get();
  CheckFlag(IDASetErrHandlerFn(mem, &SundialsIntegrator::ErrorHandler, this), "IDASetErrHandlerFn");
  CheckFlag(IDAInit(mem, &IdaIntegrator::ResidualCallback, 0.0, y_.get(), yp_.get()), "IDAInit");
  CheckFlag(IDASetUserData(mem, this), "IDASetUserData");
  index2_ = has_algebraic_ && dae_->index() >= 2;
  if (index2_) {
    if (!dae_->has_consistent_start()) {
      throw std::invalid_argument("ida: an index-2 DAE must give its own consistent start");
    }
    // Algebraic variables out of every norm (ode_problem.h, DaeProblem::index): an absolute
    // tolerance so large that their weights vanish.
    // Into the kept tolerances where there are any, so that scaling never weighs them again
    // (rtol |z| stays below kUnweighted).
    const Eigen::VectorXd tolerances = internal::AbsoluteTolerances(name_, options_, nx_);
    internal::NVectorPtr own;
    N_Vector atol = absolute_tolerances();
    if (atol == nullptr) {
      own = internal::MakeSerialVector(nx_, context_.get());
      atol = own.get();
    }
    Eigen::Map<Eigen::VectorXd> a = internal::AsEigen(atol);
    for (int i = 0; i < nx_; ++i) a[i] = id[i] != 0.0 ? tolerances[i] : kUnweighted;
    if (scales_tolerances()) {
      CheckFlag(IDAWFtolerances(mem, &SundialsIntegrator::ErrorWeightsCallback), "IDAWFtolerances");
    } else {
      CheckFlag(IDASVtolerances(mem, options_.rtol, atol), "IDASVtolerances");
    }
  } else if (scales_tolerances()) {
    CheckFlag(IDAWFtolerances(mem, &SundialsIntegrator::ErrorWeightsCallback), "IDAWFtolerances");
  } else if (N_Vector atol = absolute_tolerances()) {
    CheckFlag(IDASVtolerances(mem, options_.rtol, atol), "IDASVtolerances");
  } else {
    CheckFlag(IDASStolerances(mem, options_.rtol, options_.atol), "IDASStolerances");
  }
  jacobian_ = internal::MakeDenseMatrix(nx_, context_.get());
  linear_solver_ = std::make_unique<internal::BlockTriangularLinearSolver>(nx_, context_.get());
  CheckFlag(IDASetLinearSolver(mem, linear_solver_->get(), jacobian_.get()), "IDASetLinearSolver");
  CheckFlag(IDASetJacFn(mem, &IdaIntegrator::JacobianCallback), "IDASetJacFn");
  if (has_algebraic_) {
    CheckFlag(IDASetId(mem, id_.get()), "IDASetId");
    CheckFlag(IDASetSuppressAlg(mem, SUNTRUE), "IDASetSuppressAlg");
  }
  if (options_.max_step > 0.0 && std::isfinite(options_.max_step)) {
    CheckFlag(IDASetMaxStep(mem, options_.max_step), "IDASetMaxStep");
  }
  if (options_.initial_step > 0.0) {
    CheckFlag(IDASetInitStep(mem, options_.initial_step), "IDASetInitStep");
  }
  if (options_.min_step > 0.0) {
    CheckFlag(IDASetMinStep(mem, options_.min_step), "IDASetMinStep");
  }
  if (options_.max_steps > 0) {
    CheckFlag(IDASetMaxNumSteps(mem, options_.max_steps), "IDASetMaxNumSteps");
  }
  if (ng_ > 0) {
    CheckFlag(IDARootInit(mem, ng_, &IdaIntegrator::DaeRootCallback), "IDARootInit");
    CheckFlag(IDASetNoInactiveRootWarn(mem), "IDASetNoInactiveRootWarn");
  }
  WarmUp();
}

IdaIntegrator::~IdaIntegrator() = default;

Eigen::Map<const Eigen::VectorXd> IdaIntegrator::derivative() const {
  return {N_VGetArrayPointer(yp_.get()), nx_};
}

int IdaIntegrator::EvalResidual(double t, N_Vector y, N_Vector yp, N_Vector r) {
  if (warming_up()) {
    N_VLinearSum(1.0, yp, 1.0, y, r);  // y' + y = 0
    return 0;
  }
  return Guarded("the residual evaluation", t, [&]() -> int {
    const Eigen::Map<Eigen::VectorXd> yv = internal::AsEigen(y);
    const Eigen::Map<Eigen::VectorXd> ypv = internal::AsEigen(yp);
    Eigen::Map<Eigen::VectorXd> rv = internal::AsEigen(r);
    const int flag = dae_->CalcResidual(t, yv, ypv, rv);
    if (flag != 0) {
      RecordCallbackError("the residual evaluation returned %d at t = %.17g s: %s", flag, t,
                          Text(dae_->last_error()));
      return flag;
    }
    const int bad = internal::FirstNonFinite(rv);
    if (bad >= 0) {
      RecordCallbackError(ode_residual_ ? "the derivative of state %d is %g at t = %.17g s"
                                        : "residual %d is %g at t = %.17g s",
                          bad, rv[bad], t);
      return 1;
    }
    return 0;
  });
}

int IdaIntegrator::EvalDaeRoots(double t, N_Vector y, N_Vector yp, double* g) {
  if (warming_up()) {
    for (int i = 0; i < ng_; ++i) g[i] = 1.0;
    return 0;
  }
  CountZeroCrossingEval();
  return Guarded("the zero-crossing evaluation", t, [&]() -> int {
    const Eigen::Map<Eigen::VectorXd> yv = internal::AsEigen(y);
    const Eigen::Map<Eigen::VectorXd> ypv = internal::AsEigen(yp);
    Eigen::Map<Eigen::VectorXd> gv(g, ng_);
    const int flag = dae_->CalcZeroCrossings(t, yv, ypv, gv);
    if (flag != 0) {
      RecordCallbackError("the zero-crossing evaluation returned %d at t = %.17g s: %s", flag, t,
                          Text(dae_->last_error()));
    }
    return flag;
  });
}

int IdaIntegrator::CalcResidualJacobian(double t, double cj, N_Vector y, N_Vector yp, N_Vector r,
                                        SUNMatrix jac, N_Vector work) {
  CountJacobianEval();
  if (options_.jacobian_method == JacobianMethod::kProblem) {
    return CalcProblemResidualJacobian(t, cj, y, yp, jac);
  }
  // dF/dy + cj dF/dy' by differences along (e_j, cj e_j), with IDA's increments.
  return Guarded("the Jacobian evaluation", t, [&]() -> int {
    double h = 0.0;
    IDAGetCurrentStep(mem_.get(), &h);
    if (IDAGetErrWeights(mem_.get(), ewt_.get()) != IDA_SUCCESS) return -1;
    double* yd = N_VGetArrayPointer(y);
    double* ypd = N_VGetArrayPointer(yp);
    const Eigen::Map<const Eigen::VectorXd> y_map(yd, nx_);
    const Eigen::Map<const Eigen::VectorXd> yp_map(ypd, nx_);
    const Eigen::Map<Eigen::VectorXd> r0 = internal::AsEigen(r);
    const Eigen::Map<Eigen::VectorXd> r1 = internal::AsEigen(work);
    const Eigen::Map<Eigen::VectorXd> w = internal::AsEigen(ewt_.get());
    const double srur = std::sqrt(std::numeric_limits<double>::epsilon());
    const double* id = N_VGetArrayPointer(id_.get());
    for (int j = 0; j < nx_; ++j) {
      const double y_saved = yd[j];
      const double yp_saved = ypd[j];
      // An unweighted (index-2 algebraic) variable has no scale from its tolerance: a
      // relative increment, at least srur in its own units.
      const double floor = index2_ && id[j] == 0.0 ? srur : 1.0 / w[j];
      double inc = std::max(srur * std::max(std::abs(y_saved), std::abs(h * yp_saved)), floor);
      if (h * yp_saved < 0.0) inc = -inc;
      inc = (y_saved + inc) - y_saved;  // the increment actually representable
      yd[j] = y_saved + inc;
      ypd[j] = yp_saved + cj * inc;
      const int flag = dae_->CalcResidual(t, y_map, yp_map, r1);
      CountResidualEval();
      yd[j] = y_saved;
      ypd[j] = yp_saved;
      if (flag != 0) {
        RecordCallbackError(
            "the residual evaluation for the Jacobian returned %d at t = %.17g "
            "s: %s",
            flag, t, Text(dae_->last_error()));
        return flag;
      }
      if (internal::FirstNonFinite(r1) >= 0) return 1;
      Eigen::Map<Eigen::VectorXd>(SUNDenseMatrix_Column(jac, j), nx_) = (r1 - r0) / inc;
    }
    return 0;
  });
}

int IdaIntegrator::CalcProblemResidualJacobian(double t, double cj, N_Vector y, N_Vector yp,
                                               SUNMatrix jac) {
  return Guarded("the Jacobian evaluation", t, [&]() -> int {
    const Eigen::Map<const Eigen::VectorXd> y_map(N_VGetArrayPointer(y), nx_);
    const Eigen::Map<const Eigen::VectorXd> yp_map(N_VGetArrayPointer(yp), nx_);
    Eigen::Map<Eigen::MatrixXd> J(SUNDenseMatrix_Data(jac), nx_, nx_);
    // Zero outside what the problem writes, as an OdeProblem's CalcJacobian may assume.
    J.setZero();
    CountResidualEval();  // the problem evaluates itself at (t, y, y') first
    const int flag = dae_->CalcJacobian(t, y_map, yp_map, cj, J);
    return CheckProblemJacobian(t, flag, dae_->last_error(), jac);
  });
}

int IdaIntegrator::JacobianCallback(double t, double cj, N_Vector y, N_Vector yp, N_Vector r,
                                    SUNMatrix jac, void* user_data, N_Vector tmp1, N_Vector tmp2,
                                    N_Vector tmp3) {
  auto* self = static_cast<IdaIntegrator*>(user_data);
  if (self->warming_up()) {
    SUNMatZero(jac);
    for (int j = 0; j < self->nx_; ++j) SUNDenseMatrix_Column(jac, j)[j] = 1.0 + cj;
    return 0;
  }
  return self->CalcResidualJacobian(t, cj, y, yp, r, jac, tmp1);
}

int IdaIntegrator::ResidualCallback(double t, N_Vector y, N_Vector yp, N_Vector r,
                                    void* user_data) {
  return static_cast<IdaIntegrator*>(user_data)->EvalResidual(t, y, yp, r);
}

int IdaIntegrator::DaeRootCallback(double t, N_Vector y, N_Vector yp, double* g, void* user_data) {
  return static_cast<IdaIntegrator*>(user_data)->EvalDaeRoots(t, y, yp, g);
}

void IdaIntegrator::DoReInit(double t) {
  void* mem = mem_.get();
  double h_last = 0.0;
  if (IDAGetLastStep(mem, &h_last) == IDA_SUCCESS && h_last > 0.0) h_last_ = h_last;
  Eigen::Map<Eigen::VectorXd> yp = internal::AsEigen(yp_.get());
  if (ode_residual_) {
    // Consistent by construction: y' = f(t, y).
    CountResidualEval();
    const int flag = ode_residual_->ode()->CalcDerivatives(t, internal::AsEigen(y_.get()), yp);
    if (flag != 0) {
      RecordCallbackError("the derivative evaluation returned %d at t = %.17g s: %s", flag, t,
                          Text(dae_->last_error()));
      ThrowError("CalcDerivatives", "a failed evaluation");
    }
  }
  if (!ode_residual_ && dae_->has_consistent_start()) {
    // The problem's own consistent start (an index-2 system cannot use IDACalcIC).
    const int flag = dae_->CalcConsistentStart(t, internal::AsEigen(y_.get()), yp);
    if (flag != 0) {
      RecordCallbackError("the consistent start returned %d at t = %.17g s: %s", flag, t,
                          Text(dae_->last_error()));
      ThrowError("CalcConsistentStart", "a failed evaluation");
    }
  }
  CheckFlag(IDAReInit(mem, t, y_.get(), yp_.get()), "IDAReInit");
  CountersRestarted();
  if (ode_residual_ || nx_ == 0 || dae_->has_consistent_start()) return;
  // IDACalcIC only needs tout1 for its scale and direction: one expected step ahead.
  const double h_guess = options_.initial_step > 0.0 ? options_.initial_step
                         : h_last_ > 0.0             ? h_last_
                                                     : 1e-3 * std::max(1.0, std::abs(t));
  CheckFlag(IDACalcIC(mem, IDA_YA_YDP_INIT, t + h_guess), "IDACalcIC");
  CheckFlag(IDAGetConsistentIC(mem, y_.get(), yp_.get()), "IDAGetConsistentIC");
}

void IdaIntegrator::DoSetStopTime(double t_stop) {
  CheckFlag(IDASetStopTime(mem_.get(), t_stop), "IDASetStopTime");
}

int IdaIntegrator::DoStep(double t_stop, double* t_reached) {
  return IDASolve(mem_.get(), t_stop, t_reached, y_.get(), yp_.get(), IDA_ONE_STEP);
}

int IdaIntegrator::DoGetDky(double t, N_Vector out) { return IDAGetDky(mem_.get(), t, 0, out); }

void IdaIntegrator::DoGetRootInfo() {
  CheckFlag(IDAGetRootInfo(mem_.get(), root_info_.data()), "IDAGetRootInfo");
}

void IdaIntegrator::DoAdvanceTinyGap(double h) {
  // y' of the last step is at hand; over a few ulp of time explicit Euler is exact enough.
  x_ += h * internal::AsEigen(yp_.get());
}

void IdaIntegrator::DoReadCounters(IntegratorStats* counters) {
  *counters = IntegratorStats{};
  if (!mem_) return;
  void* mem = mem_.get();
  long steps = 0, error_fails = 0, solve_fails = 0, res = 0, ls_res = 0;
  IDAGetNumSteps(mem, &steps);
  IDAGetNumErrTestFails(mem, &error_fails);
  IDAGetNumStepSolveFails(mem, &solve_fails);
  IDAGetNumResEvals(mem, &res);
  IDAGetNumLinResEvals(mem, &ls_res);
  counters->steps = steps;
  counters->rejected_steps = error_fails + solve_fails;
  counters->rhs_evals = res + ls_res;
}

std::string IdaIntegrator::FlagName(int flag) const {
  char* text = IDAGetReturnFlagName(flag);
  std::string result = text != nullptr ? text : std::to_string(flag);
  std::free(text);
  return result;
}

bool IdaIntegrator::DoGetLocalErrors(N_Vector ele, N_Vector ewt) {
  return IDAGetEstLocalErrors(mem_.get(), ele) == IDA_SUCCESS &&
         IDAGetErrWeights(mem_.get(), ewt) == IDA_SUCCESS;
}

}  // namespace twinblocks::solvers
