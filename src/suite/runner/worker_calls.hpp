// The calls a worker announces while a case runs: a worker that runs code
// under test it cannot see into (a Python library) says which call it is
// in before it makes it, so that a crash or hang there is charged to that
// call by name ("the library died on signal 11 in __dlpack__(stream=1)").
// A call the worker marks as setup makes something the cases of one setup
// group share (an array made once for the requests of a cell): a crash or
// hang there is charged to every case of the group, which all rest on it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace dlpack_usm::suite {

struct WorkerCall {
  std::string call;    // "" once the call returned
  bool setup = false;  // it makes what the case's setup group shares
};

// The line a worker sends before a call ({"calling": CALL, "setup": BOOL})
// and once it returned ({"calling": ""}).
std::string calling_line(const WorkerCall& call);
// The call a line announces; nullopt for a line that is no such announcement.
std::optional<WorkerCall> call_from_line(std::string_view payload);

}  // namespace dlpack_usm::suite
