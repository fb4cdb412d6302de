#pragma once

#include <Eigen/Core>
#include <atomic>
#include <chrono>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "blocks/block.h"
#include "runtime/results.h"
#include "runtime/simulation_state.h"
#include "runtime/system.h"
#include "solvers/integrator.h"

namespace twinblocks::graph {

/// Counters and timings of a run, printed at its end.
struct SimulationStats {
  solvers::IntegratorStats solver;
  long major_steps = 0;
  double wall_seconds = 0.0;
  /// Why the simulator restarted the solver (Simulink's Solver Profiler "solver resets"), one
  /// cause per restart, the first that holds in this order. A run that crawls often restarts
  /// at every step: these say what makes it.
  struct SolverResets {
    long state_resets = 0;    ///< a block reset continuous states (an Integrator's reset)
    long zero_crossings = 0;  ///< a located zero crossing
    long breakpoints = 0;     ///< a source's breakpoint (a Step's jump, a table's corner)
    long sample_hits = 0;     ///< a discrete sample hit changed what the solver reads
    long inputs = 0;          ///< an external input changed (Simulator::SetInput)
    long total() const {
      return state_resets + zero_crossings + breakpoints + sample_hits + inputs;
    }
  };
  SolverResets resets;
  /// Major steps at which a block projected the states back onto an invariant (a mechanism's
  /// loops): not resets, the one-step solvers going on with their step size; CVODE and IDA
  /// restart there all the same.
  long projections = 0;
  /// One line: steps, rejected steps, evaluations, wall time, real-time factor; and, where
  /// the solver found the model stiff (solver.stiff_since), from when, with the solvers to try.
  std::string Summary(double simulated_seconds) const;
};

/// What a run whose solver found the model stiff from t = stiff_since should say: from when,
/// and the solvers to try.
std::string StiffnessHint(double stiff_since);

/// Progress of a run, for a progress line.
struct Progress {
  double t = 0.0;
  double fraction = 0.0;  ///< of [t_start, t_end]
  long steps = 0;
  double wall_seconds = 0.0;
  /// The time from which the solver's steps are bounded by stability (the model is stiff
  /// there: IntegratorStats::stiff_since), NaN when they are not.
  double stiff_since = std::numeric_limits<double>::quiet_NaN();
};

/// How a run ended.
struct SimulationOutcome {
  bool ok = true;
  double t = 0.0;     ///< the time reached
  std::string error;  ///< when !ok: what failed, when and where
  /// Stopped by the stop request (SetStopRequest) at t, between two steps: ok is false, but
  /// nothing failed, and AdvanceTo may go on from t.
  bool interrupted = false;
  /// The run took longer than its max_wall_time (ok is then false).
  bool timed_out = false;
  /// Ended at t by a block that asked for it (a StopSimulation whose input became non-zero,
  /// Block::RequestStop): ok is true, the row at t is recorded, and AdvanceTo goes no further
  /// (until RestoreState). The block's path and type.
  bool stopped = false;
  std::string stopped_by;
  std::string stopped_by_type;
};

/// An external input (a top-level `<inport>`), from Simulator::FindInput.
struct InputHandle {
  int index = -1;  ///< into System::external_inputs()
  int offset = 0;  ///< into the signal buffer
  int width = 0;
};

/// A block output (a signal), from Simulator::FindSignal.
struct SignalHandle {
  int offset = 0;  ///< into the signal buffer
  int width = 0;
};

/// The continuous states of one block, from Simulator::FindContinuousStates.
struct StatesHandle {
  int offset = 0;  ///< into the continuous state vector
  int size = 0;
};

/// Runs one System: owns the run's state and a solver chosen by name. The System is only
/// read, so many simulators can run one System at once (one per thread).
///
/// Two ways to run: Run() to t_end, or step by step for co-simulation and hardware in the
/// loop (docs/stepping.md): Initialize(), then AdvanceTo(t) repeatedly, setting external
/// inputs (SetInput) and reading signals (Read) in between, saving and restoring the whole
/// run's state (SaveState, RestoreState). Handles are looked up once by name; after that
/// AdvanceTo, SetInput and Read allocate nothing and look nothing up.
class Simulator {
 public:
  /// @throws std::invalid_argument for an unknown solver or invalid settings.
  Simulator(const System& system, const SimulationSettingsValues& settings);
  ~Simulator();

