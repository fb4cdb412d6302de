#include "cli/stop_on_signals.h"

namespace twinblocks::cli {
namespace {

// A handler may only touch lock-free atomics (and volatile std::sig_atomic_t).
static_assert(std::atomic<bool>::is_always_lock_free);
static_assert(std::atomic<int>::is_always_lock_free);
std::atomic<bool> g_stop{false};
std::atomic<int> g_signal{0};

extern "C" void RequestStop(int signal_number) {
  g_signal.store(signal_number, std::memory_order_relaxed);
  g_stop.store(true, std::memory_order_relaxed);
}

}  // namespace

StopOnSignals::StopOnSignals() {
  g_stop.store(false);
  g_signal.store(0);
  struct sigaction action {};
  action.sa_handler = RequestStop;
  sigemptyset(&action.sa_mask);
  // Back to the default after one delivery: a second Ctrl-C ends a run that does not stop.
  action.sa_flags = SA_RESETHAND;
  sigaction(SIGINT, &action, &previous_int_);
  sigaction(SIGTERM, &action, &previous_term_);
}

StopOnSignals::~StopOnSignals() {
  sigaction(SIGINT, &previous_int_, nullptr);
  sigaction(SIGTERM, &previous_term_, nullptr);
}

const std::atomic<bool>* StopOnSignals::flag() const { return &g_stop; }

int StopOnSignals::signal_number() const { return g_signal.load(std::memory_order_relaxed); }

}  // namespace twinblocks::cli
