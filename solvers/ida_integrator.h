#pragma once

#include <memory>
#include <string>

#include "solvers/detail/block_triangular_linear_solver.h"
#include "solvers/ode_problem.h"
#include "solvers/sundials_integrator.h"

namespace twinblocks::solvers {

/// SUNDIALS IDA (variable-order BDF for F(t, y, y') = 0) with a dense direct linear solver and
/// a difference-quotient Jacobian dF/dy + cj dF/dy' (IDA's increments, computed here without
/// the allocation IDA's own does on every call), or the problem's own with
/// options.jacobian_method kProblem (DaeProblem::CalcJacobian). state() is y.
///
/// For a true DAE (some entries of GetDifferentialMask are 0), IDASetId marks the algebraic
/// variables, they are left out of the error test (IDASetSuppressAlg), and every Reset makes
/// the start consistent: with the problem's own CalcConsistentStart when it has one (index-2
/// systems), else with IDACalcIC(IDA_YA_YDP_INIT), which, given the differential part of y,
/// solves for the algebraic part of y and for y' (y' of the previous run is the first guess).
/// For an index-2 system (DaeProblem::index) the algebraic variables are also left out of the
/// Newton convergence test (their absolute tolerance is made so large that their weights
/// vanish) and the difference-quotient Jacobian steps them relative to their own size. An
/// ODE handed to MakeIntegrator under the name ida is wrapped as the residual y' - f(t, y)
/// and restarted with y' = f(t, y) exactly.
class IdaIntegrator final : public SundialsIntegrator {
 public:
  /// A DAE in residual form; `problem` must outlive the integrator.
  IdaIntegrator(DaeProblem* problem, const IntegratorOptions& options);
  /// The ODE x' = f(t, x) as the residual x' - f(t, x) = 0.
  IdaIntegrator(OdeProblem* problem, const IntegratorOptions& options);
  ~IdaIntegrator() override;

  bool restart_drops_history() const override { return true; }

  /// y' after the last accepted step (or Reset), (n x 1).
  Eigen::Map<const Eigen::VectorXd> derivative() const;

 private:
  struct MemoryDeleter {
    void operator()(void* mem) const;
  };
  class OdeResidual;

  IdaIntegrator(DaeProblem* dae, std::unique_ptr<OdeResidual> ode_residual, OdeProblem* ode,
                const IntegratorOptions& options);

  void DoReInit(double t) override;
  void DoSetStopTime(double t_stop) override;
  int DoStep(double t_stop, double* t_reached) override;
  void DoGetRootInfo() override;
  int DoGetDky(double t, N_Vector out) override;
  void DoReadCounters(IntegratorStats* counters) override;
  std::string FlagName(int flag) const override;
  const char* step_function_name() const override { return "IDASolve"; }
  bool DoGetLocalErrors(N_Vector ele, N_Vector ewt) override;
  std::string DescribeState(int i) const override { return dae_->DescribeState(i); }
  void DoAdvanceTinyGap(double h) override;

  int EvalResidual(double t, N_Vector y, N_Vector yp, N_Vector r);
  int CalcResidualJacobian(double t, double cj, N_Vector y, N_Vector yp, N_Vector r, SUNMatrix jac,
                           N_Vector work);
  /// The problem's own dF/dy + cj dF/dy' (options.jacobian_method kProblem).
  int CalcProblemResidualJacobian(double t, double cj, N_Vector y, N_Vector yp, SUNMatrix jac);
  static int JacobianCallback(double t, double cj, N_Vector y, N_Vector yp, N_Vector r,
                              SUNMatrix jac, void* user_data, N_Vector tmp1, N_Vector tmp2,
                              N_Vector tmp3);
  int EvalDaeRoots(double t, N_Vector y, N_Vector yp, double* g);
  static int ResidualCallback(double t, N_Vector y, N_Vector yp, N_Vector r, void* user_data);
  static int DaeRootCallback(double t, N_Vector y, N_Vector yp, double* g, void* user_data);

  std::unique_ptr<OdeResidual> ode_residual_;  // set when integrating an OdeProblem
  DaeProblem* dae_;
  bool has_algebraic_ = false;
  bool index2_ = false;  // algebraic variables left out of the Newton test (DaeProblem::index)
  /// Absolute tolerance that takes a variable out of IDA's norms.
  static constexpr double kUnweighted = 1e100;
  double h_last_ = 0.0;      // s, last step of the previous run (IDACalcIC's scale)
  internal::NVectorPtr yp_;  // (n x 1) y'
  internal::NVectorPtr id_;  // (n x 1) 1: differential, 0: algebraic
  internal::MatrixPtr jacobian_;
  // The iteration matrix's LU in block-triangular order (SUNDIALS' dense LU factors it whole).
  std::unique_ptr<internal::BlockTriangularLinearSolver> linear_solver_;
  std::unique_ptr<void, MemoryDeleter> mem_;  // destroyed first: declared last
};

}  // namespace twinblocks::solvers