  /// Sets the initial states and runs the first major step at t_start.
  /// @throws blocks::BlockError and others for failures at the start.
  void Initialize();

  /// Runs to t_end: AdvanceTo(settings().t_end). Never throws for numerical or block
  /// failures during the run: they end it and are reported in the outcome, with the results
  /// so far kept.
  SimulationOutcome Run();

  // ---- Step by step (co-simulation, hardware in the loop); simulator_stepping.cc ----

  /// Runs major steps until time() is exactly `t`: `t` is a stop of the solver, like a sample
  /// hit (the solver lands on it without restarting there). Initializes first if needed.
  /// A block that asks for the run to end at a major step (StopSimulation, Assertion) ends
  /// it there, after that step's row: stopped (SimulationOutcome::stopped) or failed.
  /// Numerical and block failures end the call and are reported in the outcome, with the
  /// results so far kept; later calls report the same failure until RestoreState.
  /// Allocates nothing once initialized (with output rows reserved: see Recording).
  /// @throws std::invalid_argument when `t` is before time() or after t_end, or not finite.
  SimulationOutcome AdvanceTo(double t);

  /// The external input called `name` (a top-level `<inport>`).
  /// @throws std::invalid_argument naming the model's inputs when there is none.
  InputHandle FindInput(const std::string& name) const;

  /// Sets the value the external input holds from now on (zero-order hold) until the next
  /// SetInput; an input never set holds 0. A changed value is a discontinuity: at the next
  /// AdvanceTo the continuous blocks are evaluated anew at time() (so that blocks with modes
  /// choose them from the new value) and the solver restarts there. Discrete blocks read it
  /// at their next sample hit. Signals already read at time() are not recomputed.
  /// Allocates nothing.
  /// @pre Initialize() has run.
  /// @throws std::invalid_argument when `value` does not have the input's width or is not
  ///         finite; std::logic_error for a handle of another system or before Initialize.
  void SetInput(const InputHandle& input, std::span<const double> value);

  /// The block output "path.port" (a top-level inport is ".name"), as `twinblocks check`
  /// lists them. Blocks may leave outputs that nothing reads uncomputed (a mechanism's joint
  /// torques and wrenches); a signal found here is read from now on, and after Initialize
  /// its value at time() is computed at once.
  /// @throws std::invalid_argument with the closest names when there is none.
  SignalHandle FindSignal(const std::string& path_port);

  /// The signal's value at the last major step (time()): a view into the signal buffer,
  /// valid until the next AdvanceTo. No lookup, no allocation.
  /// @pre Initialize() has run.
  std::span<const double> Read(const SignalHandle& signal) const {
    CheckReadable(signal.offset, signal.width, state_.signals.size());
    return {state_.signals.data() + signal.offset, static_cast<size_t>(signal.width)};
  }

  /// The continuous states of the block at `block_path` (a mechanism is "WORLD:mechanism",
  /// WORLD the path of its World block).
  /// @throws std::invalid_argument naming the blocks that have continuous states.
  StatesHandle FindContinuousStates(const std::string& block_path) const;

  /// The block's continuous states at time(), a view valid until the next AdvanceTo.
  std::span<const double> ReadContinuousStates(const StatesHandle& states) const {
    CheckReadable(states.offset, states.size, static_cast<size_t>(state_.x.size()));
    return {state_.x.data() + states.offset, static_cast<size_t>(states.size)};
  }

  /// Saves everything the run has changed so far (see SimulationSnapshot).
  /// @pre Initialize() has run. @throws std::logic_error otherwise.
  SimulationSnapshot SaveState() const;
  /// The same into an existing snapshot, reusing its storage: no allocation after the first.
  void SaveState(SimulationSnapshot* snapshot) const;

