// Simulator: the diagram as its solver sees it, an ODE (Problem) or for the table's DAE
// solver a residual form (DaeForm), the evaluations they make, and the checks of the blocks'
// Jacobians (EvaluateDerivatives, EvaluateStiffJacobian).
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "common/suggest.h"
#include "runtime/simulator.h"
#include "solvers/solver_table.h"

namespace twinblocks::graph {

/// The diagram as the solver sees it: continuous states in, derivatives and zero-crossing
/// values out. Evaluation is a minor step: only continuous blocks recompute, modes held.
/// Blocks with algebraic variables solve for them (c.dae is false while it evaluates).
class Simulator::Problem : public solvers::OdeProblem {
 public:
  explicit Problem(Simulator* sim)
      : sim_(sim), f_at_jacobian_(Eigen::VectorXd::Zero(sim->system_.num_continuous_states())) {
    FindCrossCouplings();
    std::vector<std::pair<int, int>> entries;  // (row, col)
    if (!sim_->StiffJacobianEntries(&entries)) return;
    for (const CrossCoupling& cc : cross_) {
      for (const int r : cc.rows) {
        for (const int col : cc.upstream) entries.emplace_back(cc.block->x_offset() + r, col);
      }
    }
    // Column by column, each entry once: the order a dense column-major scan would give,
    // without the nx x nx scan (a model of 50,000 states that never forms a Jacobian).
    std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
      return a.second != b.second ? a.second < b.second : a.first < b.first;
    });
    entries.erase(std::unique(entries.begin(), entries.end()), entries.end());
    for (const auto& [row, col] : entries) structure_.push_back({row, col});
    structure_declared_ = true;
  }

  int num_states() const override { return sim_->system_.num_continuous_states(); }
  int num_zero_crossings() const override { return sim_->system_.num_zero_crossings(); }
  const char* last_error() const override { return error_.c_str(); }

  int CalcDerivatives(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                      Eigen::Ref<Eigen::VectorXd> xdot) override {
    blocks::Context& c = sim_->ctx_;
    const bool dae = c.dae;
    c.dae = false;
    try {
      if (sim_->TakeMajorOutputs(t, x)) {
        // As in Simulink: the derivatives at a major step's time and state come from the
        // outputs that major step computed (the discrete outputs hold until the next one).
        c.t = t;
        c.x = const_cast<double*>(x.data());
        c.major = false;
      } else {
        sim_->CalcMinorOutputs(t, const_cast<double*>(x.data()), sim_->state_.z.data());
      }
      c.xdot = xdot.data();
      for (const blocks::Block* b : sim_->system_.derivative_blocks()) {
        if (!sim_->Runs(*b)) {
          // A disabled subsystem's states hold.
          xdot.segment(b->x_offset(), b->num_continuous_states()).setZero();
          continue;
        }
        sim_->current_block_ = b->index();
        b->CalcDerivatives(c);
      }
    } catch (const std::exception& e) {
      c.dae = dae;
      error_ = sim_->CurrentBlockDescription() + e.what();
      return -1;
    }
    c.dae = dae;
    sim_->evaluated_elsewhere_ = false;
    for (Eigen::Index i = 0; i < xdot.size(); ++i) {
      if (!std::isfinite(xdot[i])) {
        // Recoverable: a smaller step may avoid it; if not, the solver fails with this text.
        error_ = "the derivative of " + sim_->system_.DescribeState(static_cast<int>(i)) + " is " +
                 FormatNumber(xdot[i]) + " at t = " + FormatNumber(t);
        return 1;
      }
    }
    return 0;
  }

  int CalcZeroCrossings(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                        Eigen::Ref<Eigen::VectorXd> g) override {
    // At a major step's time and state (a solver's restart) the functions come from the
    // outputs that major step computed, which then still serve the derivatives there; where
    // the solver has just evaluated the derivatives (the end of a step), from those outputs.
    const bool reuse = sim_->MajorOutputsHoldAt(t, x) || sim_->MinorOutputsHoldAt(t, x);
    return sim_->CalcZeroCrossingsAt(t, const_cast<double*>(x.data()), sim_->state_.z.data(),
                                     g.data(), &error_, reuse);
  }

  /// The stiff terms the blocks know (contact damping and friction of a mechanism), each
  /// block's over its own states: the couplings between blocks are left out, as terms that
  /// do not make the diagram stiff, but for a block with stiff inputs (a deformable body
  /// pressed by fingertips), whose rows get the columns of the states upstream of its inputs
  /// (AddCrossCouplings).
  bool has_jacobian() const override {
    for (const blocks::Block* b : sim_->system_.derivative_blocks()) {
      if (b->has_stiff_jacobian()) return true;
    }
    return false;
  }

  bool JacobianStructure(std::vector<char>* structure) const override {
    if (!structure_declared_) return false;
    const int nx = num_states();
    structure->assign(static_cast<size_t>(nx) * nx, 0);
    for (const Entry& e : structure_) (*structure)[static_cast<size_t>(e.col) * nx + e.row] = 1;
    return true;
  }

  /// Between major steps the discrete outputs hold and the modes are fixed: f changes with t
  /// itself only through a continuous block that reads it (a Sine, a Clock, a trajectory).
  bool is_autonomous() const override {
    for (const ExecutionEntry& e : sim_->system_.minor_order()) {
      if (e.block->depends_on_time()) return false;
    }
    for (const blocks::Block* b : sim_->system_.derivative_blocks()) {
      if (b->depends_on_time()) return false;
    }
    return true;
  }

  int CalcJacobian(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                   Eigen::Ref<Eigen::MatrixXd> J) override {
    // The blocks' Jacobians read what the evaluation CalcDerivatives(t, x) just made left in
    // their workspaces (a mechanism's contact forces and constraint factors). An output row
    // computed between steps has moved them elsewhere: evaluate here again first.
    if (sim_->evaluated_elsewhere_ && CalcDerivatives(t, x, f_at_jacobian_) < 0) return -1;
    // With a declared structure J is zero outside it (the contract): only its entries are
    // cleared, not all of J, whose memset was 2 % of a grasp's run.
    if (structure_declared_) {
      for (const Entry& e : structure_) J(e.row, e.col) = 0.0;
    } else {
      J.setZero();
    }
    blocks::Context& c = sim_->ctx_;
    try {
      for (const blocks::Block* b : sim_->system_.derivative_blocks()) {
        if (!b->has_stiff_jacobian() || !sim_->Runs(*b)) continue;
        sim_->current_block_ = b->index();
        b->CalcStiffJacobian(c, J);
      }
    } catch (const std::exception& e) {
      error_ = sim_->CurrentBlockDescription() + e.what();
      return -1;
    }
    if (!cross_.empty() && AddCrossCouplings(t, x, J) != 0) return -1;
    // NaN and infinity are found where W is factored (IterationMatrix::Factor), which reads
    // every nonzero: a pass over all of J here cost as much as a tenth of forming it.
    return 0;
  }

  /// A mechanism's closed loops (Block::CalcProjection).
  bool has_projection() const override {
    for (const blocks::Block* b : sim_->system_.derivative_blocks()) {
      if (b->has_projection()) return true;
    }
    return false;
  }

  int CalcProjection(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                     Eigen::Ref<Eigen::VectorXd> correction) override {
    blocks::Context& c = sim_->ctx_;
    const bool dae = c.dae;
    c.dae = false;
    try {
      // A motion-driven joint's coordinates come from the block's inputs at (t, x).
      sim_->CalcMinorOutputs(t, const_cast<double*>(x.data()), sim_->state_.z.data());
      correction.setZero();
      for (const blocks::Block* b : sim_->system_.derivative_blocks()) {
        if (!b->has_projection() || !sim_->Runs(*b)) continue;
        sim_->current_block_ = b->index();
        b->CalcProjection(c, correction.data());
      }
    } catch (const std::exception& e) {
      c.dae = dae;
      error_ = sim_->CurrentBlockDescription() + e.what();
      return -1;
    }
    c.dae = dae;
    return 0;
  }

  std::string DescribeState(int i) const override { return sim_->system_.DescribeState(i); }

 private:
  // A block with stiff inputs (Block::has_stiff_inputs) and the continuous states upstream of
  // them: of the blocks that drive its inputs, and of those that drive theirs with direct
  // feedthrough.
  struct CrossCoupling {
    const blocks::Block* block;
    std::vector<int> upstream;  // state indices, ascending, none of the block's own
    std::vector<int> rows;      // the block's rows that read them (Block::StiffInputRows)
  };

  void FindCrossCouplings() {
    const graph::System& system = sim_->system_;
    std::vector<int> producer(system.num_signals(), -1);  // the block writing each signal
    for (int b = 0; b < system.num_blocks(); ++b) {
      const blocks::Block& block = system.block(b);
      for (int p = 0; p < block.num_outputs(); ++p) {
        const blocks::Block::OutputPort& port = block.output_port(p);
        for (int k = 0; k < port.width; ++k) {
          if (port.offset + k >= 0 && port.offset + k < system.num_signals()) {
            producer[port.offset + k] = b;
          }
        }
      }
    }
    for (const blocks::Block* b : system.derivative_blocks()) {
      if (!b->has_stiff_inputs()) continue;
      std::vector<char> visited(system.num_blocks(), 0),
          upstream(system.num_continuous_states(), 0);
      std::vector<int> stack;
      const auto push_inputs = [&](const blocks::Block& block, bool feedthrough_only) {
        for (int i = 0; i < block.num_inputs(); ++i) {
          const blocks::Block::InputPort& port = block.input_port(i);
          if (feedthrough_only && port.feedthrough == 0) continue;
          for (int k = 0; k < port.width; ++k) {
            const int from = port.offset + k >= 0 ? producer[port.offset + k] : -1;
            if (from >= 0 && visited[from] == 0) {
              visited[from] = 1;
              stack.push_back(from);
            }
          }
        }
      };
      visited[b->index()] = 1;
      push_inputs(*b, false);
      while (!stack.empty()) {
        const blocks::Block& block = system.block(stack.back());
        stack.pop_back();
        for (int k = 0; k < block.num_continuous_states(); ++k) upstream[block.x_offset() + k] = 1;
        push_inputs(block, true);
      }
      CrossCoupling cc{b, {}, {}};
      for (int i = 0; i < system.num_continuous_states(); ++i) {
        if (upstream[i] != 0) cc.upstream.push_back(i);
      }
      b->StiffInputRows(&cc.rows);
      if (!cc.upstream.empty()) cross_.push_back(std::move(cc));
    }
    if (!cross_.empty()) {
      x_perturbed_ = Eigen::VectorXd::Zero(num_states());
      f_perturbed_ = Eigen::VectorXd::Zero(num_states());
    }
  }

  // The columns of the upstream states in each stiff-input block's rows, by forward
  // differences through the diagram (each state moved by sqrt(eps) of its size, at least of
  // 1): the outputs recomputed, then the block's derivatives alone. The workspaces are left
  // as the evaluation at (t, x) leaves them, as CalcJacobian's callers expect.
  int AddCrossCouplings(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                        Eigen::Ref<Eigen::MatrixXd> J) {
    blocks::Context& c = sim_->ctx_;
    const bool dae = c.dae;
    c.dae = false;
    const double root_eps = std::sqrt(std::numeric_limits<double>::epsilon());
    x_perturbed_ = x;
    try {
      for (const CrossCoupling& cc : cross_) {
        if (!sim_->Runs(*cc.block)) continue;
        const int offset = cc.block->x_offset();
        sim_->current_block_ = cc.block->index();
        sim_->CalcMinorOutputs(t, x_perturbed_.data(), sim_->state_.z.data());
        c.xdot = f_at_jacobian_.data();
        cc.block->CalcDerivatives(c);
        for (const int col : cc.upstream) {
          const double delta = root_eps * std::max(std::abs(x[col]), 1.0);
          x_perturbed_[col] = x[col] + delta;
          sim_->CalcMinorOutputs(t, x_perturbed_.data(), sim_->state_.z.data());
          c.xdot = f_perturbed_.data();
          cc.block->CalcDerivatives(c);
          for (const int r : cc.rows) {
            J(offset + r, col) += (f_perturbed_[offset + r] - f_at_jacobian_[offset + r]) / delta;
          }
          x_perturbed_[col] = x[col];
        }
      }
    } catch (const std::exception& e) {
      c.dae = dae;
      error_ = sim_->CurrentBlockDescription() + e.what();
      return -1;
    }
    c.dae = dae;
    // Back to the evaluation at (t, x).
    return CalcDerivatives(t, x, f_at_jacobian_) < 0 ? -1 : 0;
  }

  Simulator* sim_;
  std::vector<CrossCoupling> cross_;
  Eigen::VectorXd x_perturbed_, f_perturbed_;  // (nx) for the cross-block differences
  Eigen::VectorXd f_at_jacobian_;  // (nx) CalcJacobian's own evaluation, when it needs one
  std::string error_;
  // Where the blocks' stiff Jacobians may be nonzero, when every stiff block declares it.
  struct Entry {
    int row, col;
  };
  std::vector<Entry> structure_;
  bool structure_declared_ = false;
};

