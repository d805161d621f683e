// `dlpack-usm capsule check` as a user runs it: findings per tensor, exit 1
// on errors (a malformed tensor; with --strict also a warning, a broken
// convention), 0 otherwise, 2 when a file cannot be read (the other files are
// still checked).
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "tool_process.hpp"

namespace dlpack_usm::e2e {
namespace {

using nlohmann::json;

std::string sample(const std::string& name) {
  return source_path("tests/data/capsules/" + name);
}

TEST(CapsuleCheck, CleanFilesExitZeroAndListEveryTensor) {
  ToolResult result = run_tool(
      {"capsule", "check", sample("oneapi-f-order.json"), sample("legacy-and-versioned.json")});
  EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
  EXPECT_NE(result.out.find("DLP-VERSION-LEGACY"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("checked 3 tensors in 2 files: 0 errors"), std::string::npos)
      << result.out;
}

TEST(CapsuleCheck, AnErrorFindingExitsOne) {
  ToolResult result = run_tool({"capsule", "check", sample("three-tensors.jsonl")});
  EXPECT_EQ(result.exit_code, 1) << result.out << result.err;
  EXPECT_NE(result.out.find("error     DLP-VERSION-MAJOR  version.major"), std::string::npos)
      << result.out;
}

TEST(CapsuleCheck, JsonReportsFindingsPerTensor) {
  ToolResult result = run_tool({"capsule", "check", "--json", sample("three-tensors.jsonl")});
  EXPECT_EQ(result.exit_code, 1) << result.err;
  json doc = json::parse(result.out);
  EXPECT_FALSE(doc["strict"]);
  EXPECT_EQ(doc["exit_code"], 1);
  ASSERT_EQ(doc["files"].size(), 1U);
  EXPECT_TRUE(doc["files"][0]["error"].is_null());
  const json& tensors = doc["files"][0]["tensors"];
  ASSERT_EQ(tensors.size(), 3U);
  EXPECT_EQ(tensors[1]["origin"], sample("three-tensors.jsonl") + "#1");
  EXPECT_EQ(tensors[1]["counts"]["error"], 1);
  bool found = false;
  for (const json& finding : tensors[1]["findings"]) {
    if (finding["rule_id"] == "DLP-VERSION-MAJOR") {
      found = true;
      EXPECT_EQ(finding["severity"], "error");
      EXPECT_EQ(finding["field"], "version.major");
      EXPECT_FALSE(finding["message"].get<std::string>().empty());
    }
  }
  EXPECT_TRUE(found) << tensors[1].dump();
  EXPECT_EQ(doc["summary"]["tensors"], 3);
  EXPECT_EQ(doc["summary"]["findings"]["error"], 1);
}

TEST(CapsuleCheck, StrictFailsOnWarnings) {
  ToolResult lenient = run_tool({"capsule", "check", sample("bool-16-bits-warning.json")});
  EXPECT_EQ(lenient.exit_code, 0) << lenient.out;
  EXPECT_NE(lenient.out.find("warning   DLP-DTYPE-BITS-INVALID"), std::string::npos) << lenient.out;
  ToolResult strict =
      run_tool({"capsule", "check", "--strict", sample("bool-16-bits-warning.json")});
  EXPECT_EQ(strict.exit_code, 1) << strict.out;
  ToolResult strict_json =
      run_tool({"capsule", "check", "--strict", "--json", sample("bool-16-bits-warning.json")});
  EXPECT_EQ(strict_json.exit_code, 1);
  EXPECT_TRUE(json::parse(strict_json.out)["strict"]);
}

// What each rule's severity rests on, as `rules --json` tells a user.
std::map<std::string, std::string> basis_of_rules() {
  ToolResult rules = run_tool({"rules", "--json"});
  EXPECT_EQ(rules.exit_code, 0) << rules.err;
  std::map<std::string, std::string> basis;
  const json catalog = json::parse(rules.out);
  for (const json& rule : catalog["rules"])
    basis[rule["rule_id"].get<std::string>()] = rule["normative"].get<std::string>();
  return basis;
}

// The findings of the one tensor of a conformance vector, and the exit code.
std::pair<int, json> check_vector(const std::string& vector, bool strict = false) {
  std::vector<std::string> arguments{"capsule", "check", "--json"};
  if (strict) arguments.push_back("--strict");
  arguments.push_back(source_path("conformance/vectors/" + vector));
  ToolResult result = run_tool(arguments);
  EXPECT_NE(result.exit_code, 2) << result.err;
  const json report = json::parse(result.out);
  return {result.exit_code, report["files"][0]["tensors"][0]["findings"]};
}

// Issue 22: a tensor no library can read fails the check, and the error says
// which definition its value falls outside of; one defect gives one error.
TEST(CapsuleCheck, AMalformedTensorIsAnErrorQuotingADefinition) {
  const std::map<std::string, std::string> basis = basis_of_rules();
  const std::pair<const char*, const char*> malformed[] = {
      {"shape/ndim-negative.json", "DLP-NDIM-NEGATIVE"},
      {"shape/extent-negative.json", "DLP-SHAPE-NEGATIVE"},
      {"shape/shape-null.json", "DLP-SHAPE-NULL"},
      {"dtype/bits-zero.json", "DLP-DTYPE-BITS-ZERO"},
      {"dtype/bfloat-32.json", "DLP-DTYPE-BITS-FIXED"},
      {"dtype/float8-16-bits.json", "DLP-DTYPE-BITS-FIXED"},
      {"dtype/code-42.json", "DLP-DTYPE-CODE-UNKNOWN"},
      {"dtype/code-19.json", "DLP-DTYPE-CODE-UNKNOWN"},
      {"dtype/bcomplex-64-bits.json", "DLP-DTYPE-BITS-FIXED"},
      {"dtype/bcomplex32-in-1.2.json", "DLP-DTYPE-CODE-VERSION"},
      {"dtype/float8-in-1.0.json", "DLP-DTYPE-CODE-VERSION"},
      {"device/type-99.json", "DLP-DEVICE-TYPE-UNKNOWN"},
      {"device/type-22.json", "DLP-DEVICE-TYPE-UNKNOWN"},
      {"device/ascend-in-1.2.json", "DLP-DEVICE-TYPE-VERSION"},
      {"device/trn-in-1.1.json", "DLP-DEVICE-TYPE-VERSION"},
      {"device/id-negative.json", "DLP-DEVICE-ID-NEGATIVE"},
      {"addressing/data-null.json", "DLP-DATA-NULL"},
      {"addressing/extent-overflow-strides.json", "DLP-EXTENT-OVERFLOW"},
      {"addressing/extent-wraps-address-space.json", "DLP-EXTENT-OVERFLOW"},
      {"addressing/outside-allocation-end.json", "DLP-EXTENT-OUTSIDE-ALLOCATION"},
      {"shape/strides-unsigned-division.json", "DLP-STRIDES-UNSIGNED-DIVISION"},
      {"cuda/device-id-hard-coded-0.json", "DLP-CUDA-DEVICE-ID"},
      {"oneapi/device-id-not-owner.json", "DLP-ONEAPI-DEVICE-ID-ROOT"},
  };
  for (const auto& [vector, rule] : malformed) {
    SCOPED_TRACE(vector);
    auto [exit_code, findings] = check_vector(vector);
    EXPECT_EQ(exit_code, 1);
    // One rule may name each of several fields (both strides of cupy's view).
    std::set<std::string> errors;
    for (const json& finding : findings) {
      if (finding["severity"] == "error") errors.insert(finding["rule_id"].get<std::string>());
    }
    EXPECT_EQ(errors, std::set<std::string>{rule}) << findings.dump();
    EXPECT_EQ(basis.at(rule), "definition") << rule;
  }
}

TEST(CapsuleCheck, ABrokenConventionIsAWarningThatOnlyStrictFails) {
  const std::map<std::string, std::string> basis = basis_of_rules();
  for (const char* vector : {"alignment/float32-misaligned.json", "dtype/bool-1-bit.json",
                             "addressing/offset-half-element.json"}) {
    SCOPED_TRACE(vector);
    auto [exit_code, findings] = check_vector(vector);
    EXPECT_EQ(exit_code, 0);
    bool convention_warning = false;
    for (const json& finding : findings) {
      EXPECT_NE(finding["severity"], "error") << finding.dump();
      convention_warning =
          convention_warning || (finding["severity"] == "warning" &&
                                 basis.at(finding["rule_id"].get<std::string>()) == "convention");
    }
    EXPECT_TRUE(convention_warning) << findings.dump();
    EXPECT_EQ(check_vector(vector, true).first, 1);
  }
}

// Issue 34: main's header added codes after the 1.3 tag without a minor
// bump, so a tensor declaring 1.3 may carry them; only an info says that no
// released header knows them. A handle (kDLMetal's id<MTLBuffer>, a cl_mem)
// gets no alignment or address finding.
TEST(CapsuleCheck, CodesOfMainAfter13AndHandlesPass) {
  const std::pair<const char*, const char*> passing[] = {
      {"dtype/bcomplex32.json", "DLP-DTYPE-CODE-UNRELEASED"},
      {"device/tpu.json", "DLP-DEVICE-TYPE-UNRELEASED"},
      {"device/tpu-host.json", "DLP-DEVICE-TYPE-UNRELEASED"},
      {"device/ascend.json", "DLP-DEVICE-TYPE-UNRELEASED"},
      {"alignment/metal-handle.json", nullptr},
      {"alignment/metal-handle-not-256.json", nullptr},
      {"alignment/opencl-handle.json", nullptr},
      {"addressing/webgpu-handle-near-top.json", nullptr},
  };
  for (const auto& [vector, info] : passing) {
    SCOPED_TRACE(vector);
    auto [exit_code, findings] = check_vector(vector, true);
    EXPECT_EQ(exit_code, 0) << findings.dump();
    std::set<std::string> fired;
    for (const json& finding : findings) fired.insert(finding["rule_id"].get<std::string>());
    EXPECT_EQ(fired, info ? std::set<std::string>{info} : std::set<std::string>{})
        << findings.dump();
  }
}

TEST(CapsuleCheck, AnUnreadableFileExitsTwoAndTheOthersAreStillChecked) {
  std::string broken = source_path("tests/data/hostile/typo-key.json");
  ToolResult result =
      run_tool({"capsule", "check", "--json", broken, sample("oneapi-f-order.json")});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("dlpack-usm: error: " + broken), std::string::npos) << result.err;
  json doc = json::parse(result.out);
  ASSERT_EQ(doc["files"].size(), 2U);
  EXPECT_NE(doc["files"][0]["error"]["message"].get<std::string>().find("/dl_tensor/stride"),
            std::string::npos);
  EXPECT_EQ(doc["files"][1]["tensors"].size(), 1U);
  EXPECT_EQ(doc["summary"]["unreadable_files"], 1);
}

std::string text_of(const std::filesystem::path& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// --sarif naming one of the files checked would replace it with the log.
TEST(CapsuleCheck, ASarifLogNamingACheckedFileIsRefusedAndTheFileKept) {
  std::filesystem::path copy =
      std::filesystem::temp_directory_path() / fmt::format("sarif-input-{}.json", getpid());
  std::filesystem::copy_file(sample("oneapi-f-order.json"), copy,
                             std::filesystem::copy_options::overwrite_existing);
  std::string before = text_of(copy);
  ToolResult result = run_tool({"capsule", "check", "--sarif", copy.string(), copy.string()});
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_NE(result.err.find("--sarif " + copy.string() + " is also a capsule file it checks"),
            std::string::npos)
      << result.err;
  EXPECT_EQ(text_of(copy), before);
  std::filesystem::remove(copy);
}

TEST(CapsuleCheck, EveryConformanceVectorIsReadable) {
  ToolResult result = run_tool({"capsule", "check", "--json",
                                source_path("conformance/vectors/shape/strides-null-1.2.json")});
  ASSERT_NE(result.exit_code, 2) << result.err;
  json doc = json::parse(result.out);
  bool fired = false;
  for (const json& finding : doc["files"][0]["tensors"][0]["findings"]) {
    fired = fired || finding["rule_id"] == "DLP-STRIDES-NULL";
  }
  EXPECT_TRUE(fired) << result.out;
  EXPECT_EQ(result.exit_code, 1);
}

}  // namespace
}  // namespace dlpack_usm::e2e
