// Foreign runtimes the tool asks before it trusts them in its own process:
// a CUDA driver whose cuInit crashes or hangs or that reports 2^31-1
// devices, a dpctl library whose constructor crashes or hangs, an
// interpreter that hangs when asked where dpctl is, files this user may not
// look at. Each is probed in a child with a deadline (shortened here with
// DLPACK_USM_PROBE_TIMEOUT_S): the command ends in time, says what happened,
// and falls back where it can (auto: OpenCL; CUDA is optional) or exits 3.
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tool_process.hpp"

namespace dlpack_usm::e2e {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

std::string hostile(const std::string& name) {
  return (fs::path(DLPACK_USM_HOSTILE_RUNTIME_DIR) / ("libhostile_" + name + ".so")).string();
}

ToolEnvironment short_probes() {
  ToolEnvironment env;
  env.changes["DLPACK_USM_PROBE_TIMEOUT_S"] = "1";
  return env;
}

// Runs list-devices and says how long it took.
ToolResult timed(const std::vector<std::string>& arguments, const ToolEnvironment& env,
                 double& seconds) {
  auto started = Clock::now();
  ToolResult result = run_tool(arguments, env);
  seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return result;
}

struct CudaFault {
  std::string library;
  std::string problem;
};

TEST(RuntimeProbe, ABrokenCudaDriverIsAProblemOfTheListNotTheToolsEnd) {
  for (const CudaFault& fault :
       {CudaFault{"cuda_driver_crash", "died on signal 11"},
        CudaFault{"cuda_driver_hang", "did not answer within 1 s"},
        CudaFault{"cuda_driver_many", "reports 2147483647 devices, more than the 1024"}}) {
    ToolEnvironment env = short_probes();
    env.changes["DLPACK_USM_CUDA_DRIVER"] = hostile(fault.library);
    double seconds = 0;
    ToolResult result = timed({"list-devices", "--json", "--runtime", "opencl"}, env, seconds);
    EXPECT_EQ(result.exit_code, 0) << fault.library << ": " << result.err;
    EXPECT_LT(seconds, 10) << fault.library;
    json cuda = json::parse(result.out, nullptr, false)["cuda"];
    ASSERT_TRUE(cuda.is_object()) << result.out;
    EXPECT_TRUE(cuda["devices"].empty()) << fault.library;
    EXPECT_NE(cuda["problem"].get<std::string>().find(fault.problem), std::string::npos)
        << fault.library << ": " << cuda["problem"];
  }
}

// A driver's text is foreign text: printed escaped, it cannot clear the
// screen, ring, forge a line of the tool's own, command GitHub's runner
// (issue 36: "##[" anywhere in a line, "::" at its start), or reach the
// terminal as a C1 control or a bidi override; JSON carries it as it is.
constexpr const char* kForgedName =
    "GPU\x1b[2J\a\nFAKE gate: PASSED ##[add-mask]FAILED \u009b31m \u202e"
    "exe \u0085\n::error file=a,line=1::forged";

void expect_only_text(const std::string& printed) {
  std::istringstream lines(printed);
  for (std::string line; std::getline(lines, line);) {
    EXPECT_EQ(line.find("##["), std::string::npos) << line;
    EXPECT_NE(line.rfind("::", 0), 0u) << line;
    EXPECT_NE(line.rfind("FAKE gate", 0), 0u) << line;
    EXPECT_EQ(line.find("\u009b"), std::string::npos) << line;
    EXPECT_EQ(line.find("\u0085"), std::string::npos) << line;
    EXPECT_EQ(line.find("\u202e"), std::string::npos) << line;
    for (char c : line) {
      EXPECT_FALSE(static_cast<unsigned char>(c) < 0x20 && c != '\t') << line;
      EXPECT_NE(c, '\x7f') << line;
    }
  }
}

TEST(RuntimeProbe, ADriversDeviceNameCannotForgeALineOfTheOutput) {
  ToolEnvironment env = short_probes();
  env.changes["DLPACK_USM_CUDA_DRIVER"] = hostile("cuda_driver_name");
  for (const std::vector<std::string>& arguments :
       {std::vector<std::string>{"list-devices", "--runtime", "opencl"},
        std::vector<std::string>{"list-devices", "--runtime", "opencl", "--verbose"}}) {
    ToolResult text = run_tool(arguments, env);
    EXPECT_EQ(text.exit_code, 0) << text.err;
    EXPECT_NE((text.out + text.err).find("GPU"), std::string::npos) << text.out;
    expect_only_text(text.out);
    expect_only_text(text.err);
  }
  ToolResult listed = run_tool({"list-devices", "--json", "--runtime", "opencl"}, env);
  json devices = json::parse(listed.out, nullptr, false)["cuda"]["devices"];
  ASSERT_TRUE(devices.is_array() && devices.size() == 1) << listed.out;
  EXPECT_EQ(devices[0]["name"], kForgedName);
}

// A CUDA device whose row does not fit COLUMNS is a record, as OpenCL and
// SYCL devices are: its long name wrapped, never cut with "…".
TEST(RuntimeProbe, ACudaRowTooWideForColumnsIsARecordNotCut) {
  ToolEnvironment env = short_probes();
  env.changes["DLPACK_USM_CUDA_DRIVER"] = hostile("cuda_driver_name");
  env.changes["COLUMNS"] = "40";
  ToolResult text = run_tool({"list-devices", "--runtime", "opencl", "--verbose"}, env);
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.out.find("…"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("NAME: GPU"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("forged"), std::string::npos) << text.out;
}

TEST(RuntimeProbe, ADpctlLibraryThatCrashesOrHangsWhenLoadedIsNotLoaded) {
  for (const auto& [library, how] : {std::pair{"dpctl_library_crash", "died on signal 11"},
                                     std::pair{"dpctl_library_hang", "did not answer within"}}) {
    ToolEnvironment env = short_probes();
    env.changes["DLPACK_USM_DPCTL"] = hostile(library);
    double seconds = 0;
    ToolResult sycl = timed({"list-devices", "--runtime", "sycl"}, env, seconds);
    EXPECT_EQ(sycl.exit_code, 3) << library << ": " << sycl.err;
    EXPECT_LT(seconds, 10) << library;
    EXPECT_NE(sycl.err.find(how), std::string::npos) << library << ": " << sycl.err;
    EXPECT_NE(sycl.err.find("the tool does not load it into itself"), std::string::npos)
        << sycl.err;
    // auto takes the OpenCL runtime instead, and says why.
    ToolResult automatic = run_tool({"list-devices", "--runtime", "auto"}, env);
    EXPECT_NE(automatic.exit_code, 139) << automatic.err;
    EXPECT_NE(automatic.err.find(how), std::string::npos) << automatic.err;
  }
}

TEST(RuntimeProbe, AnInterpreterThatHangsIsNotWaitedFor) {
  fs::path prefix =
      fs::temp_directory_path() / ("dlpack-usm-hanging-python-" + std::to_string(getpid()));
  fs::create_directories(prefix / "bin");
  {
    std::ofstream script(prefix / "bin" / "python");
    script << "#!/bin/sh\nexec sleep 300\n";
  }
  fs::permissions(prefix / "bin" / "python", fs::perms::owner_all);
  ToolEnvironment env = short_probes();
  env.changes["DLPACK_USM_TOOLS_PREFIX"] = prefix.string();
  env.changes["DLPACK_USM_DPCTL"] = std::nullopt;
  double seconds = 0;
  ToolResult result = timed({"list-devices", "--runtime", "auto"}, env, seconds);
  EXPECT_LT(seconds, 10);
  EXPECT_NE(result.err.find((prefix / "bin" / "python").string() +
                            " (the interpreter scripts/setup.sh prepared) did not answer within "
                            "1 s"),
            std::string::npos)
      << result.err;
  fs::remove_all(prefix);
}

// A user who may not look at the file DLPACK_USM_DPCTL names (the venv of
// another user) gets "not found" with the reason, not an internal error.
TEST(RuntimeProbe, AFileThisUserMayNotLookAtIsNotFound) {
  if (geteuid() != 0 || access("/usr/bin/setpriv", X_OK) != 0) {
    GTEST_SKIP() << "needs root and setpriv (util-linux) to run the tool as another user";
  }
  fs::path closed = fs::temp_directory_path() / ("dlpack-usm-closed-" + std::to_string(getpid()));
  fs::create_directories(closed);
  chmod(closed.c_str(), 0700);
  std::ofstream(closed / "libDPCTLSyclInterface.so") << "";
  std::string command = "DLPACK_USM_DPCTL=" + (closed / "libDPCTLSyclInterface.so").string() +
                        " /usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups " +
                        DLPACK_USM_BINARY + " list-devices --runtime sycl 2>&1";
  std::string output;
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) output += buffer;
  int status = pclose(pipe);
  EXPECT_EQ(WEXITSTATUS(status), 3) << output;
  EXPECT_NE(output.find("cannot be looked at (Permission denied)"), std::string::npos) << output;
  EXPECT_EQ(output.find("internal error"), std::string::npos) << output;
  fs::remove_all(closed);
}

TEST(RuntimeProbe, AnEmptyDeviceSelectorSelectsNothingOnEitherRuntime) {
  ToolEnvironment env;
  env.changes["ONEAPI_DEVICE_SELECTOR"] = "";
  ToolResult opencl = run_tool({"list-devices", "--runtime", "opencl"}, env);
  EXPECT_EQ(opencl.exit_code, 3) << opencl.out << opencl.err;
  EXPECT_NE(opencl.err.find("ONEAPI_DEVICE_SELECTOR is set but empty"), std::string::npos)
      << opencl.err;
  ToolResult check = run_tool({"check", "--runtime", "opencl"}, env);
  EXPECT_EQ(check.exit_code, 3) << check.err;
}

}  // namespace
}  // namespace dlpack_usm::e2e
