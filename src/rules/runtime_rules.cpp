// Runtime family: what the runtime under the tool says, judged before any
// library is. A wrong answer here is no defect of a library under test, yet
// every export on that runtime inherits it; the tool names it once and
// blocks the cases it would otherwise blame on the library (owner_answer.hpp).
// Its failing and passing vectors are owner-probe observations in
// fixtures/runtime/owner_answer_vectors.json.
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "rules/owner_answer.hpp"
#include "rules/rule_definition.hpp"

namespace dlpack_usm::rules {
namespace {

constexpr dlpack::Release kOwnerAnswerSince{0, 7};  // kDLOneAPI came with DLPack 0.7

// Names shown in a message before the rest is counted: a runtime can be
// wrong for dozens of sub-devices, and list-devices --json has them all.
constexpr std::size_t kNamesShown = 4;

std::string answered_name(const OwnerProbe& probe) {
  return probe.answered ? probe.answered->name : std::string("no device it lists");
}

std::string names_of(const std::vector<const OwnerProbe*>& probes) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < probes.size() && i < kNamesShown; ++i) {
    names.push_back(probes[i]->allocated_on.name);
  }
  std::string shown = fmt::format("{}", fmt::join(names, ", "));
  if (probes.size() <= kNamesShown) return shown;
  return fmt::format("{} and {} more", shown, probes.size() - kNamesShown);
}

// "USM allocated on A, B is said to belong to C": one clause per answer.
std::string wrong_answers_text(const std::vector<OwnerProbe>& wrong) {
  std::map<std::string, std::vector<const OwnerProbe*>> by_answer;
  std::vector<std::string> order;
  for (const OwnerProbe& probe : wrong) {
    auto& group = by_answer[answered_name(probe)];
    if (group.empty()) order.push_back(answered_name(probe));
    group.push_back(&probe);
  }
  std::vector<std::string> clauses;
  for (const std::string& answer : order) {
    clauses.push_back(fmt::format("USM allocated on {} is said to belong to {}",
                                  names_of(by_answer[answer]), answer));
  }
  return fmt::format("{}", fmt::join(clauses, "; "));
}

// What a SYCL library's export makes of the wrong answers: the first one
// that changes the device_id shows it best.
std::string consequence_text(const std::vector<OwnerProbe>& wrong) {
  for (const OwnerProbe& probe : wrong) {
    if (!probe.answered || probe.answered->device_id == probe.allocated_on.device_id) continue;
    return fmt::format(
        "so every SYCL library's export on this runtime carries device_id {} for such memory, "
        "whichever device holds it (the memory of {} should carry {})",
        probe.answered->device_id, probe.allocated_on.name, probe.allocated_on.device_id);
  }
  for (const OwnerProbe& probe : wrong) {
    if (probe.answered) continue;
    return "so every SYCL library's export of such memory on this runtime fails to find a "
           "device_id (the export protocol's \"failed finding device_id\")";
  }
  return "a SYCL library's export takes its device_id from that answer, which comes out right "
         "only because the device named has the same root device, so no export on these "
         "devices shows whether a library names the parent root device";
}

void judged_by_owner_probe(const RuleContext&, Reporter&) {}

// Judged in the Python worker (producer/_stream_control.py), where the
// stream checks run; its vectors are control observations in
// fixtures/runtime/queue_order_vectors.json.
void judged_by_stream_control(const RuleContext&, Reporter&) {}

constexpr std::string_view kSyclEnqueueBarrier =
    "sycl_ext_oneapi_enqueue_barrier, handler::ext_oneapi_barrier (https://github.com/intel/llvm/"
    "blob/sycl/sycl/doc/extensions/supported/sycl_ext_oneapi_enqueue_barrier.asciidoc)";

constexpr std::string_view kSyclPointerQueries =
    "SYCL 2020 reference, USM pointer queries, sycl::get_pointer_device "
    "(https://github.khronos.org/SYCL_Reference/iface/usm_pointer_queries.html)";

// The quote defines the owner query, so a wrong answer falls outside its
// definition. The severity is a warning all the same: the runtime, not the
// library under test, breaks the definition, so the tool names it without
// failing the gate.
constexpr std::array kRuntimeRules{
    RuleDefinition{
        {kOwnerAnswerRule, "runtime", "Runtime names another device as the owner of an allocation",
         Severity::warning, kOwnerAnswerSince, std::nullopt, kSyclPointerQueries, "definition",
         "If ptr points within a device USM allocation or a shared USM allocation for the "
         "context syclContext, returns the same device that was passed when allocating the "
         "memory.",
         "Before the live cases the tool allocates a little USM on each device in its "
         "platform's default context and asks the runtime who owns it. The kDLOneAPI export "
         "protocol takes device_id from that answer, so a wrong one makes every SYCL library "
         "on the runtime export a wrong device_id: named once per platform, not charged to "
         "the library under test (\"name it, don't fail on it\"); the live, producer and "
         "consumer cases whose verdict rests on the answer are reported as blocked by it."},
        Scope::header,
        judged_by_owner_probe},
    // A definition the runtime breaks, named as a warning for the same
    // reason as the owner answer: the library under test is not at fault.
    RuleDefinition{
        {ids::kRuntimeQueueOrder, "runtime",
         "Runtime runs a read before the work a barrier or event made it wait for",
         Severity::warning, kFirstRelease, std::nullopt, kSyclEnqueueBarrier, "definition",
         "Prevents any commands submitted afterward to this queue from executing until all "
         "events in `waitList` have entered the `info::event_command_status::complete` state.",
         "The control of DLP-PY-STREAM-RACE and DLP-PRODUCER-STREAM: where a way of asking "
         "read stale data, the tool makes the same late work again and does the producer's "
         "part of the protocol itself (SYCL: a barrier on the producer's queue that the "
         "consumer's queue waits for; OpenCL: clEnqueueBarrierWithWaitList on the consumer's "
         "queue; CUDA: an event recorded on the producer's stream that the consumer's stream "
         "waits for), then reads on the same consumer queue or stream. A stale read then is "
         "the runtime's: named once, with the queue kinds and how many attempts read stale "
         "data, and the library's results on those kinds are blocked, not failed; kinds whose "
         "control read nothing stale are judged (a C plugin is judged again on an in-order "
         "queue)."},
        Scope::header,
        judged_by_stream_control},
};

}  // namespace

std::span<const RuleDefinition> runtime_rules() {
  return kRuntimeRules;
}

bool answered_right(const OwnerProbe& probe) {
  return probe.answered && *probe.answered == probe.allocated_on;
}

OwnerAnswerVerdict judge_owner_answers(const OwnerAnswers& answers) {
  OwnerAnswerVerdict verdict;
  for (const OwnerProbe& probe : answers.probes) {
    if (!answered_right(probe)) verdict.wrong.push_back(probe);
  }
  if (verdict.wrong.empty()) return verdict;
  verdict.finding = Finding{
      std::string(kOwnerAnswerRule), kRuntimeRules.front().info.severity, "runtime.owner_device",
      fmt::format("{} ({}) answers {} wrongly for {} of the {} USM device(s) asked in its "
                  "default context: {}; {}. The runtime, not the library under test, breaks "
                  "the owner query, so the cases that judge a device_id on those devices are "
                  "blocked",
                  answers.platform_name, answers.platform_version, answers.query,
                  verdict.wrong.size(), answers.probes.size(), wrong_answers_text(verdict.wrong),
                  consequence_text(verdict.wrong))};
  return verdict;
}

}  // namespace dlpack_usm::rules
