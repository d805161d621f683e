#include "suite/runner/child_poll.hpp"

#include <poll.h>

#include <algorithm>

#include "suite/runner/stop_signals.hpp"

namespace dlpack_usm::suite {

void read_children(const std::vector<ChildProcess*>& children,
                   ChildProcess::Clock::time_point wake) {
  constexpr long long kReapStepMs = 20;
  std::vector<pollfd> fds;
  std::vector<ChildProcess*> owners;
  for (ChildProcess* child : children) {
    for (int fd : child->open_fds()) {
      fds.push_back({fd, POLLIN, 0});
      owners.push_back(child);
    }
  }
  long long wait_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(wake - ChildProcess::Clock::now())
          .count();
  if (fds.empty()) wait_ms = std::min(wait_ms, kReapStepMs);
  if (poll(fds.data(), fds.size(), static_cast<int>(std::max(0LL, wait_ms))) <= 0) return;
  for (std::size_t f = 0; f < fds.size(); ++f) {
    if (fds[f].revents != 0) owners[f]->read_from(fds[f].fd);
  }
}

void wait_for_child(ChildProcess& child) {
  for (;;) {
    if (child.output_closed() && child.reap()) return;
    if (child.past_deadline() || stop_requested()) {
      child.kill_group();
      child.wait();
      return;
    }
    read_children({&child}, std::min(child.deadline(),
                                     ChildProcess::Clock::now() + std::chrono::milliseconds(200)));
  }
}

}  // namespace dlpack_usm::suite