/// The diagram in residual form F(t, y, y') = 0 for `ida`, y = [x; z]: every block gives
/// its rows (x' - f for ODE blocks, a mechanism's stabilized index-2 constraints with its
/// multipliers in z, docs/loops.md). The consistent start at each solver (re)start comes
/// from the ODE form: x' = f(t, x), and the blocks' algebraic variables that go with it.
class Simulator::DaeForm : public solvers::DaeProblem {
 public:
  explicit DaeForm(Simulator* sim)
      : sim_(sim),
        nx_(sim->system_.num_continuous_states()),
        nz_(sim->system_.num_algebraic_variables()),
        f_(Eigen::VectorXd::Zero(nx_)) {}

  int num_states() const override { return nx_ + nz_; }
  int num_zero_crossings() const override { return sim_->system_.num_zero_crossings(); }
  const char* last_error() const override { return error_.c_str(); }
  std::string DescribeState(int i) const override {
    return i < nx_ ? sim_->system_.DescribeState(i)
                   : "algebraic variable " + std::to_string(i - nx_) + " of the model";
  }

  void GetDifferentialMask(Eigen::Ref<Eigen::VectorXd> is_differential) const override {
    is_differential.head(nx_).setOnes();
    is_differential.tail(nz_).setZero();
  }

  int CalcResidual(double t, const Eigen::Ref<const Eigen::VectorXd>& y,
                   const Eigen::Ref<const Eigen::VectorXd>& yp,
                   Eigen::Ref<Eigen::VectorXd> residual) override {
    blocks::Context& c = sim_->ctx_;
    double* x = const_cast<double*>(y.data());
    try {
      sim_->CalcMinorOutputs(t, x, x + nx_);
      c.xdot = f_.data();
      c.xp = yp.data();
      c.residual = residual.data();
      c.residual_z = residual.data() + nx_;
      for (const blocks::Block* b : sim_->system_.derivative_blocks()) {
        if (!sim_->Runs(*b)) {
          // A disabled subsystem's states hold: x' = 0.
          const int x0 = b->x_offset(), n = b->num_continuous_states();
          residual.segment(x0, n) = yp.segment(x0, n);
          continue;
        }
        sim_->current_block_ = b->index();
        b->CalcResidual(c);
      }
    } catch (const std::exception& e) {
      error_ = sim_->CurrentBlockDescription() + e.what();
      return -1;
    }
    for (Eigen::Index i = 0; i < residual.size(); ++i) {
      if (!std::isfinite(residual[i])) {
        error_ = "the residual of " +
                 (i < nx_ ? sim_->system_.DescribeState(static_cast<int>(i))
                          : "algebraic equation " + std::to_string(i - nx_)) +
                 " is " + FormatNumber(residual[i]) + " at t = " + FormatNumber(t);
        return 1;
      }
    }
    return 0;
  }

