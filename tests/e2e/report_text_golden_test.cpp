// The text reports, byte for byte: tests/data/golden holds what the tool
// printed before its reports were walks over a printer (issue 12), with the
// source directory written @SOURCE@. A change of layout shows up here; a
// deliberate one regenerates the file from the tool's output.
#include <gtest/gtest.h>

#include <cctype>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "report/formats/check_report.hpp"
#include "suite/model/check_run.hpp"
#include "tool_process.hpp"

namespace dlpack_usm::e2e {
namespace {

// The golden file `name` with @SOURCE@ replaced by this checkout's directory.
std::string golden(const std::string& name) {
  std::ifstream file(source_path("tests/data/golden/" + name), std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  std::string expected = text.str();
  const std::string placeholder = "@SOURCE@/";
  const std::string directory = source_path("");
  for (std::size_t at = expected.find(placeholder); at != std::string::npos;
       at = expected.find(placeholder, at + directory.size())) {
    expected.replace(at, placeholder.size(), directory);
  }
  return expected;
}

struct GoldenDump {
  const char* input;   // relative to the source directory
  const char* golden;  // in tests/data/golden
};

// The test's name: the golden file's, letters and digits only.
std::string golden_name(const testing::TestParamInfo<GoldenDump>& info) {
  std::string name = info.param.golden;
  name = name.substr(0, name.rfind('.'));
  for (char& c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0) c = '_';
  }
  return name;
}

class CapsuleDumpText : public testing::TestWithParam<GoldenDump> {};

TEST_P(CapsuleDumpText, IsTheGoldenText) {
  ToolResult result = run_tool({"capsule", "dump", source_path(GetParam().input)});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, golden(GetParam().golden));
}

// Several tensors in a file, legacy and versioned ABIs, a runtime section, an
// unread body with reader notes, values DLPack has no name for.
INSTANTIATE_TEST_SUITE_P(
    Golden, CapsuleDumpText,
    testing::Values(
        GoldenDump{"tests/data/capsules/three-tensors.jsonl", "capsule-dump-three-tensors.txt"},
        GoldenDump{"tests/data/capsules/legacy-and-versioned.json",
                   "capsule-dump-legacy-and-versioned.txt"},
        GoldenDump{"conformance/vectors/addressing/offset-view-inside-allocation.json",
                   "capsule-dump-offset-view-inside-allocation.txt"},
        GoldenDump{"conformance/vectors/version/major-0.json", "capsule-dump-major-0.txt"},
        GoldenDump{"conformance/vectors/device/type-5.json", "capsule-dump-type-5.txt"}),
    golden_name);

// Findings tables, a tensor with none, an unreadable file and the strict summary.
TEST(CapsuleCheckText, IsTheGoldenText) {
  ToolResult result = run_tool({"capsule", "check", "--strict",
                                source_path("tests/data/capsules/three-tensors.jsonl"),
                                source_path("tests/data/capsules/legacy-and-versioned.json"),
                                source_path("tests/data/capsules/bool-16-bits-warning.json"),
                                source_path("conformance/vectors/version/major-0.json"),
                                source_path("conformance/vectors/device/type-5.json"),
                                source_path("tests/data/missing.json")});
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_EQ(result.out, golden("capsule-check-strict.txt"));
}

// A consumer case of the matrix as `check --consumer` records it: its
// outcome, message and rules, and its class in the profile (the consumer
// verdict's, or the recorder's for a crash or a hang the runner charged).
suite::RecordedCase consumer_case(const std::string& cell, const std::string& axis,
                                  const std::string& value, suite::Outcome outcome,
                                  const std::string& message, std::vector<std::string> rules = {},
                                  const std::string& cell_class = {},
                                  const std::string& decline_reason = {}) {
  suite::RecordedCase recorded;
  recorded.spec.id = fmt::format("consumer/opencl:cpu:0/{}", cell);
  recorded.spec.source = "consumer";
  recorded.spec.device = "opencl:cpu:0";
  recorded.spec.place = {suite::Direction::consumer, "device-usm", {{axis, value}}, std::nullopt};
  recorded.result = suite::CaseResult(recorded.spec.id, outcome, message);
  recorded.result.rule_ids = std::move(rules);
  recorded.result.exchange = *suite::parse_exchange_outcome(cell_class);
  recorded.result.decline_reason = decline_reason;
  if (suite::is_failing(outcome)) recorded.result.verdict = suite::Verdict::regression;
  recorded.repro =
      fmt::format("dlpack-usm check --consumer /lib/libc.so --filter '{}'", recorded.spec.id);
  return recorded;
}

// The check summary of a consumer run, with every class of the capability
// profile: accepted and declined values per axis (a decline never fails, an
// inconsistent one warns), refused invalid tensors, an accepted invalid one
// (a warning), and the failures (wrong view, NULL deleter called, hang).
TEST(CheckSummaryText, ConsumerProfileIsTheGoldenText) {
  using suite::Outcome;
  suite::CheckRun run;
  run.plugins = nlohmann::json::array({{{"role", "consumer"},
                                        {"path", "/lib/libc.so"},
                                        {"interface", "dlpack_usm_plugin"},
                                        {"name", "fixture-consumer"},
                                        {"version", "1.0"}}});
  const std::string accepted = "accepted with the right elements; the deleter ran once";
  const std::string whole_bytes = "this consumer reads whole-byte elements of up to 64 bytes";
  auto pass = [&](const char* cell, const char* axis, const char* value) {
    return consumer_case(cell, axis, value, Outcome::pass, accepted, {}, "accepted");
  };
  auto declined = [&](const char* cell, const char* axis, const char* value, const char* reason) {
    return consumer_case(cell, axis, value, Outcome::not_supported,
                         fmt::format("declined ({}); the deleter ran once", reason), {}, "declined",
                         reason);
  };
  run.cases = {
      pass("device/c-order", "usm-kind", "device-usm"),
      pass("host/c-order", "usm-kind", "host-usm"),
      pass("device/legacy", "version", "0.8"),
      pass("device/dtype-bool", "dtype", "bool"),
      pass("device/dtype-int8", "dtype", "int8"),
      declined("device/dtype-float6_e2m3fn", "dtype", "float6_e2m3fn", whole_bytes.c_str()),
      declined("device/dtype-float4_e2m1fn", "dtype", "float4_e2m1fn", whole_bytes.c_str()),
      pass("device/negative-stride", "layout", "negative-stride"),
      declined("device/ndim-40", "layout", "ndim-40", "this consumer takes at most 32 dimensions"),
      consumer_case("device/size0-null-data", "layout", "size0-null-data", Outcome::warn,
                    "declined (NULL data with elements); the deleter ran once; warning: rule "
                    "DLP-CONSUMER-INCONSISTENT-DECLINE: declined size0-null-data (NULL data with "
                    "elements) but accepted its compact twin size0-null-data~compact, which holds "
                    "the same elements",
                    {"DLP-CONSUMER-INCONSISTENT-DECLINE"}, "declined", "NULL data with elements"),
      consumer_case("device/extent-1-strides", "layout", "extent-1-strides", Outcome::fail,
                    "rule DLP-CONSUMER-WRONG-VIEW: the view the consumer imported differs: ndim "
                    "is 2, the tensor offered has 3",
                    {"DLP-CONSUMER-WRONG-VIEW"}, "wrong"),
      consumer_case("device/null-deleter", "layout", "null-deleter", Outcome::crash,
                    "the case died on SIGSEGV", {"DLP-CONSUMER-CALLS-NULL-DELETER"},
                    "deleter-misuse"),
      consumer_case("device/read-only", "layout", "read-only", Outcome::timeout,
                    "no result within 3000 ms; the watchdog killed the case", {"DLP-PLUGIN-HANG"},
                    "hang"),
      consumer_case("invalid/major-version-2", "invalid", "major-version-2", Outcome::pass,
                    "refused (unknown DLPack major version, which breaks DLP-VERSION-MAJOR); the "
                    "deleter ran once",
                    {}, "refused", "unknown DLPack major version"),
      consumer_case("invalid/extent-overflow", "invalid", "extent-overflow", Outcome::warn,
                    "accepted the invalid tensor extent-overflow; warning: rule "
                    "DLP-CONSUMER-ACCEPTS-INVALID: the invalid tensor extent-overflow (it breaks "
                    "DLP-EXTENT-OVERFLOW) was accepted",
                    {"DLP-CONSUMER-ACCEPTS-INVALID"}, "accepted-invalid"),
  };
  EXPECT_EQ(report::check_run_summary(run), golden("check-consumer-profile.txt"));
}

}  // namespace
}  // namespace dlpack_usm::e2e
