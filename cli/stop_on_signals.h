#pragma once

// Ctrl-C during a long run: the command line stops the simulation after the step in progress
// and writes what it computed, as Simulink's Stop button keeps the results so far, rather
// than die with nothing written.

#include <signal.h>

#include <atomic>

namespace twinblocks::cli {

/// While alive, SIGINT (Ctrl-C) and SIGTERM set flag() instead of ending the program; the
/// simulator reads it after each step (graph::Simulator::SetStopRequest). A second signal
/// ends the program at once, as without this: the handler is installed for one delivery.
/// The previous handlers come back on destruction. One at a time per process.
class StopOnSignals {
 public:
  StopOnSignals();
  ~StopOnSignals();
  StopOnSignals(const StopOnSignals&) = delete;
  StopOnSignals& operator=(const StopOnSignals&) = delete;

  const std::atomic<bool>* flag() const;
  /// The signal that set the flag (SIGINT or SIGTERM), 0 while none has.
  int signal_number() const;

 private:
  struct sigaction previous_int_ {};
  struct sigaction previous_term_ {};
};

/// The exit status of a command stopped by `signal_number`: 128 + the number, as a shell
/// reports a program the signal ended (130 for Ctrl-C).
inline int ExitStatusForSignal(int signal_number) { return 128 + signal_number; }

}  // namespace twinblocks::cli
