// `dlpack-usm check` as a CI pipeline runs it: exit codes, expectation
// files, shards, and children that see the devices the user configured.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "tool_process.hpp"

namespace dlpack_usm::e2e {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

class CheckCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("dlpack-usm-check-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path write(const std::string& name, const std::string& text) {
    fs::path path = dir_ / name;
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
    return path;
  }

  // A two-vector suite: one vector whose manifest entry is right, and one
  // whose manifest claims a rule the capsule does not break (a failing case).
  fs::path small_suite() {
    fs::path suite = dir_ / "suite";
    fs::path vectors = source_path("conformance/vectors/shape");
    fs::create_directories(suite / "vectors/shape");
    fs::copy_file(vectors / "strides-null-1.2.json", suite / "vectors/shape/right.json");
    fs::copy_file(vectors / "strides-null-1.2.json", suite / "vectors/shape/wrong.json");
    write("suite/manifest.json", R"({"vectors": [
      {"file": "vectors/shape/right.json", "expect": ["DLP-STRIDES-NULL"]},
      {"file": "vectors/shape/wrong.json", "expect": ["DLP-SHAPE-NULL"]}]})");
    return suite;
  }

  fs::path dir_;
};

json read_json(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return json::parse(text.str());
}

TEST_F(CheckCommand, AFailingVectorFailsTheGateAndABaselineTurnsItGreen) {
  fs::path suite = small_suite();
  ToolResult failing =
      run_tool({"check", "--suite", suite.string(), "--filter", "vector/*", "--report",
                (dir_ / "r1.json").string(), "--failures", (dir_ / "failures.txt").string()});
  EXPECT_EQ(failing.exit_code, 1) << failing.out << failing.err;
  EXPECT_NE(failing.out.find("regression: 1 case, fail\n"), std::string::npos) << failing.out;
  EXPECT_NE(failing.out.find("case: vector/shape/wrong\n"), std::string::npos) << failing.out;
  EXPECT_NE(failing.out.find("expected DLP-SHAPE-NULL to fire"), std::string::npos);
  // A vector's repro is the capsule check of its file: what fires, where.
  EXPECT_NE(failing.out.find("repro: dlpack-usm capsule check '" +
                             (suite / "vectors/shape/wrong.json").string() + "'"),
            std::string::npos)
      << failing.out;
  json report = read_json(dir_ / "r1.json");
  EXPECT_EQ(report["summary"]["gate"], "failed");
  EXPECT_EQ(report["summary"]["verdicts"]["regression"], 1);

  // The failures file is a ready baseline.
  ToolResult baselined =
      run_tool({"check", "--suite", suite.string(), "--filter", "vector/*", "--baseline",
                (dir_ / "failures.txt").string(), "--report", (dir_ / "r2.json").string()});
  EXPECT_EQ(baselined.exit_code, 0) << baselined.out;
  json second = read_json(dir_ / "r2.json");
  EXPECT_EQ(second["summary"]["verdicts"]["expected_failure"], 1);
  ASSERT_EQ(second["expectations"].size(), 1u);
  EXPECT_EQ(second["expectations"][0]["kind"], "baseline");
  EXPECT_EQ(second["expectations"][0]["sha256"].get<std::string>().size(), 64u);
}

