// `report matrix` through the real binary: the committed consumer profiles
// and hand-made profile, consume and check reports (tests/data/matrix/), and
// check reports of the fixture plugins made here, rendered in every format;
// outputs written atomically; anything that is not one of the three reports
// refused with exit 2 naming the file and what it is.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "e2e_files.hpp"
#include "tool_process.hpp"

namespace dlpack_usm::e2e {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> consumer_profiles() {
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(source_path("fixtures/consumer_profiles"))) {
    files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string matrix_data(const std::string& name) {
  return source_path("tests/data/matrix/" + name);
}

ToolResult matrix(std::vector<std::string> inputs, const std::vector<std::string>& options = {}) {
  std::vector<std::string> arguments{"report", "matrix"};
  arguments.insert(arguments.end(), inputs.begin(), inputs.end());
  arguments.insert(arguments.end(), options.begin(), options.end());
  return run_tool(arguments);
}

TEST(ReportMatrix, TextOfTheCommittedConsumerProfilesHasAColumnPerLibraryAndTheNotes) {
  ToolResult result = matrix(consumer_profiles());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err, "");
  // torch.json and torch-two-pocl-roots.json are one library: one column.
  EXPECT_NE(result.out.find("DLPack compatibility matrix: 6 libraries"), std::string::npos)
      << result.out.substr(0, 500);
  for (const char* title : {"array_api_strict 2.6.1", "cupy 14.2.0", "dpnp 0.20.0", "jax 0.11.2",
                            "numpy 2.4.6", "torch 2.11.0+cu130"}) {
    EXPECT_NE(result.out.find(title), std::string::npos) << title;
  }
  EXPECT_NE(result.out.find("USM device #1"), std::string::npos);  // PoCL's second root
  EXPECT_NE(result.out.find("--no-fold shows them"), std::string::npos);
  // numpy declines USM with RuntimeError: a warning, with its note and repro.
  EXPECT_NE(result.out.find("declined (warn): RuntimeError (Unsupported device in DLTensor.); "
                            "DLP-PY-DECLINE-DEVICE-EXCEPTION"),
            std::string::npos);
  EXPECT_NE(result.out.find("repro: python3 -m dlpack_usm consume numpy.from_dlpack --device "
                            "opencl:cpu:0 --cell"),
            std::string::npos);
  // dpnp's SIGSEGV on NULL strides in USM.
  EXPECT_NE(result.out.find("dpnp 0.20.0: crash (fail): DLP-PLUGIN-CRASH: on a valid tensor"),
            std::string::npos);
}

TEST(ReportMatrix, TheOrderOfTheInputsChangesNothing) {
  std::vector<std::string> inputs = consumer_profiles();
  inputs.push_back(matrix_data("profile-tinyarray.json"));
  ToolResult forward = matrix(inputs, {"--format", "md"});
  std::reverse(inputs.begin(), inputs.end());
  ToolResult backward = matrix(inputs, {"--format", "md"});
  ASSERT_EQ(forward.exit_code, 0) << forward.err;
  EXPECT_EQ(forward.out, backward.out);
}

TEST(ReportMatrix, EveryFormatWritesItsOutputFileAndStdoutAlike) {
  fs::path dir = scratch_dir("matrix-formats");
  std::vector<std::string> inputs{
      matrix_data("profile-tinyarray.json"), matrix_data("consume-otherlib.json"),
      matrix_data("check-producer.json"), matrix_data("check-consumer.json")};
  for (const char* format : {"text", "md", "md-summary", "html"}) {
    SCOPED_TRACE(format);
    std::string output = (dir / (std::string("matrix.") + format)).string();
    ToolResult written = matrix(inputs, {"--format", format, "--output", output});
    ASSERT_EQ(written.exit_code, 0) << written.err;
    EXPECT_EQ(written.out, "");
    ToolResult printed = matrix(inputs, {"--format", format});
    EXPECT_EQ(read_file(output), printed.out);
    for (const char* library :
         {"tinyarray 1.2 (ci)", "otherlib 0.9", "fixture-producer 1.0", "fixture-consumer 1.0"}) {
      EXPECT_NE(printed.out.find(library), std::string::npos) << library;
    }
  }
}

// On standard output the text fits COLUMNS (but for the table's rows and a
// repro, copied whole); a file gets the same text as a pipe with no width.
TEST(ReportMatrix, TextOnStdoutFitsColumnsAndAFileKeepsItsLines) {
  std::vector<std::string> arguments{"report", "matrix", matrix_data("profile-tinyarray.json"),
                                     matrix_data("consume-otherlib.json")};
  ToolEnvironment env;
  env.changes["COLUMNS"] = "50";
  ToolResult fitted = run_tool(arguments, env);
  ASSERT_EQ(fitted.exit_code, 0) << fitted.err;
  std::size_t notes = fitted.out.find("\nnotes:\n");
  ASSERT_NE(notes, std::string::npos) << fitted.out;
  std::istringstream lines(fitted.out.substr(notes));
  std::size_t wrapped = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.find("repro: ") != std::string::npos) continue;
    EXPECT_LE(line.size(), 50u) << line;
    wrapped += line.starts_with("       ") ? 1 : 0;
  }
  EXPECT_GT(wrapped, 0u) << fitted.out;
  fs::path file = scratch_dir("matrix-columns") / "matrix.txt";
  arguments.insert(arguments.end(), {"--output", file.string()});
  ASSERT_EQ(run_tool(arguments, env).exit_code, 0);
  arguments.resize(arguments.size() - 2);
  EXPECT_EQ(read_file(file), run_tool(arguments).out);
}

