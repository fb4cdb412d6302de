// The step-by-step side of Simulator (docs/stepping.md): AdvanceTo, external inputs, reading
// signals and states by handle, saving and restoring the whole state of a run.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include "common/suggest.h"
#include "runtime/simulator.h"

namespace twinblocks::graph {

namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

std::string JoinNames(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  return s.empty() ? "none" : s;
}

/// Copies `from` into `to` element by element, so that storage already sized is reused.
template <class T>
void CopyInto(const std::vector<T>& from, std::vector<T>* to) {
  to->resize(from.size());
  std::copy(from.begin(), from.end(), to->begin());
}

/// Copies a whole run state; `to`'s workspaces are made on first use, then only copied into.
void CopyState(const System& system, const SimulationState& from, SimulationState* to) {
  to->t = from.t;
  to->x = from.x;
  to->xdot = from.xdot;
  to->z = from.z;
  CopyInto(from.signals, &to->signals);
  CopyInto(from.xd, &to->xd);
  CopyInto(from.dwork, &to->dwork);
  CopyInto(from.modes, &to->modes);
  CopyInto(from.zc, &to->zc);
  CopyInto(from.rate_hits, &to->rate_hits);
  CopyInto(from.rate_k, &to->rate_k);
  if (to->workspaces.size() != from.workspaces.size()) {
    to->workspaces.clear();
    to->workspace_ptrs.assign(from.workspaces.size(), nullptr);
    for (size_t i = 0; i < from.workspaces.size(); ++i) {
      to->workspaces.push_back(system.block(static_cast<int>(i)).MakeWorkspace());
      to->workspace_ptrs[i] = to->workspaces.back().get();
    }
  }
  for (size_t i = 0; i < from.workspaces.size(); ++i) {
    if (from.workspaces[i]) to->workspaces[i]->CopyFrom(*from.workspaces[i]);
  }
}

}  // namespace

void Simulator::CheckReadable(int offset, int size, size_t available) {
  if (offset < 0 || size < 0 ||
      static_cast<size_t>(offset) + static_cast<size_t>(size) > available) {
    throw std::logic_error(
        "read through a handle outside this run's state (before Initialize, or a handle of "
        "another system)");
  }
}

void Simulator::CollectStats() {
  if (system_.num_continuous_states() > 0) {
    stats_.solver = integrator_->stats();
  }
  // Without continuous states, Advance counts its jumps in stats_.solver.steps itself.
}

SimulationOutcome Simulator::AdvanceTo(double t) {
  const double from = initialized_ ? state_.t : settings_.t_start;
  if (!std::isfinite(t) || t < from || t > settings_.t_end) {
    throw std::invalid_argument("AdvanceTo(" + FormatNumber(t) + "): the time must be in [" +
                                FormatNumber(from) + ", " + FormatNumber(settings_.t_end) +
                                "] (from the current time to t_end)");
  }
  SimulationOutcome outcome;
  if (!failure_.empty()) {
    outcome.ok = false;
    outcome.t = state_.t;
    outcome.error = failure_;
    return outcome;
  }
  const auto start = Clock::now();
  auto last_progress = start;
  try {
    if (!initialized_) Initialize();
    target_ = t;
    if (inputs_changed_ && state_.t < t) ApplyInputChange();
    // A block's stop request (Context::stop_block) ends the loop after its major step; it
    // stands until RestoreState, so that later calls go no further.
    while (state_.t < t && ctx_.stop_block < 0) {
      if (stop_ != nullptr && stop_->load(std::memory_order_relaxed)) {
        outcome.interrupted = true;
        break;
      }
      if (state_.t >= end_time_) {
        // A block that cannot run past here (a FromFile at the end of its data): the run
        // ends at this time, its row recorded, as a failure that says why.
        current_block_ = end_block_;
        throw std::runtime_error(system_.block(end_block_).EndReason());
      }
      Advance();
      if (settings_.max_wall_time && ++wall_check_steps_ >= kWallCheckSteps) {
        wall_check_steps_ = 0;
        if (stats_.wall_seconds + Seconds(Clock::now() - start) > *settings_.max_wall_time) {
          outcome.timed_out = true;
          break;
        }
      }
      if (progress_) {
        const auto now = Clock::now();
        if (Seconds(now - last_progress) >= progress_interval_) {
          last_progress = now;
          Progress p;
          p.t = state_.t;
          p.fraction = (state_.t - settings_.t_start) / (settings_.t_end - settings_.t_start);
          p.steps = integrator_->stats().steps + stats_.solver.steps;
          p.wall_seconds = Seconds(now - start);
          p.stiff_since = integrator_->stats().stiff_since;
          progress_(p);
        }
      }
    }
    if (ctx_.stop_block >= 0) TakeStopRequest(&outcome);
  } catch (const solvers::SolverError& e) {
    outcome.ok = false;
    outcome.error = "simulation failed at t = " + FormatNumber(e.time()) + " s: " + e.what();
  } catch (const std::exception& e) {
    outcome.ok = false;
    outcome.error = "simulation failed at t = " + FormatNumber(state_.t) +
                    " s: " + CurrentBlockDescription() + e.what();
  }
  current_block_ = -1;
  if (!outcome.ok) failure_ = outcome.error;
  if (outcome.timed_out) {
    outcome.ok = false;
    outcome.error = "the run exceeded max_wall_time (" + FormatNumber(*settings_.max_wall_time) +
                    " s of wall-clock time) at t = " + FormatNumber(state_.t) + " s";
    failure_ = outcome.error;
  }
  if (outcome.interrupted) {
    outcome.ok = false;
    outcome.error = "interrupted at t = " + FormatNumber(state_.t) + " s";
  }
  outcome.t = state_.t;
  stats_.wall_seconds += Seconds(Clock::now() - start);
  CollectStats();
  return outcome;
}

