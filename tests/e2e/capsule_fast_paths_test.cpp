// capsule check's fast paths against the reference path, byte for byte.
// Fast: the line reader (its own scanner), buffers reused from tensor to tensor,
// lines judged on worker threads and handed back in file order, streamed
// printers, as the binary runs them. Reference: the reference reader alone
// (LineReading::reference), rules::evaluate on fresh buffers per tensor,
// and the whole report rendered at once by the text printer and by the
// JSON document printer (print_json's dump). Text, --json, --sarif and the
// exit code, over every conformance vector and captured tensor as JSON
// lines, a generated capture of 20,000 varied tensors (some declined by the
// line reader, some with findings), and files that stop at a broken line.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "capsule/capsule_file.hpp"
#include "common/error.hpp"
#include "report/findings_report.hpp"
#include "report/formats/sarif.hpp"
#include "rules/rule.hpp"
#include "tool_process.hpp"

namespace dlpack_usm::e2e {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The report as the reference path gives it: each file read with the
// reference reader, each tensor evaluated afresh; and the SARIF log.
struct Reference {
  report::FindingsReport report;
  std::string sarif;
};

Reference reference(const std::vector<std::string>& files, bool strict) {
  Reference out;
  out.report.strict = strict;
  report::SarifLog sarif;
  for (const std::string& file : files) {
    report::FileFindings findings{file, {}, {}};
    try {
      capsule::for_each_placed_tensor(
          file,
          [&](facts::TensorFacts&& tensor, const capsule::TensorPlace& place) {
            std::vector<rules::Finding> found = rules::evaluate(tensor);
            sarif.add_tensor(file, place, found);
            findings.tensors.push_back({tensor.origin, std::move(found)});
          },
          capsule::LineReading::reference);
    } catch (const Error& error) {
      findings.error = report::FileError{error.what(), error.hint()};
      sarif.add_file_error(file, *findings.error);
    }
    out.report.files.push_back(std::move(findings));
  }
  out.report.exit_code = static_cast<int>(report::decide_exit_code(out.report));
  out.sarif = sarif.text();
  return out;
}

std::string document_text(const nlohmann::ordered_json& document) {
  return document.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

class CapsuleFastPaths : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / fmt::format("dlpack-usm-fast-paths-{}", getpid());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string file(const std::string& name, const std::string& text) {
    fs::path path = dir_ / name;
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
  }

  // The binary's text, --json and --sarif on `files` against the reference.
  void expect_same_as_reference(const std::vector<std::string>& files, bool strict = false) {
    Reference expected = reference(files, strict);
    std::vector<std::string> args = {"capsule", "check"};
    if (strict) args.push_back("--strict");
    args.insert(args.end(), files.begin(), files.end());
    ToolResult text = run_tool(args);
    EXPECT_EQ(text.exit_code, expected.report.exit_code) << text.err;
    EXPECT_TRUE(text.out == report::findings_report_to_text(expected.report))
        << "text differs from the reference path; first bytes:\n"
        << text.out.substr(0, 2000);
    std::vector<std::string> json_args = args;
    json_args.insert(json_args.begin() + 2, "--json");
    ToolResult json_run = run_tool(json_args);
    EXPECT_EQ(json_run.exit_code, expected.report.exit_code) << json_run.err;
    EXPECT_TRUE(json_run.out == document_text(report::findings_report_to_json(expected.report)))
        << "--json differs from the reference path";
    std::vector<std::string> sarif_args = args;
    std::string log = (dir_ / "findings.sarif").string();
    sarif_args.insert(sarif_args.begin() + 2, {"--sarif", log});
    ToolResult sarif_run = run_tool(sarif_args);
    EXPECT_EQ(sarif_run.exit_code, expected.report.exit_code) << sarif_run.err;
    EXPECT_TRUE(read_file(log) == expected.sarif) << "--sarif differs from the reference path";
  }

  fs::path dir_;
};

// Every tensor of the conformance vectors and captured fixtures, a line each.
std::string vector_lines() {
  std::string lines;
  for (const char* folder : {"conformance/vectors", "fixtures/captured"}) {
    for (const auto& entry : fs::recursive_directory_iterator(source_path(folder))) {
      if (entry.path().extension() != ".json") continue;
      json document = json::parse(read_file(entry.path().string()), nullptr, false);
      if (document.is_discarded() || !(document.is_object() || document.is_array())) continue;
      for (const json& tensor : document.is_array() ? document : json::array({document})) {
        // Capsule objects only: a fixture's summary file is no tensor.
        if (tensor.is_object() && tensor.contains("dl_tensor")) lines += tensor.dump() + "\n";
      }
    }
  }
  return lines;
}

// Tensor i of a generated capture: CUDA and oneAPI, every dtype form, flag
// spellings, legacy tensors, escapes (which the line reader leaves to the
// reference reader), and findings (NULL data, a wrong device_id).
std::string capture_line(int i) {
  static const char* dtypes[] = {
      R"("float32")",   R"({"code": "kDLBfloat", "bits": 16, "lanes": 1})",
      R"("int8x4")",    R"({"code": 6, "bits": 8, "lanes": 1})",
      R"("complex64")", R"("float8_e5m2")"};
  std::string data = i % 53 == 7 ? "null" : fmt::format("\"{:#x}\"", 0x7f0000000000UL + 256UL * i);
  std::string header =
      i % 5 == 0 ? "" : R"("version": {"major": 1, "minor": 2}, "flags": "READ_ONLY", )";
  std::string origin =
      i % 17 == 3 ? R"(, "origin": "caf\u00e9")" : fmt::format(R"(, "origin": "p{}")", i);
  std::string runtime =
      i % 2 == 0
          ? fmt::format(R"(, "runtime": {{"cuda_memory_type": "device", "cuda_ordinal": {}, )"
                        R"("cuda_device_count": 2, "alloc_base": {}, "alloc_size": 4096}})",
                        i % 3, data == "null" ? "0" : data)
          : "";
  return fmt::format(
      R"({{{}"deleter": true, "dl_tensor": {{"data": {}, "device": {{"device_type": "{}", )"
      R"("device_id": {}}}, "ndim": 2, "dtype": {}, "shape": [{}, 3], "strides": [3, 1]}}{}{}}})"
      "\n",
      header, data, i % 2 == 0 ? "kDLCUDA" : "kDLOneAPI", i % 3, dtypes[i % 6], 1 + i % 7, runtime,
      origin);
}

TEST_F(CapsuleFastPaths, EveryVectorAndCapturedTensorAsJsonLines) {
  std::string lines = vector_lines();
  ASSERT_GT(std::count(lines.begin(), lines.end(), '\n'), 100);
  expect_same_as_reference({file("vectors.jsonl", lines)});
  expect_same_as_reference({file("vectors-strict.jsonl", lines)}, true);
}

TEST_F(CapsuleFastPaths, AGeneratedCaptureOfTwentyThousandTensors) {
  std::string capture;
  for (int i = 0; i < 20000; ++i) capture += capture_line(i);
  expect_same_as_reference({file("capture.jsonl", capture)});
}

TEST_F(CapsuleFastPaths, FilesThatStopAtABrokenLineAndTheFilesAfterThem) {
  std::string head;
  for (int i = 0; i < 3000; ++i) head += capture_line(i);
  std::string broken_value = head + R"({"dl_tensor": 5})" + "\n" + capture_line(1);
  std::string broken_syntax = head + capture_line(2).substr(0, 40) + "\n\n" + capture_line(3);
  std::string blank_lines = "\n  \n" + capture_line(4) + "\r\n\n" + capture_line(5);
  expect_same_as_reference({file("value.jsonl", broken_value), file("syntax.jsonl", broken_syntax),
                            file("blank.jsonl", blank_lines)});
}

}  // namespace
}  // namespace dlpack_usm::e2e