  /// Without algebraic variables every row is x' - f(t, x), and the iteration matrix is
  /// cj I - df/dx with the blocks' stiff Jacobian. A mechanism's loop constraints would need
  /// their own derivatives, which no block gives.
  bool has_jacobian() const override { return nz_ == 0 && sim_->problem_->has_jacobian(); }

  int CalcJacobian(double t, const Eigen::Ref<const Eigen::VectorXd>& y,
                   const Eigen::Ref<const Eigen::VectorXd>& yp, double cj,
                   Eigen::Ref<Eigen::MatrixXd> J) override {
    // The ODE form's Jacobian reads what its own evaluation just before found.
    int flag = sim_->problem_->CalcDerivatives(t, y, f_);
    if (flag == 0) flag = sim_->problem_->CalcJacobian(t, y, J);
    if (flag != 0) {
      error_ = sim_->problem_->last_error();
      return flag;
    }
    J = -J;
    J.diagonal().array() += cj;
    return 0;
  }

  /// A mechanism's stabilized constraints are index 2 (its algebraic variables are the only
  /// ones blocks declare).
  int index() const override { return nz_ > 0 ? 2 : 1; }
  bool has_consistent_start() const override { return true; }

  int CalcConsistentStart(double t, Eigen::Ref<Eigen::VectorXd> y,
                          Eigen::Ref<Eigen::VectorXd> yp) override {
    // x' = f(t, x) from the ODE form; the algebraic variables from what it found.
    const int flag = sim_->problem_->CalcDerivatives(t, y.head(nx_), yp.head(nx_));
    if (flag != 0) {
      error_ = sim_->problem_->last_error();
      return flag;
    }
    blocks::Context& c = sim_->ctx_;
    c.z = y.data() + nx_;
    const bool dae = c.dae;
    c.dae = false;
    try {
      for (const blocks::Block* b : sim_->system_.derivative_blocks()) {
        if (b->num_algebraic_variables() == 0 || !sim_->Runs(*b)) continue;
        sim_->current_block_ = b->index();
        b->CalcConsistentAlgebraic(c);
      }
    } catch (const std::exception& e) {
      c.dae = dae;
      error_ = sim_->CurrentBlockDescription() + e.what();
      return -1;
    }
    c.dae = dae;
    yp.tail(nz_).setZero();
    return 0;
  }

