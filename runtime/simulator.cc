#include "runtime/simulator.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "blocks/block_error.h"
#include "common/input_limits.h"
#include "common/suggest.h"

namespace twinblocks::graph {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// The solvers' Jacobian method for the setting, refused where the diagram cannot serve it.
solvers::JacobianMethod SolverJacobianMethod(const System& system,
                                             const SimulationSettingsValues& s) {
  using Method = SimulationSettingsValues::JacobianMethod;
  switch (s.jacobian_method) {
    case Method::kAuto:
      return solvers::JacobianMethod::kAuto;
    case Method::kPerturbation:
      return solvers::JacobianMethod::kPerturbation;
    case Method::kBlocks:
      break;
  }
  const auto& stiff = system.derivative_blocks();
  if (std::none_of(stiff.begin(), stiff.end(),
                   [](const blocks::Block* b) { return b->has_stiff_jacobian(); })) {
    throw std::invalid_argument(
        "jacobian_method = blocks: no block of this model gives a Jacobian of its own (a "
        "Mechanism with contacts does); use auto or perturbation");
  }
  if (s.solver == "ida" && system.num_algebraic_variables() > 0) {
    throw std::invalid_argument(
        "jacobian_method = blocks: with ida this model is a DAE (the loop constraints of a "
        "mechanism), and no block gives their derivatives; use auto or perturbation");
  }
  return solvers::JacobianMethod::kProblem;
}

}  // namespace

std::string SimulationStats::Summary(double simulated_seconds) const {
  char buf[320];
  const double rtf = wall_seconds > 0.0 ? simulated_seconds / wall_seconds : kInf;
  std::snprintf(buf, sizeof buf,
                "steps %ld (rejected %ld), f-evals %ld, zero crossings %ld, major steps %ld, "
                "wall %.4g s, real-time factor %.4g",
                solver.steps, solver.rejected_steps, solver.rhs_evals, solver.zero_crossings,
                major_steps, wall_seconds, rtf);
  std::string line = buf;
  if (resets.total() > 0) {
    // The causes that occurred, in the order of the docs.
    std::string causes;
    auto cause = [&causes](const char* name, long n) {
      if (n == 0) return;
      char item[64];
      std::snprintf(item, sizeof item, "%s%s %ld", causes.empty() ? "" : ", ", name, n);
      causes += item;
    };
    cause("sample hits", resets.sample_hits);
    cause("zero crossings", resets.zero_crossings);
    cause("state resets", resets.state_resets);
    cause("breakpoints", resets.breakpoints);
    cause("inputs", resets.inputs);
    std::snprintf(buf, sizeof buf, ", solver resets %ld (%s)", resets.total(), causes.c_str());
    line.insert(line.find(", wall "), buf);
  }
  if (projections > 0) {
    std::snprintf(buf, sizeof buf, ", projections %ld", projections);
    line.insert(line.find(", wall "), buf);
  }
  if (solver.jacobian_evals > 0) {
    // Where they are (implicit solvers): after f, the cost a run's settings trade against.
    std::snprintf(buf, sizeof buf, ", Jacobians %ld", solver.jacobian_evals);
    line.insert(line.find(", zero crossings"), buf);
  }
  if (!std::isnan(solver.stiff_since)) line += "; " + StiffnessHint(solver.stiff_since);
  return line;
}

std::string StiffSolversBut(const std::string& solver) {
  // A suggestion never names the solver that just failed.
  constexpr const char* kStiffSolvers[] = {"ode23s", "cvode-bdf", "ida"};
  std::vector<std::string> names;
  for (const char* s : kStiffSolvers) {
    if (solver != s && names.size() < 2) names.push_back(s);
  }
  return names[0] + " or " + names[1];
}

std::string StiffnessHint(double stiff_since) {
  return "stiff from t = " + FormatNumber(stiff_since) +
         " s (steps bounded by stability, not accuracy: try ode23s or cvode-bdf)";
}

/// The diagram as the solver sees it: continuous states in, derivatives and zero-crossing
/// values out. Evaluation is a minor step: only continuous blocks recompute, modes held.
/// Blocks with algebraic variables solve for them (c.dae is false while it evaluates).
class Simulator::Problem : public solvers::OdeProblem {
 public:
  explicit Problem(Simulator* sim) : sim_(sim) {
    std::vector<std::pair<int, int>> entries;  // (row, col)
    if (!sim_->StiffJacobianEntries(&entries)) return;
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
        sim_->current_block_ = b->index();
        b->CalcDerivatives(c);
      }
    } catch (const std::exception& e) {
      c.dae = dae;
      error_ = sim_->CurrentBlockDescription() + e.what();
      return -1;
    }
    c.dae = dae;
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
  /// do not make the diagram stiff.
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
    // The context still holds the evaluation CalcDerivatives(t, x) just made. With a declared
    // structure J is zero outside it (the contract): only its entries are cleared, not all
    // of J, whose memset was 2 % of a grasp's run.
    if (structure_declared_) {
      for (const Entry& e : structure_) J(e.row, e.col) = 0.0;
    } else {
      J.setZero();
    }
    blocks::Context& c = sim_->ctx_;
    try {
      for (const blocks::Block* b : sim_->system_.derivative_blocks()) {
        if (!b->has_stiff_jacobian()) continue;
        sim_->current_block_ = b->index();
        b->CalcStiffJacobian(c, J);
      }
    } catch (const std::exception& e) {
      error_ = sim_->CurrentBlockDescription() + e.what();
      return -1;
    }
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
        if (!b->has_projection()) continue;
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
  Simulator* sim_;
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
        if (b->num_algebraic_variables() == 0) continue;
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

