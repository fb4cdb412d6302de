#pragma once

// The linear algebra of the linearly implicit solvers (ode1be, ros2, ode23s): a Jacobian of
// the problem, its time derivative and the factors of W = I - gamma h J.

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "solvers/detail/sparse_lu.h"
#include "solvers/detail/step_helpers.h"
#include "solvers/integrator.h"
#include "solvers/ode_problem.h"

namespace twinblocks::solvers::internal {

/// J = df/dx (or its stiff part) and the LU factors of W = I - gamma h J.
///
/// The factors cover only the active states, those whose row or column of J holds a
/// nonzero: the other rows of W are those of I. Over the active states, W is ordered block
/// triangular: the strongly connected components of J's graph (state i depends on state j
/// when J(i, j) != 0, Tarjan 1972) become diagonal blocks, ordered so that each block's rows
/// read only its own states and those of earlier blocks. Only the diagonal blocks are
/// factored. A diagram's stiff parts are often coupled one way: a motion filter drives a
/// finger that pushes an object, never the reverse, so a grasp's 37 states factor as one
/// 13 x 13 block (the object) and twelve 2 x 2 blocks (the fingers' filters), not as 37 x 37.
/// Within a block, a state whose row of J holds one entry, off the diagonal (x_i' = c x_j: a
/// joint's angle, whose rate is its velocity state), is eliminated before the factoring: its
/// unknown is y_i + gamma h c (the partner's), folded into the partner's column, so that a
/// mechanism's block is factored over its velocities (and its quaternions) alone, about an
/// eighth of the work of the whole block. A partner is never itself eliminated.
/// The order is recomputed only when J holds a nonzero outside every pattern it held before
/// (the union of the patterns since the start). That union is the matrix's memory: a
/// solver's snapshot saves it (SaveMemory), so that a restored run factors as the original.
/// A problem that declares its Jacobian's structure (OdeProblem::JacobianStructure) fixes
/// the pattern instead: the blocks are ordered once, and no J is searched for new nonzeros.
/// A large block whose kept part is sparse (at least kSparseMinimum states, at most a fifth
/// of its entries nonzero: a deformable body's springs) is factored by a sparse LU (SparseLu,
/// KLU) instead of the dense kernels: a 182-node body's 546 velocities factor in a fraction
/// of a millisecond where dense LU takes tens.
/// Allocates only in its constructor and where the blocks are ordered (a sparse block's
/// analysis): once for a declared structure.
class IterationMatrix {
 public:
  explicit IterationMatrix(int nx);
  /// For `problem`'s states, J formed as `method` says (kAuto: the problem's own when it has
  /// one), with the structure the problem declares for its own, if any.
  IterationMatrix(const OdeProblem& problem, JacobianMethod method);

  /// Forms J at (t, x), where f0 = f(t, x) was the problem's last evaluation: the problem's
  /// own Jacobian when the method takes it, otherwise forward differences over every state,
  /// each moved by sqrt(eps) of its size (at least of 1). `evaluate(x, out)` writes f(t, x)
  /// to `out` and throws on failure. Returns the problem's flag (0 for differences).
  template <class Evaluate>
  int Form(OdeProblem* problem, double t, const Eigen::VectorXd& x, const Eigen::VectorXd& f0,
           Evaluate&& evaluate) {
    pattern_checked_ = false;
    if (UsesProblemJacobian(*problem)) return problem->CalcJacobian(t, x, J_);
    const double root_eps = std::sqrt(std::numeric_limits<double>::epsilon());
    x_perturbed_ = x;
    for (Eigen::Index j = 0; j < x.size(); ++j) {
      const double delta = root_eps * std::max(std::abs(x[j]), 1.0);
      x_perturbed_[j] = x[j] + delta;
      evaluate(x_perturbed_, f_perturbed_);
      J_.col(j) = (f_perturbed_ - f0) / delta;
      x_perturbed_[j] = x[j];
    }
    return 0;
  }

  /// Takes J = I - A for a Newton matrix A given whole (column-major, nx x nx: CVODE's and
  /// ARKODE's I - gamma J, IDA's dF/dy + cj dF/dy'), so that Factor(1.0) factors A itself.
  void TakeNewtonMatrix(const double* a) {
    J_ = -Eigen::Map<const Eigen::MatrixXd>(a, nx_, nx_);
    J_.diagonal().array() += 1.0;
    pattern_checked_ = false;
  }

