#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "blocks/block.h"
#include "blocks/sample_time.h"
#include "solvers/solver_table.h"

namespace twinblocks::graph {

class System;

/// How a compiled System rebuilds blocks with other numbers (System::SetParameter and
/// SetVariable). The compiler makes it (compiler/system_tuning.cc): only it knows how each block
/// was built from the model's text. Each call builds every changed block first and then puts
/// them all in place through ReplaceBlock, or throws and changes nothing.
class SystemTuner {
 public:
  virtual ~SystemTuner() = default;
  virtual void SetParameter(System& system, const std::string& block_path, const std::string& param,
                            const std::vector<double>& values) = 0;
  virtual std::vector<std::string> SetVariable(System& system, const std::string& name,
                                               const std::vector<double>& values) = 0;

 protected:
  /// Puts `block` in place of block `index` of `system`, in every execution list.
  static void ReplaceBlock(System& system, int index, std::unique_ptr<blocks::Block> block);
  /// Block `index` of `system`, to change its numbers in place (keeping its structure).
  static blocks::Block& MutableBlock(System& system, int index);
};

/// Run settings: the model's `<simulation>` element after evaluation, overridden by the
/// command line. Unset optional values take the solver's own defaults.
struct SimulationSettingsValues {
  std::string solver = std::string(solvers::kDefaultSolver);
  double t_start = 0.0;        ///< s
  double t_end = 10.0;         ///< s
  std::optional<double> step;  ///< s, fixed-step solvers
  std::optional<double> rtol;
  std::optional<double> atol;  ///< unset: 1e-6, or Simulink's `auto` with auto_scale_atol
  /// Simulink's "Auto scale absolute tolerance": each state's absolute tolerance grows to rtol
  /// times the largest |x_i| the state has reached (blocks' own tolerances excepted). With
  /// atol unset this is Simulink's `auto` absolute tolerance, which starts at 1e-6, or at
  /// rtol / 1000 for rtol below 1e-3 (SimulationSettingsValues::StartingAtol).
  bool auto_scale_atol = false;
  std::optional<double> max_step;         ///< s
  std::optional<double> initial_step;     ///< s
  std::optional<double> output_interval;  ///< s; unset: a row per major step
  bool zero_crossings = true;             ///< locate zero crossings (variable-step solvers)
  /// Locate zero crossings inside the steps of the fixed-step solvers too (Simulink's "Enable
  /// zero-crossing detection for fixed-step simulation"); off, as in Simulink.
  bool fixed_step_zero_crossings = false;
  /// Simulink's consecutive zero crossings: located crossings each within
  /// zc_time_tolerance max(1, |t|) of the one before are consecutive, and
  /// max_consecutive_zc of them in a row fail the run (a switch chattering at one instant).
  int max_consecutive_zc = 1000;
  double zc_time_tolerance = 10.0 * 128.0 * 2.220446049250313e-16;
  std::optional<int> jacobian_steps;  ///< ode23s: accepted steps one Jacobian serves
  /// Where a variable-step solver's steps end around discrete sample hits: kLand, every hit
  /// ends a step (Simulink's way); kStepOver, a step may pass over hits whose updates leave
  /// everything the solver reads unchanged, those hits' major steps taken at the solver's
  /// interpolated state (docs/simulation.md).
  enum class SampleHits { kLand, kStepOver };
  SampleHits sample_hits = SampleHits::kLand;
  /// Where the solvers that use a Jacobian (ode23s, ros2, ode1be, cvode-bdf, cvode-adams,
  /// arkode-dirk) get it, Simulink's "Solver Jacobian method": kAuto, each solver's own way
  /// (the blocks' stiff terms for ode23s, ros2 and ode1be when a block gives them, differences
  /// for CVODE and ARKODE); kPerturbation, differences of the whole diagram, one evaluation
  /// per state; kBlocks, the blocks' stiff terms for every one of them (docs/simulation.md).
  enum class JacobianMethod { kAuto, kPerturbation, kBlocks };
  JacobianMethod jacobian_method = JacobianMethod::kAuto;
  /// s of wall-clock time a run may take; unset: no limit. Past it the run stops as a failed
  /// one does, its results so far kept (SimulationOutcome::timed_out).
  std::optional<double> max_wall_time;