  int CalcZeroCrossings(double t, const Eigen::Ref<const Eigen::VectorXd>& y,
                        const Eigen::Ref<const Eigen::VectorXd>& yp,
                        Eigen::Ref<Eigen::VectorXd> g) override {
    double* x = const_cast<double*>(y.data());
    return sim_->CalcZeroCrossingsAt(t, x, x + nx_, g.data(), &error_);
  }

 private:
  Simulator* sim_;
  int nx_, nz_;
  Eigen::VectorXd f_;  // (nx) derivatives of the ODE blocks, scratch
  std::string error_;
};

Simulator::~Simulator() = default;

void Simulator::MakeSolver(solvers::IntegratorOptions* options) {
  solvers::IntegratorOptions& opt = *options;
  const System& system = system_;
  problem_ = std::make_unique<Problem>(this);
  // The table's DAE solver (ida) gets the residual form, where blocks with algebraic
  // variables are true DAEs.
  const solvers::SolverInfo* solver = solvers::FindSolver(settings_.solver);
  if (solver != nullptr && solver->solves_daes() && system.num_continuous_states() > 0) {
    if (opt.state_atol.size() > 0) {
      // y = [x; z]: the algebraic variables keep the simulation's atol.
      const Eigen::Index nx = opt.state_atol.size();
      opt.state_atol.conservativeResize(nx + system.num_algebraic_variables());
      opt.state_atol.tail(system.num_algebraic_variables()).setConstant(opt.atol);
    }
    if (opt.scale_atol) {
      // The algebraic variables keep the simulation's atol here too.
      const Eigen::Index nx = system.num_continuous_states();
      const Eigen::Index nz = system.num_algebraic_variables();
      Eigen::Array<bool, Eigen::Dynamic, 1> fixed =
          Eigen::Array<bool, Eigen::Dynamic, 1>::Zero(nx + nz);
      if (opt.fixed_atol.size() > 0) fixed.head(nx) = opt.fixed_atol;
      fixed.tail(nz).setConstant(true);
      opt.fixed_atol = fixed;
    }
    dae_problem_ = std::make_unique<DaeForm>(this);
    integrator_ = solvers::MakeDaeIntegrator(dae_problem_.get(), opt);
  } else {
    integrator_ = solvers::MakeIntegrator(settings_.solver, problem_.get(), opt);
  }
}