  /// Forms T = df/dt at (t, x), where f0 = f(t, x), as MATLAB's ode23s does: a forward
  /// difference over sqrt(eps) max(|t|, h) (h the step to come), as the difference in t that
  /// t + dt gives exactly. Where f fails there (a model that ends at t), backwards; where both
  /// fail, T = 0: a Rosenbrock-W formula keeps its order without T, and the step's own
  /// evaluations will say what failed (a flag or a value that is not finite counts as a
  /// failure here, and nothing throws). Returns the evaluations of f it made (1 or 2).
  int FormTimeDerivative(OdeProblem* problem, double t, const Eigen::VectorXd& x,
                         const Eigen::VectorXd& f0, double h);

  /// T from the last FormTimeDerivative (zero before any).
  const Eigen::VectorXd& time_derivative() const { return T_; }

  /// Factors I - gamma_h J over the active states, each diagonal block by LU with partial
  /// pivoting within the block (Golub & Van Loan Alg. 3.4.1). Returns false when the matrix
  /// is singular (J has an eigenvalue near 1 / gamma_h) or J is not finite (see
  /// nonfinite_state). Every nonzero of J lies in the rows and columns it reads, so this is
  /// the whole of J's check.
  bool Factor(double gamma_h);

  /// After a Factor that returned false: a state whose row of J holds a NaN or an infinity,
  /// or -1 when J is finite (W is singular).
  int nonfinite_state() const { return nonfinite_state_; }

  /// Solves (I - gamma_h J) y = b in place, with the factors of the last Factor: block by
  /// block in their order, each block's right-hand side less its rows' products with the
  /// earlier blocks' solutions.
  void Solve(Eigen::Ref<Eigen::VectorXd> b);

  /// True when state i's row or column of J held a nonzero at the last Factor: a state the
  /// problem declares stiff, or coupled to one.
  bool active(int i) const { return is_active_[i] != 0; }

  /// The number of diagonal blocks of the last Factor (0 when no state is active).
  int num_blocks() const { return static_cast<int>(block_start_.size()) - 1; }
  /// The number of diagonal blocks that SparseLu factors.
  int num_sparse_blocks() const { return static_cast<int>(sparse_.size()); }
  /// The number of states eliminated from the blocks (see above) at the last Factor.
  int num_eliminated() const;

  /// With a J kept over several steps (IntegratorOptions::jacobian_steps > 1), a snapshot
  /// holds it too, with T, its age in steps and the gamma h of its factors: the numbers
  /// SaveKeptJacobian writes for nx states.
  static size_t kept_jacobian_memory_size(int nx) {
    return 2 + static_cast<size_t>(nx) * nx + static_cast<size_t>(nx);
  }
  /// Appends J, T, their age and the gamma h of W's factors to a solver's snapshot memory.
  void SaveKeptJacobian(MemoryWriter& out, int age, double factored_gamma_h) const;
  /// Reads back what SaveKeptJacobian wrote and factors W again for that gamma h: the same J
  /// and gamma h give the same factors. *factored_gamma_h is 0 when there were none.
  void RestoreKeptJacobian(MemoryReader& in, int* age, double* factored_gamma_h);

  /// The numbers SaveMemory writes for nx states: the union pattern, 32 entries per number.
  static size_t memory_size(int nx);
  /// Appends the union pattern to a solver's snapshot memory.
  void SaveMemory(MemoryWriter& out) const;
  /// Reads back what SaveMemory wrote and orders the blocks from it.
  void RestoreMemory(MemoryReader& in);

 private:
  bool UsesProblemJacobian(const OdeProblem& problem) const {
    return method_ == JacobianMethod::kProblem ||
           (method_ == JacobianMethod::kAuto && problem.has_jacobian());
  }
  // Adds J_'s nonzeros to pattern_; true when it grew (or was never read).
  bool UpdatePattern();
  // The active states and their block order from pattern_ (order_, block_start_).
  void OrderBlocks();
  // Moves each block's eliminable states to its end (block_kept_end_, partner_).
  void EliminateKinematicStates();
  // Chooses the blocks that SparseLu factors and lays out their patterns (sparse_).
  void PrepareSparseBlocks();
  // Factors sparse block `b` (sparse_[block_sparse_[b]]): false when W is singular or J not
  // finite there (*bad set).
  bool FactorSparseBlock(int b, double gamma_h, std::uint64_t* bad);
  static constexpr size_t kPatternBitsPerNumber = 32;
  static constexpr int kSparseMinimum = 64;
  bool depends(int i, int j) const { return pattern_[static_cast<size_t>(j) * nx_ + i] != 0; }

