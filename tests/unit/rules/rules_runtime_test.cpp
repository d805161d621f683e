// The runtime family: DLP-RUNTIME-OWNER-ANSWER's pure judgement of what was
// allocated where against what the runtime answered, on every row of
// fixtures/runtime/owner_answer_vectors.json (the PoCL 5.0 answers the GPU
// machine gave among them) and on the message a user reads.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "rules/owner_answer.hpp"
#include "rules_test_support.hpp"

namespace dlpack_usm::rules {
namespace {

using nlohmann::json;

json load_owner_answer_vectors() {
  std::ifstream in(std::filesystem::path(DLPACK_USM_SOURCE_DIR) /
                   "fixtures/runtime/owner_answer_vectors.json");
  EXPECT_TRUE(in) << "cannot open fixtures/runtime/owner_answer_vectors.json";
  json table = json::parse(in);
  EXPECT_EQ(table.at("format"), 1);
  return table.at("vectors");
}

std::optional<ProbedDevice> answered_of(const json& probe) {
  if (probe.at("answered").is_null()) return std::nullopt;
  return ProbedDevice{probe.at("answered").get<std::string>(),
                      probe.at("answered_device_id").get<std::int32_t>()};
}

OwnerAnswers answers_of(const json& row) {
  const json& answers = row.at("answers");
  OwnerAnswers out{answers.at("runtime"),
                   answers.at("query"),
                   answers.at("platform_name"),
                   answers.at("platform_version"),
                   {}};
  for (const json& probe : answers.at("probes")) {
    out.probes.push_back(
        {{probe.at("allocated_on").get<std::string>(), probe.at("device_id").get<std::int32_t>()},
         *facts::parse_usm_kind(probe.at("kind").get<std::string>()),
         answered_of(probe)});
  }
  return out;
}

std::vector<std::string> wrong_names(const OwnerAnswerVerdict& verdict) {
  std::vector<std::string> names;
  for (const OwnerProbe& probe : verdict.wrong) names.push_back(probe.allocated_on.name);
  return names;
}

TEST(OwnerAnswerVectors, EachRowGivesItsFindingAndItsBlockedDevices) {
  for (const json& row : load_owner_answer_vectors()) {
    SCOPED_TRACE(row.at("name").get<std::string>());
    OwnerAnswerVerdict verdict = judge_owner_answers(answers_of(row));
    EXPECT_EQ(wrong_names(verdict), row.at("blocked").get<std::vector<std::string>>());
    if (row.contains("expect")) {
      EXPECT_EQ(row.at("expect"), json::array({std::string(kOwnerAnswerRule)}));
      ASSERT_TRUE(verdict.finding);
      EXPECT_EQ(verdict.finding->rule_id, kOwnerAnswerRule);
      EXPECT_EQ(verdict.finding->severity, Severity::warning);
    } else {
      EXPECT_EQ(row.at("passes"), json::array({std::string(kOwnerAnswerRule)}));
      EXPECT_FALSE(verdict.finding) << verdict.finding->message;
    }
  }
}

TEST(OwnerAnswerVectors, PoclMessageNamesRuntimeDeviceAnswerAndConsequence) {
  json rows = load_owner_answer_vectors();
  ASSERT_EQ(rows.at(0).at("name"), "pocl-5.0-two-roots-one-context");
  OwnerAnswerVerdict verdict = judge_owner_answers(answers_of(rows.at(0)));
  ASSERT_TRUE(verdict.finding);
  const std::string& message = verdict.finding->message;
  for (const char* part :
       {"Portable Computing Language (OpenCL 3.0 PoCL 5.0+debian",
        "answers clGetMemAllocInfoINTEL(CL_MEM_ALLOC_DEVICE_INTEL) wrongly for 33 of the 34",
        "USM allocated on opencl:cpu:0, opencl:cpu:0.0, opencl:cpu:0.1, opencl:cpu:0.2 and 29 "
        "more is said to belong to opencl:cpu:1",
        "every SYCL library's export on this runtime carries device_id 1 for such memory",
        "the memory of opencl:cpu:0 should carry 0", "not the library under test"}) {
    EXPECT_NE(message.find(part), std::string::npos) << part << "\nin: " << message;
  }
}

// Built member by member: GCC 12's -O3 takes the brace-initialised
// optional<ProbedDevice> for uninitialised (a false -Wmaybe-uninitialized).
OwnerProbe probe_of(const std::string& allocated_on, std::int32_t device_id, facts::UsmKind kind,
                    const std::optional<ProbedDevice>& answered) {
  OwnerProbe probe;
  probe.allocated_on.name = allocated_on;
  probe.allocated_on.device_id = device_id;
  probe.kind = kind;
  if (answered) probe.answered.emplace(*answered);
  return probe;
}

TEST(OwnerAnswer, RightOnlyWhenTheAnswerIsTheDeviceAllocatedOn) {
  OwnerProbe probe =
      probe_of("opencl:cpu:0.1", 0, facts::UsmKind::device, ProbedDevice{"opencl:cpu:0.1", 0});
  EXPECT_TRUE(answered_right(probe));
  // Its root has the right device_id, but it is not the device asked for.
  probe.answered = ProbedDevice{"opencl:cpu:0", 0};
  EXPECT_FALSE(answered_right(probe));
  probe.answered.reset();
  EXPECT_FALSE(answered_right(probe));
}

TEST(OwnerAnswer, NothingAskedIsNothingFound) {
  OwnerAnswerVerdict verdict = judge_owner_answers({"opencl", "query", "p", "v", {}});
  EXPECT_FALSE(verdict.finding);
  EXPECT_TRUE(verdict.wrong.empty());
}

TEST(OwnerAnswer, AnswersGroupedByTheDeviceNamed) {
  OwnerAnswers answers{"sycl", "sycl::get_pointer_device", "P", "1.0", {}};
  answers.probes.push_back(
      probe_of("level_zero:gpu:0", 0, facts::UsmKind::device, ProbedDevice{"level_zero:gpu:1", 1}));
  answers.probes.push_back(probe_of("level_zero:gpu:1", 1, facts::UsmKind::shared, std::nullopt));
  OwnerAnswerVerdict verdict = judge_owner_answers(answers);
  ASSERT_TRUE(verdict.finding);
  EXPECT_NE(verdict.finding->message.find("USM allocated on level_zero:gpu:0 is said to belong to "
                                          "level_zero:gpu:1; USM allocated on level_zero:gpu:1 is "
                                          "said to belong to no device it lists"),
            std::string::npos)
      << verdict.finding->message;
}

TEST(OwnerAnswer, NoDeviceNamedMeansExportFindsNoDeviceId) {
  json rows = load_owner_answer_vectors();
  for (const json& row : rows) {
    if (row.at("name") != "answer-names-no-listed-device") continue;
    OwnerAnswerVerdict verdict = judge_owner_answers(answers_of(row));
    ASSERT_TRUE(verdict.finding);
    EXPECT_NE(verdict.finding->message.find("failed finding device_id"), std::string::npos);
    return;
  }
  FAIL() << "no row answer-names-no-listed-device";
}

TEST(OwnerAnswer, AnswerOfTheSameRootSaysTheDeviceIdIsRightByChance) {
  for (const json& row : load_owner_answer_vectors()) {
    if (row.at("name") != "sub-device-answered-as-its-root") continue;
    OwnerAnswerVerdict verdict = judge_owner_answers(answers_of(row));
    ASSERT_TRUE(verdict.finding);
    EXPECT_NE(verdict.finding->message.find("comes out right only because the device named has "
                                            "the same root device"),
              std::string::npos)
        << verdict.finding->message;
    return;
  }
  FAIL() << "no row sub-device-answered-as-its-root";
}

TEST(OwnerAnswer, RuleIsARuntimeWarningThatNoTensorFires) {
  const RuleInfo* rule = find_rule(kOwnerAnswerRule);
  ASSERT_NE(rule, nullptr);
  EXPECT_EQ(rule->family, "runtime");
  EXPECT_EQ(rule->severity, Severity::warning);
  EXPECT_FALSE(testing::fires(testing::clean_oneapi_tensor(), std::string(kOwnerAnswerRule)));
}

}  // namespace
}  // namespace dlpack_usm::rules