Simulator::Simulator(const System& system, const SimulationSettingsValues& settings)
    : system_(system), settings_(settings), recording_(system.logged_signals()) {
  SimulationSettingsValues& s = settings_;
  if (!(s.t_end > s.t_start)) {
    throw std::invalid_argument("t_end (" + FormatNumber(s.t_end) + ") must be after t_start (" +
                                FormatNumber(s.t_start) + ")");
  }
  const double span = s.t_end - s.t_start;
  time_resolution_ = 16.0 * std::numeric_limits<double>::epsilon() *
                     std::max(std::abs(s.t_start), std::abs(s.t_end));
  solvers::IntegratorOptions opt;
  // Simulink's "auto" choices: the fastest discrete rate or span/50 for a fixed step, and
  // span/50 as the largest variable step.
  double auto_step = span / 50.0;
  if (!system.rates().empty()) auto_step = std::min(auto_step, system.rates().front().period);
  opt.fixed_step = s.step.value_or(auto_step);
  opt.max_step = s.max_step.value_or(span / 50.0);
  if (s.rtol) opt.rtol = *s.rtol;
  opt.atol = s.StartingAtol();
  opt.scale_atol = s.auto_scale_atol;
  if (s.initial_step) opt.initial_step = *s.initial_step;
  opt.locate_zero_crossings = s.zero_crossings;
  opt.fixed_step_zero_crossings = s.fixed_step_zero_crossings;
  if (s.jacobian_steps) {
    if (*s.jacobian_steps < 1) {
      throw std::invalid_argument("jacobian_steps must be a whole number >= 1, got " +
                                  std::to_string(*s.jacobian_steps));
    }
    opt.jacobian_steps = *s.jacobian_steps;
  }
  opt.jacobian_method = SolverJacobianMethod(system, s);
  auto positive = [](const char* what, double v) {
    if (!(v > 0.0) || !std::isfinite(v)) {
      throw std::invalid_argument(std::string(what) + " must be a positive number, got " +
                                  FormatNumber(v));
    }
  };
  positive("step", opt.fixed_step);
  positive("max_step", opt.max_step);
  positive("rtol", opt.rtol);
  positive("atol", opt.atol);
  if (s.output_interval) positive("output_interval", *s.output_interval);
  if (s.max_consecutive_zc < 1) {
    throw std::invalid_argument("max_consecutive_zc must be a whole number >= 1, got " +
                                std::to_string(s.max_consecutive_zc));
  }
  if (!(s.zc_time_tolerance >= 0.0 && s.zc_time_tolerance < 1.0)) {
    throw std::invalid_argument("zc_time_tolerance must be in [0, 1), got " +
                                FormatNumber(s.zc_time_tolerance));
  }
  // The blocks' own absolute tolerances (Simulink's block "Absolute tolerance"), which stay
  // as given when the others scale.
  opt.state_atol = system.StateAbsoluteTolerances(opt.atol);
  if (opt.scale_atol && opt.state_atol.size() > 0) {
    // NaN where the simulation's atol applies: the states with their own are the others.
    opt.fixed_atol =
        !system.StateAbsoluteTolerances(std::numeric_limits<double>::quiet_NaN()).array().isNaN();
  }
  CheckJacobianSize();
  problem_ = std::make_unique<Problem>(this);
  // `ida` gets the residual form, where blocks with algebraic variables are true DAEs.
  if (s.solver == "ida" && system.num_continuous_states() > 0) {
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
    integrator_ = solvers::MakeIntegrator(s.solver, problem_.get(), opt);
  }
  CheckTimeResolution(opt);
  CheckResultsFit(opt.fixed_step);
  for (int i = 0; i < system.num_blocks(); ++i) {
    const double end = system.block(i).end_time();
    if (end < end_time_) {
      end_time_ = end;
      end_block_ = i;
    }
  }
  // A continuous block that updates at major steps (a limited integrator choosing its limit
  // mode, a mechanism projecting its loops) changes what its outputs or derivatives would be
  // after the major step computed them: no reuse then.
  reuse_major_outputs_ = !is_dae();
  bool continuous_updates = false;
  for (const blocks::Block* b : system.update_blocks()) {
    if (b->rate_index() < 0) reuse_major_outputs_ = false;
    continuous_updates = continuous_updates || b->rate_index() < 0;
  }
  // The error a step may leave in each state, for the continuous blocks that update at major
  // steps (Context::state_tolerance): given where a restart costs the solver its order. A
  // one-step method keeps its accuracy instead: it restarts at no cost worth a drift.
  if (continuous_updates && integrator_->restart_drops_history() && !is_dae()) {
    const Eigen::Index nx = system.num_continuous_states();
    state_atol_ = opt.state_atol.size() > 0 ? Eigen::VectorXd(opt.state_atol.head(nx))
                                            : Eigen::VectorXd::Constant(nx, opt.atol);
    state_rtol_ = opt.rtol;
    state_tolerance_ = state_atol_;
  }
  // A unit delay's output is its state alone, so the table's outputs may all come first in
  // a major step; its update reads only its input, so the table's updates may come in any
  // order among the others'.
  for (const ExecutionEntry& e : system.major_order()) {
    if (!e.block->unit_delay_slots()) major_calls_.push_back(e);
  }
  // The table sorted by rate (counting each rate's delays, then placing them in block order),
  // so that a hit of one rate runs a contiguous range.
  const int num_rates = static_cast<int>(system.rates().size());
  unit_delay_start_.assign(num_rates + 1, 0);
  for (const blocks::Block* b : system.update_blocks()) {
    if (b->unit_delay_slots()) {
      ++unit_delay_start_[b->rate_index() + 1];
    } else {
      update_calls_.push_back(b);
    }
  }
  for (int r = 0; r < num_rates; ++r) unit_delay_start_[r + 1] += unit_delay_start_[r];
  unit_delays_.resize(unit_delay_start_[num_rates]);
  std::vector<int> next(unit_delay_start_.begin(), unit_delay_start_.end() - 1);
  for (const blocks::Block* b : system.update_blocks()) {
    if (const auto slots = b->unit_delay_slots()) {
      unit_delays_[next[b->rate_index()]++] = {slots->state, slots->input, slots->output};
    }
  }
  // What the diagram reads: the logs and the connected inputs at major steps, and inside
  // solver evaluations the inputs of the blocks those run. A continuous block without
  // states or memory (a Mux, a Gain) reads its inputs only where its own outputs are read
  // (PropagateDemand): a sensor that feeds only an unread Mux is not read.
  demanded_.assign(static_cast<size_t>(system.num_signals()) + 1, 0);
  std::vector<char> updates(system.num_blocks(), 0);
  for (const blocks::Block* b : system.update_blocks()) updates[b->index()] = 1;
  memoryless_.assign(system.num_blocks(), 0);
  for (int i = 0; i < system.num_blocks(); ++i) {
    const blocks::Block& b = system.block(i);
    memoryless_[i] = b.num_outputs() > 0 && b.rate_index() < 0 && b.num_continuous_states() == 0 &&
                     b.num_discrete_states() == 0 && b.num_dwork() == 0 && b.num_modes() == 0 &&
                     b.num_zero_crossings() == 0 && b.num_algebraic_variables() == 0 &&
                     updates[i] == 0 && b.MakeWorkspace() == nullptr;
    if (memoryless_[i] != 0) continue;
    for (int k = 0; k < b.num_inputs(); ++k) {
      Demand(b.input_port(k).offset, b.input_port(k).width, blocks::kReadAtMajorSteps);
    }
  }
  auto demand_in_evaluations = [this](const blocks::Block& b) {
    for (int k = 0; k < b.num_inputs(); ++k) {
      Demand(b.input_port(k).offset, b.input_port(k).width, blocks::kReadInEvaluations);
    }
  };
  for (const ExecutionEntry& e : system.minor_order()) demand_in_evaluations(*e.block);
  for (const blocks::Block* b : system.derivative_blocks()) demand_in_evaluations(*b);
  for (const blocks::Block* b : system.zero_crossing_blocks()) demand_in_evaluations(*b);
  for (const LoggedSignal& s : system.logged_signals()) {
    Demand(s.offset, s.width, blocks::kReadAtMajorSteps);
  }
  PropagateDemand();
  if (s.sample_hits == SimulationSettingsValues::SampleHits::kStepOver) {
    if (is_dae() || integrator_->is_fixed_step() || !integrator_->has_dense_output()) {
      throw std::invalid_argument(
          "sample_hits=\"step_over\" needs a variable-step ODE solver with dense output "
          "(ode23, ode45, ode23s, cvode-bdf, cvode-adams, arkode-erk, arkode-dirk); " +
          s.solver + " is not one");
    }
    // A continuous block that updates at major steps changes what evaluations compute at
    // every hit: such a diagram lands on each.
    step_over_hits_ = reuse_major_outputs_;
    std::vector<char> evaluated(system.num_blocks(), 0);
    for (const ExecutionEntry& e : system.minor_order()) evaluated[e.block->index()] = 1;
    for (int i = 0; i < system.num_blocks(); ++i) {
      if (evaluated[i] != 0) continue;
      const blocks::Block& b = system.block(i);
      for (int k = 0; k < b.num_outputs(); ++k) {
        const blocks::Block::OutputPort& port = b.output_port(k);
        for (int e = port.offset; e < port.offset + port.width; ++e) {
          if ((demanded_[e] & blocks::kReadInEvaluations) != 0) held_signals_.push_back(e);
        }
      }
    }
    held_values_.assign(held_signals_.size(), 0.0);
  }
}

