// The tool under hostile environments and command lines, through the real
// binary: outputs that are not regular files, a run with no device, options
// that make no sense, results streams shared or on a full disk, and
// expectation files that are not files. Each test failed before the fix it
// names.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "tool_process.hpp"

namespace dlpack_usm::e2e {
namespace {

namespace fs = std::filesystem;

class HostileEnvironment : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("dlpack-usm-hostile-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // The quickest run that writes every output: the vectors alone.
  static std::vector<std::string> vectors(std::vector<std::string> extra = {}) {
    std::vector<std::string> arguments{"check", "--vectors-only"};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    return arguments;
  }

  fs::path dir_;
};

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// 1. Outputs: a symbolic link is followed (the link stays, its target gets
// the report); a directory or socket is refused with exit 2; a write error
// (/dev/full) is exit 3 and leaves the old file.
TEST_F(HostileEnvironment, ALinkedReportIsWrittenThroughTheLinkWhichStays) {
  fs::path target = dir_ / "real.xml";
  std::ofstream(target) << "old";
  fs::create_symlink(target, dir_ / "link.xml");
  ToolResult result = run_tool(vectors({"--junit", (dir_ / "link.xml").string()}));
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(fs::is_symlink(dir_ / "link.xml"));
  EXPECT_NE(read_text(target).find("<testsuites"), std::string::npos);
}

TEST_F(HostileEnvironment, AFifoIsWrittenInPlaceAndOneNobodyReadsIsRefused) {
  fs::path fifo = dir_ / "report.fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  ToolResult unread = run_tool(vectors({"--report", fifo.string()}));
  EXPECT_EQ(unread.exit_code, 2) << unread.err;
  EXPECT_NE(unread.err.find("no process reads this FIFO"), std::string::npos) << unread.err;

  std::string received;
  std::thread reader([&] { received = read_text(fifo); });
  ToolResult read = run_tool(vectors({"--junit", fifo.string()}));
  reader.join();
  EXPECT_EQ(read.exit_code, 0) << read.err;
  EXPECT_NE(received.find("<testsuites"), std::string::npos);
  struct stat status {};
  ASSERT_EQ(stat(fifo.c_str(), &status), 0);
  EXPECT_TRUE(S_ISFIFO(status.st_mode)) << "the FIFO was replaced by a file";
}

TEST_F(HostileEnvironment, ADirectoryAsAnOutputIsAUsageError) {
  for (const char* option : {"--report", "--junit", "--failures"}) {
    ToolResult result = run_tool(vectors({option, dir_.string()}));
    EXPECT_EQ(result.exit_code, 2) << option << ": " << result.err;
    EXPECT_NE(result.err.find("is a directory"), std::string::npos) << result.err;
  }
}

TEST_F(HostileEnvironment, AFullDiskIsAnEnvironmentErrorAndTheOldFileStays) {
  ToolResult full = run_tool(vectors({"--report", "/dev/full"}));
  EXPECT_EQ(full.exit_code, 3) << full.err;
  EXPECT_NE(full.err.find("No space left on device"), std::string::npos) << full.err;
  struct stat status {};
  ASSERT_EQ(stat("/dev/full", &status), 0);
  EXPECT_TRUE(S_ISCHR(status.st_mode)) << "/dev/full was replaced";
}

TEST_F(HostileEnvironment, ExchangeSaveToADirectoryIsRefusedBeforeTheExchange) {
  ToolResult result = run_tool({"exchange", "--device", "0", "--usm", "device", "--dtype",
                                "float32", "--shape", "4", "--save", dir_.string()});
  EXPECT_EQ(result.exit_code, 2) << result.out << result.err;
  EXPECT_NE(result.err.find("--save"), std::string::npos) << result.err;
}

// 2. No false green: without a loader, a platform, or with a selector that
// is malformed or selects nothing, check is exit 3 unless asked for the
// vectors alone. These are the OpenCL runtime's environments (SYCL brings
// its own loader; its empty selections are tested in sycl_device_ids_test).
TEST_F(HostileEnvironment, NoDeviceIsAnEnvironmentErrorUnlessTheVectorsAloneWereAsked) {
  fs::path no_vendors = dir_ / "vendors";
  fs::create_directories(no_vendors);
  std::vector<ToolEnvironment> broken{
      {{{"DLPACK_USM_OPENCL_LOADER", (dir_ / "libOpenCL-missing.so").string()}}, {}},
      {{{"OCL_ICD_VENDORS", no_vendors.string()}, {"OCL_ICD_FILENAMES", std::nullopt}}, {}},
      {{{"ONEAPI_DEVICE_SELECTOR", "bogus::"}}, {}},
      {{{"ONEAPI_DEVICE_SELECTOR", "level_zero:*"}}, {}},
  };
  for (const ToolEnvironment& env : broken) {
    ToolResult gate = run_tool({"check", "--runtime", "opencl"}, env);
    EXPECT_EQ(gate.exit_code, 3) << gate.out << gate.err;
    EXPECT_NE(gate.err.find("the live cases cannot run"), std::string::npos) << gate.err;
    EXPECT_NE(gate.err.find("--vectors-only"), std::string::npos) << gate.err;

    ToolResult alone = run_tool({"check", "--runtime", "opencl", "--vectors-only"}, env);
    EXPECT_EQ(alone.exit_code, 0) << alone.out << alone.err;
    EXPECT_NE(alone.out.find("gate: PASSED"), std::string::npos) << alone.out;
  }
}

// 4. Options that make no sense are usage errors before anything runs.
TEST_F(HostileEnvironment, NonsenseOptionsAreUsageErrors) {
  fs::path report = dir_ / "r.json";
  std::vector<std::vector<std::string>> nonsense{
      {"--timeout", "nan"},
      {"--timeout", "inf"},
      {"--timeout", "1e10"},
      {"--timeout", "0.0001"},
      {"--timeout", "5s"},
      {"--shard", ""},
      {"--shard", "3/2"},
      {"--report", "-", "--junit", "-"},
      {"--report", report.string(), "--junit", (dir_ / "." / "r.json").string()},
      {"--report", report.string(), "--stream", report.string()},
  };
  for (const auto& options : nonsense) {
    ToolResult result = run_tool(vectors(options));
    EXPECT_EQ(result.exit_code, 2) << options[0] << " " << options[1] << ": " << result.err;
    EXPECT_FALSE(fs::exists(report)) << options[0] << " " << options[1];
  }
  EXPECT_EQ(run_tool(vectors({"--timeout", "0.5"})).exit_code, 0);
}

// 5. A library's name and messages that are not UTF-8 and carry terminal
// escapes: the JSON report stays valid, and no raw control byte reaches the
// terminal.
TEST_F(HostileEnvironment, ALibrarysHostileTextIsEscapedInEveryReport) {
  fs::path report = dir_ / "report.json";
  fs::path junit = dir_ / "junit.xml";
  ToolResult result = run_tool(
      {"check", "--consumer",
       (fs::path(DLPACK_USM_FIXTURE_PLUGIN_DIR) / "libfixture_consumer_hostile_text.so").string(),
       "--filter", "consumer/*/invalid/*", "--report", report.string(), "--junit", junit.string()});
  EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
  for (const std::string& text : {result.out, result.err, read_text(junit)}) {
    EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
    EXPECT_EQ(text.find('\xff'), std::string::npos) << text;
  }
  nlohmann::json parsed = nlohmann::json::parse(read_text(report));  // throws if not UTF-8
  EXPECT_EQ(parsed["plugins"][0]["name"], "fixture-\\xFF\\x1B[31mhostile\\x0Aname");
  bool reason_seen = false;
  for (const auto& entry : parsed["results"]) {
    std::string message = entry.value("message", "");
    reason_seen = reason_seen || message.find("\\xC3( is not UTF-8, \\x1B[2J") != std::string::npos;
  }
  EXPECT_TRUE(reason_seen) << parsed.dump(2);
}

// 6. results.jsonl: one run at a time, and a write error is exit 3.
TEST_F(HostileEnvironment, AResultsStreamInUseIsRefusedAndAFullDiskStopsTheRun) {
  fs::path stream = dir_ / "results.jsonl";
  std::ofstream(stream) << "{\"id\": \"a line of the other run\"}\n";
  int fd = open(stream.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(flock(fd, LOCK_EX), 0);  // as a run writing it holds it
  ToolResult second = run_tool(vectors({"--stream", stream.string()}));
  EXPECT_EQ(second.exit_code, 3) << second.err;
  EXPECT_NE(second.err.find("being written by another run"), std::string::npos) << second.err;
  EXPECT_EQ(read_text(stream), "{\"id\": \"a line of the other run\"}\n");
  close(fd);

  ToolResult full = run_tool(vectors({"--stream", "/dev/full"}));
  EXPECT_EQ(full.exit_code, 3) << full.err;
  EXPECT_NE(full.err.find("cannot write the results stream /dev/full"), std::string::npos);
}

// 3 (baselines). An expectation file must be a regular file of bounded size.
TEST_F(HostileEnvironment, BaselinesAreReadOnlyFromBoundedRegularFiles) {
  for (const std::string& path : {std::string("/dev/zero"), dir_.string()}) {
    ToolResult result = run_tool(vectors({"--baseline", path}));
    EXPECT_EQ(result.exit_code, 2) << path << ": " << result.err;
    EXPECT_NE(result.err.find("is not a regular file"), std::string::npos) << result.err;
  }
  fs::path huge = dir_ / "huge.txt";
  {
    std::ofstream out(huge);
    std::string line(1023, 'x');
    for (int i = 0; i < 17 * 1024; ++i) out << line << '\n';
  }
  ToolResult result = run_tool(vectors({"--baseline", huge.string()}));
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_NE(result.err.find("larger than 16 MiB"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace dlpack_usm::e2e
