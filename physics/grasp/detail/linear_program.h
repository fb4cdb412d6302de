#pragma once

// A small dense linear program and its solution by GLPK's simplex method (the one place the
// grasp library calls GLPK; no GLPK type leaves linear_program.cc).

#include <Eigen/Core>
#include <string>

namespace twinblocks::grasp::detail {

/// minimize (or maximize) c^T x subject to row_lower <= A x <= row_upper and
/// col_lower <= x <= col_upper; +-infinity for an absent bound, equal bounds for an equality.
struct LinearProgram {
  Eigen::VectorXd c;  ///< (n)
  bool maximize = false;
  Eigen::MatrixXd A;                     ///< (r x n), dense; zeros are not passed to GLPK
  Eigen::VectorXd row_lower, row_upper;  ///< (r)
  Eigen::VectorXd col_lower, col_upper;  ///< (n)
};

enum class LinearProgramStatus { kOptimal, kInfeasible, kUnbounded, kFailed };

struct LinearProgramSolution {
  LinearProgramStatus status = LinearProgramStatus::kFailed;
  Eigen::VectorXd x;  ///< (n), the optimum when status is kOptimal
  double objective = 0.0;
  std::string message;  ///< what went wrong, when status is not kOptimal
};

/// Solves lp with GLPK's primal simplex (no terminal output, no scaling, at most 100000
/// iterations and 10 s). GLPK's exact (rational) simplex is not used: started from this
/// optimum it returned values further from the equality rows (1e-10 instead of 1e-15).
LinearProgramSolution SolveLinearProgram(const LinearProgram& lp);

}  // namespace twinblocks::grasp::detail