void Simulator::HoldInputs() {
  if (!step_over_hits_) return;
  for (size_t i = 0; i < held_signals_.size(); ++i) {
    held_values_[i] = state_.signals[held_signals_[i]];
  }
  held_modes_ = state_.modes;  // same size after Initialize: no allocation
}

bool Simulator::HeldInputsChanged() {
  bool changed = false;
  for (size_t i = 0; i < held_signals_.size(); ++i) {
    const double now = state_.signals[held_signals_[i]];
    // Bitwise, NaN included: a held NaN that stays NaN changes nothing.
    changed = changed || std::memcmp(&now, &held_values_[i], sizeof now) != 0;
    held_values_[i] = now;
  }
  changed = changed || held_modes_ != state_.modes;
  held_modes_ = state_.modes;
  return changed;
}

bool Simulator::Demand(int offset, int width, unsigned char who) {
  if (offset < 0 || width <= 0 || offset + width > system_.num_signals()) return false;
  bool added = false;
  for (int i = offset; i < offset + width; ++i) {
    added = added || (demanded_[i] & who) != who;
    demanded_[i] |= who;
  }
  return added;
}

void Simulator::PropagateDemand() {
  // Passes until nothing more is marked: a block's inputs may feed a memoryless block
  // visited earlier in the pass (block order is not execution order), and loops through
  // memoryless blocks (algebraic loops) close on themselves.
  for (bool grew = true; grew;) {
    SpreadDemand();
    grew = false;
    for (int i = system_.num_blocks() - 1; i >= 0; --i) {
      if (memoryless_[i] == 0) continue;
      const blocks::Block& b = system_.block(i);
      bool read = false;
      for (int k = 0; k < b.num_outputs() && !read; ++k) {
        const blocks::Block::OutputPort& port = b.output_port(k);
        for (int e = port.offset; e < port.offset + port.width && !read; ++e) {
          read = demanded_[e] != 0;
        }
      }
      if (!read) continue;
      for (int k = 0; k < b.num_inputs(); ++k) {
        if (Demand(b.input_port(k).offset, b.input_port(k).width, blocks::kReadAtMajorSteps)) {
          grew = true;
        }
      }
    }
  }
  SpreadDemand();
}

