// The one wait of the runner and the plugin probe on their children: poll
// every open pipe of every child at once, and read what arrived.
#pragma once

#include <vector>

#include "suite/runner/child_process.hpp"

namespace dlpack_usm::suite {

// Waits until a child has something to read or `wake` comes, then reads it.
// Children whose output has closed are waited for in short steps, so that
// their end is noticed soon after it comes.
void read_children(const std::vector<ChildProcess*>& children,
                   ChildProcess::Clock::time_point wake);

// Reads one child until it ended (output closed and reaped); kills its
// group at its deadline or on a stop signal (stop_signals.hpp). The probes
// of libraries under test wait so.
void wait_for_child(ChildProcess& child);

}  // namespace dlpack_usm::suite