TEST_F(CheckCommand, ABaselinedCaseThatPassesIsAnUnexpectedPass) {
  fs::path suite = small_suite();
  fs::path baseline = write("baseline.txt", "# fixed upstream since\nvector/shape/right\n");
  ToolResult result = run_tool({"check", "--suite", suite.string(), "--filter",
                                "vector/shape/right", "--baseline", baseline.string()});
  EXPECT_EQ(result.exit_code, 1) << result.out;
  EXPECT_NE(result.out.find("unexpected_pass: 1 case, pass\n"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("case: vector/shape/right\n"), std::string::npos) << result.out;
}

TEST_F(CheckCommand, FilteredCasesAreRecordedAsSkippedOnceAcrossShards) {
  fs::path suite = small_suite();
  std::multiset<std::string> recorded;
  for (const char* shard : {"1/2", "2/2"}) {
    fs::path report = dir_ / (std::string("r") + shard[0] + ".json");
    ToolResult result =
        run_tool({"check", "--suite", suite.string(), "--filter", "vector/shape/right", "--shard",
                  shard, "--allow-empty", "--report", report.string()});
    EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
    json parsed = read_json(report);
    for (const json& entry : parsed["results"]) {
      recorded.insert(entry["id"].get<std::string>());
      if (entry["id"] == "vector/shape/wrong") {
        EXPECT_EQ(entry["outcome"], "skipped");
        EXPECT_EQ(entry["verdict"], "ok");
      }
      if (entry["id"] == "vector/shape/right") {
        EXPECT_EQ(entry["outcome"], "pass");
      }
    }
  }
  EXPECT_EQ(recorded.count("vector/shape/right"), 1u);
  EXPECT_EQ(recorded.count("vector/shape/wrong"), 1u);
}

TEST_F(CheckCommand, ExpectationFileErrorsAreUsageErrorsWithTheLine) {
  fs::path baseline = write("baseline.txt", "vector/a\n# comment\nvector/a\n");
  ToolResult result = run_tool({"check", "--filter", "vector/*", "--baseline", baseline.string()});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("baseline.txt:3: duplicate case id 'vector/a' (first on line 1)"),
            std::string::npos)
      << result.err;
  ToolResult missing = run_tool({"check", "--flakes", (dir_ / "none.txt").string()});
  EXPECT_EQ(missing.exit_code, 2);
}

TEST_F(CheckCommand, SelectingNothingIsAnErrorUnlessAllowed) {
  ToolResult empty = run_tool({"check", "--filter", "no-such-case*"});
  EXPECT_EQ(empty.exit_code, 2);
  EXPECT_NE(empty.err.find("the filters selected no case"), std::string::npos) << empty.err;
  EXPECT_EQ(run_tool({"check", "--filter", "no-such-case*", "--allow-empty"}).exit_code, 0);
}

TEST_F(CheckCommand, AbsentRequiredDeviceAndUnwritableReportAreEnvironmentErrors) {
  ToolResult absent =
      run_tool({"check", "--require-device", "opencl:gpu:99", "--filter", "vector/*"});
  EXPECT_EQ(absent.exit_code, 3);
  EXPECT_NE(absent.err.find("--require-device opencl:gpu:99"), std::string::npos) << absent.err;
  // A folder can be made where none is, never where a file stands.
  std::ofstream(dir_ / "a-file") << "kept\n";
  ToolResult unwritable = run_tool(
      {"check", "--filter", "vector/*", "--report", (dir_ / "a-file/dir/r.json").string()});
  EXPECT_EQ(unwritable.exit_code, 3);
  EXPECT_NE(unwritable.err.find("cannot make the directory"), std::string::npos) << unwritable.err;
}

// stdout or stderr on a full device: no crash, and the exit code says what
// was printed is lost (3), whatever the command.
TEST_F(CheckCommand, OutputToAFullDeviceIsAnEnvironmentErrorNotACrash) {
  for (const char* redirect : {"2>/dev/full", ">/dev/full", ">/dev/full 2>/dev/full"}) {
    for (const char* command : {"check --filter 'vector/*'", "list-devices", "check --bogus"}) {
      SCOPED_TRACE(std::string(command) + " " + redirect);
      std::string line = fmt::format("'{}' {} {}", DLPACK_USM_BINARY, command, redirect);
      int status = std::system(line.c_str());
      ASSERT_TRUE(WIFEXITED(status)) << "ended by a signal";
      int expected = std::string(command).find("bogus") != std::string::npos ? 2 : 3;
      EXPECT_EQ(WEXITSTATUS(status), expected);
    }
  }
}