void Simulator::SpreadDemand() {
  for (int i = 0; i < system_.num_blocks(); ++i) {
    const blocks::Block& b = system_.block(i);
    for (int k = 0; k < b.num_outputs(); ++k) {
      const blocks::Block::OutputPort& port = b.output_port(k);
      if (port.offset < 0 || port.width <= 0) continue;
      const auto first = demanded_.begin() + port.offset;
      unsigned char who = 0;
      for (auto it = first; it != first + port.width; ++it) who |= *it;
      std::fill(first, first + port.width, who);
    }
  }
}

Simulator::~Simulator() = default;

void Simulator::SetProgressCallback(std::function<void(const Progress&)> callback,
                                    double interval) {
  progress_ = std::move(callback);
  progress_interval_ = interval;
}

void Simulator::SetRowCallback(std::function<void(int row, const blocks::Context& c)> callback) {
  row_callback_ = std::move(callback);
}

std::string Simulator::CurrentBlockDescription() const {
  if (current_block_ < 0) return {};
  return "block '" + system_.block_path(current_block_) + "' (" +
         system_.block_type(current_block_) + "): ";
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
  c.demand_mask =
      for_row ? blocks::kReadAtMajorSteps | blocks::kReadInEvaluations : blocks::kReadInEvaluations;
  for (const ExecutionEntry& e : for_row ? system_.continuous_order() : system_.minor_order()) {
    current_block_ = e.block->index();
    e.block->CalcOutputs(c, e.stage);
  }
  c.demand_mask = blocks::kReadAtMajorSteps | blocks::kReadInEvaluations;
  minor_outputs_t_ = t;
  std::copy_n(x, minor_outputs_x_.size(), minor_outputs_x_.data());
  minor_outputs_current_ = true;
}

void Simulator::Initialize() {
  SimulationState& st = state_;
  const System& sys = system_;
  st.t = settings_.t_start;
  st.x = Eigen::VectorXd::Zero(sys.num_continuous_states());
  st.xdot = Eigen::VectorXd::Zero(sys.num_continuous_states());
  st.z = Eigen::VectorXd::Zero(sys.num_algebraic_variables());
  y_ = Eigen::VectorXd::Zero(sys.num_continuous_states() + sys.num_algebraic_variables());
  yp_ = y_;
  st.signals.assign(sys.num_signals(), 0.0);
  st.xd.assign(sys.num_discrete_states(), 0.0);
  st.dwork.assign(sys.num_dwork(), 0.0);
  st.modes.assign(sys.num_modes(), 0);
  st.zc.assign(sys.num_zero_crossings(), 0.0);
  zc_scratch_.assign(2 * sys.num_zero_crossings(), 0.0);
  zc_crossed_.assign(sys.num_zero_crossings(), 0);
  minor_outputs_x_ = Eigen::VectorXd::Zero(sys.num_continuous_states());
  minor_outputs_current_ = false;
  st.rate_hits.assign(sys.rates().size(), 0);
  st.rate_k.assign(sys.rates().size(), 0);
  for (size_t r = 0; r < sys.rates().size(); ++r) {
    const blocks::SampleTime& rate = sys.rates()[r];
    st.rate_k[r] =
        static_cast<long long>(std::ceil((settings_.t_start - rate.offset) / rate.period - 1e-9));
    if (st.rate_k[r] < 0) st.rate_k[r] = 0;
  }
  st.workspaces.clear();
  st.workspace_ptrs.assign(sys.num_blocks(), nullptr);
  for (int i = 0; i < sys.num_blocks(); ++i) {
    st.workspaces.push_back(sys.block(i).MakeWorkspace());
    st.workspace_ptrs[i] = st.workspaces.back().get();
  }
  ctx_ = blocks::Context{};
  ctx_.t = st.t;
  ctx_.signals = st.signals.data();
  ctx_.x = st.x.data();
  ctx_.xdot = st.xdot.data();
  ctx_.z = st.z.data();
  ctx_.dae = is_dae();
  ctx_.xd = st.xd.data();
  ctx_.dwork = st.dwork.data();
  ctx_.modes = st.modes.data();
  ctx_.zc = st.zc.data();
  ctx_.rate_hits = st.rate_hits.data();
  ctx_.workspaces = st.workspace_ptrs.data();
  ctx_.demanded = demanded_.data();
  ctx_.state_tolerance = state_tolerance_.size() > 0 ? state_tolerance_.data() : nullptr;
  ctx_.major = true;

  for (int i = 0; i < sys.num_blocks(); ++i) {
    current_block_ = i;
    sys.block(i).Initialize(ctx_);
  }
  // Rows: one per output time when the interval is set, else a generous first guess
  // (recording then grows geometrically).
  const double span = settings_.t_end - settings_.t_start;
  if (settings_.output_interval) {
    // At most 256 MB up front: past that the recording grows as it goes.
    const double most = 256e6 / (8.0 * (recording_.num_columns() + 1));
    recording_.Reserve(static_cast<int>(std::min(most, span / *settings_.output_interval)) + 3);
  } else {
    recording_.Reserve(4096);
  }
  output_index_ = 0;
  next_output_ = settings_.t_start;
  x_interp_ = Eigen::VectorXd::Zero(is_dae() ? y_.size() : sys.num_continuous_states());
  interpolate_rows_ = settings_.output_interval.has_value() && integrator_->has_dense_output() &&
                      sys.num_continuous_states() > 0;
  target_ = settings_.t_end;
  inputs_changed_ = false;
  hits_quiet_ = false;
  failure_.clear();
  MajorStep(/*first=*/true);
  ResetSolver();
  initialized_ = true;
}

