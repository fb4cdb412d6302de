#pragma once

#include <memory>
#include <string>

#include "solvers/detail/block_triangular_linear_solver.h"
#include "solvers/sundials_integrator.h"

namespace twinblocks::solvers {

/// How ARKODE's ARKStep treats the right-hand side.
enum class ArkodeMethod {
  kExplicit,  ///< ERK, ARKStep's default fourth-order explicit table with its embedding
  kImplicit,  ///< DIRK, ARKStep's default fourth-order table, Newton + dense linear solver
};

/// SUNDIALS ARKODE's ARKStep (arkode-erk, arkode-dirk) in one-step mode with a stop time and
/// native rootfinding; the implicit variant uses a dense direct linear solver with a
/// difference-quotient Jacobian (SundialsIntegrator::CalcDenseJacobian).
class ArkodeIntegrator final : public SundialsIntegrator {
 public:
  ArkodeIntegrator(ArkodeMethod method, OdeProblem* problem, const IntegratorOptions& options);

  /// Restarts ARKStep at (t, x) with the step it would have tried next as its first: a
  /// one-step method has no history to lose to a correction.
  void CorrectState(double t, const Eigen::Ref<const Eigen::VectorXd>& x) override;

 private:
  struct MemoryDeleter {
    void operator()(void* mem) const;
  };

  static int JacobianCallback(double t, N_Vector y, N_Vector fy, SUNMatrix jac, void* user_data,
                              N_Vector tmp1, N_Vector tmp2, N_Vector tmp3);
  void DoReInit(double t) override;
  void DoSetStopTime(double t_stop) override;
  int DoStep(double t_stop, double* t_reached) override;
  void DoGetRootInfo() override;
  int DoGetDky(double t, N_Vector out) override;
  void DoReadCounters(IntegratorStats* counters) override;
  std::string FlagName(int flag) const override;
  const char* step_function_name() const override { return "ARKStepEvolve"; }
  bool DoGetLocalErrors(N_Vector ele, N_Vector ewt) override;

  ArkodeMethod method_;
  bool first_step_set_ = false;  // CorrectState set the next step's size: unset after it
  internal::MatrixPtr jacobian_;
  // The Newton matrix's LU in block-triangular order (SUNDIALS' dense LU factors it whole).
  std::unique_ptr<internal::BlockTriangularLinearSolver> linear_solver_;
  std::unique_ptr<void, MemoryDeleter> mem_;  // destroyed first: declared last
};

}  // namespace twinblocks::solvers