  int nx_;
  Eigen::MatrixXd J_;   // (nx x nx)
  Eigen::VectorXd T_;   // (nx) df/dt, zero unless formed
  Eigen::MatrixXd lu_;  // (nx x nx) top-left m x m: W in block order, its diagonal
                        // blocks overwritten by their LU factors (2 x 2 ones by their inverse)
  // (nx * nx, by column) all ones where J was ever nonzero, else 0: as wide as J's entries,
  // so that the test for growth is one vectorized pass of integer operations.
  std::vector<std::uint64_t> pattern_;
  bool ordered_ = false;                           // pattern_ and the order below were computed
  bool structure_declared_ = false;                // pattern_ is the problem's declared structure
  JacobianMethod method_ = JacobianMethod::kAuto;  // where Form gets J
  int nonfinite_state_ = -1;                       // see nonfinite_state()
  bool pattern_checked_ = false;                   // J_ has not changed since UpdatePattern read it
  std::vector<char> is_active_;                    // (nx) 1 for an active state
  std::vector<int> order_;                         // (m) the active states in block order
  std::vector<int> block_start_;       // (blocks + 1) the first position of each block, then m
  std::vector<int> block_first_read_;  // (blocks) the first earlier position a block reads
  // (blocks) the end of each block's kept states: its positions from there to the block's end
  // are eliminated states, each solved from its partner.
  std::vector<int> block_kept_end_;
  std::vector<int> partner_;           // (m) an eliminated position's partner position, else -1
  std::vector<double> elim_coef_;      // (m) an eliminated position's gamma h c
  std::vector<char> eliminated_;       // (nx) scratch of OrderBlocks: 1 for an eliminated state
  std::vector<int> partner_state_;     // (nx) scratch: the single state a state's row reads, or -1
  std::vector<int> pivot_;             // (m) row interchanges, positions within each block
  std::vector<double> inverse_pivot_;  // (m) 1 / U(k, k)
  // W's nonzeros left of each diagonal block (positions in block order), by block then
  // column: what the solves subtract for the earlier blocks' unknowns.
  struct Coupling {
    int row, col;
    double value;
  };
  std::vector<Coupling> coupling_;   // (nx * nx) the first coupling_start_.back() are set
  std::vector<int> coupling_start_;  // (blocks + 1) each block's first entry in coupling_
  // Where the pattern holds a nonzero left of each diagonal block (row and column positions
  // in block order, by block then column): the only entries of J a factorization copies
  // there, since J has no nonzero outside the pattern.
  std::vector<int> coupling_row_, coupling_col_;  // (<= m * m)
  std::vector<int> coupling_source_;              // (<= m * m) each one's index in J_.data()
  std::vector<int> coupling_pattern_start_;       // (blocks + 1)
  Eigen::VectorXd rhs_;                           // (nx) right-hand side gathered in block order
  // Tarjan's search, iterative so that its depth is not the call stack's.
  std::vector<int> visit_index_;      // (nx) order of discovery, -1 before
  std::vector<int> low_link_;         // (nx) smallest discovery index reachable
  std::vector<char> on_stack_;        // (nx)
  std::vector<int> component_stack_;  // (<= nx) states not yet assigned to a block
  std::vector<int> search_state_;     // (<= nx) the search path
  std::vector<int> search_next_;      // (<= nx) next candidate position in active_ per path entry
  std::vector<int> active_;           // (m) the active states, ascending
  // A block that SparseLu factors: W over its kept states, the eliminated states' columns
  // folded into their partners' as the dense path folds them.
  struct SparseBlock {
    std::unique_ptr<SparseLu> lu;
    std::vector<int> diagonal;  // (kept) each kept column's diagonal entry in lu's values
    // Where each of J's entries over the kept rows and columns goes: lu's value, J_.data().
    std::vector<int> direct_value, direct_source;
    // The eliminated columns over the kept rows: each entry's row position, its source in
    // J_.data(), the eliminated state's position, and the partner column's value it folds
    // into; fold_w holds -gamma h J there at the last Factor, for the solves.
    std::vector<int> fold_row, fold_source, fold_state, fold_value;
    std::vector<double> fold_w;
  };
  std::vector<SparseBlock> sparse_;
  std::vector<int> block_sparse_;  // (blocks) each block's index in sparse_, or -1 (dense)
  Eigen::VectorXd x_perturbed_;    // (nx) for differences
  Eigen::VectorXd f_perturbed_;    // (nx)
};

}  // namespace twinblocks::solvers::internal