void Simulator::MajorStep(bool first) {
  SimulationState& st = state_;
  const System& sys = system_;
  blocks::Context& c = ctx_;
  minor_outputs_current_ = false;
  c.t = st.t;
  c.x = st.x.data();
  c.xdot = st.xdot.data();
  c.z = st.z.data();
  c.zc = st.zc.data();
  c.major = true;
  c.states_reset = false;
  c.states_projected = false;
  bool any_hit = false;
  for (size_t r = 0; r < sys.rates().size(); ++r) {
    const blocks::SampleTime& rate = sys.rates()[r];
    const double hit = rate.offset + static_cast<double>(st.rate_k[r]) * rate.period;
    st.rate_hits[r] = st.t == hit ? 1 : 0;
    any_hit = any_hit || st.rate_hits[r];
  }
  if (first) {
    for (const ExecutionEntry& e : sys.constant_order()) {
      current_block_ = e.block->index();
      e.block->CalcOutputs(c, e.stage);
    }
  }
  for (size_t r = 0; r < sys.rates().size(); ++r) {
    if (!st.rate_hits[r]) continue;
    for (int k = unit_delay_start_[r]; k < unit_delay_start_[r + 1]; ++k) {
      const UnitDelayRow& d = unit_delays_[k];
      c.signals[d.output] = c.xd[d.state];
    }
  }
  for (const ExecutionEntry& e : major_calls_) {
    const int rate = e.block->rate_index();
    if (rate >= 0 && !st.rate_hits[rate]) continue;
    current_block_ = e.block->index();
    e.block->CalcOutputs(c, e.stage);
  }
  // The DAE's algebraic variables start consistent with x (and with every input at t, now
  // that the outputs are computed); the continuous outputs then see them.
  if (first && is_dae() && system_.num_algebraic_variables() > 0) {
    y_.head(sys.num_continuous_states()) = st.x;
    if (dae_problem_->CalcConsistentStart(st.t, y_, yp_) != 0) {
      throw std::runtime_error(dae_problem_->last_error());
    }
    st.z = y_.tail(sys.num_algebraic_variables());
    CalcMajorContinuousOutputs();
  }
  // Record the outputs at t before discrete states move on to their next values.
  if (!settings_.output_interval) {
    RecordRow(st.t);
  } else if (st.t >= next_output_ || st.t == settings_.t_end || st.t == end_time_) {
    RecordRow(st.t);
    while (next_output_ <= st.t) {
      ++output_index_;
      next_output_ =
          settings_.t_start + static_cast<double>(output_index_) * *settings_.output_interval;
    }
  }
  for (size_t r = 0; r < sys.rates().size(); ++r) {
    if (!st.rate_hits[r]) continue;
    for (int k = unit_delay_start_[r]; k < unit_delay_start_[r + 1]; ++k) {
      const UnitDelayRow& d = unit_delays_[k];
      c.xd[d.state] = c.signals[d.input];
    }
  }
  if (state_tolerance_.size() > 0) {
    state_tolerance_ = state_atol_ + state_rtol_ * st.x.cwiseAbs();  // same size: no allocation
  }
  for (const blocks::Block* b : update_calls_) {
    const int rate = b->rate_index();
    if (rate >= 0 && !st.rate_hits[rate]) continue;
    current_block_ = b->index();
    b->Update(c);
  }
  last_major_hit_ = any_hit;
  if (any_hit) {
    for (size_t r = 0; r < sys.rates().size(); ++r) st.rate_k[r] += st.rate_hits[r];
  }
  next_breakpoint_ = kInf;
  for (const blocks::Block* b : sys.breakpoint_blocks()) {
    current_block_ = b->index();
    next_breakpoint_ = std::min(next_breakpoint_, b->NextBreakpoint(c, st.t));
  }
  current_block_ = -1;
  ++stats_.major_steps;
  major_outputs_current_ = reuse_major_outputs_ && !c.states_reset && !c.states_projected;
}

double Simulator::NextSampleHit() const {
  double hit = kInf;
  for (size_t r = 0; r < system_.rates().size(); ++r) {
    const blocks::SampleTime& rate = system_.rates()[r];
    hit = std::min(hit, rate.offset + static_cast<double>(state_.rate_k[r]) * rate.period);
  }
  return hit;
}

double Simulator::NextStop() const {
  double stop = std::min({target_, next_breakpoint_, end_time_});
  // After a hit that changed what the solver reads, the next is likely to as well (a
  // command ramping each sample): land on it rather than compute a step it would cut.
  if (!(step_over_hits_ && hits_quiet_)) stop = std::min(stop, NextSampleHit());
  // Output times are stops only where no dense output can fill them in.
  if (settings_.output_interval && !interpolate_rows_) stop = std::min(stop, next_output_);
  return stop;
}

