#include "suite/cases/producer/producer_stream.hpp"

#include <cstring>
#include <optional>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "common/error.hpp"
#include "exchange/pattern.hpp"
#include "exchange/rule_refusal.hpp"
#include "facts/element_size.hpp"
#include "rules/rule_ids.hpp"
#include "suite/cases/plugin/plugin_case_source.hpp"
#include "suite/cases/plugin/produced_tensor.hpp"
#include "suite/cases/producer/produce_request.hpp"
#include "suite/cases/producer/producer_place.hpp"
#include "suite/cases/producer/producer_stream_control.hpp"
#include "suite/model/case_findings.hpp"

namespace dlpack_usm::suite {
namespace {

// Unity builds share an anonymous namespace per batch: names of their own.
constexpr std::string_view kStreamRule = rules::ids::kProducerStream;
constexpr std::string_view kLateContentRule = rules::ids::kProducerContent;

// 64 x 1024 float32 (256 KiB): a write of that size is still in flight for
// a while after a library enqueued it, and reading it costs little.
const std::vector<std::int64_t> kStreamShape{64, 1024};
constexpr std::chrono::milliseconds kReread{1};

// What the reads of one attempt saw.
struct AttemptReading {
  std::uint64_t differing = 0;  // elements of the first read unlike the pattern
  std::uint64_t first = 0;      // the first of them, in logical order
  bool stale = false;           // ... and a later read held the pattern
};

// What the attempts saw together.
struct StreamTally {
  int attempts = 0;
  int stale = 0;
  std::uint64_t elements = 0;
  AttemptReading worst;  // the stale attempt with the most differing elements
};

std::vector<std::byte> pattern_elements(std::uint64_t count, std::uint64_t element_bytes) {
  std::vector<std::byte> elements(count * element_bytes);
  for (std::uint64_t i = 0; i < count; ++i) {
    exchange::pattern_element(i, element_bytes, elements.data() + i * element_bytes);
  }
  return elements;
}

AttemptReading compare_reading(const std::vector<std::byte>& read,
                               const std::vector<std::byte>& expected,
                               std::uint64_t element_bytes) {
  AttemptReading reading;
  for (std::uint64_t i = 0; i * element_bytes < read.size(); ++i) {
    if (std::memcmp(read.data() + i * element_bytes, expected.data() + i * element_bytes,
                    element_bytes) != 0 &&
        reading.differing++ == 0) {
      reading.first = i;
    }
  }
  return reading;
}

// Reads the elements on the queue now; where they differ from the pattern,
// reads again until they hold it (stale) or kStreamSettle has passed
// (wrong: nullopt).
std::optional<AttemptReading> read_attempt(const exchange::ImportedView& view,
                                           const runtime::ConsumerQueue& queue,
                                           const std::vector<std::byte>& expected) {
  AttemptReading reading = compare_reading(view.read_all_on(queue), expected, view.element_bytes());
  if (reading.differing == 0) return reading;
  auto deadline = std::chrono::steady_clock::now() + kStreamSettle;
  while (std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(kReread);
    if (view.read_all_on(queue) == expected) {
      reading.stale = true;
      return reading;
    }
  }
  return std::nullopt;
}

// One request: produce, judge the tensor, read it on the queue at once.
// nullopt when the attempt was read (tally updated), else the case's result.
std::optional<CaseResult> stream_attempt(PluginSession& session, const CaseSpec& spec,
                                         const runtime::DeviceInfo& device, ProduceRequest& request,
                                         const runtime::ConsumerQueue& queue,
                                         const std::vector<std::byte>& expected,
                                         CaseFindings& found, StreamTally& tally) {
  Produced produced = produce_once(session, spec, request);
  if (produced.refused) return produced.refused;
  runtime::Runtime& runtime = session.runtime();
  // The rules' warnings once, from the first attempt; an error ends the case.
  CaseFindings later;
  CaseFindings& judged = tally.attempts == 0 ? found : later;
  ProducedTensor tensor =
      judge_produced(runtime, std::move(produced.capsule), device.ref,
                     fmt::format("plugin:produce:{}", device.selector_name), judged);
  if (judged.has_errors() || !tensor.facts.body_read ||
      !matches_request(request, tensor.facts, judged)) {
    return judged.result(spec.id, "");
  }
  try {
    exchange::ImportedView view = import_produced(runtime, tensor, device.ref);
    std::optional<AttemptReading> reading = read_attempt(view, queue, expected);
    if (!reading) {
      found.add(kLateContentRule,
                fmt::format("rule {}: elements read on the consumer's queue still differ from the "
                            "pattern {} ms after produce returned: they are wrong, not late",
                            kLateContentRule, kStreamSettle.count()));
      return found.result(spec.id, "");
    }
    ++tally.attempts;
    tally.elements = view.element_count();
    if (reading->stale) ++tally.stale;
    if (reading->stale && reading->differing > tally.worst.differing) tally.worst = *reading;
    // The view goes out of scope here and calls the deleter once.
  } catch (const Error& error) {
    if (error.code() != ExitCode::findings) throw;
    std::vector<std::string> rules = exchange::refusing_rules(error);
    found.add(rules.empty() ? kLateContentRule : rules.front(), error.what());
    return found.result(spec.id, "");
  }
  return std::nullopt;
}

// What the queue was, for the messages: the tool's own, in or out of order.
std::string queue_words(PluginSession& session, const runtime::ConsumerQueue& queue) {
  const char* runtime = session.host()->runtime != nullptr ? session.host()->runtime : "";
  return fmt::format("{} {}", queue.out_of_order() ? "an out-of-order" : "an in-order",
                     std::strcmp(runtime, "sycl") == 0 ? "sycl::queue" : "cl_command_queue");
}

// Where the library declares an ABI older than 4 it never saw the queue.
std::string abi_words(PluginSession& session) {
  std::uint32_t abi = session.table().table->abi_version;
  if (abi >= 4) return "";
  return fmt::format(
      " The library declares plugin ABI {}, which hands it no queue: its elements "
      "must be ready when produce returns.",
      abi);
}

// The runtime as the queue-order finding names it.
std::string runtime_words(PluginSession& session, const runtime::DeviceInfo& device) {
  const runtime::PlatformInfo* platform = session.runtime().inventory().platform_of(device.ref);
  const char* runtime = session.host()->runtime != nullptr ? session.host()->runtime : "";
  std::string name = platform != nullptr ? platform->name : device.selector_name;
  return std::strcmp(runtime, "sycl") == 0 ? fmt::format("{} (through SYCL)", name) : name;
}

// What one consumer queue saw of the library's tensors.
struct QueueRun {
  runtime::ConsumerQueue queue;
  std::string words;
  StreamTally tally;
};

// What the case needs beside the session: the device, the request and the
// pattern the library's tensor holds.
struct StreamSetup {
  const CaseSpec& spec;
  const runtime::DeviceInfo& device;
  const StreamCase& details;
  ProduceRequest request;
  std::vector<std::byte> expected;
};

// The library's attempts on `run`'s queue; a result where one ended the case.
std::optional<CaseResult> library_attempts(PluginSession& session, StreamSetup& setup,
                                           QueueRun& run, CaseFindings& found) {
  setup.request.c.consumer_queue = run.queue.handle();
  for (int i = 0; i < setup.details.attempts; ++i) {
    if (auto ended = stream_attempt(session, setup.spec, setup.device, setup.request, run.queue,
                                    setup.expected, found, run.tally)) {
      return ended;
    }
  }
  return std::nullopt;
}

QueueRun consumer_queue(PluginSession& session, const StreamSetup& setup,
                        runtime::QueueOrder order) {
  runtime::Runtime& runtime = session.runtime();
  const runtime::PlatformInfo* platform = runtime.inventory().platform_of(setup.device.ref);
  if (platform == nullptr) fail_environment("the device has no platform");
  QueueRun run;
  run.queue = runtime.make_consumer_queue(runtime.default_context(platform->index),
                                          setup.device.ref, order);
  run.words = queue_words(session, run.queue);
  return run;
}

// The tool's own correct producer on `run`'s queue, twice the library's
// attempts: a rare misordering of the runtime must not pass for the
// library's.
QueueControl control_on(PluginSession& session, const StreamSetup& setup, const QueueRun& run) {
  ControlExperiment experiment{setup.device.ref, setup.details.kind, &run.queue,
                               run.words,        &setup.expected,    2 * setup.details.attempts};
  return run_queue_control(session.runtime(), experiment);
}

void add_stale_finding(PluginSession& session, const QueueRun& run, const std::string& control,
                       CaseFindings& found) {
  const StreamTally& tally = run.tally;
  found.add(kStreamRule,
            fmt::format("rule {}: stale data in {} of {} attempts: read on the consumer's queue "
                        "({}) as soon as produce returned, up to {} of {} elements differed "
                        "from the pattern they held moments later (the first at logical index "
                        "{}): the library returned before its write was ordered before the "
                        "consumer's work ({}).{}",
                        kStreamRule, tally.stale, tally.attempts, run.words, tally.worst.differing,
                        tally.elements, tally.worst.first, control, abi_words(session)));
}

std::string clean_words(const QueueRun& run) {
  return fmt::format(
      "no race observed in {} attempts: every read on the consumer's queue ({}) as soon as "
      "produce returned gave the {} elements of the pattern",
      run.tally.attempts, run.words, run.tally.elements);
}

// Judges the library on `run`, where its reads were stale, against the
// control on the same queue; false where the control read stale too and so
// blocks the queue kind (run_stream then names the runtime).
bool judge_stale_run(PluginSession& session, const StreamSetup& setup, const QueueRun& run,
                     std::vector<QueueControl>& controls, CaseFindings& found) {
  controls.push_back(control_on(session, setup, run));
  QueueOrderVerdict alone =
      judge_queue_controls(runtime_words(session, setup.device), {controls.back()});
  if (!alone.blocked.empty()) return false;
  add_stale_finding(session, run, alone.notes.front(), found);
  return true;
}

}  // namespace

CaseSpec stream_case(const runtime::DeviceInfo& device, facts::UsmKind kind, int attempts) {
  CaseSpec spec = plugin_case(
      fmt::format("producer/{}/{}/float32/stream", device.selector_name, facts::to_string(kind)),
      "producer", device.selector_name,
      {std::string(kStreamRule), std::string(kLateContentRule),
       std::string(rules::ids::kRuntimeQueueOrder)},
      std::make_shared<const StreamCase>(kind, attempts));
  spec.place = stream_place(kind);
  return spec;
}

// Controls before blame: where the library's reads were stale, the tool's
// own correct producer runs on the same queue. Where it reads stale too the
// runtime misorders (named once in this case, DLP-RUNTIME-QUEUE-ORDER) and
// the library is judged again on an in-order queue, whose own control
// decides in turn whether a stale read there is the library's.
CaseResult run_stream(PluginSession& session, const CaseSpec& spec,
                      const runtime::DeviceInfo& device, const StreamCase& details) {
  StreamSetup setup{
      spec,
      device,
      details,
      make_produce_request(session, device, {details.kind, "float32", "C", "1.3", false}),
      {}};
  reshape_request(setup.request, kStreamShape);
  setup.expected =
      pattern_elements(setup.request.layout.allocation_bytes / setup.request.element_bytes,
                       setup.request.element_bytes);
  CaseFindings found;
  QueueRun first =
      consumer_queue(session, setup, runtime::QueueOrder::out_of_order_where_supported);
  if (auto ended = library_attempts(session, setup, first, found)) return *ended;
  if (first.tally.stale == 0) return found.result(spec.id, clean_words(first));
  std::vector<QueueControl> controls;
  if (judge_stale_run(session, setup, first, controls, found)) return found.result(spec.id, "");
  std::string judged = "not judged: the runtime misorders every consumer queue the tool can make";
  if (first.queue.out_of_order()) {
    QueueRun second = consumer_queue(session, setup, runtime::QueueOrder::in_order);
    if (auto ended = library_attempts(session, setup, second, found)) return *ended;
    if (second.tally.stale == 0) {
      judged = "judged on an in-order queue instead: " + clean_words(second);
    } else {
      judge_stale_run(session, setup, second, controls, found);
    }
  }
  QueueOrderVerdict verdict = judge_queue_controls(runtime_words(session, device), controls);
  found.add(rules::ids::kRuntimeQueueOrder, verdict.runtime_finding);
  return found.result(spec.id, judged);
}

}  // namespace dlpack_usm::suite
