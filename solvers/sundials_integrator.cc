#include "solvers/sundials_integrator.h"

#include <sunmatrix/sunmatrix_dense.h>

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <exception>
#include <limits>
#include <sstream>

#include "solvers/detail/step_helpers.h"

namespace twinblocks::solvers {
namespace {

using internal::kEps;
// Gaps to t_stop up to this many ulp are too short for SUNDIALS ("tout too close to t0").
constexpr double kTinyGapUlps = 100.0;

void Accumulate(const IntegratorStats& from, double sign, IntegratorStats* to) {
  const long s = static_cast<long>(sign);
  to->steps += s * from.steps;
  to->rejected_steps += s * from.rejected_steps;
  to->rhs_evals += s * from.rhs_evals;
  to->zc_evals += s * from.zc_evals;
  to->zero_crossings += s * from.zero_crossings;
  to->jacobian_evals += s * from.jacobian_evals;
  to->resets += s * from.resets;
}

}  // namespace

SundialsIntegrator::SundialsIntegrator(std::string name, OdeProblem* problem,
                                       const IntegratorOptions& options, int nx, int ng)
    : Integrator(problem, options),
      name_(std::move(name)),
      nx_(nx),
      ng_(ng),
      context_(internal::MakeContext()),
      // SUNDIALS cannot hold a zero-length vector; such a problem never reaches the solver.
      y_(internal::MakeSerialVector(nx > 0 ? nx : 1, context_.get())),
      ewt_(internal::MakeSerialVector(nx > 0 ? nx : 1, context_.get())),
      root_info_(static_cast<size_t>(ng), 0),
      xdot_(Eigen::VectorXd::Zero(nx)),
      dky_(internal::MakeSerialVector(nx > 0 ? nx : 1, context_.get())) {
  crossed_.reserve(static_cast<size_t>(ng));
  if (!(options.rtol >= 0.0) || !(options.atol >= 0.0) || options.rtol + options.atol <= 0.0) {
    throw std::invalid_argument(name_ + ": rtol and atol must be >= 0 and not both 0");
  }
  const Eigen::VectorXd atol = internal::AbsoluteTolerances(name_, options, nx);
  atol_scaling_ = internal::AbsoluteToleranceScaling(name_, options, nx);
  if (nx > 0 && (options.state_atol.size() > 0 || atol_scaling_.on())) {
    atol_ = internal::MakeSerialVector(nx, context_.get());
    internal::AsEigen(atol_.get()) = atol;
  }
  x_ = Eigen::VectorXd::Zero(nx);
}

void SundialsIntegrator::ScaleTolerances() {
  if (!scales_tolerances()) return;
  Eigen::Map<Eigen::VectorXd> atol = internal::AsEigen(atol_.get());
  atol_scaling_.Grow(x_, atol);
}

int SundialsIntegrator::ErrorWeightsCallback(N_Vector y, N_Vector ewt, void* user_data) {
  const auto* self = static_cast<const SundialsIntegrator*>(user_data);
  const Eigen::Map<Eigen::VectorXd> x = internal::AsEigen(y);
  const Eigen::Map<Eigen::VectorXd> atol = internal::AsEigen(self->atol_.get());
  Eigen::Map<Eigen::VectorXd> w = internal::AsEigen(ewt);
  for (Eigen::Index i = 0; i < w.size(); ++i) {
    const double scale = self->options_.rtol * std::abs(x[i]) + atol[i];
    if (!(scale > 0.0)) return -1;  // as SUNDIALS' own: a weight must be positive
    w[i] = 1.0 / scale;
  }
  return 0;
}

void SundialsIntegrator::DoSaveMemory(std::vector<double>* memory) const {
  if (!scales_tolerances()) return;
  internal::MemoryWriter out(memory);
  for (const double a : internal::AsEigen(atol_.get())) out << a;
}

void SundialsIntegrator::DoRestoreState(double t, const Eigen::VectorXd& x,
                                        std::span<const double> memory) {
  const bool scaled = scales_tolerances();
  internal::MemoryReader in(memory, scaled ? static_cast<size_t>(nx_) : 0, name_);
  if (scaled) {
    for (double& a : internal::AsEigen(atol_.get())) a = in.Next();
  }
  Reset(t, x);
}

SundialsIntegrator::~SundialsIntegrator() = default;

void SundialsIntegrator::RecordCallbackError(const char* format, ...) {
  va_list args;
  va_start(args, format);
  std::vsnprintf(callback_message_.data(), callback_message_.size(), format, args);
  va_end(args);
}

void SundialsIntegrator::ErrorHandler(int error_code, const char* module, const char* function,
                                      char* msg, void* user_data) {
  // Keep the text for the SolverError instead of printing it; no allocation here.
  auto* self = static_cast<SundialsIntegrator*>(user_data);
  std::snprintf(self->solver_message_.data(), self->solver_message_.size(), "%s (%s, %d)",
                msg != nullptr ? msg : "", function != nullptr ? function : "?", error_code);
}

void SundialsIntegrator::WarmUp() {
  if (nx_ == 0) return;
  warming_up_ = true;
  N_VConst(0.0, y_.get());
  try {
    DoSetStopTime(1.0);
    double t_reached = 0.0;
    DoStep(1.0, &t_reached);  // its outcome does not matter
  } catch (const SolverError&) {
  }
  warming_up_ = false;
  solver_message_[0] = '\0';
  callback_message_[0] = '\0';
}

int SundialsIntegrator::EvalRhs(double t, N_Vector y, N_Vector ydot) {
  if (warming_up_) {
    N_VScale(-1.0, y, ydot);
    return 0;
  }
  last_rhs_flag_ = Guarded("the derivative evaluation", t, [&]() -> int {
    const Eigen::Map<Eigen::VectorXd> x = internal::AsEigen(y);
    Eigen::Map<Eigen::VectorXd> xdot = internal::AsEigen(ydot);
    last_rhs_flag_ = problem_->CalcDerivatives(t, x, xdot);
    if (last_rhs_flag_ != 0) {
      RecordCallbackError("the derivative evaluation returned %d at t = %.17g s: %s",
                          last_rhs_flag_, t, Text(problem_->last_error()));
      return last_rhs_flag_;
    }
    const int bad = internal::FirstNonFinite(xdot);
    if (bad >= 0) {
      RecordCallbackError("the derivative of state %d is %g at t = %.17g s", bad, xdot[bad], t);
      last_rhs_flag_ = 1;
    }
    return last_rhs_flag_;
  });
  return last_rhs_flag_;
}

int SundialsIntegrator::EvalRoots(double t, N_Vector y, double* g) {
  if (warming_up_) {
    for (int i = 0; i < ng_; ++i) g[i] = 1.0;
    return 0;
  }
  ++own_.zc_evals;
  return Guarded("the zero-crossing evaluation", t, [&]() -> int {
    const Eigen::Map<Eigen::VectorXd> x = internal::AsEigen(y);
    Eigen::Map<Eigen::VectorXd> gv(g, ng_);
    const int flag = problem_->CalcZeroCrossings(t, x, gv);
    if (flag != 0) {
      RecordCallbackError("the zero-crossing evaluation returned %d at t = %.17g s: %s", flag, t,
                          Text(problem_->last_error()));
    }
    return flag;
  });
}

int SundialsIntegrator::CalcDenseJacobian(double t, N_Vector y, N_Vector fy, SUNMatrix jac,
                                          double h, N_Vector work) {
  if (warming_up_) {
    SUNMatZero(jac);
    for (int j = 0; j < nx_; ++j) SUNDenseMatrix_Column(jac, j)[j] = -1.0;
    return 0;
  }
  CountJacobianEval();
  if (options_.jacobian_method == JacobianMethod::kProblem) {
    return CalcProblemJacobian(t, y, jac, work);
  }
  return Guarded("the Jacobian evaluation", t, [&]() -> int {
    double* yd = N_VGetArrayPointer(y);
    const Eigen::Map<const Eigen::VectorXd> y_map(yd, nx_);
    const Eigen::Map<Eigen::VectorXd> f0 = internal::AsEigen(fy);
    const Eigen::Map<Eigen::VectorXd> f1 = internal::AsEigen(work);
    const Eigen::Map<Eigen::VectorXd> w = internal::AsEigen(ewt_.get());
    const double srur = std::sqrt(kEps);
    const double fnorm = std::sqrt(f0.cwiseProduct(w).squaredNorm() / nx_);
    const double min_inc = fnorm != 0.0 ? 1000.0 * std::abs(h) * kEps * nx_ * fnorm : 1.0;
    for (int j = 0; j < nx_; ++j) {
      const double saved = yd[j];
      const double inc = std::max(srur * std::abs(saved), min_inc / w[j]);
      yd[j] = saved + inc;
      ++own_.rhs_evals;
      const int flag = problem_->CalcDerivatives(t, y_map, f1);
      yd[j] = saved;
      if (flag != 0) {
        RecordCallbackError(
            "the derivative evaluation for the Jacobian returned %d at t = %.17g "
            "s: %s",
            flag, t, Text(problem_->last_error()));
        return flag;
      }
      const int bad = internal::FirstNonFinite(f1);
      if (bad >= 0) {
        RecordCallbackError("the derivative of state %d is %g at t = %.17g s (Jacobian)", bad,
                            f1[bad], t);
        return 1;
      }
      Eigen::Map<Eigen::VectorXd>(SUNDenseMatrix_Column(jac, j), nx_) = (f1 - f0) / inc;
    }
    return 0;
  });
}

int SundialsIntegrator::CalcProblemJacobian(double t, N_Vector y, SUNMatrix jac, N_Vector work) {
  return Guarded("the Jacobian evaluation", t, [&]() -> int {
    const Eigen::Map<const Eigen::VectorXd> x(N_VGetArrayPointer(y), nx_);
    // The problem's Jacobian reads what its last evaluation of f found (OdeProblem): the
    // solver's last one may have been at another point (a predictor, a root search).
    ++own_.rhs_evals;
    Eigen::Map<Eigen::VectorXd> f = internal::AsEigen(work);
    int flag = problem_->CalcDerivatives(t, x, f);
    if (flag == 0) {
      // Zero outside the structure the problem may declare, as CalcJacobian may assume.
      SUNMatZero(jac);
      Eigen::Map<Eigen::MatrixXd> J(SUNDenseMatrix_Data(jac), nx_, nx_);
      flag = problem_->CalcJacobian(t, x, J);
    }
    return CheckProblemJacobian(t, flag, problem_->last_error(), jac);
  });
}

int SundialsIntegrator::CheckProblemJacobian(double t, int flag, const char* problem_error,
                                             SUNMatrix jac) {
  if (flag != 0) {
    RecordCallbackError("the Jacobian evaluation returned %d at t = %.17g s: %s", flag, t,
                        Text(problem_error));
    return flag;
  }
  const Eigen::Map<const Eigen::MatrixXd> J(SUNDenseMatrix_Data(jac), nx_, nx_);
  if (!J.allFinite()) {
    int bad = 0;
    while (J.row(bad).allFinite()) ++bad;
    RecordCallbackError("row %d of the Jacobian is not finite at t = %.17g s", bad, t);
    return 1;
  }
  return 0;
}

int SundialsIntegrator::RhsCallback(double t, N_Vector y, N_Vector ydot, void* user_data) {
  return static_cast<SundialsIntegrator*>(user_data)->EvalRhs(t, y, ydot);
}

int SundialsIntegrator::RootCallback(double t, N_Vector y, double* g, void* user_data) {
  return static_cast<SundialsIntegrator*>(user_data)->EvalRoots(t, y, g);
}

void SundialsIntegrator::CheckFlag(int flag, const char* function) {
  if (flag >= 0) return;
  // -1 to -4 in CVODE, ARKODE and IDA alike: too much work, too much accuracy asked,
  // repeated error-test failures, repeated convergence failures.
  ThrowError(function, FlagName(flag), flag >= -4);
}

void SundialsIntegrator::ThrowError(const char* function, const std::string& reason,
                                    bool step_failure) {
  if (solver_live_) UpdateStats();
  std::ostringstream os;
  os.precision(17);
  os << name_ << ": " << function << " failed with " << reason << " after t = " << t_ << " s";
  if (step_failure && nx_ > 0) {
    // The failure path: allocating here is fine.
    const internal::NVectorPtr ele = internal::MakeSerialVector(nx_, context_.get());
    const internal::NVectorPtr ewt = internal::MakeSerialVector(nx_, context_.get());
    if (DoGetLocalErrors(ele.get(), ewt.get())) {
      const Eigen::Map<Eigen::VectorXd> e = internal::AsEigen(ele.get());
      const Eigen::Map<Eigen::VectorXd> w = internal::AsEigen(ewt.get());
      Eigen::Index worst = 0;
      const double largest = (e.array() * w.array()).abs().maxCoeff(&worst);
      if (largest > 0.0 || std::isnan(largest)) {
        os << ", most in " << DescribeState(static_cast<int>(worst))
           << " (the largest weighted local error)";
      }
    }
  }
  if (solver_message_[0] != '\0') os << ": " << solver_message_.data();
  if (callback_message_[0] != '\0') os << "; last callback failure: " << callback_message_.data();
  solver_message_[0] = '\0';
  callback_message_[0] = '\0';
  needs_restart_ = true;
  throw SolverError(os.str(), t_);
}

void SundialsIntegrator::CountersRestarted() {
  DoReadCounters(&counters_at_restart_);
  solver_live_ = true;
}

void SundialsIntegrator::UpdateStats() {
  IntegratorStats now;
  DoReadCounters(&now);
  stats_ = finished_;
  Accumulate(now, 1.0, &stats_);
  Accumulate(counters_at_restart_, -1.0, &stats_);
  Accumulate(own_, 1.0, &stats_);
}

void SundialsIntegrator::Restart(double t) {
  if (solver_live_) {
    // Fold the counters of the run that ends here: ReInit zeroes some of them.
    IntegratorStats now;
    DoReadCounters(&now);
    Accumulate(now, 1.0, &finished_);
    Accumulate(counters_at_restart_, -1.0, &finished_);
    solver_live_ = false;
  }
  if (nx_ > 0) {
    internal::AsEigen(y_.get()) = x_;
    DoReInit(t);
    // DoReInit may have made algebraic variables consistent (IDA).
    x_ = internal::AsEigen(y_.get());
  }
  needs_restart_ = false;
}

void SundialsIntegrator::Reset(double t, const Eigen::Ref<const Eigen::VectorXd>& x) {
  internal::CheckStateSize(name_, x.size(), nx_);
  if (started_) ++own_.resets;
  started_ = true;
  t_ = t;
  x_ = x;
  ScaleTolerances();
  Restart(t);
  if (solver_live_) UpdateStats();
}

void SundialsIntegrator::DoAdvanceTinyGap(double h) {
  ++own_.rhs_evals;
  const int flag = problem_->CalcDerivatives(t_, x_, xdot_);
  if (flag != 0) {
    RecordCallbackError("the derivative evaluation returned %d at t = %.17g s: %s", flag, t_,
                        Text(problem_->last_error()));
    ThrowError("CalcDerivatives", "a failed evaluation");
  }
  x_ += h * xdot_;
}

StepResult SundialsIntegrator::Step(double t_stop) {
  internal::CheckStepRequest(name_, started_, t_, t_stop);
  StepResult result;
  result.t = t_;
  if (t_stop == t_) return result;

  t_step_start_ = t_;
  step_interpolable_ = false;
  const double gap = t_stop - t_;
  if (nx_ == 0 || gap <= kTinyGapUlps * kEps * std::max(std::abs(t_), std::abs(t_stop))) {
    if (nx_ > 0) DoAdvanceTinyGap(gap);
    const int bad = internal::FirstNonFinite(x_);
    if (bad >= 0) {
      throw SolverError(
          internal::NonFiniteStateMessage(name_, DescribeState(bad), x_[bad], t_, t_stop), t_);
    }
    t_ = t_stop;
    ++own_.steps;
    needs_restart_ = true;
    if (solver_live_) UpdateStats();
    result.t = t_;
    return result;
  }

  if (needs_restart_) Restart(t_);
  DoSetStopTime(t_stop);
  double t_reached = t_;
  const int flag = DoStep(t_stop, &t_reached);
  CheckFlag(flag, step_function_name());

  if (flag != kTstopReturn && flag != kRootReturn && !(t_reached > t_)) {
    // The step size fell below the resolution of t ("t + h = t"): SUNDIALS only warns and
    // would go on forever.
    ThrowError(step_function_name(), "step size underflow (no progress)", /*step_failure=*/true);
  }
  const Eigen::Map<Eigen::VectorXd> y = internal::AsEigen(y_.get());
  const int bad = internal::FirstNonFinite(y);
  if (bad >= 0) {
    needs_restart_ = true;
    UpdateStats();
    throw SolverError(
        internal::NonFiniteStateMessage(name_, DescribeState(bad), y[bad], t_, t_reached), t_);
  }
  x_ = y;
  ScaleTolerances();
  step_interpolable_ = true;
  // The stop time is returned bitwise; a root or an ordinary step ends before it.
  t_ = (flag == kTstopReturn || t_reached >= t_stop) ? t_stop : t_reached;
  if (flag == kRootReturn) {
    DoGetRootInfo();
    result.zero_crossing = true;
    crossed_.clear();
    for (int i = 0; i < ng_; ++i) {
      if (root_info_[i] != 0) crossed_.push_back(i);
    }
    result.crossed = crossed_;
    ++own_.zero_crossings;
    // The solver's internal time is past the root: restart there before going on.
    needs_restart_ = true;
  }
  UpdateStats();
  result.t = t_;
  return result;
}

void SundialsIntegrator::Interpolate(double t, Eigen::Ref<Eigen::VectorXd> x) {
  // Inside a tiny gap closed by one Euler step there is no interpolant; the gap is a few ulp.
  if (t == t_ || !step_interpolable_ || nx_ == 0) {
    x = x_;
    return;
  }
  CheckFlag(DoGetDky(t, dky_.get()), "GetDky");
  x = internal::AsEigen(dky_.get());
}

}  // namespace twinblocks::solvers