  /// Puts the run back where `snapshot` was taken: states, signals, inputs, workspaces, the
  /// solver's memory, and the recording cut back to the rows it had then (rows it no longer
  /// has stay lost). Continuing from there repeats the original run bitwise for the
  /// Runge-Kutta and Rosenbrock solvers (ode1 ... ode5, ode1be, ros2, ode23, ode45, ode23s);
  /// CVODE, ARKODE and IDA restart at the restored point (see Integrator::RestoreState).
  /// Clears a failure. Counters (stats()) keep counting the work done. Allocates nothing for
  /// the Runge-Kutta solvers.
  /// @throws std::invalid_argument for a snapshot of another System or an empty one.
  void RestoreState(const SimulationSnapshot& snapshot);

  /// The right-hand side the solver sees, once: a minor-step evaluation of every continuous
  /// block at (t, x), writing dx/dt to `xdot` (sized num_continuous_states). Modes and
  /// discrete states stay as the last major step left them; nothing allocates. For
  /// benchmarks, linearization and co-simulation.
  /// @pre Initialize() has run.
  /// @throws std::runtime_error naming the block when a block fails, or the state whose
  ///         derivative is not finite.
  void EvaluateDerivatives(double t, const Eigen::VectorXd& x, Eigen::VectorXd* xdot);

  /// The stiff part of the Jacobian d(xdot)/dx that the blocks give at (t, x) (what ode1be
  /// and ros2 are implicit in; docs/simulation.md), into `J` (resized to nx x nx): evaluates
  /// the derivatives there first, as EvaluateDerivatives does. Zero for a diagram without
  /// stiff terms. For tests and linearization; allocates only to resize `J`.
  /// @pre Initialize() has run.
  /// @throws std::runtime_error naming the block when a block fails, or the state whose
  ///         derivative or Jacobian entry is not finite.
  void EvaluateStiffJacobian(double t, const Eigen::VectorXd& x, Eigen::MatrixXd* J);

  /// Where EvaluateStiffJacobian's J may ever be nonzero, as the blocks declare it: into
  /// `structure` (nx * nx, by column), 1 there and 0 elsewhere. False when a block with a
  /// stiff Jacobian does not declare where (`structure` is then unchanged).
  bool StiffJacobianStructure(std::vector<char>* structure) const;
  /// The same as (row, col) entries appended to `entries`, in no order, repeats possible:
  /// without the nx * nx matrix.
  bool StiffJacobianEntries(std::vector<std::pair<int, int>>* entries) const;

  /// Called at most every `interval` seconds of wall time during Run.
  void SetProgressCallback(std::function<void(const Progress&)> callback, double interval = 0.25);

  /// A flag another thread or a signal handler sets to stop a run (the command line's
  /// Ctrl-C): AdvanceTo reads it after every step and, once it is set, returns at the time
  /// reached with SimulationOutcome::interrupted, the results so far kept. nullptr: none. The
  /// flag must outlive the runs.
  void SetStopRequest(const std::atomic<bool>* stop) { stop_ = stop; }

  /// Called right after each row is appended to recording(), with the row's index and the
  /// blocks' context the row was computed in (its time, states and signals): for recorders
  /// of what the logged signals do not hold (the HTML report records every body's pose from
  /// it, see report/scene_recorder.h). The callback only reads; the run does not depend on
  /// it. After RestoreState the rows from the snapshot on are reported again under the same
  /// indices. An empty function removes it.
  void SetRowCallback(std::function<void(int row, const blocks::Context& c)> callback);

  double time() const { return state_.t; }
  const SimulationState& state() const { return state_; }
  const Recording& recording() const { return recording_; }
  const SimulationStats& stats() const { return stats_; }
  const SimulationSettingsValues& settings() const { return settings_; }
  const System& system() const { return system_; }
  /// True when the solver integrates the residual form (ida): blocks with algebraic
  /// variables (closed loops) are DAEs, their variables state().z.
  bool is_dae() const;
  /// True when block `b` runs now: in no conditional subsystem, or in active ones.
  bool Runs(const blocks::Block& b) const {
    return b.condition() < 0 || system_.Runs(b, state_.signals.data());
  }

 private:
  class Problem;
  class DaeForm;

