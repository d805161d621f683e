// DLP-RUNTIME-OWNER-ANSWER in check's case sources, on this machine's OpenCL
// runtime seen through a wrapper that answers the owner query as PoCL 5.0
// does with two roots in one context (one device named for every
// allocation): the finding is one case, and the live, producer and consumer
// cases whose verdict rests on the answer are blocked, the others not.
#include <gtest/gtest.h>

#include <algorithm>

#include "exchange_test_support.hpp"
#include "rules/owner_answer.hpp"
#include "suite/cases/consumer/consumer_cases.hpp"
#include "suite/cases/live/live_cases.hpp"
#include "suite/cases/owner_answer/owner_answer_cases.hpp"
#include "suite/cases/producer/producer_cases.hpp"
#include "suite/cases/producer/producer_stream.hpp"
#include "suite/model/consumer_profile.hpp"

namespace dlpack_usm::suite {
namespace {

using runtime::ContextRef;
using runtime::DeviceRef;

// The real runtime, except that every owned allocation is said to belong to
// the last device of its platform (PoCL 5.0 names opencl:cpu:1 for all).
class MisattributingRuntime final : public runtime::Runtime {
 public:
  explicit MisattributingRuntime(runtime::Runtime& real) : real_(real) {}

  const runtime::Inventory& inventory() const override { return real_.inventory(); }
  ContextRef default_context(std::int32_t platform) override {
    return real_.default_context(platform);
  }
  bool default_context_holds(const DeviceRef& device) override {
    return real_.default_context_holds(device);
  }
  runtime::UsmBuffer allocate(const DeviceRef& device, facts::UsmKind kind, std::size_t bytes,
                              runtime::ContextChoice context) override {
    return real_.allocate(device, kind, bytes, context);
  }
  runtime::PointerInfo query(const void* ptr, const ContextRef& context) override {
    runtime::PointerInfo info = real_.query(ptr, context);
    if (!info.owner) return info;
    const runtime::DeviceInfo& last = inventory().platform_of(*info.owner)->devices.back();
    info.owner = last.sub_devices.empty() ? last.ref : last.sub_devices.back().ref;
    return info;
  }
  void copy(const ContextRef& context, const DeviceRef& device, void* destination,
            const void* source, std::size_t bytes) override {
    real_.copy(context, device, destination, source, bytes);
  }
  runtime::ConsumerQueue make_consumer_queue(const ContextRef& context, const DeviceRef& device,
                                             runtime::QueueOrder order) override {
    return real_.make_consumer_queue(context, device, order);
  }
  void read_on_queue(const runtime::ConsumerQueue& queue, void* destination, const void* source,
                     std::size_t bytes) override {
    real_.read_on_queue(queue, destination, source, bytes);
  }
  std::string call_name(runtime::RuntimeCall call, facts::UsmKind kind) const override {
    return real_.call_name(call, kind);
  }
  runtime::NativeHandles native_handles(const DeviceRef& device) const override {
    return real_.native_handles(device);
  }

 protected:
  // Never called: buffers and queues come from the real runtime and free through it.
  void release(void*, const ContextRef&) noexcept override {}
  void release_queue(void*) noexcept override {}

