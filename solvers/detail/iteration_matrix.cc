#include "solvers/detail/iteration_matrix.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <utility>

namespace twinblocks::solvers::internal {
namespace {

// 1 when x is NaN or infinite (its exponent bits all ones), else 0.
std::uint64_t NotFiniteBit(double x) {
  std::uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return (((bits >> 52) & 0x7ffu) + 1u) >> 11;
}

// The kernels of one diagonal block of W, n x n at lu (leading dimension ld). N is n where it
// is known at compile time, so that the loops unroll (a free object's 13 states, a finger's
// chain); 0 otherwise, beyond kMaxUnrolledBlock. Each entry's sums run in the same order
// either way.
constexpr int kMaxUnrolledBlock = 16;

// LU with partial pivoting in place: the interchanges (positions within the block) into
// pivot, the pivots' inverses into inverse_pivot. False when a pivot is zero.
template <int N>
bool FactorBlock(int n_runtime, double* lu, Eigen::Index ld, int* pivot, double* inverse_pivot) {
  const int n = N > 0 ? N : n_runtime;
  const auto at = [lu, ld](int r, int c) -> double& { return lu[c * ld + r]; };
  for (int k = 0; k < n; ++k) {
    int p = k;
    for (int r = k + 1; r < n; ++r) {
      if (std::abs(at(r, k)) > std::abs(at(p, k))) p = r;
    }
    pivot[k] = p;
    if (!(std::abs(at(p, k)) > 0.0)) return false;
    if (p != k) {
      for (int c = 0; c < n; ++c) std::swap(at(k, c), at(p, c));
    }
    const double inv = 1.0 / at(k, k);
    inverse_pivot[k] = inv;
    for (int r = k + 1; r < n; ++r) at(r, k) *= inv;
    for (int c = k + 1; c < n; ++c) {
      const double u = at(k, c);
      if (u == 0.0) continue;
      for (int r = k + 1; r < n; ++r) at(r, c) -= at(r, k) * u;
    }
  }
  return true;
}

// The substitutions with FactorBlock's factors on y, the block's part of the right-hand
// side: the interchanges, then L, then U by the pivots' inverses.
template <int N>
void SubstituteBlock(int n_runtime, const double* lu, Eigen::Index ld, const int* pivot,
                     const double* inverse_pivot, double* y) {
  const int n = N > 0 ? N : n_runtime;
  for (int k = 0; k < n; ++k) {
    if (pivot[k] != k) std::swap(y[k], y[pivot[k]]);
  }
  for (int c = 0; c < n; ++c) {
    const double yc = y[c];
    for (int r = c + 1; r < n; ++r) y[r] -= lu[c * ld + r] * yc;
  }
  // Multiplied by the pivots' inverses rather than divided: a division's latency, on the
  // chain from one unknown to the next, would be most of the solve.
  for (int c = n - 1; c >= 0; --c) {
    y[c] *= inverse_pivot[c];
    const double yc = y[c];
    for (int r = 0; r < c; ++r) y[r] -= lu[c * ld + r] * yc;
  }
}

using SubstituteFunction = void (*)(int, const double*, Eigen::Index, const int*, const double*,
                                    double*);

// The kernels for a block of n unknowns.
template <int... N>
constexpr std::array<SubstituteFunction, sizeof...(N)> MakeSubstituteTable(
    std::integer_sequence<int, N...>) {
  return {&SubstituteBlock<N>...};
}
constexpr auto kSubstitute =
    MakeSubstituteTable(std::make_integer_sequence<int, kMaxUnrolledBlock + 1>{});

SubstituteFunction SubstituteFor(int n) {
  return n <= kMaxUnrolledBlock ? kSubstitute[n] : &SubstituteBlock<0>;
}

using FactorFunction = bool (*)(int, double*, Eigen::Index, int*, double*);
template <int... N>
constexpr std::array<FactorFunction, sizeof...(N)> MakeFactorTable(
    std::integer_sequence<int, N...>) {
  return {&FactorBlock<N>...};
}
constexpr auto kFactor = MakeFactorTable(std::make_integer_sequence<int, kMaxUnrolledBlock + 1>{});

FactorFunction FactorFor(int n) { return n <= kMaxUnrolledBlock ? kFactor[n] : &FactorBlock<0>; }

}  // namespace

IterationMatrix::IterationMatrix(int nx)
    : nx_(nx),
      J_(Eigen::MatrixXd::Zero(nx, nx)),
      T_(Eigen::VectorXd::Zero(nx)),
      lu_(Eigen::MatrixXd::Zero(nx, nx)),
      pattern_(static_cast<size_t>(nx) * nx, 0),
      is_active_(nx, 0),
      partner_(nx, -1),
      elim_coef_(nx, 0.0),
      eliminated_(nx, 0),
      partner_state_(nx, -1),
      pivot_(nx, 0),
      inverse_pivot_(nx, 0.0),
      rhs_(Eigen::VectorXd::Zero(nx)),
      visit_index_(nx, -1),
      low_link_(nx, 0),
      on_stack_(nx, 0),
      x_perturbed_(Eigen::VectorXd::Zero(nx)),
      f_perturbed_(Eigen::VectorXd::Zero(nx)) {
  order_.reserve(nx);
  coupling_.resize(static_cast<size_t>(nx) * nx);
  coupling_start_.assign(nx + 1, 0);
  coupling_row_.reserve(static_cast<size_t>(nx) * nx);
  coupling_col_.reserve(static_cast<size_t>(nx) * nx);
  coupling_source_.reserve(static_cast<size_t>(nx) * nx);
  coupling_pattern_start_.reserve(nx + 1);
  block_start_.reserve(nx + 1);
  block_sparse_.reserve(nx);
  block_first_read_.reserve(nx);
  block_kept_end_.reserve(nx);
  block_start_.push_back(0);
  component_stack_.reserve(nx);
  search_state_.reserve(nx);
  search_next_.reserve(nx);
  active_.reserve(nx);
}

IterationMatrix::IterationMatrix(const OdeProblem& problem, JacobianMethod method)
    : IterationMatrix(problem.num_states()) {
  method_ = method;
  // Differences fill entries the problem's own Jacobian leaves out: its structure holds
  // only for its own.
  std::vector<char> structure(pattern_.size(), 0);
  if (!UsesProblemJacobian(problem) || !problem.JacobianStructure(&structure)) return;
  for (size_t k = 0; k < pattern_.size(); ++k) {
    pattern_[k] = structure[k] != 0 ? ~std::uint64_t{0} : 0;
  }
  structure_declared_ = true;
  // Ordered now, from the structure alone, so that a run allocates nothing for it (the sparse
  // blocks' analysis and first factors included).
  OrderBlocks();
  ordered_ = true;
}

bool IterationMatrix::UpdatePattern() {
  if (structure_declared_) {
    // Every J lies within it: ordered once, from the structure alone.
    if (ordered_) return false;
    ordered_ = true;
    return true;
  }
  // The pattern only grows: an entry that turns zero (a contact that opens, a friction term
  // at rest) leaves the order valid, and reordering for it would be undone when it returns.
  // A branch-free test first, since the pattern seldom grows.
  // A factorization for another step size with the same J (steps that land on a sample grid
  // keep J) has nothing new to find.
  if (pattern_checked_ && ordered_) return false;
  pattern_checked_ = true;
  const double* j = J_.data();
  const size_t n = pattern_.size();
  // An entry is nonzero when its bits but the sign's are (NaN and infinity included).
  std::uint64_t outside = ordered_ ? 0 : 1;
  for (size_t k = 0; k < n; ++k) {
    std::uint64_t bits;
    std::memcpy(&bits, j + k, sizeof bits);
    outside |= (bits << 1) & ~pattern_[k];
  }
  if (outside == 0) return false;
  for (size_t k = 0; k < n; ++k) {
    if (j[k] != 0.0) pattern_[k] = ~std::uint64_t{0};
  }
  ordered_ = true;
  return true;
}

size_t IterationMatrix::memory_size(int nx) {
  return 1 + (static_cast<size_t>(nx) * nx + kPatternBitsPerNumber - 1) / kPatternBitsPerNumber;
}

void IterationMatrix::SaveMemory(MemoryWriter& out) const {
  out << (ordered_ ? 1.0 : 0.0);
  const size_t n = pattern_.size();
  for (size_t first = 0; first < n; first += kPatternBitsPerNumber) {
    std::uint32_t word = 0;
    for (size_t k = first; k < std::min(n, first + kPatternBitsPerNumber); ++k) {
      if (pattern_[k] != 0) word |= std::uint32_t{1} << (k - first);
    }
    out << static_cast<double>(word);  // exact: a double holds 53-bit integers
  }
}

void IterationMatrix::RestoreMemory(MemoryReader& in) {
  if (structure_declared_) {
    // The pattern is the declared structure, ordered once: nothing a run changed.
    for (size_t k = 0; k < memory_size(nx_); ++k) in.Next();
    return;
  }
  ordered_ = in.Next() != 0.0;
  pattern_checked_ = false;
  const size_t n = pattern_.size();
  for (size_t first = 0; first < n; first += kPatternBitsPerNumber) {
    const auto word = static_cast<std::uint32_t>(in.Next());
    for (size_t k = first; k < std::min(n, first + kPatternBitsPerNumber); ++k) {
      pattern_[k] = ((word >> (k - first)) & 1u) != 0 ? ~std::uint64_t{0} : 0;
    }
  }
  if (ordered_) OrderBlocks();
}

void IterationMatrix::SaveKeptJacobian(MemoryWriter& out, int age, double factored_gamma_h) const {
  out << static_cast<double>(age) << factored_gamma_h << J_ << T_;
}

void IterationMatrix::RestoreKeptJacobian(MemoryReader& in, int* age, double* factored_gamma_h) {
  *age = static_cast<int>(in.Next());
  const double gamma_h = in.Next();
  in.Into(&J_);
  in.Into(&T_);
  pattern_checked_ = false;
  *factored_gamma_h = *age >= 0 && gamma_h > 0.0 && Factor(gamma_h) ? gamma_h : 0.0;
}

void IterationMatrix::OrderBlocks() {
  // A state is active when its row or its column of J holds a nonzero.
  std::fill(is_active_.begin(), is_active_.end(), 0);
  for (int c = 0; c < nx_; ++c) {
    for (int r = 0; r < nx_; ++r) {
      if (depends(r, c)) is_active_[r] = is_active_[c] = 1;
    }
  }
  active_.clear();
  for (int i = 0; i < nx_; ++i) {
    if (is_active_[i] != 0) active_.push_back(i);
  }
  const int m = static_cast<int>(active_.size());

  // Tarjan's strongly connected components over the edges i -> j for J(i, j) != 0. A
  // component is completed only after every component it reaches, so in the order of
  // completion each block's rows read only its own and earlier blocks' states.
  order_.clear();
  block_start_.clear();
  block_start_.push_back(0);
  std::fill(visit_index_.begin(), visit_index_.end(), -1);
  int discovered = 0;
  const auto discover = [&](int v) {
    visit_index_[v] = low_link_[v] = discovered++;
    component_stack_.push_back(v);
    on_stack_[v] = 1;
    search_state_.push_back(v);
    search_next_.push_back(0);
  };
  for (int root : active_) {
    if (visit_index_[root] >= 0) continue;
    discover(root);
    while (!search_state_.empty()) {
      const int v = search_state_.back();
      bool descended = false;
      while (search_next_.back() < m) {
        const int w = active_[search_next_.back()++];
        if (w == v || !depends(v, w)) continue;
        if (visit_index_[w] < 0) {
          discover(w);
          descended = true;
          break;
        }
        if (on_stack_[w] != 0) low_link_[v] = std::min(low_link_[v], visit_index_[w]);
      }
      if (descended) continue;
      if (low_link_[v] == visit_index_[v]) {
        int w;
        do {
          w = component_stack_.back();
          component_stack_.pop_back();
          on_stack_[w] = 0;
          order_.push_back(w);
        } while (w != v);
        block_start_.push_back(static_cast<int>(order_.size()));
      }
      search_state_.pop_back();
      search_next_.pop_back();
      if (!search_state_.empty()) {
        const int u = search_state_.back();
        low_link_[u] = std::min(low_link_[u], low_link_[v]);
      }
    }
  }
  EliminateKinematicStates();
  // The first earlier column each block reads: the solve skips the zeros before it (a
  // finger's filter reads no other state, the object reads only the fingers it touches).
  block_first_read_.clear();
  for (int b = 0; b + 1 < static_cast<int>(block_start_.size()); ++b) {
    const int s = block_start_[b], e = block_start_[b + 1];
    int first = s;
    for (int c = 0; c < s && first == s; ++c) {
      for (int r = s; r < e; ++r) {
        if (depends(order_[r], order_[c])) {
          first = c;
          break;
        }
      }
    }
    block_first_read_.push_back(first);
  }
  coupling_row_.clear();
  coupling_col_.clear();
  coupling_source_.clear();
  coupling_pattern_start_.assign(1, 0);
  for (int b = 0; b + 1 < static_cast<int>(block_start_.size()); ++b) {
    const int s = block_start_[b], e = block_start_[b + 1];
    for (int c = block_first_read_[b]; c < s; ++c) {
      for (int r = s; r < e; ++r) {
        if (!depends(order_[r], order_[c])) continue;
        coupling_row_.push_back(r);
        coupling_col_.push_back(c);
        coupling_source_.push_back(order_[c] * nx_ + order_[r]);
      }
    }
    coupling_pattern_start_.push_back(static_cast<int>(coupling_row_.size()));
  }
  PrepareSparseBlocks();
}

void IterationMatrix::PrepareSparseBlocks() {
  sparse_.clear();
  block_sparse_.assign(block_start_.size() - 1, -1);
  // Only for a declared structure, ordered once before the run: a pattern found from J's
  // entries grows during the run, and a sparse block's analysis allocates.
  if (!structure_declared_) return;
  std::vector<int> rows;  // one column's row positions within the block
  for (int b = 0; b + 1 < static_cast<int>(block_start_.size()); ++b) {
    const int s = block_start_[b], e = block_start_[b + 1], k_end = block_kept_end_[b];
    const int n = k_end - s;
    if (n < kSparseMinimum) continue;
    // The kept columns' patterns: their own entries, the diagonal, and the rows their
    // eliminated partners' columns read (folded into them).
    std::vector<int> column_start(1, 0), row_index;
    for (int c = s; c < k_end; ++c) {
      rows.clear();
      for (int r = s; r < k_end; ++r) {
        bool nonzero = r == c || depends(order_[r], order_[c]);
        for (int i = k_end; i < e && !nonzero; ++i) {
          nonzero = partner_[i] == c && depends(order_[r], order_[i]);
        }
        if (nonzero) rows.push_back(r - s);
      }
      row_index.insert(row_index.end(), rows.begin(), rows.end());
      column_start.push_back(static_cast<int>(row_index.size()));
    }
    // Dense kernels for a block whose factors would fill in anyway.
    if (static_cast<double>(row_index.size()) > 0.2 * n * n) continue;
    SparseBlock block;
    const auto value_at = [&](int r, int c) {  // positions within the block
      const auto first = row_index.begin() + column_start[c];
      const auto last = row_index.begin() + column_start[c + 1];
      return static_cast<int>(std::lower_bound(first, last, r) - row_index.begin());
    };
    for (int c = 0; c < n; ++c) {
      block.diagonal.push_back(value_at(c, c));
      for (int k = column_start[c]; k < column_start[c + 1]; ++k) {
        const int r = row_index[k];
        if (!depends(order_[s + r], order_[s + c])) continue;
        block.direct_value.push_back(k);
        block.direct_source.push_back(order_[s + c] * nx_ + order_[s + r]);
      }
    }
    for (int i = k_end; i < e; ++i) {
      for (int r = s; r < k_end; ++r) {
        if (!depends(order_[r], order_[i])) continue;
        block.fold_row.push_back(r);
        block.fold_source.push_back(order_[i] * nx_ + order_[r]);
        block.fold_state.push_back(i);
        block.fold_value.push_back(value_at(r - s, partner_[i] - s));
      }
    }
    block.fold_w.assign(block.fold_row.size(), 0.0);
    block.lu = std::make_unique<SparseLu>(n, std::move(column_start), std::move(row_index));
    // A first factorization of I, so that the factors' storage exists before the run (the
    // run's refactorizations keep its diagonal pivots while they hold).
    for (const int k : block.diagonal) block.lu->values()[k] = 1.0;
    block.lu->Factor();
    block_sparse_[b] = static_cast<int>(sparse_.size());
    sparse_.push_back(std::move(block));
  }
}

bool IterationMatrix::FactorSparseBlock(int b, double gamma_h, std::uint64_t* bad) {
  SparseBlock& block = sparse_[block_sparse_[b]];
  const double* J = J_.data();
  double* w = block.lu->values();
  std::fill(w, w + block.lu->num_nonzeros(), 0.0);
  for (const int k : block.diagonal) w[k] = 1.0;
  for (size_t k = 0; k < block.direct_value.size(); ++k) {
    const double v = -gamma_h * J[block.direct_source[k]];
    *bad |= NotFiniteBit(v);
    w[block.direct_value[k]] += v;
  }
  const int k_end = block_kept_end_[b], e = block_start_[b + 1];
  for (int i = k_end; i < e; ++i) {
    const double coef = gamma_h * J_(order_[i], order_[partner_[i]]);
    *bad |= NotFiniteBit(coef);
    elim_coef_[i] = coef;
  }
  for (size_t k = 0; k < block.fold_row.size(); ++k) {
    const double v = -gamma_h * J[block.fold_source[k]];
    *bad |= NotFiniteBit(v);
    block.fold_w[k] = v;
    w[block.fold_value[k]] += v * elim_coef_[block.fold_state[k]];
  }
  return *bad == 0 && block.lu->Factor();
}

void IterationMatrix::EliminateKinematicStates() {
  // Per active state: the one state its row reads, when that is all it reads and not itself.
  for (int v : active_) {
    int only = -1, count = 0;
    for (int w : active_) {
      if (!depends(v, w)) continue;
      ++count;
      only = w;
    }
    partner_state_[v] = count == 1 && only != v ? only : -1;
    eliminated_[v] = 0;
  }
  block_kept_end_.clear();
  std::fill(partner_.begin(), partner_.end(), -1);
  // Tarjan's search is done: its stacks (empty, reserved for nx) serve as scratch.
  std::vector<int>& kept = search_state_;
  std::vector<int>& gone = component_stack_;
  for (int b = 0; b + 1 < static_cast<int>(block_start_.size()); ++b) {
    const int s = block_start_[b], e = block_start_[b + 1];
    // A state is eliminated when it has a partner (in the block: always, for a block of more
    // than one state), the partner is not eliminated and it is no one's partner itself.
    // (eliminated_: 1 eliminated, 2 a partner, 0 neither.)
    for (int r = s; r < e; ++r) {
      const int v = order_[r], p = partner_state_[v];
      if (e - s < 2 || p < 0 || eliminated_[p] == 1 || eliminated_[v] == 2) continue;
      eliminated_[v] = 1;
      eliminated_[p] = 2;  // a partner: kept
    }
    kept.clear();
    gone.clear();
    for (int r = s; r < e; ++r) (eliminated_[order_[r]] == 1 ? gone : kept).push_back(order_[r]);
    std::copy(kept.begin(), kept.end(), order_.begin() + s);
    std::copy(gone.begin(), gone.end(), order_.begin() + s + static_cast<int>(kept.size()));
    const int kept_end = s + static_cast<int>(kept.size());
    block_kept_end_.push_back(kept_end);
    for (int r = kept_end; r < e; ++r) {
      const int p = partner_state_[order_[r]];
      for (int k = s; k < kept_end; ++k) {
        if (order_[k] == p) partner_[r] = k;
      }
    }
  }
  kept.clear();
  gone.clear();
}

int IterationMatrix::num_eliminated() const {
  int n = 0;
  for (int b = 0; b + 1 < static_cast<int>(block_start_.size()); ++b) {
    n += block_start_[b + 1] - block_kept_end_[b];
  }
  return n;
}

int IterationMatrix::FormTimeDerivative(OdeProblem* problem, double t, const Eigen::VectorXd& x,
                                        const Eigen::VectorXd& f0, double h) {
  const double step = std::sqrt(std::numeric_limits<double>::epsilon()) * std::max(std::abs(t), h);
  T_.setZero();
  int evaluations = 0;
  for (const double dt : {(t + step) - t, (t - step) - t}) {
    ++evaluations;
    if (problem->CalcDerivatives(t + dt, x, f_perturbed_) == 0 && f_perturbed_.allFinite()) {
      T_ = (f_perturbed_ - f0) / dt;
      break;
    }
  }
  return evaluations;
}

bool IterationMatrix::Factor(double gamma_h) {
  nonfinite_state_ = -1;
  if (UpdatePattern()) OrderBlocks();
  int num_couplings = 0;
  for (int b = 0; b + 1 < static_cast<int>(block_start_.size()); ++b) {
    const int s = block_start_[b];
    const int e = block_start_[b + 1];
    // The block's rows up to its last column. The earlier blocks' columns go straight to the
    // coupling list the solves subtract, read only where the pattern has ever held a nonzero
    // (an object's position rows read no finger, its velocity rows only the fingers that
    // touched it); its own into lu_. A NaN or infinity anywhere sets `bad`: one test, not one
    // per entry (integer bits, not a sum of the entries, whose chain of additions would be
    // most of the pass's time).
    std::uint64_t bad = 0;
    coupling_start_[b] = num_couplings;
    const double* J = J_.data();
    for (int k = coupling_pattern_start_[b]; k < coupling_pattern_start_[b + 1]; ++k) {
      const double w = -gamma_h * J[coupling_source_[k]];
      bad |= NotFiniteBit(w);
      coupling_[num_couplings] = {coupling_row_[k], coupling_col_[k], w};
      num_couplings += w != 0.0;
    }
    coupling_start_[b + 1] = num_couplings;
    const int k_end = block_kept_end_[b];
    // Which row holds a NaN or an infinity, only once one is found.
    const auto find_nonfinite_row = [&] {
      for (int c = block_first_read_[b]; c < e && nonfinite_state_ < 0; ++c) {
        for (int r = s; r < e; ++r) {
          if (!std::isfinite(J_(order_[r], order_[c]))) {
            nonfinite_state_ = order_[r];
            break;
          }
        }
      }
    };
    if (block_sparse_[b] >= 0) {
      if (FactorSparseBlock(b, gamma_h, &bad)) continue;
      if (bad != 0) find_nonfinite_row();
      return false;
    }
    for (int c = s; c < k_end; ++c) {
      const double* J_c = J_.col(order_[c]).data();
      double* W_c = lu_.col(c).data();
      for (int r = s; r < k_end; ++r) {
        W_c[r] = -gamma_h * J_c[order_[r]];
        bad |= NotFiniteBit(W_c[r]);
      }
      W_c[c] += 1.0;
    }
    // The eliminated states: x_i = y_i + gamma h c x_p. Their columns of W over the kept rows
    // (kept for the solve's right-hand side) fold into their partners' columns.
    for (int i = k_end; i < e; ++i) {
      const int p = partner_[i];
      const double coef = gamma_h * J_(order_[i], order_[p]);
      bad |= NotFiniteBit(coef);
      elim_coef_[i] = coef;
      const double* J_i = J_.col(order_[i]).data();
      double* W_i = lu_.col(i).data();
      double* W_p = lu_.col(p).data();
      for (int r = s; r < k_end; ++r) {
        W_i[r] = -gamma_h * J_i[order_[r]];
        bad |= NotFiniteBit(W_i[r]);
        W_p[r] += W_i[r] * coef;
      }
    }
    if (bad != 0) {
      find_nonfinite_row();
      return false;
    }
    if (k_end - s == 2) {
      // A 2 x 2 block (a motion filter's angle and rate): its inverse, for solves without
      // the substitution loops' overhead.
      const double a = lu_(s, s), b01 = lu_(s, s + 1), c10 = lu_(s + 1, s), d = lu_(s + 1, s + 1);
      const double det = a * d - b01 * c10;
      if (!(std::abs(det) > 0.0) || !std::isfinite(det)) return false;
      const double inv = 1.0 / det;
      lu_(s, s) = d * inv;
      lu_(s, s + 1) = -b01 * inv;
      lu_(s + 1, s) = -c10 * inv;
      lu_(s + 1, s + 1) = a * inv;
      continue;
    }
    if (!FactorFor(k_end - s)(k_end - s, &lu_(s, s), lu_.outerStride(), pivot_.data() + s,
                              inverse_pivot_.data() + s)) {
      return false;
    }
  }
  return true;
}

void IterationMatrix::Solve(Eigen::Ref<Eigen::VectorXd> b) {
  const int m = static_cast<int>(order_.size());
  if (m == 0) return;
  double* y = rhs_.data();
  for (int r = 0; r < m; ++r) y[r] = b[order_[r]];
  for (int blk = 0; blk + 1 < static_cast<int>(block_start_.size()); ++blk) {
    const int s = block_start_[blk];
    const int e = block_start_[blk + 1];
    // Less the earlier blocks' part; the interchanges apply within the block only.
    for (int k = coupling_start_[blk]; k < coupling_start_[blk + 1]; ++k) {
      const Coupling& w = coupling_[k];
      y[w.row] -= w.value * y[w.col];
    }
    const int k_end = block_kept_end_[blk];
    if (block_sparse_[blk] >= 0) {
      SparseBlock& block = sparse_[block_sparse_[blk]];
      for (size_t k = 0; k < block.fold_row.size(); ++k) {
        y[block.fold_row[k]] -= block.fold_w[k] * y[block.fold_state[k]];
      }
      block.lu->Solve(y + s);
      for (int i = k_end; i < e; ++i) y[i] += elim_coef_[i] * y[partner_[i]];
      continue;
    }
    // The kept rows less the eliminated states' known part y_i.
    for (int i = k_end; i < e; ++i) {
      const double yi = y[i];
      const double* W_i = lu_.col(i).data();
      for (int r = s; r < k_end; ++r) y[r] -= W_i[r] * yi;
    }
    if (k_end - s == 2) {
      const double y0 = y[s], y1 = y[s + 1];
      y[s] = lu_(s, s) * y0 + lu_(s, s + 1) * y1;
      y[s + 1] = lu_(s + 1, s) * y0 + lu_(s + 1, s + 1) * y1;
    } else {
      SubstituteFor(k_end - s)(k_end - s, &lu_(s, s), lu_.outerStride(), pivot_.data() + s,
                               inverse_pivot_.data() + s, y + s);
    }
    for (int i = k_end; i < e; ++i) y[i] += elim_coef_[i] * y[partner_[i]];
  }
  for (int r = 0; r < m; ++r) b[order_[r]] = y[r];
}

}  // namespace twinblocks::solvers::internal
