#pragma once

#include <Eigen/Core>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "blocks/block.h"
#include "graph/results.h"
#include "graph/system.h"
#include "solvers/integrator.h"

namespace twinblocks::graph {

/// Everything a run changes: time, continuous and discrete states, modes, the signal
/// buffer, block workspaces. Allocated once, from the System's sizes, before the run.
struct SimulationState {
  double t = 0.0;
  Eigen::VectorXd x;                     ///< continuous states (nx)
  Eigen::VectorXd xdot;                  ///< scratch for derivatives at major steps (nx)
  std::vector<double> signals;           ///< the signal buffer
  std::vector<double> xd;                ///< discrete states
  std::vector<double> dwork;             ///< block scratch that persists between steps
  std::vector<int> modes;                ///< zero-crossing modes
  std::vector<double> zc;                ///< zero-crossing values at major steps
  std::vector<unsigned char> rate_hits;  ///< per discrete rate: hit at t
  std::vector<long long> rate_k;         ///< per rate: index k of the next hit offset + k Ts
  std::vector<std::unique_ptr<blocks::BlockWorkspace>> workspaces;
  std::vector<blocks::BlockWorkspace*> workspace_ptrs;
};

/// Counters and timings of a run, printed at its end.
struct SimulationStats {
  solvers::IntegratorStats solver;
  long major_steps = 0;
  double wall_seconds = 0.0;
  /// One line: steps, rejected steps, evaluations, wall time, real-time factor.
  std::string Summary(double simulated_seconds) const;
};

/// Progress of a run, for a progress line.
struct Progress {
  double t = 0.0;
  double fraction = 0.0;  ///< of [t_start, t_end]
  long steps = 0;
  double wall_seconds = 0.0;
};

/// How a run ended.
struct SimulationOutcome {
  bool ok = true;
  double t = 0.0;     ///< the time reached
  std::string error;  ///< when !ok: what failed, when and where
};

/// Runs one System: owns the run's state and a solver chosen by name. The System is only
/// read, so many simulators can run one System at once (one per thread).
class Simulator {
 public:
  /// @throws std::invalid_argument for an unknown solver or invalid settings.
  Simulator(const System& system, const SimulationSettingsValues& settings);
  ~Simulator();

  /// Sets the initial states and runs the first major step at t_start.
  /// @throws blocks::BlockError and others for failures at the start.
  void Initialize();

  /// Runs to t_end. Never throws for numerical or block failures during the run: they end it
  /// and are reported in the outcome, with the results so far kept.
  SimulationOutcome Run();

  /// The right-hand side the solver sees, once: a minor-step evaluation of every continuous
  /// block at (t, x), writing dx/dt to `xdot` (sized num_continuous_states). Modes and
  /// discrete states stay as the last major step left them; nothing allocates. For
  /// benchmarks, linearization and co-simulation.
  /// @pre Initialize() has run.
  /// @throws std::runtime_error naming the block when a block fails, or the state whose
  ///         derivative is not finite.
  void EvaluateDerivatives(double t, const Eigen::VectorXd& x, Eigen::VectorXd* xdot);

  /// Called at most every `interval` seconds of wall time during Run.
  void SetProgressCallback(std::function<void(const Progress&)> callback, double interval = 0.25);

  double time() const { return state_.t; }
  const SimulationState& state() const { return state_; }
  const Recording& recording() const { return recording_; }
  const SimulationStats& stats() const { return stats_; }
  const SimulationSettingsValues& settings() const { return settings_; }
  const System& system() const { return system_; }

 private:
  class Problem;

  /// Takes one solver step (or one jump for a model without continuous states) and runs
  /// the major step it ends on.
  void Advance();
  void MajorStep(bool first);
  double NextStop() const;
  /// Records the output rows that fall strictly inside the last solver step, from the
  /// solver's dense output (variable-step solvers with output_interval set).
  void RecordInterpolatedRows(double t_end_of_step);
  /// Locates a zero crossing in time for a model without continuous states.
  bool LocateStatelessCrossing(double t0, double t1, double* t_cross);
  void CalcMinorOutputs(double t, double* x);
  std::string CurrentBlockDescription() const;

  const System& system_;
  SimulationSettingsValues settings_;
  SimulationState state_;
  blocks::Context ctx_;
  std::unique_ptr<Problem> problem_;
  std::unique_ptr<solvers::Integrator> integrator_;
  Recording recording_;
  SimulationStats stats_;
  double next_breakpoint_ = 0.0;
  double next_output_ = 0.0;
  long output_index_ = 0;
  Eigen::VectorXd x_interp_;        ///< nx: interpolated states for output rows
  bool interpolate_rows_ = false;   ///< output rows come from dense output, not stops
  std::vector<double> zc_scratch_;  ///< 2 nzc: crossings of models without states
  bool last_major_hit_ = false;
  int current_block_ = -1;  ///< the block being evaluated, for error messages
  bool initialized_ = false;
  std::function<void(const Progress&)> progress_;
  double progress_interval_ = 0.25;
};

}  // namespace twinblocks::graph
