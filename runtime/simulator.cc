// Simulator: construction (the run's options, its solver, the tables the stepping loop reads),
// and the checks that refuse settings a run cannot honour before it starts.
#include "runtime/simulator.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>

#include "common/input_limits.h"
#include "common/suggest.h"
#include "runtime/simulation_settings.h"
#include "solvers/solver_table.h"

namespace twinblocks::graph {

namespace {

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
        "Mechanism with contacts, or with joint springs, dampers or stops, does); use auto or "
        "perturbation");
  }
  const solvers::SolverInfo* solver = solvers::FindSolver(s.solver);
  if (solver != nullptr && solver->solves_daes() && system.num_algebraic_variables() > 0) {
    throw std::invalid_argument(
        "jacobian_method = blocks: with ida this model is a DAE (the loop constraints of a "
        "mechanism), and no block gives their derivatives; use auto or perturbation");
  }
  return solvers::JacobianMethod::kProblem;
}

}  // namespace

Simulator::Simulator(const System& system, const SimulationSettingsValues& settings)
    : system_(system), settings_(settings), recording_(system.logged_signals()) {
  CheckTimeSpan();
  solvers::IntegratorOptions opt = SolverOptions();
  CheckJacobianSize();
  MakeSolver(&opt);
  CheckTimeResolution(opt);
  CheckResultsFit(opt.fixed_step);
  FindEndTime();
  PlanMajorOutputReuse(opt);
  BuildUpdateTables();
  FindDemandedSignals();
  PlanSampleHits();
}

void Simulator::CheckTimeSpan() {
  const SimulationSettingsValues& s = settings_;
  if (!(s.t_end > s.t_start)) {
    throw std::invalid_argument("t_end (" + FormatNumber(s.t_end) + ") must be after t_start (" +
                                FormatNumber(s.t_start) + ")");
  }
  time_resolution_ = 16.0 * std::numeric_limits<double>::epsilon() *
                     std::max(std::abs(s.t_start), std::abs(s.t_end));
}

solvers::IntegratorOptions Simulator::SolverOptions() const {
  const SimulationSettingsValues& s = settings_;
  const System& system = system_;
  const double span = s.t_end - s.t_start;
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
  // Each value within its setting's range (the schema's), before any is used.
  CheckSettingRanges(s);
  if (s.jacobian_steps) opt.jacobian_steps = *s.jacobian_steps;
  opt.jacobian_method = SolverJacobianMethod(system, s);
  // The blocks' own absolute tolerances (Simulink's block "Absolute tolerance"), which stay
  // as given when the others scale.
  opt.state_atol = system.StateAbsoluteTolerances(opt.atol);
  if (opt.scale_atol && opt.state_atol.size() > 0) {
    // NaN where the simulation's atol applies: the states with their own are the others.
    opt.fixed_atol =
        !system.StateAbsoluteTolerances(std::numeric_limits<double>::quiet_NaN()).array().isNaN();
  }
  return opt;
}

void Simulator::FindEndTime() {
  for (int i = 0; i < system_.num_blocks(); ++i) {
    const double end = system_.block(i).end_time();
    if (end < end_time_) {
      end_time_ = end;
      end_block_ = i;
    }
  }
}

void Simulator::PlanMajorOutputReuse(const solvers::IntegratorOptions& opt) {
  const System& system = system_;
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
}

