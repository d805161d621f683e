// The stream case of `check --producer` (DLP-PRODUCER-STREAM): is a
// produced tensor's data ready for the consumer's work when produce
// returns? The tool makes a queue of its own on the device (out of order
// where the device allows it), hands it to the library as the request's
// consumer_queue (plugin ABI 4), and reads every element on that queue as
// soon as produce returns. Elements that differ from the pattern and hold
// it when read again later were stale: the library returned before its
// write was ordered before the consumer's work. Such a race shows only
// under the right timing, so the case makes `attempts` requests and says
// in how many stale data was read; a clean run is "no race observed", never
// proof of synchronisation.
#pragma once

#include <chrono>

#include "facts/tensor_facts.hpp"
#include "runtime/runtime.hpp"
#include "suite/cases/plugin/plugin_session.hpp"
#include "suite/model/case.hpp"

namespace dlpack_usm::suite {

// check --stream-attempts when not given: enough for a library that skips
// the wait on every request to be caught many times over, few enough that a
// correct one, whose every attempt waits for its own work, stays well
// within a case's timeout.
inline constexpr int kDefaultStreamAttempts = 16;

// How long the tool reads again for a value that differed: a write still in
// flight lands well within it; elements still wrong after it are wrong, not
// late (DLP-PRODUCER-CONTENT).
inline constexpr std::chrono::milliseconds kStreamSettle{2000};

// The stream case of one kind of a root device.
struct StreamCase final : CaseDetails {
  StreamCase(facts::UsmKind asked, int rounds) : kind(asked), attempts(rounds) {}
  facts::UsmKind kind;
  int attempts;
};

CaseSpec stream_case(const runtime::DeviceInfo& device, facts::UsmKind kind, int attempts);

CaseResult run_stream(PluginSession& session, const CaseSpec& spec,
                      const runtime::DeviceInfo& device, const StreamCase& details);

}  // namespace dlpack_usm::suite