  /// The absolute tolerance a run starts with: atol, else Simulink's `auto` start under
  /// auto_scale_atol (1e-6 for rtol >= 1e-3, rtol / 1000 below), else 1e-6.
  double StartingAtol() const;
};

/// "auto", "perturbation" or "blocks" as JacobianMethod.
/// @throws std::invalid_argument "'jacobian_method' must be auto, perturbation or blocks, got
/// 'VALUE'".
SimulationSettingsValues::JacobianMethod ParseJacobianMethod(const std::string& text);
/// The word ParseJacobianMethod reads.
const char* JacobianMethodWord(SimulationSettingsValues::JacobianMethod method);

/// "land" or "step_over" as SampleHits.
/// @throws std::invalid_argument "'sample_hits' must be land or step_over, got 'VALUE'".
SimulationSettingsValues::SampleHits ParseSampleHits(const std::string& text);

/// A signal recorded in the results: a block output port's slice of the signal buffer.
struct LoggedSignal {
  std::string name;    ///< column name (`as`, or the signal's path.port)
  std::string source;  ///< "path.port" of the block output that drives it
  int offset = 0;      ///< into the signal buffer
  int width = 1;
};

/// One entry of the execution order: a block's output stage.
struct ExecutionEntry {
  const blocks::Block* block = nullptr;
  int stage = 0;
};

/// The compiled diagram: flat blocks in execution order, the layout of the signal buffer and
/// of every state, the discrete rates. Immutable while it runs: simulators keep their own state
/// (see Simulator), so many can run one System at once.
///
/// Between runs, numeric parameters can be retuned without recompiling (SetParameter,
/// SetVariable): the blocks concerned are built again from their new values, checked to keep
/// their ports, sizes, states and sample time, and put in place of the old ones. Retuning is
/// not thread-safe and must not happen while a Simulator of this System runs; a Simulator
/// made (constructed) after the retune sees the new values, one made before must not be used
/// after it. Nothing of this touches the simulation loop, which still allocates nothing and
/// looks nothing up by name.
class System {
 public:
  System();
  System(System&&) noexcept;
  System& operator=(System&&) noexcept;
  ~System();

  // ---- Blocks ----
  int num_blocks() const { return static_cast<int>(blocks_.size()); }
  const blocks::Block& block(int i) const { return *blocks_[i]; }
  const std::string& block_path(int i) const { return paths_[i]; }
  const std::string& block_type(int i) const { return types_[i]; }
  /// Index of the block at `path`, or -1.
  int FindBlock(const std::string& path) const;

  // ---- Execution ----
  /// Every output stage, in dependency order; discrete stages run only at their hits.
  const std::vector<ExecutionEntry>& major_order() const { return major_order_; }
  /// Stages of blocks whose outputs never change (constant sample time): run once at the start.
  const std::vector<ExecutionEntry>& constant_order() const { return constant_order_; }
  /// What a solver evaluation recomputes: the stages of the continuous blocks that the
  /// derivatives or the zero-crossing functions need, directly or through other continuous
  /// blocks. A continuous block that feeds only discrete blocks, logs or nothing (a Mux of
  /// contact signals for detectors) waits for the major steps.
  const std::vector<ExecutionEntry>& minor_order() const { return minor_order_; }
  /// Every stage of the continuous blocks: what an output row between major steps recomputes.
  const std::vector<ExecutionEntry>& continuous_order() const { return continuous_order_; }
  /// Blocks with continuous states, with updates, with zero crossings, with breakpoints.
  const std::vector<const blocks::Block*>& derivative_blocks() const { return derivative_blocks_; }
  const std::vector<const blocks::Block*>& update_blocks() const { return update_blocks_; }
  const std::vector<const blocks::Block*>& zero_crossing_blocks() const { return zc_blocks_; }
  const std::vector<const blocks::Block*>& breakpoint_blocks() const { return breakpoint_blocks_; }

  // ---- Sizes of the per-run arrays ----
  int num_signals() const { return num_signals_; }
  int num_continuous_states() const { return nx_; }
  int num_discrete_states() const { return nxd_; }
  int num_dwork() const { return ndwork_; }
  int num_modes() const { return nmodes_; }
  int num_zero_crossings() const { return nzc_; }
  /// Algebraic variables of the blocks' DAE forms (a mechanism's loop multipliers), used
  /// when the solver integrates the residual form (ida).
  int num_algebraic_variables() const { return nz_; }

  /// The distinct discrete rates, fastest first; Block::rate_index() indexes this.
  const std::vector<blocks::SampleTime>& rates() const { return rates_; }

  /// One conditional (enabled or triggered) subsystem: Block::condition() indexes these.
  struct Condition {
    int active = -1;  ///< offset in the signal buffer of its control's `active` output (1 or 0)
    int parent = -1;  ///< the condition around it, -1 at the top
  };
  const std::vector<Condition>& conditions() const { return conditions_; }
  /// True when `b` runs now: it is in no conditional subsystem, or in active ones only.
  /// `signals`: the run's signal buffer.
  bool Runs(const blocks::Block& b, const double* signals) const {
    for (int g = b.condition(); g >= 0; g = conditions_[g].parent) {
      if (signals[conditions_[g].active] == 0.0) return false;
    }
    return true;
  }