 private:
  runtime::Runtime& real_;
};

// One for the process: the owner answers are kept per runtime address.
runtime::Runtime& misattributing_runtime() {
  static auto* runtime = new MisattributingRuntime(runtime::opencl_runtime());
  return *runtime;
}

std::function<runtime::Runtime&()> wrong_answers() {
  return []() -> runtime::Runtime& { return misattributing_runtime(); };
}

const runtime::OwnerAnswerCheck* first_check() {
  const auto& checks = runtime::owner_answer_checks(misattributing_runtime());
  return checks.empty() ? nullptr : &checks.front();
}

bool blocked(const CaseSpec& spec) {
  const NotSupportedCase* not_supported = spec.not_supported();
  return not_supported != nullptr &&
         not_supported->reason.starts_with("blocked by DLP-RUNTIME-OWNER-ANSWER: ") &&
         not_supported->rule_ids == std::vector<std::string>{"DLP-RUNTIME-OWNER-ANSWER"} &&
         std::count(spec.rules.begin(), spec.rules.end(), "DLP-RUNTIME-OWNER-ANSWER") == 1;
}

#define SKIP_WITHOUT_WRONG_ANSWER(check)                                       \
  auto usm_roots = exchange::testing::usm_root_devices();                      \
  SKIP_WITHOUT(usm_roots, "device");                                           \
  const runtime::OwnerAnswerCheck* check = first_check();                      \
  ASSERT_NE(check, nullptr);                                                   \
  if (check->verdict.wrong.empty()) {                                          \
    GTEST_SKIP() << "the platform has one USM device: no answer can be wrong"; \
  }

TEST(OwnerAnswerCases, TheWrongAnswerIsOneCaseThatWarns) {
  SKIP_WITHOUT_WRONG_ANSWER(check);
  OwnerAnswerCaseSource source(wrong_answers());
  std::vector<CaseSpec> cases = source.cases();
  ASSERT_EQ(cases.size(), runtime::owner_answer_checks(misattributing_runtime()).size());
  EXPECT_EQ(cases.front().id, "runtime/" + check->first_device + "/owner-answer");
  CaseResult result = source.run(cases.front());
  EXPECT_EQ(result.outcome, Outcome::warn) << result.message;
  EXPECT_EQ(result.rule_ids, std::vector<std::string>{"DLP-RUNTIME-OWNER-ANSWER"});
  EXPECT_NE(result.message.find("warning: rule DLP-RUNTIME-OWNER-ANSWER"), std::string::npos)
      << result.message;
}

TEST(OwnerAnswerCases, LiveRoundTripsOfWronglyNamedDevicesAreBlocked) {
  SKIP_WITHOUT_WRONG_ANSWER(check);
  LiveCaseSource source(wrong_answers());
  int blocked_count = 0;
  for (const CaseSpec& spec : source.cases()) {
    bool round_trip = !spec.id.starts_with("live/" + spec.device + "/negative/") &&
                      spec.id.find("/own-context") == std::string::npos &&
                      (spec.not_supported() == nullptr || blocked(spec));
    bool wrong = check->wrong_answer(spec.device) != nullptr;
    EXPECT_EQ(blocked(spec), round_trip && wrong) << spec.id;
    if (!blocked(spec)) continue;
    ++blocked_count;
    CaseResult result = source.run(spec);
    EXPECT_EQ(result.outcome, Outcome::not_supported);
    EXPECT_EQ(result.rule_ids, std::vector<std::string>{"DLP-RUNTIME-OWNER-ANSWER"});
  }
  EXPECT_GT(blocked_count, 0);
}

TEST(OwnerAnswerCases, ProducerCasesOfOwnedKindsAreBlockedLifetimeAndHostAreNot) {
  SKIP_WITHOUT_WRONG_ANSWER(check);
  ProducerCaseSource source(wrong_answers(), {plugin::Role::producer, "unused.so", ""},
                            kDefaultStreamAttempts);
  for (const CaseSpec& spec : source.cases()) {
    bool owned = spec.id.find("/host/") == std::string::npos && !spec.id.ends_with("/lifetime") &&
                 spec.not_supported() == nullptr;
    bool wrong = check->wrong_answer(spec.device) != nullptr;
    if (blocked(spec)) {
      EXPECT_TRUE(wrong) << spec.id;
      EXPECT_TRUE(spec.crash_rule.empty()) << spec.id;
    } else {
      EXPECT_FALSE(owned && wrong) << spec.id;
    }
  }
}

TEST(OwnerAnswerCases, ValidConsumerCellsAreBlockedAndLeaveTheProfile) {
  SKIP_WITHOUT_WRONG_ANSWER(check);
  ConsumerCaseSource source(wrong_answers(), {plugin::Role::consumer, "unused.so", ""});
  int blocked_count = 0;
  for (const CaseSpec& spec : source.cases()) {
    bool wrong = check->wrong_answer(spec.device) != nullptr;
    bool invalid = spec.id.find("/invalid/") != std::string::npos;
    EXPECT_EQ(blocked(spec), wrong && !invalid) << spec.id;
    if (!blocked(spec)) continue;
    ++blocked_count;
    EXPECT_TRUE(spec.features.empty() && spec.decline_rule.empty()) << spec.id;
    // It keeps its place; its result is not applicable there, and so in no
    // capability profile.
    RecordedCase recorded{spec, not_supported_result(spec, *spec.not_supported()), ""};
    EXPECT_EQ(recorded.result.exchange, ExchangeOutcome::not_applicable) << spec.id;
    EXPECT_EQ(profile_line(recorded), nullptr) << spec.id;
  }
  EXPECT_GT(blocked_count, 0);
}

TEST(OwnerAnswerCases, ThisMachinesRuntimeBlocksNothing) {
  auto usm_roots = exchange::testing::usm_root_devices();
  SKIP_WITHOUT(usm_roots, "device");
  auto real = []() -> runtime::Runtime& { return runtime::opencl_runtime(); };
  for (const runtime::OwnerAnswerCheck& check :
       runtime::owner_answer_checks(runtime::opencl_runtime())) {
    if (check.verdict.finding) {
      GTEST_SKIP() << "this machine's runtime answers wrong: " << check.verdict.finding->message;
    }
  }
  OwnerAnswerCaseSource source(real);
  for (const CaseSpec& spec : source.cases()) {
    CaseResult result = source.run(spec);
    EXPECT_EQ(result.outcome, Outcome::pass) << result.message;
    EXPECT_TRUE(result.rule_ids.empty()) << result.message;
  }
  LiveCaseSource live(real);
  for (const CaseSpec& spec : live.cases()) EXPECT_FALSE(blocked(spec)) << spec.id;
}

}  // namespace
}  // namespace dlpack_usm::suite