void Simulator::RecordRow(double t) {
  recording_.Append(t, state_.signals.data());
  if (row_callback_) row_callback_(recording_.num_rows() - 1, ctx_);
}

void Simulator::RecordInterpolatedRows(double t_end_of_step) {
  if (!interpolate_rows_) return;
  // Rows strictly inside the step; one landing on its end is written by the major step.
  while (next_output_ < t_end_of_step) {
    integrator_->Interpolate(next_output_, x_interp_);
    // Continuous outputs at the row's time with modes held; discrete outputs keep their
    // values from the last hit, as they would in a minor step.
    CalcMinorOutputs(next_output_, x_interp_.data(),
                     x_interp_.data() + system_.num_continuous_states(), /*for_row=*/true);
    RecordRow(next_output_);
    ++output_index_;
    next_output_ =
        settings_.t_start + static_cast<double>(output_index_) * *settings_.output_interval;
  }
}

bool Simulator::LocateStatelessCrossing(double t0, double t1, double* t_cross) {
  const int nzc = system_.num_zero_crossings();
  if (nzc == 0 || !settings_.zero_crossings || integrator_->is_fixed_step()) return false;
  // g at both ends with modes held; bisect on the first function that changes sign.
  auto eval = [&](double t, double* out) {
    CalcMinorOutputs(t, state_.x.data(), state_.z.data());
    ctx_.zc = out;
    for (const blocks::Block* b : system_.zero_crossing_blocks()) b->CalcZeroCrossings(ctx_);
    ctx_.zc = state_.zc.data();
  };
  double* g0 = state_.zc.data();
  double* g1 = zc_scratch_.data();
  double* gm = zc_scratch_.data() + nzc;
  eval(t0, g0);
  eval(t1, g1);
  auto crossed = [](double a, double b) { return (a > 0 && b <= 0) || (a < 0 && b >= 0); };
  bool any = false;
  for (int i = 0; i < nzc; ++i) any = any || crossed(g0[i], g1[i]);
  if (!any) return false;
  double lo = t0, hi = t1;
  const double tol = 4 * std::numeric_limits<double>::epsilon() * std::max(1.0, std::abs(t1));
  while (hi - lo > tol) {
    const double mid = 0.5 * (lo + hi);
    eval(mid, gm);
    // Exactly zero is not crossed yet: the major step must see the far side.
    bool left = false;
    for (int i = 0; i < nzc; ++i) {
      left = left || (g0[i] > 0 && gm[i] < 0) || (g0[i] < 0 && gm[i] > 0);
    }
    if (left) {
      hi = mid;
    } else {
      lo = mid;
    }
  }
  *t_cross = hi;
  // Which functions crossed, for the consecutive-crossings guard's message only: the blocks
  // of a model without states are not told (Context::zc_crossed stays unset).
  eval(hi, gm);
  for (int i = 0; i < nzc; ++i) zc_crossed_[i] = crossed(g0[i], gm[i]) ? 1 : 0;
  return true;
}

void Simulator::Advance() {
  SimulationState& st = state_;
  const double t_from = st.t;
  const double t_stop = NextStop();
  const double breakpoint = next_breakpoint_;
  bool crossing = false;
  if (system_.num_continuous_states() == 0) {
    // Nothing to integrate: jump, in steps no longer than the solver's, so that continuous
    // outputs are still sampled and crossings still found.
    const auto& opt = integrator_->options();
    const double h = integrator_->is_fixed_step() ? opt.fixed_step : opt.max_step;
    // Land on t_stop rather than leave a sliver of rounding before it.
    double t_next = st.t + h >= t_stop - 1e-9 * h ? t_stop : st.t + h;
    double t_cross;
    if (LocateStatelessCrossing(st.t, t_next, &t_cross)) {
      t_next = t_cross;
      crossing = true;
    }
    st.t = t_next;
    ++stats_.solver.steps;
  } else {
    const solvers::StepResult r = integrator_->Step(t_stop);
    if (step_over_hits_ && TakeHitsInsideStep(r.t)) return;
    RecordInterpolatedRows(r.t);
    st.t = r.t;
    TakeSolverState();
    crossing = r.zero_crossing;
    if (crossing) {
      for (int i : r.crossed) zc_crossed_[i] = 1;
      ctx_.zc_crossed = zc_crossed_.data();
    }
  }
  if (system_.num_continuous_states() == 0) {
    // Without states nothing was integrated: a block that refuses the new time (a FromFile
    // past its data) leaves the run at the last time it accepted, where its results end.
    try {
      MajorStep(/*first=*/false);
    } catch (...) {
      st.t = t_from;
      throw;
    }
  } else {
    MajorStep(/*first=*/false);
  }
  if (crossing) {
    CountConsecutiveCrossing();
    std::fill(zc_crossed_.begin(), zc_crossed_.end(), 0);
    ctx_.zc_crossed = nullptr;
  }
  // Steps that no longer advance time (a stiff model under an explicit solver, whose steps
  // stability bounds to nothing; an event repeating at one instant) would run for hours:
  // Simulink stops such a run at its minimum step or its consecutive zero crossings.
  crawling_steps_ = st.t - t_from < time_resolution_ ? crawling_steps_ + 1 : 0;
  if (crawling_steps_ >= kCrawlingStepsLimit) ThrowCrawling();
  // The right-hand side may have jumped (a reset state, a flipped mode, a new discrete
  // output, a source's breakpoint): restart the solver with a fresh derivative, and for
  // multistep methods a fresh history. Stepping over hits, only a hit that changed what the
  // solver reads is a jump.
  bool jumped = ctx_.states_reset || crossing || st.t == breakpoint;
  if (last_major_hit_) {
    const bool changed = !step_over_hits_ || ctx_.states_reset || HeldInputsChanged();
    hits_quiet_ = !changed;
    jumped = jumped || changed;
  }
  if (system_.num_continuous_states() == 0) return;
  if (jumped) {
    SimulationStats::SolverResets& r = stats_.resets;
    ++(ctx_.states_reset    ? r.state_resets
       : crossing           ? r.zero_crossings
       : st.t == breakpoint ? r.breakpoints
                            : r.sample_hits);
    ResetSolver();
  } else if (ctx_.states_projected) {
    CorrectSolverState();
  }
}