  /// "path.x[j]": which block a continuous state belongs to, for error messages.
  std::string DescribeState(int i) const;
  /// The absolute tolerance of each continuous state for the variable-step solvers: its
  /// block's own (an Integrator's abs_tol, ...) or `atol`; empty when no block sets one, so
  /// that every state has `atol`.
  Eigen::VectorXd StateAbsoluteTolerances(double atol) const;

  /// Every signal a log could name, sorted by name (`twinblocks check` lists them).
  const std::vector<LoggedSignal>& signal_directory() const { return directory_; }

  /// Signals recorded by `<log>` elements (and `--log`), in order.
  const std::vector<LoggedSignal>& logged_signals() const { return logged_; }
  /// Looks up a block output "path.port" (setup time only). nullopt when there is none.
  std::optional<LoggedSignal> FindSignal(const std::string& path_port) const;
  /// The logged signal that records block output "path.port", under whatever name it is
  /// logged (an `as` name too); nullptr when it is not logged.
  const LoggedSignal* FindLogged(const std::string& path_port) const;

  /// The model's top-level `<inport>`s, in file order: `name` is the inport's, `offset` and
  /// `width` its slice of the signal buffer (Simulator::SetInput writes it).
  const std::vector<LoggedSignal>& external_inputs() const { return external_inputs_; }

  const SimulationSettingsValues& settings() const { return settings_; }

  // ---- Tunable parameters ----

  /// Sets numeric parameter `param` of the block at `block_path` (its flat path, as
  /// block_path() lists it) to `value`, as if the model said so and were compiled again.
  /// A vector parameter takes `values`; a scalar one `value` (or `values` of one element).
  /// A multibody element (a Solid, a joint, a gear, friction, a contact), compiled into the
  /// mechanism, has its numbers patched into the mechanism, or the mechanism built again from
  /// all its elements when they change its tree (a mass, a pose, a gear ratio).
  /// @throws ModelError naming block and parameter when there is no such block (with a
  ///   suggestion), the parameter is unknown or a word/text, the value is rejected by the
  ///   block, or the change would alter the block's ports, sizes, states or sample time, or
  ///   the mechanism's coordinates, states or ports (those need a recompile). Nothing changes
  ///   then.
  void SetParameter(const std::string& block_path, const std::string& param, double value);
  void SetParameter(const std::string& block_path, const std::string& param,
                    const std::vector<double>& values);
  /// Sets model variable `name` to `value` (or `values`, a vector) and rebuilds every block
  /// whose parameters change with it, through define parameters too (Simulink's tunable
  /// workspace variables). Later variables defined from it follow. Simulation settings keep
  /// the values they were compiled with.
  /// @throws ModelError when there is no such variable, or a block it reaches cannot be
  ///   retuned (as SetParameter says); nothing changes then.
  /// @return the flat paths of the blocks rebuilt.
  std::vector<std::string> SetVariable(const std::string& name, double value);
  std::vector<std::string> SetVariable(const std::string& name, const std::vector<double>& values);

 private:
  friend class Compiler;
  friend class SystemTuner;

  /// Puts `block` in place of block `index`, in every execution list.
  void ReplaceBlock(int index, std::unique_ptr<blocks::Block> block);

  std::vector<std::unique_ptr<blocks::Block>> blocks_;
  std::vector<std::string> paths_;
  std::vector<std::string> types_;
  std::vector<ExecutionEntry> major_order_;
  std::vector<ExecutionEntry> minor_order_;
  std::vector<ExecutionEntry> continuous_order_;
  std::vector<ExecutionEntry> constant_order_;
  std::vector<const blocks::Block*> derivative_blocks_;
  std::vector<const blocks::Block*> update_blocks_;
  std::vector<const blocks::Block*> zc_blocks_;
  std::vector<const blocks::Block*> breakpoint_blocks_;
  int num_signals_ = 0, nx_ = 0, nxd_ = 0, ndwork_ = 0, nmodes_ = 0, nzc_ = 0, nz_ = 0;
  std::vector<blocks::SampleTime> rates_;
  std::vector<Condition> conditions_;
  std::vector<LoggedSignal> logged_;
  /// Every signal source "path.port" (virtual ones included), for FindSignal.
  std::vector<LoggedSignal> directory_;
  std::vector<LoggedSignal> external_inputs_;
  SimulationSettingsValues settings_;
  /// Rebuilds blocks with other numbers; null for a System not made by the compiler.
  std::unique_ptr<SystemTuner> tuner_;
};

}  // namespace twinblocks::graph
