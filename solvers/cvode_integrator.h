#pragma once

#include <memory>
#include <string>

#include "solvers/detail/block_triangular_linear_solver.h"
#include "solvers/sundials_integrator.h"

namespace twinblocks::solvers {

/// CVODE's linear multistep families.
enum class CvodeMethod {
  kBdf,    ///< variable-order BDF (1..5), for stiff problems
  kAdams,  ///< variable-order Adams-Moulton (1..12), for smooth non-stiff problems
};

/// SUNDIALS CVODE (cvode-bdf, cvode-adams), Newton iteration with a dense direct linear
/// solver and a difference-quotient Jacobian (CVODE's increments, computed here without the
/// allocation CVODE's own does on every Jacobian) for both families. With BDF, a problem with
/// invariants (OdeProblem::has_projection) has each step's solution projected onto them.
///
/// Adams uses Newton rather than fixed-point iteration on purpose: fixed point converges only
/// while h L < 1 (L the Lipschitz constant), so a mildly stiff component (a contact spring,
/// regularized friction, a motor's electrical pole) makes it fail convergence again and again
/// and crawl; Newton copes, at the cost of an occasional Jacobian (nx extra evaluations of f,
/// reused over many steps) and a dense LU.
class CvodeIntegrator final : public SundialsIntegrator {
 public:
  CvodeIntegrator(CvodeMethod method, OdeProblem* problem, const IntegratorOptions& options);

  bool restart_drops_history() const override { return true; }

 private:
  struct MemoryDeleter {
    void operator()(void* mem) const;
  };

  static int JacobianCallback(double t, N_Vector y, N_Vector fy, SUNMatrix jac, void* user_data,
                              N_Vector tmp1, N_Vector tmp2, N_Vector tmp3);
  /// CVProjFn: the problem's correction onto its invariants (OdeProblem::CalcProjection).
  static int ProjectionCallback(double t, N_Vector ycur, N_Vector corr, double eps_proj,
                                N_Vector err, void* user_data);
  void DoReInit(double t) override;
  void DoSetStopTime(double t_stop) override;
  int DoStep(double t_stop, double* t_reached) override;
  void DoGetRootInfo() override;
  int DoGetDky(double t, N_Vector out) override;
  void DoReadCounters(IntegratorStats* counters) override;
  std::string FlagName(int flag) const override;
  const char* step_function_name() const override { return "CVode"; }
  bool DoGetLocalErrors(N_Vector ele, N_Vector ewt) override;

  internal::MatrixPtr jacobian_;
  // The Newton matrix's LU in block-triangular order (SUNDIALS' dense LU factors it whole).
  std::unique_ptr<internal::BlockTriangularLinearSolver> linear_solver_;
  std::unique_ptr<void, MemoryDeleter> mem_;  // destroyed first: declared last
};

}  // namespace twinblocks::solvers