void Simulator::TakeStopRequest(SimulationOutcome* outcome) {
  const int b = ctx_.stop_block;
  current_block_ = b;
  // A failure (an Assertion) ends as any block failure does: the catch in AdvanceTo words it
  // with the time and the block.
  if (ctx_.stop_failed) throw std::runtime_error(system_.block(b).StopReason(ctx_));
  outcome->stopped = true;
  outcome->stopped_by = system_.block_path(b);
  outcome->stopped_by_type = system_.block_type(b);
  current_block_ = -1;
}

void Simulator::ApplyInputChange() {
  inputs_changed_ = false;
  ctx_.states_reset = false;
  // Continuous blocks only: discrete ones keep their outputs until their next hit, and
  // updates already ran at this time.
  CalcMajorContinuousOutputs();
  current_block_ = -1;
  if (system_.num_continuous_states() == 0) return;
  ++stats_.resets.inputs;
  ResetSolver();
}

InputHandle Simulator::FindInput(const std::string& name) const {
  const std::vector<LoggedSignal>& inputs = system_.external_inputs();
  std::vector<std::string> names;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].name == name) {
      return InputHandle{static_cast<int>(i), inputs[i].offset, inputs[i].width};
    }
    names.push_back(inputs[i].name);
  }
  throw std::invalid_argument("no external input '" + name + "'" + SuggestionFor(name, names) +
                              "; the model's top-level <inport>s: " + JoinNames(names));
}

void Simulator::SetInput(const InputHandle& input, std::span<const double> value) {
  const std::vector<LoggedSignal>& inputs = system_.external_inputs();
  if (input.index < 0 || input.index >= static_cast<int>(inputs.size()) ||
      inputs[input.index].offset != input.offset || inputs[input.index].width != input.width) {
    throw std::logic_error("SetInput: the handle is not an external input of this system");
  }
  if (!initialized_) throw std::logic_error("SetInput before Initialize");
  const LoggedSignal& in = inputs[input.index];
  if (static_cast<int>(value.size()) != in.width) {
    throw std::invalid_argument("SetInput: input '" + in.name + "' has width " +
                                std::to_string(in.width) + ", got " + std::to_string(value.size()) +
                                " values");
  }
  double* held = state_.signals.data() + in.offset;
  for (size_t i = 0; i < value.size(); ++i) {
    if (!std::isfinite(value[i])) {
      throw std::invalid_argument("SetInput: input '" + in.name + "'[" + std::to_string(i) +
                                  "] is " + FormatNumber(value[i]) + ", expected a finite number");
    }
  }
  for (size_t i = 0; i < value.size(); ++i) {
    if (held[i] != value[i]) {
      held[i] = value[i];
      inputs_changed_ = true;
      major_outputs_current_ = false;
      minor_outputs_current_ = false;
    }
  }
}