  // Construction, step by step (simulator.cc).
  void CheckTimeSpan();
  solvers::IntegratorOptions SolverOptions() const;
  /// Makes problem_, the DAE form where the solver takes one, and integrator_; may add the
  /// algebraic variables' tolerances to `options`.
  void MakeSolver(solvers::IntegratorOptions* options);
  void FindEndTime();
  void PlanMajorOutputReuse(const solvers::IntegratorOptions& opt);
  void BuildUpdateTables();
  void FindDemandedSignals();
  void PlanSampleHits();

  /// Takes one solver step (or one jump for a model without continuous states) and runs
  /// the major step it ends on.
  void Advance();
  void MajorStep(bool first);
  /// The DAE's algebraic variables made consistent with the states at the first major step
  /// (simulator_problems.cc, where the DAE form is).
  void StartAlgebraicVariables();
  /// Where the next solver step must end: the target, a breakpoint, an output time without
  /// dense output, and the next sample hit unless the solver may step over it.
  double NextStop() const;
  /// The earliest next sample hit of any rate (+inf without discrete rates).
  double NextSampleHit() const;
  /// Hit k of rate r: offset + (k m_r) T_r on the grid of its base rate (rate_grid_).
  double HitTime(size_t r, long long k) const;
  /// With SampleHits::kStepOver: the major steps of the sample hits strictly inside the
  /// solver step just taken, in time order, each at the solver's interpolated state. The
  /// first hit that changes what the solver reads cuts the step there: the solver restarts
  /// at that hit and true is returned.
  bool TakeHitsInsideStep(double t_end_of_step);
  /// True when a major step changed what the solver's evaluations read but do not compute
  /// (discrete outputs into continuous blocks, modes) since the solver last (re)started or
  /// the last call; takes the new values as the reference.
  bool HeldInputsChanged();
  /// Takes the current values of what HeldInputsChanged compares as its reference.
  void HoldInputs();
  /// Records the output rows that fall strictly inside the last solver step, from the
  /// solver's dense output (variable-step solvers with output_interval set).
  void RecordInterpolatedRows(double t_end_of_step);
  /// Locates a zero crossing in time for a model without continuous states.
  bool LocateStatelessCrossing(double t0, double t1, double* t_cross);
  /// Minor-step outputs at (t, x) with algebraic variables z of the continuous blocks a
  /// solver evaluation needs (System::minor_order), or of all of them for an output row.
  void CalcMinorOutputs(double t, double* x, double* z, bool for_row = false);
  /// True when the outputs the last major step computed hold for an evaluation at (t, x):
  /// that major step's time and state, with nothing computed since.
  bool MajorOutputsHoldAt(double t, const Eigen::Ref<const Eigen::VectorXd>& x) const;
  /// True when the signal buffer and workspaces hold a minor evaluation's outputs at (t, x)
  /// (CalcMinorOutputs) and nothing has changed them since: a solver asking for the
  /// zero-crossing functions where it has just asked for the derivatives.
  bool MinorOutputsHoldAt(double t, const Eigen::Ref<const Eigen::VectorXd>& x) const;
  /// MajorOutputsHoldAt, once only: it clears what it reads (derivatives overwrite the
  /// workspaces the outputs left).
  bool TakeMajorOutputs(double t, const Eigen::Ref<const Eigen::VectorXd>& x);
  /// The zero-crossing functions at (t, x, z) into g, for both problem forms: 0, or -1 with
  /// the failing block's message in `error` (a solver callback must not throw). With
  /// `major_outputs_hold` (see MajorOutputsHoldAt) from the last major step's outputs.
  int CalcZeroCrossingsAt(double t, double* x, double* z, double* g, std::string* error,
                          bool major_outputs_hold = false);
  /// The continuous blocks' outputs anew at time() as a major step (after an input change,
  /// or once the algebraic variables are consistent at the start).
  void CalcMajorContinuousOutputs();
  /// Restarts the solver at (time(), x) (and z for a DAE, which it makes consistent).
  void ResetSolver();
  /// Continues the solver from (time(), x) after a block projected x onto an invariant
  /// (Context::states_projected).
  void CorrectSolverState();
  /// state_.x (and z) from the solver's state.
  void TakeSolverState();
  /// The crawl guard's failure (Advance): steps that no longer advance time.
  [[noreturn]] void ThrowCrawling() const;
  static constexpr long kCrawlingStepsLimit = 10000;
  /// The consecutive-crossings guard (Advance, after a step that located a crossing):
  /// counts crossings each within zc_time_tolerance max(1, |t|) of the one before, and fails
  /// the run at max_consecutive_zc of them.
  [[gnu::cold, gnu::noinline]] void CountConsecutiveCrossing();
  /// Refuses settings whose results could not be held (std::invalid_argument).
  [[gnu::cold]] void CheckResultsFit(double fixed_step) const;
  /// Refuses steps, output intervals and sample times below the time resolution, which
  /// cannot advance time.
  [[gnu::cold]] void CheckTimeResolution(const solvers::IntegratorOptions& opt) const;
  /// Refuses a solver whose dense n x n matrices would exceed the model_values limit.
  [[gnu::cold]] void CheckJacobianSize() const;
  [[noreturn, gnu::cold]] void ThrowChattering(double window) const;
  std::string CurrentBlockDescription() const;
  /// Ends the run on the stop request a block made at the last major step
  /// (Context::stop_block): fills in `outcome` for a stop, throws the block's StopReason for
  /// a failure (an Assertion), with current_block_ set to it.
  void TakeStopRequest(SimulationOutcome* outcome);
  /// After SetInput changed a value: continuous outputs anew at time() as a major step, and
  /// a solver restart there.
  void ApplyInputChange();
  /// Copies the stats of the integrator into stats_ (after every AdvanceTo).
  void CollectStats();
  static void CheckReadable(int offset, int size, size_t available);

