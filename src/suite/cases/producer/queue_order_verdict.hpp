// DLP-RUNTIME-QUEUE-ORDER for the C plugins' stream case: what the controls
// saw, and what the rule makes of it. A control is the tool's own correct
// producer on the same runtime, device, memory and consumer queue kind as
// the library's stale reads (producer_stream_control.hpp). Pure, so that the
// vectors of fixtures/runtime/queue_order_vectors.json, which the Python
// engine's judge_controls runs too, run through it in a unit test: both
// engines make one verdict of one experiment.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace dlpack_usm::suite {

// One control: how many attempts read stale data on `kind` (a queue kind,
// as messages name it), or why it could not run.
struct QueueControl {
  std::string kind;
  int attempts = 0;
  int stale = 0;
  std::string why_not;  // not empty: not run
};

struct QueueOrderVerdict {
  // The runtime's finding (empty: the runtime is not named).
  std::string runtime_finding;
  // Each blocked queue kind, with why: the library's results there are not
  // judged.
  std::map<std::string, std::string> blocked;
  // What each control that did not block showed, for the case's message.
  std::vector<std::string> notes;
};

// `runtime` is the runtime's name as messages show it.
QueueOrderVerdict judge_queue_controls(const std::string& runtime,
                                       const std::vector<QueueControl>& controls);

}  // namespace dlpack_usm::suite