SignalHandle Simulator::FindSignal(const std::string& path_port) {
  if (const std::optional<LoggedSignal> s = system_.FindSignal(path_port)) {
    if (Demand(s->offset, s->width, blocks::kReadAtMajorSteps)) {
      PropagateDemand();
      // Its block may have skipped it so far: the continuous blocks compute it at time()
      // (discrete blocks compute every output at their hits).
      if (initialized_) CalcMajorContinuousOutputs();
    }
    return SignalHandle{s->offset, s->width};
  }
  std::vector<std::string> names;
  for (const LoggedSignal& s : system_.signal_directory()) names.push_back(s.name);
  throw std::invalid_argument("no signal '" + path_port + "'" + SuggestionFor(path_port, names) +
                              " (write path.port of a block output; `twinblocks check` lists " +
                              std::to_string(names.size()) + " signals)");
}

StatesHandle Simulator::FindContinuousStates(const std::string& block_path) const {
  // Continuous states are laid out block after block, in the System's block order.
  int offset = 0;
  std::vector<std::string> with_states;
  for (int b = 0; b < system_.num_blocks(); ++b) {
    const int n = system_.block(b).num_continuous_states();
    if (system_.block_path(b) == block_path) {
      if (n == 0) {
        throw std::invalid_argument("block '" + block_path + "' (" + system_.block_type(b) +
                                    ") has no continuous states");
      }
      return StatesHandle{offset, n};
    }
    if (n > 0) with_states.push_back(system_.block_path(b));
    offset += n;
  }
  throw std::invalid_argument("no block '" + block_path + "'" +
                              SuggestionFor(block_path, with_states) +
                              "; blocks with continuous states: " + JoinNames(with_states));
}

SimulationSnapshot Simulator::SaveState() const {
  SimulationSnapshot snapshot;
  SaveState(&snapshot);
  return snapshot;
}

void Simulator::SaveState(SimulationSnapshot* snapshot) const {
  if (!initialized_) throw std::logic_error("SaveState before Initialize");
  CopyState(system_, state_, &snapshot->state_);
  integrator_->SaveState(&snapshot->integrator_);
  snapshot->system_ = &system_;
  snapshot->next_breakpoint_ = next_breakpoint_;
  snapshot->next_output_ = next_output_;
  snapshot->output_index_ = output_index_;
  snapshot->last_major_hit_ = last_major_hit_;
  snapshot->hits_quiet_ = hits_quiet_;
  snapshot->inputs_changed_ = inputs_changed_;
  snapshot->recorded_rows_ = recording_.num_rows();
}

void Simulator::RestoreState(const SimulationSnapshot& snapshot) {
  if (!snapshot.valid()) throw std::invalid_argument("RestoreState: the snapshot is empty");
  if (snapshot.system_ != &system_) {
    throw std::invalid_argument("RestoreState: the snapshot was taken of another System");
  }
  if (!initialized_) Initialize();
  major_outputs_current_ = false;
  minor_outputs_current_ = false;
  // A DAE's restart reads the blocks' run state (a mechanism's choice of independent
  // constraint rows, which its algebraic variables belong to): put it back first.
  if (is_dae()) CopyState(system_, snapshot.state_, &state_);
  // The solver first: a restart (SUNDIALS) evaluates the model, which writes the signal
  // buffer and workspaces; the copy below then leaves them exactly as saved.
  if (system_.num_continuous_states() > 0) integrator_->RestoreState(snapshot.integrator_);
  CopyState(system_, snapshot.state_, &state_);
  next_breakpoint_ = snapshot.next_breakpoint_;
  crawling_steps_ = 0;
  consecutive_crossings_ = 0;
  last_crossing_t_ = -std::numeric_limits<double>::infinity();
  next_output_ = snapshot.next_output_;
  output_index_ = snapshot.output_index_;
  last_major_hit_ = snapshot.last_major_hit_;
  hits_quiet_ = snapshot.hits_quiet_;
  inputs_changed_ = snapshot.inputs_changed_;
  recording_.Truncate(std::min(recording_.num_rows(), snapshot.recorded_rows_));
  // The saved point followed a major step: the solver's step holds what it left.
  HoldInputs();
  failure_.clear();
  ctx_.stop_block = -1;
  ctx_.stop_failed = false;
  current_block_ = -1;
}

}  // namespace twinblocks::graph