// An output naming the baseline would replace the file the gate reads.
TEST_F(CheckCommand, AnOutputNamingTheBaselineIsRefusedAndTheBaselineKept) {
  std::ofstream(dir_ / "baseline.txt") << "vector/no-such-case\n";
  for (const char* option : {"--report", "--failures", "--junit", "--summary-md"}) {
    SCOPED_TRACE(option);
    ToolResult result =
        run_tool({"check", "--filter", "vector/*", "--baseline", (dir_ / "baseline.txt").string(),
                  option, (dir_ / "baseline.txt").string()});
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_NE(result.err.find("is also the --baseline file"), std::string::npos) << result.err;
  }
  std::ifstream in(dir_ / "baseline.txt");
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "vector/no-such-case\n");
}

// The README's CI recipe in a fresh folder: the folders of the outputs are
// made, as pytest's --junitxml makes them.
TEST_F(CheckCommand, OutputsInFoldersNotMadeYetAreWritten) {
  ToolResult made =
      run_tool({"check", "--filter", "vector/*", "--report", (dir_ / "out/r.json").string(),
                "--junit", (dir_ / "out/deeper/j.xml").string()});
  EXPECT_EQ(made.exit_code, 0) << made.err;
  EXPECT_TRUE(fs::is_regular_file(dir_ / "out/r.json"));
  EXPECT_TRUE(fs::is_regular_file(dir_ / "out/deeper/j.xml"));
}

TEST_F(CheckCommand, ShardsTogetherListEveryCaseOnce) {
  ToolResult all = run_tool({"check", "--list"});
  ASSERT_EQ(all.exit_code, 0);
  std::multiset<std::string> from_shards;
  for (const char* shard : {"1/3", "2/3", "3/3"}) {
    ToolResult part = run_tool({"check", "--list", "--shard", shard});
    std::istringstream lines(part.out);
    for (std::string line; std::getline(lines, line);) from_shards.insert(line);
  }
  std::istringstream lines(all.out);
  std::size_t count = 0;
  for (std::string line; std::getline(lines, line); ++count) {
    EXPECT_EQ(from_shards.count(line), 1u) << line;
  }
  EXPECT_EQ(from_shards.size(), count);
  EXPECT_EQ(run_tool({"check", "--shard", "4/3"}).exit_code, 2);
}

// ocl-icd tokenizes OCL_ICD_FILENAMES in place; children must still get the
// whole list, or live cases of the second driver vanish in them.
TEST_F(CheckCommand, ChildrenSeeEveryDriverNamedInOclIcdFilenames) {
  // In directory order, so the driver whose device would vanish is second.
  std::set<fs::path> icd_files(fs::directory_iterator("/etc/OpenCL/vendors"), {});
  std::vector<std::string> libraries;
  for (const fs::path& icd_file : icd_files) {
    std::ifstream icd(icd_file);
    std::string library;
    std::getline(icd, library);
    if (!library.empty()) libraries.push_back(library);
  }
  if (libraries.size() < 2) GTEST_SKIP() << "needs two registered OpenCL drivers";
  ToolEnvironment env;
  env.changes["OCL_ICD_FILENAMES"] = libraries[0] + ":" + libraries[1];
  ToolResult listed = run_tool({"check", "--runtime", "opencl", "--list", "--filter", "live/*/usm",
                                "--filter", "live/*/negative/unknown-pointer"},
                               env);
  ToolResult result = run_tool({"check", "--runtime", "opencl", "--filter", "live/*/usm",
                                "--filter", "live/*/negative/unknown-pointer", "--allow-empty"},
                               env);
  EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
  EXPECT_EQ(result.out.find("no case with id"), std::string::npos) << result.out;
  // Both drivers' devices have cases, and each case found its device.
  EXPECT_NE(listed.out.find(":0"), std::string::npos) << listed.out;
  EXPECT_NE(listed.out.find(":1"), std::string::npos) << listed.out;
}

}  // namespace
}  // namespace dlpack_usm::e2e
