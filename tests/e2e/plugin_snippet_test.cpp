// The standalone C snippet of a plugin's crash report (issue 35): pasted
// into a shell, it compiles a small program against plugin.h and calls the
// plugin once on the case's own tensor or request, through libdlpack_usm
// (bridge.h, ABI 14), with no tool around it. It must crash where the case
// crashed, and the same program on the correct fixture must run clean:
// the crash is the library's, not the snippet's.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "e2e_files.hpp"
#include "tool_process.hpp"

namespace dlpack_usm::e2e {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

bool usm_required() {
  const char* value = std::getenv("DLPACK_USM_REQUIRE_USM");
  return value != nullptr && std::string(value) == "1";
}

struct Pasted {
  int status = -1;  // the shell's exit status: 128 + N for a program killed by signal N
  std::string output;
};

// Runs `snippet` as a person pastes it, in `folder`.
Pasted paste(const std::string& snippet, const fs::path& folder) {
  fs::path script = folder / "snippet.sh";
  std::ofstream(script) << snippet << "\n";
  fs::path output = folder / "output.txt";
  std::string command = "cd '" + folder.string() + "' && sh snippet.sh > output.txt 2>&1";
  int raw = std::system(command.c_str());
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, read_file(output.string())};
}

// The snippet of the first crashed case of `option LIBRARY --filter FILTER`,
// or "" where no case ran (no device with USM).
std::string crash_snippet(const std::string& option, const std::string& library,
                          const std::string& filter, const fs::path& folder) {
  fs::path report = folder / "report.json";
  ToolResult run = run_tool({"check", option, fixture(library).string(), "--filter", filter,
                             "--runtime", "opencl", "--report", report.string()});
  EXPECT_TRUE(run.exit_code == 0 || run.exit_code == 1) << run.err;
  for (const json& result : library_results(read_json(report))) {
    // A crash on an invalid tensor is a warning: its exchange says crash.
    if (result.at("outcome") == "crash" || result.value("exchange", json()) == "crash") {
      return result.value("snippet", "");
    }
  }
  return {};
}

void expect_snippet_reproduces(const std::string& option, const std::string& broken,
                               const std::string& correct, const std::string& filter,
                               const std::string& clean_line) {
  fs::path folder = scratch_dir("plugin_snippet_" + broken);
  std::string snippet = crash_snippet(option, broken, filter, folder);
  if (snippet.empty()) {
    if (usm_required()) FAIL() << "DLPACK_USM_REQUIRE_USM=1 but no case of " << filter << " ran";
    GTEST_SKIP() << "no device with device USM here";
  }
  ASSERT_NE(snippet.find("cc -g dlpack_usm_repro.c"), std::string::npos) << snippet;
  Pasted crashed = paste(snippet, folder);
  EXPECT_GT(crashed.status, 128) << crashed.output;  // killed by a signal, as in the case

  std::string path = fixture(broken).string();
  std::string fixed = snippet;
  fixed.replace(fixed.find(path), path.size(), fixture(correct).string());
  Pasted clean = paste(fixed, folder);
  EXPECT_EQ(clean.status, 0) << clean.output;
  EXPECT_NE(clean.output.find(clean_line), std::string::npos) << clean.output;
}

TEST(PluginSnippet, AConsumerCrashOnAnInvalidTensorCrashesAloneAndTheCorrectConsumerDeclines) {
  expect_snippet_reproduces("--consumer", "consumer_crash_on_invalid", "consumer",
                            "consumer/*/invalid/shape-negative", "consume returned 0, accepted 0");
}

TEST(PluginSnippet, AProducerCrashCrashesAloneAndTheCorrectProducerProduces) {
  expect_snippet_reproduces("--producer", "producer_crash", "producer",
                            "producer/*/device/float32/C/1.3", "produce returned 0");
}

}  // namespace
}  // namespace dlpack_usm::e2e
