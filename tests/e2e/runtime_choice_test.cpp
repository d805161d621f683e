// --runtime auto|sycl|opencl as a user meets it: auto takes SYCL where
// dpctl's C interface loads and OpenCL where it does not, saying so in one
// line; sycl without a usable interface is an environment error naming what
// was found and what is needed.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "sycl_presence.hpp"
#include "tool_process.hpp"

namespace dlpack_usm::e2e {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

int count_lines_containing(const std::string& text, const std::string& needle) {
  int count = 0;
  std::size_t at = 0;
  while ((at = text.find(needle, at)) != std::string::npos) {
    ++count;
    at += needle.size();
  }
  return count;
}

// A check run of real live cases on whatever runtime auto picks; returns
// the report's environment and the tool's stderr.
std::pair<json, std::string> auto_check(const ToolEnvironment& env, const fs::path& report) {
  ToolResult result = run_tool({"check", "--runtime", "auto", "--filter",
                                "live/*/negative/unknown-pointer", "--report", report.string()},
                               env);
  EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
  std::ifstream file(report);
  json doc = json::parse(file, nullptr, false);
  return {doc.is_discarded() ? json() : doc["environment"], result.err};
}

class RuntimeChoice : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("dlpack-usm-runtime-choice-" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(RuntimeChoice, AutoPicksSyclWhereDpctlLoads) {
  SKIP_WITHOUT_SYCL();
  ToolEnvironment env;
  env.changes["DLPACK_USM_DPCTL"] = std::nullopt;
  auto [environment, err] = auto_check(env, dir_ / "report.json");
  EXPECT_EQ(environment["runtime"], "sycl");
  EXPECT_EQ(environment["ordering_model"]["name"], "sycl-get-devices");
  EXPECT_EQ(count_lines_containing(err, "note: --runtime auto chose sycl"), 1) << err;
}

TEST_F(RuntimeChoice, AutoFallsBackToOpenClWhereDpctlIsAbsent) {
  ToolEnvironment env;
  env.changes["DLPACK_USM_DPCTL"] = (dir_ / "missing" / "libDPCTLSyclInterface.so").string();
  auto [environment, err] = auto_check(env, dir_ / "report.json");
  EXPECT_EQ(environment["runtime"], "opencl");
  EXPECT_EQ(environment["ordering_model"]["name"], "opencl-icd");
  EXPECT_EQ(count_lines_containing(err, "note: --runtime auto chose opencl"), 1) << err;
  EXPECT_NE(err.find("no such file"), std::string::npos) << err;
}

TEST_F(RuntimeChoice, SyclWithoutTheInterfaceIsAnEnvironmentError) {
  ToolEnvironment env;
  env.changes["DLPACK_USM_DPCTL"] = (dir_ / "missing.so").string();
  ToolResult result = run_tool({"list-devices", "--runtime", "sycl"}, env);
  EXPECT_EQ(result.exit_code, 3);
  EXPECT_NE(result.err.find("DLPACK_USM_DPCTL=" + (dir_ / "missing.so").string()),
            std::string::npos)
      << result.err;
}

// The real library, next to a dist-info that says it is an old dpctl.
TEST_F(RuntimeChoice, SyclOfTheWrongVersionSaysWhatWasFoundAndWhatIsNeeded) {
  SKIP_WITHOUT_SYCL();
  std::string command = std::string(DLPACK_USM_PYTHON) +
                        " -c \"import importlib.util as u; "
                        "print(u.find_spec('dpctl').submodule_search_locations[0])\"";
  std::FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  char buffer[1024] = {};
  std::string package = std::fgets(buffer, sizeof buffer, pipe) != nullptr ? buffer : "";
  pclose(pipe);
  package.erase(package.find_last_not_of("\n") + 1);
  ASSERT_TRUE(fs::exists(fs::path(package) / "libDPCTLSyclInterface.so")) << package;
  fs::create_directories(dir_ / "site" / "dpctl");
  fs::create_directories(dir_ / "site" / "dpctl-0.14.0.dist-info");
  fs::create_symlink(fs::path(package) / "libDPCTLSyclInterface.so",
                     dir_ / "site" / "dpctl" / "libDPCTLSyclInterface.so");
  std::ofstream(dir_ / "site" / "dpctl-0.14.0.dist-info" / "METADATA")
      << "Metadata-Version: 2.1\nName: dpctl\nVersion: 0.14.0\n";
  ToolEnvironment env;
  env.changes["DLPACK_USM_DPCTL"] = (dir_ / "site" / "dpctl" / "libDPCTLSyclInterface.so").string();
  ToolResult result = run_tool({"list-devices", "--runtime", "sycl"}, env);
  EXPECT_EQ(result.exit_code, 3);
  EXPECT_NE(result.err.find("belongs to dpctl 0.14.0; the tool needs dpctl 0.21"),
            std::string::npos)
      << result.err;
}

// The first run asks the interpreter where dpctl is and caches its answer;
// the next takes it from the cache and says so; an entry whose library is
// gone is not trusted: the interpreter is asked again and the entry made
// anew.
TEST_F(RuntimeChoice, DpctlsLocationIsCachedWhileItsFilesAreAsTheyWere) {
  SKIP_WITHOUT_SYCL();
  ToolEnvironment env;
  env.changes["DLPACK_USM_DPCTL"] = std::nullopt;
  env.changes["XDG_CACHE_HOME"] = (dir_ / "cache").string();
  env.changes["COLUMNS"] = "10000";
  fs::path cache = dir_ / "cache" / "dlpack-usm" / "dpctl-location";
  ToolResult first = run_tool({"list-devices", "--runtime", "auto"}, env);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_EQ(first.err.find("remembered in"), std::string::npos) << first.err;
  ASSERT_TRUE(fs::exists(cache)) << first.err;

  ToolResult second = run_tool({"list-devices", "--runtime", "auto"}, env);
  EXPECT_EQ(second.exit_code, 0) << second.err;
  EXPECT_NE(second.err.find("remembered in " + cache.string()), std::string::npos) << second.err;
  EXPECT_EQ(second.out, first.out);

  std::string entry = read_file(cache.string());
  std::size_t library = entry.find("\nlibrary ");
  ASSERT_NE(library, std::string::npos) << entry;
  std::size_t end = entry.find('\n', library + 1);
  entry.replace(library + 9, end - library - 9, (dir_ / "gone.so").string());
  std::ofstream(cache) << entry;
  ToolResult third = run_tool({"list-devices", "--runtime", "auto"}, env);
  EXPECT_EQ(third.exit_code, 0) << third.err;
  EXPECT_EQ(third.err.find("remembered in"), std::string::npos) << third.err;
  EXPECT_EQ(read_file(cache.string()).find("gone.so"), std::string::npos);
}

TEST_F(RuntimeChoice, UnknownRuntimeIsAUsageError) {
  ToolResult result = run_tool({"list-devices", "--runtime", "cuda"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("--runtime 'cuda' is not sycl, opencl or auto"), std::string::npos)
      << result.err;
}

}  // namespace
}  // namespace dlpack_usm::e2e
