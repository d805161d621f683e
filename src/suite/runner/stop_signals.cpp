#include "suite/runner/stop_signals.hpp"

#include <atomic>
#include <iterator>

namespace dlpack_usm::suite {
namespace {

constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};

static_assert(std::size(kStopSignals) == 5, "StopSignals::previous_ holds one per signal");

std::atomic<int> g_stop_signal{0};
int g_depth = 0;

// Async-signal-safe: one lock-free store, the first signal wins.
void note_stop(int signal) {
  int none = 0;
  g_stop_signal.compare_exchange_strong(none, signal);
}

}  // namespace

StopSignals::StopSignals() {
  if (g_depth++ == 0) g_stop_signal = 0;
  struct sigaction action {};
  action.sa_handler = note_stop;
  sigemptyset(&action.sa_mask);
  for (int i = 0; i < static_cast<int>(std::size(kStopSignals)); ++i) {
    sigaction(kStopSignals[i], &action, &previous_[i]);
  }
}

StopSignals::~StopSignals() {
  for (int i = 0; i < static_cast<int>(std::size(kStopSignals)); ++i) {
    sigaction(kStopSignals[i], &previous_[i], nullptr);
  }
  --g_depth;
}

bool stop_requested() {
  return g_stop_signal.load() != 0;
}

int stop_signal() {
  return g_stop_signal.load();
}

}  // namespace dlpack_usm::suite