bool Simulator::TakeHitsInsideStep(double t_end_of_step) {
  SimulationState& st = state_;
  const Eigen::Index nx = st.x.size();
  const double t_start = st.t;
  for (double hit = NextSampleHit(); hit < t_end_of_step; hit = NextSampleHit()) {
    // Rows before the hit see the discrete outputs of the hits before it.
    RecordInterpolatedRows(hit);
    integrator_->Interpolate(hit, x_interp_);
    st.t = hit;
    st.x = x_interp_.head(nx);
    MajorStep(/*first=*/false);
    const bool changed = ctx_.states_reset || HeldInputsChanged();
    hits_quiet_ = !changed;
    // Steps that have followed the hits' grid end a rounding error past a hit: end there
    // instead, so that times stay on the grid and no sliver of a step follows.
    const bool sliver = t_end_of_step - hit <= 1e-9 * (t_end_of_step - t_start);
    if (changed || sliver) {
      // The rest of the step assumed the old inputs: it is dropped, and the solver starts
      // again here.
      ++(ctx_.states_reset ? stats_.resets.state_resets : stats_.resets.sample_hits);
      ResetSolver();
      return true;
    }
    if (ctx_.states_projected) {
      // The rest of the step left the invariant the hit's projection restored: dropped too.
      CorrectSolverState();
      return true;
    }
  }
  return false;
}

void Simulator::CheckJacobianSize() const {
  // The implicit solvers hold dense n x n matrices (a Jacobian, an iteration matrix and its
  // LU): a model with tens of thousands of states asks for gigabytes there.
  if (!solvers::IntegratorFormsJacobian(settings_.solver)) return;
  const double n = static_cast<double>(system_.num_continuous_states()) +
                   (settings_.solver == "ida" ? system_.num_algebraic_variables() : 0);
  const double values = 3.0 * n * n;
  if (values <= static_cast<double>(blocks::CurrentInputLimits().model_values)) return;
  char text[64];
  std::snprintf(text, sizeof text, "%.3g", values);
  throw std::invalid_argument(settings_.solver + " forms dense " + FormatNumber(n) + " x " +
                              FormatNumber(n) +
                              " matrices (a Jacobian, an iteration matrix and "
                              "its factors): " +
                              text + " values, " + blocks::OverLimit("model_values") +
                              "; an explicit solver (ode45) forms none");
}

void Simulator::CheckTimeResolution(const solvers::IntegratorOptions& opt) const {
  // A time step shorter than the spacing of doubles near t cannot advance time: such a run
  // would stop, crawling, at its first step (exit 3). Refuse it before it starts.
  const SimulationSettingsValues& s = settings_;
  auto check = [this](const std::string& what, double period) {
    if (period >= time_resolution_) return;
    char text[64];
    std::snprintf(text, sizeof text, "%.3g s", time_resolution_);
    throw std::invalid_argument(
        what + " = " + FormatNumber(period) + " s is below the time resolution of this run (" +
        text + ", 16 eps max(|t_start|, |t_end|)): a step that short cannot advance time");
  };
  if (integrator_->is_fixed_step()) {
    check("step", opt.fixed_step);
  } else {
    check("max_step", opt.max_step);
    if (s.initial_step) check("initial_step", *s.initial_step);
  }
  if (s.output_interval) check("output_interval", *s.output_interval);
  const std::vector<blocks::SampleTime>& rates = system_.rates();
  if (rates.empty()) return;
  for (int i = 0; i < system_.num_blocks(); ++i) {
    if (system_.block(i).rate_index() != 0) continue;
    check("the sample time of block '" + system_.block_path(i) + "'", rates.front().period);
    break;
  }
}