TEST(ReportMatrix, MarkdownAndHtmlShowBothDirectionsWithTheirFindingsAndRepros) {
  std::vector<std::string> inputs{matrix_data("profile-tinyarray.json"),
                                  matrix_data("consume-otherlib.json")};
  ToolResult md = matrix(inputs, {"--format", "md", "--no-fold"});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_NE(md.out.find("## producer: stream"), std::string::npos);
  EXPECT_NE(md.out.find("| 0 | CUDA device |  | `C!!`[^"), std::string::npos) << md.out;
  EXPECT_NE(md.out.find("crash (crash): DLP-PLUGIN-CRASH: the producer crashed (SIGSEGV) Repro: "
                        "`python3 -m dlpack_usm check 'tinyarray.ones(3, device=\"cuda:0\")'`"),
            std::string::npos)
      << md.out;
  EXPECT_EQ(md.out.find("<script>"), std::string::npos);
  ToolResult html = matrix(inputs, {"--format", "html"});
  ASSERT_EQ(html.exit_code, 0) << html.err;
  EXPECT_NE(html.out.find("emitted-invalid (fail): DLP-PRODUCER-CONTENT: 14 of 15 elements"),
            std::string::npos);
  EXPECT_NE(html.out.find("&lt;script&gt;window.__pwned = 1&lt;/script&gt;&lt;img src=x"),
            std::string::npos);
}

TEST(ReportMatrix, ChecksOfTheFixturePluginsShowWhatEachProducerGetsWrong) {
  fs::path dir = scratch_dir("matrix-plugins");
  std::string good = (dir / "good.json").string(), broken = (dir / "broken.json").string();
  for (const auto& [library, report] :
       {std::pair{"producer", good}, {"producer_f_strides", broken}}) {
    ToolResult check = run_tool({"check", "--producer", fixture(library).string(), "--filter",
                                 "producer/*/device/float32/*", "--report", report});
    ASSERT_LE(check.exit_code, 1) << check.err;
  }
  ToolResult result = matrix({good, broken}, {"--no-fold"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("fixture-producer 1.0"), std::string::npos) << result.out;
  // The broken library hands out C-order data with F-order strides: its
  // C-order cell is an invalid capsule, the correct library's is emitted.
  std::istringstream lines(result.out);
  std::string line, c_order;
  // The root device's row ("USM device", or "USM device #1" where the root
  // has another id, as on the GPU machine), not a sub-device's ("#0.3").
  const std::regex sub_device("USM device #[0-9]+\\.");
  while (std::getline(lines, line)) {
    if (line.find(" c-order ") != std::string::npos && !std::regex_search(line, sub_device)) {
      c_order = line;
    }
  }
  EXPECT_NE(c_order.find("USM device"), std::string::npos) << result.out;
  EXPECT_NE(c_order.find("E "), std::string::npos) << c_order;
  EXPECT_NE(c_order.find("X!!"), std::string::npos) << c_order;
  EXPECT_NE(result.out.find("fixture-producer_f_strides 1.0: emitted-invalid (fail): "
                            "DLP-PRODUCER-CONTENT: 12 of 15 elements"),
            std::string::npos)
      << result.out;
}

TEST(ReportMatrix, InputsThatAreNoReportAreUsageErrorsNamingTheFile) {
  fs::path dir = scratch_dir("matrix-bad");
  std::string capsule = source_path("tests/data/capsules/oneapi-f-order.json");
  std::string missing = (dir / "missing.json").string();
  std::ofstream(dir / "inventory.json") << R"({"tool": "dlpack-usm", "root_device_count": 1})";
  std::string inventory = (dir / "inventory.json").string();
  struct Case {
    std::string file, says;
  };
  for (const Case& bad : std::vector<Case>{{capsule, "a capsule file (one tensor), not a report"},
                                           {inventory, "a device inventory"},
                                           {missing, missing},
                                           {dir.string(), "not a regular file"}}) {
    SCOPED_TRACE(bad.file);
    ToolResult result = matrix({matrix_data("consume-otherlib.json"), bad.file},
                               {"--output", (dir / "out").string()});
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_NE(result.err.find("dlpack-usm: error: "), std::string::npos) << result.err;
    EXPECT_NE(result.err.find(bad.file), std::string::npos) << result.err;
    EXPECT_NE(result.err.find(bad.says), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("dlpack-usm: hint: "), std::string::npos) << result.err;
    EXPECT_FALSE(fs::exists(dir / "out"));
  }
}

TEST(ReportMatrix, AnOutputThatIsAnInputOrAFormatItDoesNotKnowIsRefused) {
  fs::path dir = scratch_dir("matrix-output");
  fs::path input = dir / "otherlib.json";
  fs::copy_file(matrix_data("consume-otherlib.json"), input);
  std::string before = read_file(input.string());
  ToolResult same = matrix({input.string()}, {"--output", input.string()});
  EXPECT_EQ(same.exit_code, 2);
  EXPECT_NE(same.err.find("--output " + input.string() + " is also one of the reports it reads"),
            std::string::npos)
      << same.err;
  EXPECT_EQ(read_file(input.string()), before);
  ToolResult format = matrix({input.string()}, {"--format", "pdf"});
  EXPECT_EQ(format.exit_code, 2);
  ToolResult directory = matrix({input.string()}, {"--output", dir.string()});
  EXPECT_EQ(directory.exit_code, 2) << directory.err;
}

TEST(ReportMatrix, AnOutputIsReplacedWholeWithNothingLeftBeside) {
  fs::path dir = scratch_dir("matrix-atomic");
  fs::path output = dir / "matrix.html";
  std::ofstream(output) << "old page";
  ToolResult result = matrix({matrix_data("consume-otherlib.json")},
                             {"--format", "html", "--output", output.string()});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(read_file(output.string()).starts_with("<!DOCTYPE html>"));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
}

}  // namespace
}  // namespace dlpack_usm::e2e