  const System& system_;
  SimulationSettingsValues settings_;
  SimulationState state_;
  blocks::Context ctx_;
  std::unique_ptr<Problem> problem_;
  std::unique_ptr<DaeForm> dae_problem_;  ///< for ida only
  std::unique_ptr<solvers::Integrator> integrator_;
  Eigen::VectorXd y_, yp_;  ///< nx + nz: the DAE's [x; z] and its rate, for (re)starts
  Recording recording_;
  SimulationStats stats_;
  double next_breakpoint_ = 0.0;
  double next_output_ = 0.0;
  long output_index_ = 0;
  /// Per rate: the period T of the fastest rate whose whole multiple it is, and the multiple
  /// m (period = m T). Hits are counted on that grid, as Simulink counts every rate in ticks
  /// of the base rate, so that a 1e-3 s rate hits at the very times of a 1e-4 s one: k 1e-3
  /// and 10 k 1e-4 differ in the last bit, and would be two major steps.
  struct RateGrid {
    double period = 0.0;
    long long multiple = 1;
  };
  std::vector<RateGrid> rate_grid_;
  Eigen::VectorXd x_interp_;        ///< nx (+ nz): interpolated states for output rows
  bool interpolate_rows_ = false;   ///< output rows come from dense output, not stops
  std::vector<double> zc_scratch_;  ///< 2 nzc: crossings of models without states
  /// nzc: the functions whose crossing the last solver step located (Context::zc_crossed)
  std::vector<unsigned char> zc_crossed_;
  /// Context::demanded: who reads each signal element (num_signals + 1: a port of width 0
  /// may sit at the buffer's end).
  std::vector<unsigned char> demanded_;
  /// Marks signal elements [offset, offset + width) read by `who` (kReadAtMajorSteps,
  /// kReadInEvaluations, kReadForRows); true when one was not before.
  bool Demand(int offset, int width, unsigned char who);
  /// Extends the marks of Demand to the whole of every output port they touch.
  void SpreadDemand();
  /// SpreadDemand, and the inputs of every memoryless block whose outputs are read marked
  /// read at major steps (or for the rows, when only the logs read its outputs), until
  /// nothing more is marked.
  void PropagateDemand();
  /// Per block: continuous, without states, memory, modes or updates (a Mux, a Gain): it
  /// reads its inputs only where its outputs are read.
  std::vector<char> memoryless_;
  /// A major step's work, from the System's lists: the blocks it calls for outputs and for
  /// updates, and the scalar unit delays it runs as a table instead (two calls each to
  /// blocks scattered over the heap cost a grasp's 145 detector delays a tenth of its run).
  struct UnitDelayRow {
    int state, input, output;  ///< offsets (blocks::Block::UnitDelaySlots)
  };
  std::vector<ExecutionEntry> major_calls_;
  std::vector<const blocks::Block*> update_calls_;
  /// The unit delays grouped by rate: rate r's are [unit_delay_start_[r],
  /// unit_delay_start_[r + 1]), so that a hit runs its rows without a test each.
  std::vector<UnitDelayRow> unit_delays_;
  std::vector<int> unit_delay_start_;
  bool last_major_hit_ = false;
  /// Steps in a row that advanced time by less than time_resolution_ (the crawl guard, see
  /// Advance), and that resolution: 16 eps max(|t_start|, |t_end|), s.
  long crawling_steps_ = 0;
  double time_resolution_ = 0.0;
  /// Located crossings in a row, each close to the one before, and the time of the last.
  int consecutive_crossings_ = 0;
  double last_crossing_t_ = -std::numeric_limits<double>::infinity();
  /// SampleHits::kStepOver in effect (a variable-step ODE solver with dense output).
  bool step_over_hits_ = false;
  /// The last sample hit changed nothing the solver reads: the next step may pass hits.
  bool hits_quiet_ = false;
  /// Signal elements the solver's evaluations read but no evaluation computes (outputs of
  /// discrete and constant blocks), and their values and the modes where the solver
  /// (re)started: the inputs a step holds.
  std::vector<int> held_signals_;
  std::vector<double> held_values_;
  std::vector<int> held_modes_;
  double target_ = 0.0;  ///< s, where the running AdvanceTo stops
  /// s, the earliest Block::end_time() (+inf: none), and the block that has it (-1).
  double end_time_ = std::numeric_limits<double>::infinity();
  int end_block_ = -1;
  bool inputs_changed_ = false;  ///< SetInput changed a value since the last major step
  /// Evaluations may reuse a major step's outputs (no continuous block updates, not a DAE).
  bool reuse_major_outputs_ = false;
  /// Context::state_tolerance at the major steps, atol_i + rtol |x_i| (nx), with the per-state
  /// atol and the rtol it is made of; empty when no continuous block updates at major steps
  /// or the solver has no error test.
  Eigen::VectorXd state_tolerance_;
  Eigen::VectorXd state_atol_;
  double state_rtol_ = 0.0;
  /// The signal buffer and workspaces hold the last major step's outputs at (time(), x) and
  /// nothing has been computed since (see TakeMajorOutputs).
  bool major_outputs_current_ = false;
  /// The signal buffer and workspaces hold CalcMinorOutputs(minor_outputs_t_,
  /// minor_outputs_x_) and nothing else has been computed since (see MinorOutputsHoldAt).
  bool minor_outputs_current_ = false;
  /// True when outputs were computed at another time or state (an output row between steps)
  /// since the last derivative evaluation: the blocks' workspaces no longer hold what a
  /// Jacobian at that evaluation reads (Problem::CalcJacobian evaluates again first).
  bool evaluated_elsewhere_ = false;
  double minor_outputs_t_ = 0.0;
  Eigen::VectorXd minor_outputs_x_;  ///< (nx)
  std::string failure_;              ///< the outcome's error of a failed AdvanceTo, "" when none
  int current_block_ = -1;           ///< the block being evaluated, for error messages
  bool initialized_ = false;
  /// Appends a row from the signal buffer at time `t`, and reports it to row_callback_.
  void RecordRow(double t);
  /// True when the major step at `t` records an output row (every step without
  /// output_interval; else an output time reached, the end).
  bool RecordsRowAt(double t) const;

  std::function<void(const Progress&)> progress_;
  std::function<void(int, const blocks::Context&)> row_callback_;
  double progress_interval_ = 0.25;
  const std::atomic<bool>* stop_ = nullptr;
  /// Steps since the wall clock was last read for max_wall_time.
  int wall_check_steps_ = 0;
  /// The clock is read every this many steps: a read per step would cost as much as a
  /// small model's step.
  static constexpr int kWallCheckSteps = 16;
};

}  // namespace twinblocks::graph