void Simulator::CheckResultsFit(double fixed_step) const {
  // Rows the run will record, where the settings tell: one per output time; else at least
  // one per step of a fixed-step solver and one per hit of the fastest discrete rate. A run
  // whose results cannot be held would end in an out-of-memory kill hours in, with nothing
  // written: refuse it before it starts.
  const SimulationSettingsValues& s = settings_;
  const double span = s.t_end - s.t_start;
  double rows = 0.0, per = 0.0;
  std::string what, remedy;
  if (s.output_interval) {
    per = *s.output_interval;
    what = "output_interval";
    remedy = "a longer output_interval";
  } else {
    if (integrator_->is_fixed_step()) {
      per = fixed_step;
      what = "step";
      remedy = "a longer step, or an output_interval";
    }
    const std::vector<blocks::SampleTime>& rates = system_.rates();
    if (!rates.empty() && (per == 0.0 || rates.front().period < per)) {
      per = rates.front().period;
      what = "the fastest sample time";
      for (int i = 0; i < system_.num_blocks(); ++i) {
        if (system_.block(i).rate_index() != 0) continue;
        what += " (block '" + system_.block_path(i) + "')";
        break;
      }
      remedy = "an output_interval, or a longer sample time";
    }
    if (per == 0.0) return;
  }
  rows = span / per;
  const double columns = recording_.num_columns() + 1.0;  // and time
  const double bytes = rows * columns * sizeof(double);
  // Half the machine's memory: the run and the results' writing need their share too.
  const double memory = 0.5 * static_cast<double>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGE_SIZE);
  const double most_rows = std::numeric_limits<int>::max();
  if (rows <= most_rows && (memory <= 0.0 || bytes <= memory)) return;
  char limit[64];
  if (rows > most_rows) {
    std::snprintf(limit, sizeof limit, "a run can record (2^31 - 1 rows)");
  } else {
    std::snprintf(limit, sizeof limit, "half this machine's memory (%.3g GB)", memory / 1e9);
  }
  char text[400];
  std::snprintf(text, sizeof text,
                "%s = %s s over [%s, %s] s gives %.3g rows of results (%.3g GB), more than %s: "
                "give %s",
                what.c_str(), FormatNumber(per).c_str(), FormatNumber(s.t_start).c_str(),
                FormatNumber(s.t_end).c_str(), rows, bytes / 1e9, limit, remedy.c_str());
  throw std::invalid_argument(text);
}

void Simulator::CountConsecutiveCrossing() {
  const double t = state_.t;
  // A switch that reverses the input it switches on (x' = -sign(x) at x = 0) or a bounce past
  // its Zeno time crosses again a few ulps later, forever, and each crossing moves time on
  // by just enough to pass the crawl guard: Simulink's consecutive zero crossings stop it.
  const double window = settings_.zc_time_tolerance * std::max(1.0, std::abs(t));
  consecutive_crossings_ = t - last_crossing_t_ < window ? consecutive_crossings_ + 1 : 1;
  last_crossing_t_ = t;
  if (consecutive_crossings_ >= settings_.max_consecutive_zc) ThrowChattering(window);
}

void Simulator::ThrowChattering(double window) const {
  // Where: the blocks whose functions the last step crossed.
  std::string where;
  for (const blocks::Block* b : system_.zero_crossing_blocks()) {
    const auto first = zc_crossed_.begin() + b->zc_offset();
    if (std::none_of(first, first + b->num_zero_crossings(), [](unsigned char f) { return f; })) {
      continue;
    }
    where += where.empty() ? " at " : ", ";
    where +=
        "block '" + system_.block_path(b->index()) + "' (" + system_.block_type(b->index()) + ")";
  }
  char within[32];
  std::snprintf(within, sizeof within, "%.3g", window);
  throw solvers::SolverError(
      std::to_string(consecutive_crossings_) + " zero crossings in a row" + where +
          ", each within " + within +
          " s of the one before: the model switches faster than time can resolve (a switch "
          "that reverses the input it switches on, a bounce at its Zeno time). Give the "
          "switch a dead band or a delay, let the bounce come to rest (a "
          "SecondOrderIntegrator's limit), turn zero_crossings off, or raise the "
          "simulation's max_consecutive_zc (" +
          std::to_string(settings_.max_consecutive_zc) + ") or zc_time_tolerance",
      state_.t);
}

void Simulator::ThrowCrawling() const {
  char resolution[32];
  std::snprintf(resolution, sizeof resolution, "%.3g", time_resolution_);
  throw solvers::SolverError(
      "time no longer advances: the last " + std::to_string(kCrawlingStepsLimit) +
          " steps were each shorter than " + resolution +
          " s (the time resolution of this run). A stiff model does this under a solver not "
          "made for it (try " +
          StiffSolversBut(settings_.solver) +
          "), as does an event repeating at one instant (a chattering switch, a bounce at its "
          "Zeno time)",
      state_.t);
}

void Simulator::TakeSolverState() {
  const Eigen::VectorXd& y = integrator_->state();
  state_.x = y.head(system_.num_continuous_states());
  if (is_dae()) state_.z = y.tail(system_.num_algebraic_variables());
}

void Simulator::ResetSolver() {
  HoldInputs();
  if (!is_dae()) {
    integrator_->Reset(state_.t, state_.x);
    return;
  }
  // The solver makes the algebraic variables consistent again (CalcConsistentStart).
  y_.head(system_.num_continuous_states()) = state_.x;
  y_.tail(system_.num_algebraic_variables()) = state_.z;
  integrator_->Reset(state_.t, y_);
  TakeSolverState();
}

void Simulator::CorrectSolverState() {
  ++stats_.projections;
  // A projection moves the state by about the solver's own error, back onto its invariant:
  // the right-hand side has not jumped. (Under IDA the solver keeps the constraints itself.)
  if (is_dae()) {
    ResetSolver();
    return;
  }
  integrator_->CorrectState(state_.t, state_.x);
}

void Simulator::CalcMajorContinuousOutputs() {
  minor_outputs_current_ = false;
  blocks::Context& c = ctx_;
  c.t = state_.t;
  c.x = state_.x.data();
  c.xdot = state_.xdot.data();
  c.z = state_.z.data();
  c.zc = state_.zc.data();
  c.major = true;
  // Discrete blocks keep their outputs until their next hit.
  for (const ExecutionEntry& e : system_.major_order()) {
    if (e.block->rate_index() >= 0) continue;
    current_block_ = e.block->index();
    e.block->CalcOutputs(c, e.stage);
  }
}

SimulationOutcome Simulator::Run() { return AdvanceTo(settings_.t_end); }

}  // namespace twinblocks::graph
