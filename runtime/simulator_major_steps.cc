// Simulator: the run itself, one major step after another (Initialize, Advance, MajorStep),
// the rows it records, and the solver restarts between steps.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "common/suggest.h"
#include "runtime/simulator.h"

namespace twinblocks::graph {

namespace {

// No hit, no breakpoint: the run's stops before it ends are the other ones.
constexpr double kNoStop = std::numeric_limits<double>::infinity();

}  // namespace

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
  rate_grid_.assign(sys.rates().size(), RateGrid{});
  for (size_t r = 0; r < sys.rates().size(); ++r) {
    const double period = sys.rates()[r].period;
    rate_grid_[r] = {period, 1};
    // Rates are sorted by period: the first whose whole multiple this one is is its base.
    for (size_t b = 0; b < r; ++b) {
      const double base = sys.rates()[b].period;
      const double m = std::round(period / base);
      if (m >= 1.0 && m < 1e12 && std::abs(m * base - period) <= 1e-9 * period) {
        rate_grid_[r] = {base, static_cast<long long>(m)};
        break;
      }
    }
  }
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
    const double hit = HitTime(r, st.rate_k[r]);
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
  // A step that records no row computes what blocks read (at major steps, in the solver's
  // evaluations); what only the logs read waits for the rows (between steps, they are
  // computed at their own times from the dense output).
  const bool row = RecordsRowAt(st.t);
  c.demand_mask =
      row ? blocks::kReadAnything : blocks::kReadAtMajorSteps | blocks::kReadInEvaluations;
  for (const ExecutionEntry& e : major_calls_) {
    const int rate = e.block->rate_index();
    if ((rate >= 0 && !st.rate_hits[rate]) || !Runs(*e.block)) continue;
    current_block_ = e.block->index();
    e.block->CalcOutputs(c, e.stage);
  }
  c.demand_mask = blocks::kReadAnything;
  // A block ended the run here (StopSimulation, Assertion): its last row needs the logs too.
  if (!row && c.stop_block >= 0) CalcMajorContinuousOutputs();
  // The DAE's algebraic variables start consistent with x (and with every input at t, now
  // that the outputs are computed); the continuous outputs then see them.
  if (first && is_dae() && system_.num_algebraic_variables() > 0) {
    StartAlgebraicVariables();
    CalcMajorContinuousOutputs();
  }
  // Record the outputs at t before discrete states move on to their next values.
  if (!settings_.output_interval) {
    RecordRow(st.t);
  } else if (row || c.stop_block >= 0) {
    // A run a block ends here (StopSimulation, Assertion) keeps its last row too.
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
    if ((rate >= 0 && !st.rate_hits[rate]) || !Runs(*b)) continue;
    current_block_ = b->index();
    b->Update(c);
  }
  last_major_hit_ = any_hit;
  if (any_hit) {
    for (size_t r = 0; r < sys.rates().size(); ++r) st.rate_k[r] += st.rate_hits[r];
  }
  next_breakpoint_ = kNoStop;
  for (const blocks::Block* b : sys.breakpoint_blocks()) {
    current_block_ = b->index();
    next_breakpoint_ = std::min(next_breakpoint_, b->NextBreakpoint(c, st.t));
  }
  current_block_ = -1;
  ++stats_.major_steps;
  major_outputs_current_ = reuse_major_outputs_ && !c.states_reset && !c.states_projected;
}

double Simulator::NextSampleHit() const {
  double hit = kNoStop;
  for (size_t r = 0; r < system_.rates().size(); ++r) {
    hit = std::min(hit, HitTime(r, state_.rate_k[r]));
  }
  return hit;
}

double Simulator::HitTime(size_t r, long long k) const {
  return system_.rates()[r].offset +
         static_cast<double>(k * rate_grid_[r].multiple) * rate_grid_[r].period;
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

bool Simulator::RecordsRowAt(double t) const {
  return !settings_.output_interval || t >= next_output_ || t == settings_.t_end || t == end_time_;
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
    evaluated_elsewhere_ = true;
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
    // A block that ends the run at this hit (a discrete StopSimulation) ends it here too.
    if (changed || sliver || ctx_.stop_block >= 0) {
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
  // Discrete and triggered blocks keep their outputs until their next hit or trigger.
  for (const ExecutionEntry& e : system_.major_order()) {
    if (e.block->rate_index() >= 0 || e.block->sample_time().is_triggered() || !Runs(*e.block)) {
      continue;
    }
    current_block_ = e.block->index();
    e.block->CalcOutputs(c, e.stage);
  }
}

SimulationOutcome Simulator::Run() { return AdvanceTo(settings_.t_end); }

}  // namespace twinblocks::graph