void Simulator::BuildUpdateTables() {
  const System& system = system_;
  // A unit delay's output is its state alone, so the table's outputs may all come first in
  // a major step; its update reads only its input, so the table's updates may come in any
  // order among the others'.
  // The blocks of conditional subsystems stay out of the table: they run only when their
  // condition lets them (System::Runs).
  auto in_table = [](const blocks::Block& b) {
    return b.unit_delay_slots().has_value() && b.condition() < 0 && b.rate_index() >= 0;
  };
  for (const ExecutionEntry& e : system.major_order()) {
    if (!in_table(*e.block)) major_calls_.push_back(e);
  }
  // The table sorted by rate (counting each rate's delays, then placing them in block order),
  // so that a hit of one rate runs a contiguous range.
  const int num_rates = static_cast<int>(system.rates().size());
  unit_delay_start_.assign(num_rates + 1, 0);
  for (const blocks::Block* b : system.update_blocks()) {
    if (in_table(*b)) {
      ++unit_delay_start_[b->rate_index() + 1];
    } else {
      update_calls_.push_back(b);
    }
  }
  for (int r = 0; r < num_rates; ++r) unit_delay_start_[r + 1] += unit_delay_start_[r];
  unit_delays_.resize(unit_delay_start_[num_rates]);
  std::vector<int> next(unit_delay_start_.begin(), unit_delay_start_.end() - 1);
  for (const blocks::Block* b : system.update_blocks()) {
    if (!in_table(*b)) continue;
    if (const auto slots = b->unit_delay_slots()) {
      unit_delays_[next[b->rate_index()]++] = {slots->state, slots->input, slots->output};
    }
  }
}

void Simulator::FindDemandedSignals() {
  const System& system = system_;
  // What the diagram reads: the connected inputs at major steps, inside solver evaluations
  // the inputs of the blocks those run, and the logs at output rows. A continuous block
  // without states or memory (a Mux, a Gain) reads its inputs only where its own outputs are
  // read (PropagateDemand): a sensor that feeds only an unread Mux is not read, and one that
  // feeds only a logged Gain is read for the rows alone.
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
    Demand(s.offset, s.width, blocks::kReadForRows);
  }
  PropagateDemand();
}

void Simulator::PlanSampleHits() {
  const System& system = system_;
  const SimulationSettingsValues& s = settings_;
  if (s.sample_hits != SimulationSettingsValues::SampleHits::kStepOver) return;
  if (is_dae() || integrator_->is_fixed_step() || !integrator_->has_dense_output()) {
    throw std::invalid_argument(
        "sample_hits=\"step_over\" needs a variable-step ODE solver with dense output (" +
        solvers::SolverNamesWhere(
            [](const solvers::SolverInfo& row) {
              return !row.is_fixed_step() && !row.solves_daes() && row.dense_output;
            },
            ", ") +
        "); " + s.solver + " is not one");
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
      unsigned char who = 0;
      for (int k = 0; k < b.num_outputs(); ++k) {
        const blocks::Block::OutputPort& port = b.output_port(k);
        for (int e = port.offset; e < port.offset + port.width; ++e) who |= demanded_[e];
      }
      if (who == 0) continue;
      // Read by a block or in evaluations: its inputs are read at every major step; read by
      // the logs alone: at the rows.
      const unsigned char inputs_read =
          (who & ~blocks::kReadForRows) != 0 ? blocks::kReadAtMajorSteps : blocks::kReadForRows;
      for (int k = 0; k < b.num_inputs(); ++k) {
        if (Demand(b.input_port(k).offset, b.input_port(k).width, inputs_read)) grew = true;
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

void Simulator::CheckJacobianSize() const {
  // The implicit solvers hold dense n x n matrices (a Jacobian, an iteration matrix and its
  // LU): a model with tens of thousands of states asks for gigabytes there.
  const solvers::SolverInfo* solver = solvers::FindSolver(settings_.solver);
  if (solver == nullptr || !solver->forms_jacobian()) return;
  const double n = static_cast<double>(system_.num_continuous_states()) +
                   (solver->solves_daes() ? system_.num_algebraic_variables() : 0);
  const double values = 3.0 * n * n;
  if (values <= static_cast<double>(blocks::CurrentInputLimits().model_values)) return;
  char text[64];
  std::snprintf(text, sizeof text, "%.3g", values);
  throw std::invalid_argument(
      settings_.solver + " forms dense " + FormatNumber(n) + " x " + FormatNumber(n) +
      " matrices (a Jacobian, an iteration matrix and "
      "its factors): " +
      text + " values, " + blocks::OverLimit("model_values") + "; an explicit solver (" +
      std::string(solvers::kDefaultSolver) + ") forms none");
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

}  // namespace twinblocks::graph
