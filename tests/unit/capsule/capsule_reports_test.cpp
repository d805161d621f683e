// The writers of capsule dump and capsule check: what they print for values
// the model has no name for, overflowing sizes, unread bodies, hostile
// strings, and the counts of findings.
#include <gtest/gtest.h>

#include "facts/reader_notes.hpp"
#include "report/capsule_dump_report.hpp"
#include "report/findings_report.hpp"

namespace dlpack_usm::report {
namespace {

facts::TensorFacts tensor_2x3() {
  facts::TensorFacts facts;
  facts.origin = "t.json#0";
  facts.data = 0x10000;
  facts.ndim = 2;
  facts.shape = std::vector<std::int64_t>{2, 3};
  facts.strides = std::vector<std::int64_t>{3, 1};
  return facts;
}

TEST(CapsuleDumpReport, UnknownValuesAreShownAsNumbersWithoutAName) {
  facts::TensorFacts facts = tensor_2x3();
  facts.device_type = 5;
  facts.dtype = {99, 16, 1};
  facts.flags = dlpack::kFlagReadOnly | 0x100;
  CapsuleDump dump = build_capsule_dump("t.json", {facts});
  std::string text = capsule_dump_to_text(dump);
  EXPECT_NE(text.find("device_type  5 (no name in DLPack 1.3)"), std::string::npos) << text;
  EXPECT_NE(text.find("code99:bits16:lanes1"), std::string::npos) << text;
  EXPECT_NE(text.find("0x101 (READ_ONLY|0x100)"), std::string::npos) << text;

  nlohmann::ordered_json json = capsule_dump_to_json(dump);
  const auto& tensor = json["tensors"][0];
  EXPECT_TRUE(tensor["dl_tensor"]["device"]["device_type_name"].is_null());
  EXPECT_TRUE(tensor["dl_tensor"]["dtype"]["code_name"].is_null());
  EXPECT_EQ(tensor["flags"]["names"], nlohmann::ordered_json::array({"READ_ONLY"}));
  EXPECT_EQ(tensor["flags"]["unknown_bits"], 0x100);
}

TEST(CapsuleDumpReport, OverflowsAndUnreadableShapesAreSaidSo) {
  facts::TensorFacts overflowing = tensor_2x3();
  overflowing.shape = std::vector<std::int64_t>{std::int64_t{1} << 40, std::int64_t{1} << 40};
  overflowing.strides.reset();
  std::string text = capsule_dump_to_text(build_capsule_dump("t", {overflowing}));
  EXPECT_NE(text.find("element_count            overflows 64 bits"), std::string::npos) << text;
  EXPECT_NE(text.find("byte_extent              overflows 64 bits"), std::string::npos) << text;

  facts::TensorFacts unread = tensor_2x3();
  unread.ndim = 5000;
  unread.shape.reset();
  unread.strides.reset();
  unread.reader_notes = {facts::note_ndim_beyond_limit(5000)};
  CapsuleDump dump = build_capsule_dump("t", {unread});
  text = capsule_dump_to_text(dump);
  EXPECT_NE(text.find("shape        NULL"), std::string::npos) << text;
  EXPECT_NE(text.find("unknown (shape unreadable)"), std::string::npos) << text;
  EXPECT_NE(text.find("- ndim 5000 exceeds"), std::string::npos) << text;
  auto json = capsule_dump_to_json(dump);
  EXPECT_TRUE(json["tensors"][0]["derived"]["element_count"].is_null());
  EXPECT_EQ(json["tensors"][0]["derived"]["contiguity"], "unknown");
}

TEST(CapsuleDumpReport, HostileStringsAreEscapedInText) {
  facts::TensorFacts facts = tensor_2x3();
  facts.origin = "t.json#0 (\x1b[31mred\x1b[0m)";
  facts.runtime = facts::RuntimeFacts{};
  facts.runtime->owner_device_name = std::string("gpu\0\n", 5);
  std::string text = capsule_dump_to_text(build_capsule_dump("t", {facts}));
  EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
  EXPECT_NE(text.find("gpu\\x00\\x0A"), std::string::npos) << text;
}

rules::Finding finding(const char* id, rules::Severity severity) {
  return rules::Finding{id, severity, "dl_tensor.ndim", "a message"};
}

TEST(FindingsReport, CountsAndSummary) {
  FindingsReport report;
  report.files.push_back(
      {"a.json",
       {},
       {{"a.json#0",
         {finding("DLP-A", rules::Severity::error), finding("DLP-B", rules::Severity::warning),
          finding("DLP-C", rules::Severity::info), finding("DLP-D", rules::Severity::error)}},
        {"a.json#1", {}}}});
  report.files.push_back({"b.json", FileError{"b.json: at /x: bad", "fix it"}, {}});
  report.files.push_back({"c.jsonl", FileError{"c.jsonl:2: bad", "fix it"}, {{"c.jsonl#0", {}}}});
  FindingsSummary summary = summarize(report);
  EXPECT_EQ(summary.files, 3U);
  EXPECT_EQ(summary.unreadable_files, 2U);
  EXPECT_EQ(summary.tensors, 3U);
  EXPECT_EQ(summary.findings.errors, 2U);
  EXPECT_EQ(summary.findings.warnings, 1U);
  EXPECT_EQ(summary.findings.infos, 1U);

  std::string text = findings_report_to_text(report);
  EXPECT_NE(text.find("a.json#0  2 errors, 1 warning, 1 info"), std::string::npos) << text;
  EXPECT_NE(text.find("  error     DLP-A  dl_tensor.ndim  a message"), std::string::npos) << text;
  EXPECT_NE(text.find("a.json#1  no findings"), std::string::npos) << text;
  EXPECT_NE(text.find("b.json  not checked: b.json: at /x: bad"), std::string::npos) << text;
  // The tensors read before a problem were checked, and stay in the report.
  EXPECT_NE(text.find("c.jsonl#0  no findings\nc.jsonl  stopped after 1 tensor: c.jsonl:2: bad"),
            std::string::npos)
      << text;
  EXPECT_NE(
      text.find("checked 3 tensors in 3 files: 2 errors, 1 warning, 1 info; 2 files unreadable"),
      std::string::npos)
      << text;

  report.exit_code = 2;
  auto json = findings_report_to_json(report);
  EXPECT_EQ(json["exit_code"], 2);
  EXPECT_EQ(json["files"][0]["tensors"][0]["counts"]["error"], 2);
  EXPECT_EQ(json["files"][0]["tensors"][0]["findings"][1]["severity"], "warning");
  EXPECT_EQ(json["files"][1]["error"]["hint"], "fix it");
  EXPECT_EQ(json["files"][2]["tensors"].size(), 1U);
  EXPECT_EQ(json["summary"]["findings"]["info"], 1);
}

}  // namespace
}  // namespace dlpack_usm::report