void Simulator::StartAlgebraicVariables() {
  SimulationState& st = state_;
  y_.head(system_.num_continuous_states()) = st.x;
  if (dae_problem_->CalcConsistentStart(st.t, y_, yp_) != 0) {
    throw std::runtime_error(dae_problem_->last_error());
  }
  st.z = y_.tail(system_.num_algebraic_variables());
}

void Simulator::EvaluateDerivatives(double t, const Eigen::VectorXd& x, Eigen::VectorXd* xdot) {
  if (!initialized_) throw std::logic_error("EvaluateDerivatives before Initialize");
  if (problem_->CalcDerivatives(t, x, *xdot) != 0) {
    throw std::runtime_error(problem_->last_error());
  }
}

void Simulator::EvaluateStiffJacobian(double t, const Eigen::VectorXd& x, Eigen::MatrixXd* J) {
  if (!initialized_) throw std::logic_error("EvaluateStiffJacobian before Initialize");
  const int nx = system_.num_continuous_states();
  J->setZero(nx, nx);  // zero outside a declared structure, as CalcJacobian may assume
  Eigen::VectorXd xdot(nx);
  if (problem_->CalcDerivatives(t, x, xdot) != 0) throw std::runtime_error(problem_->last_error());
  if (!problem_->has_jacobian()) {
    J->setZero();
    return;
  }
  if (problem_->CalcJacobian(t, x, *J) != 0) throw std::runtime_error(problem_->last_error());
}

