#pragma once

#include <Eigen/Core>
#include <memory>
#include <vector>

#include "blocks/block.h"
#include "solvers/integrator.h"

namespace twinblocks::graph {

class System;
class Simulator;

/// Everything a run changes: time, continuous and discrete states, modes, the signal
/// buffer, block workspaces. Allocated once, from the System's sizes, before the run.
struct SimulationState {
  double t = 0.0;
  Eigen::VectorXd x;     ///< continuous states (nx)
  Eigen::VectorXd xdot;  ///< scratch for derivatives at major steps (nx)
  /// Algebraic variables of the blocks' DAE forms (nz), held by the solver when it
  /// integrates the residual form (ida): a mechanism's loop multipliers.
  Eigen::VectorXd z;
  std::vector<double> signals;           ///< the signal buffer; external inputs hold here
  std::vector<double> xd;                ///< discrete states
  std::vector<double> dwork;             ///< block scratch that persists between steps
  std::vector<int> modes;                ///< zero-crossing modes
  std::vector<double> zc;                ///< zero-crossing values at major steps
  std::vector<unsigned char> rate_hits;  ///< per discrete rate: hit at t
  std::vector<long long> rate_k;         ///< per rate: index k of the next hit offset + k Ts
  std::vector<std::unique_ptr<blocks::BlockWorkspace>> workspaces;
  std::vector<blocks::BlockWorkspace*> workspace_ptrs;
};

/// A saved point of a run (Simulator::SaveState), to go back to with Simulator::RestoreState:
/// the whole SimulationState (block workspaces included), the solver's memory, the schedule
/// of the next output row and breakpoint, and how many rows the recording had. Made by one
/// simulator, it restores into any simulator of the same System and settings. Move-only;
/// saving into an existing snapshot reuses its storage.
class SimulationSnapshot {
 public:
  SimulationSnapshot() = default;
  SimulationSnapshot(SimulationSnapshot&&) noexcept = default;
  SimulationSnapshot& operator=(SimulationSnapshot&&) noexcept = default;

  /// False for a default-constructed snapshot, which nothing can be restored from.
  bool valid() const { return system_ != nullptr; }
  /// s, the simulated time it was taken at.
  double time() const { return state_.t; }
  /// Rows of the recording at the time it was taken.
  int num_recorded_rows() const { return recorded_rows_; }
  /// The continuous states at time() (nx).
  const Eigen::VectorXd& continuous_states() const { return state_.x; }
  /// The algebraic variables at time() (nz; held by the solver only with ida).
  const Eigen::VectorXd& algebraic_variables() const { return state_.z; }

 private:
  friend class Simulator;

  const System* system_ = nullptr;
  SimulationState state_;
  solvers::IntegratorSnapshot integrator_;
  double next_breakpoint_ = 0.0;
  double next_output_ = 0.0;
  long output_index_ = 0;
  bool last_major_hit_ = false;
  bool hits_quiet_ = false;
  bool inputs_changed_ = false;
  int recorded_rows_ = 0;
};

}  // namespace twinblocks::graph
