// The standalone C snippet of a plugin's crash report (issue 35): pasted
// into a shell, it compiles the shipped program share/plugin_repro.c against
// plugin.h and calls the plugin once on the case's own tensor or request,
// through libdlpack_usm (bridge.h, ABI 14), with no tool around it. It must
// crash where the case crashed, and the same program on the correct fixture
// must run clean: the crash is the library's, not the snippet's. And it is
// small: a report carries one for every case of the library.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

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
  ASSERT_NE(snippet.find(source_path("share/plugin_repro.c")), std::string::npos) << snippet;
  ASSERT_NE(snippet.find("./dlpack_usm_repro " +
                         std::string(option == "--consumer" ? "consume" : "produce")),
            std::string::npos)
      << snippet;
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

// `text` without any of `paths` (the longest first, so that a path inside
// another goes with it).
std::string without_paths(std::string text, std::vector<std::string> paths) {
  std::sort(paths.begin(), paths.end(),
            [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
  for (const std::string& path : paths) {
    for (std::size_t at = text.find(path); at != std::string::npos; at = text.find(path, at)) {
      text.erase(at, path.size());
    }
  }
  return text;
}

// Every case carries its snippet, so its size is the report's: two lines
// naming the program, the headers, both libraries and the request (the
// here-document of the whole program it replaced was 2.3 KB a case, 61% of
// the report). The checkout's own paths are left out of the measure: they
// are as long as the folder a user builds in.
TEST(PluginSnippet, EachSnippetOfTheCorrectProducersReportIsTwoShortLines) {
  fs::path folder = scratch_dir("plugin_snippet_size");
  fs::path report = folder / "report.json";
  ToolResult run = run_tool({"check", "--producer", fixture("producer").string(), "--runtime",
                             "opencl", "--report", report.string()});
  ASSERT_TRUE(run.exit_code == 0 || run.exit_code == 1) << run.err;
  std::vector<std::string> paths = {fs::path(DLPACK_USM_BINARY).parent_path().string(),
                                    DLPACK_USM_SOURCE_DIR};
  std::size_t snippets = 0;
  for (const json& result : library_results(read_json(report))) {
    std::string snippet = result.value("snippet", "");
    if (snippet.empty()) continue;
    ++snippets;
    EXPECT_LE(std::count(snippet.begin(), snippet.end(), '\n'), 1) << snippet;
    EXPECT_LT(without_paths(snippet, paths).size(), 350u) << snippet;
  }
  if (snippets == 0) {
    if (usm_required()) FAIL() << "DLPACK_USM_REQUIRE_USM=1 but no producer case ran";
    GTEST_SKIP() << "no device with USM here";
  }
}

}  // namespace
}  // namespace dlpack_usm::e2e