bool Simulator::StiffJacobianStructure(std::vector<char>* structure) const {
  std::vector<std::pair<int, int>> entries;
  if (!StiffJacobianEntries(&entries)) return false;
  const int nx = system_.num_continuous_states();
  structure->assign(static_cast<size_t>(nx) * nx, 0);
  for (const auto& [row, col] : entries) (*structure)[static_cast<size_t>(col) * nx + row] = 1;
  return true;
}

bool Simulator::StiffJacobianEntries(std::vector<std::pair<int, int>>* entries) const {
  for (const blocks::Block* b : system_.derivative_blocks()) {
    if (b->has_stiff_jacobian() && !b->StiffJacobianStructure(entries)) return false;
  }
  return true;
}

bool Simulator::is_dae() const { return dae_problem_ != nullptr; }

int Simulator::CalcZeroCrossingsAt(double t, double* x, double* z, double* g, std::string* error,
                                   bool major_outputs_hold) {
  try {
    if (major_outputs_hold) {
      ctx_.t = t;
      ctx_.x = x;
      ctx_.z = z;
      ctx_.major = false;
    } else {
      CalcMinorOutputs(t, x, z);
    }
    ctx_.zc = g;
    for (const blocks::Block* b : system_.zero_crossing_blocks()) {
      if (!Runs(*b)) {
        // Constant while its subsystem is disabled: no crossing to locate. The solver starts
        // again where the subsystem is enabled, from the values it then has.
        std::fill_n(g + b->zc_offset(), b->num_zero_crossings(), 1.0);
        continue;
      }
      current_block_ = b->index();
      b->CalcZeroCrossings(ctx_);
    }
  } catch (const std::exception& e) {
    *error = CurrentBlockDescription() + e.what();
    return -1;
  }
  return 0;
}

bool Simulator::MajorOutputsHoldAt(double t, const Eigen::Ref<const Eigen::VectorXd>& x) const {
  return major_outputs_current_ && t == state_.t && (x.array() == state_.x.array()).all();
}

bool Simulator::MinorOutputsHoldAt(double t, const Eigen::Ref<const Eigen::VectorXd>& x) const {
  return minor_outputs_current_ && t == minor_outputs_t_ && x.size() == minor_outputs_x_.size() &&
         (x.array() == minor_outputs_x_.array()).all();
}

bool Simulator::TakeMajorOutputs(double t, const Eigen::Ref<const Eigen::VectorXd>& x) {
  const bool current = MajorOutputsHoldAt(t, x);
  major_outputs_current_ = false;
  return current;
}

void Simulator::CalcMinorOutputs(double t, double* x, double* z, bool for_row) {
  major_outputs_current_ = false;
  minor_outputs_current_ = false;
  blocks::Context& c = ctx_;
  c.t = t;
  c.x = x;
  c.z = z;
  c.major = false;
  c.demand_mask = for_row ? blocks::kReadAnything : blocks::kReadInEvaluations;
  for (const ExecutionEntry& e : for_row ? system_.continuous_order() : system_.minor_order()) {
    if (!Runs(*e.block)) continue;
    current_block_ = e.block->index();
    e.block->CalcOutputs(c, e.stage);
  }
  c.demand_mask = blocks::kReadAnything;
  minor_outputs_t_ = t;
  std::copy_n(x, minor_outputs_x_.size(), minor_outputs_x_.data());
  minor_outputs_current_ = true;
}

}  // namespace twinblocks::graph
