// What CI systems read of a run, through the binary: `check --format github`
// annotations and `--summary-md` Markdown (check and report merge), colour on
// terminals only (--color, NO_COLOR), and `capsule check --sarif` with each
// finding at its file, line and JSON pointer. (tests/tools/sarif_test.sh
// validates the SARIF against the official schema.)
#include <gtest/gtest.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "merge_suite.hpp"
#include "tool_process.hpp"

namespace dlpack_usm::e2e {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using CiOutputs = MergeSuite;

std::vector<std::string> lines_starting(const std::string& text, const std::string& prefix) {
  std::vector<std::string> found;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    std::string line = text.substr(at, end == std::string::npos ? end : end - at);
    if (line.starts_with(prefix)) found.push_back(line);
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return found;
}

// The tool's stdout and stderr on a terminal of its own (a pseudo-terminal),
// with NO_COLOR as given (unset where empty) and TERM=xterm.
std::string run_on_terminal(const std::vector<std::string>& arguments, const char* no_color) {
  int terminal = -1;
  pid_t child = forkpty(&terminal, nullptr, nullptr, nullptr);
  if (child == 0) {
    if (*no_color == '\0') {
      unsetenv("NO_COLOR");
    } else {
      setenv("NO_COLOR", no_color, 1);
    }
    setenv("TERM", "xterm", 1);
    std::vector<char*> argv{const_cast<char*>(DLPACK_USM_BINARY)};
    for (const std::string& argument : arguments)
      argv.push_back(const_cast<char*>(argument.c_str()));
    argv.push_back(nullptr);
    execv(DLPACK_USM_BINARY, argv.data());
    _exit(127);
  }
  EXPECT_GT(child, 0);
  std::string out;
  char buffer[4096];
  for (ssize_t n; (n = read(terminal, buffer, sizeof buffer)) > 0;) {
    out.append(buffer, static_cast<std::size_t>(n));
  }
  close(terminal);
  int status = 0;
  waitpid(child, &status, 0);
  return out;
}

TEST_F(CiOutputs, FormatGithubAnnotatesTheFailingVectorAtItsFile) {
  std::vector<std::string> arguments{"check",    "--suite",  path("suite"), "--filter",
                                     "vector/*", "--format", "github"};
  ToolResult result = run_tool(arguments);
  EXPECT_EQ(result.exit_code, 1) << result.err;
  std::vector<std::string> errors = lines_starting(result.out, "::error ");
  ASSERT_EQ(errors.size(), 1u) << result.out;
  // A ':' in a property is escaped; the message's line breaks are %0A.
  std::string file = (fs::path(path("suite")) / "vectors/wrong.json").lexically_normal().string();
  EXPECT_TRUE(errors[0].starts_with("::error file=" + file +
                                    ",title=DLP-SHAPE-NULL DLP-STRIDES-NULL::regression: "))
      << errors[0];
  EXPECT_NE(errors[0].find("%0Acase: vector/wrong%0Arepro: dlpack-usm "), std::string::npos)
      << errors[0];
  EXPECT_EQ(errors[0].find('\r'), std::string::npos);
  // The text summary follows, and nothing is annotated in text format.
  EXPECT_NE(result.out.find("gate: FAILED"), std::string::npos) << result.out;
  arguments.resize(arguments.size() - 2);
  EXPECT_TRUE(lines_starting(run_tool(arguments).out, "::").empty());

  ToolResult wrong = run_tool({"check", "--suite", path("suite"), "--format", "gitlab"});
  EXPECT_EQ(wrong.exit_code, 2) << wrong.err;
  EXPECT_NE(wrong.err.find("gitlab"), std::string::npos) << wrong.err;
}

TEST_F(CiOutputs, SummaryMarkdownIsAddedToTheEndOfTheFile) {
  std::ofstream(path("summary.md")) << "# Earlier step output\n\n";
  ToolResult result = run_tool({"check", "--suite", path("suite"), "--filter", "vector/*",
                                "--summary-md", path("summary.md")});
  EXPECT_EQ(result.exit_code, 1) << result.err;
  std::string summary = read_text("summary.md");
  EXPECT_TRUE(summary.starts_with("# Earlier step output\n\n## dlpack-usm: gate FAILED\n"))
      << summary;
  EXPECT_NE(summary.find("| DEVICE | CASES | PASS |"), std::string::npos) << summary;
  EXPECT_NE(summary.find("| vectors | 3 | 2 |"), std::string::npos) << summary;
  // The vector's group names the rule it expected and the one that fired.
  EXPECT_NE(summary.find("| regression | DLP-SHAPE-NULL, DLP-STRIDES-NULL | 1 |"),
            std::string::npos)
      << summary;
  EXPECT_NE(summary.find("```sh\ndlpack-usm "), std::string::npos) << summary;

  // A second writer of the same step adds its own after it.
  std::vector<std::string> shards = two_shards("shard");
  ToolResult merged = merge(shards, {"--summary-md", path("summary.md"), "--format", "github"});
  EXPECT_EQ(merged.exit_code, 1) << merged.err;
  EXPECT_EQ(lines_starting(merged.out, "::error ").size(), 1u) << merged.out;
  std::string both = read_text("summary.md");
  EXPECT_TRUE(both.starts_with(summary)) << both;
  EXPECT_GT(both.size(), summary.size() + 100) << both;
}

TEST_F(CiOutputs, ColourOnlyOnTerminalsOrWhenAskedAndNeverInFiles) {
  std::vector<std::string> check{"check",     "--suite",  path("suite"),       "--filter",
                                 "vector/*",  "--report", path("report.json"), "--summary-md",
                                 path("s.md")};
  auto with = [&check](std::vector<std::string> extra) {
    std::vector<std::string> arguments = check;
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    return arguments;
  };
  const std::string red = "\033[31m";
  // Piped (auto): none; always: the failing verdict and the gate in red.
  EXPECT_EQ(run_tool(check).out.find('\033'), std::string::npos);
  ToolResult always = run_tool(with({"--color", "always"}));
  EXPECT_NE(always.out.find(red + "regression\033[0m"), std::string::npos) << always.out;
  EXPECT_NE(always.out.find("gate: " + red + "FAILED"), std::string::npos) << always.out;
  EXPECT_EQ(read_text("report.json").find('\033'), std::string::npos);
  EXPECT_EQ(read_text("s.md").find('\033'), std::string::npos);
  // always wins over NO_COLOR, as no-color.org asks; never wins everywhere.
  ToolEnvironment no_color;
  no_color.changes["NO_COLOR"] = "1";
  EXPECT_NE(run_tool(with({"--color", "always"}), no_color).out.find(red), std::string::npos);
  // On a terminal: colour unless NO_COLOR is set or --color never (the
  // progress line's erase-line sequence is no colour).
  EXPECT_NE(run_on_terminal(check, "").find(red + "regression"), std::string::npos);
  EXPECT_EQ(run_on_terminal(check, "1").find("\033[3"), std::string::npos);
  EXPECT_EQ(run_on_terminal(with({"--color", "never"}), "").find("\033[3"), std::string::npos);
  ToolResult wrong = run_tool(with({"--color", "sometimes"}));
  EXPECT_EQ(wrong.exit_code, 2) << wrong.err;
}

TEST_F(CiOutputs, CapsuleCheckColoursSeveritiesOnATerminal) {
  std::string file = source_path("tests/data/capsules/three-tensors.jsonl");
  std::string shown = run_on_terminal({"capsule", "check", file}, "");
  EXPECT_NE(shown.find("\033[31merror\033[0m"), std::string::npos) << shown;
  EXPECT_EQ(run_tool({"capsule", "check", file}).out.find('\033'), std::string::npos);
}

// The line of `key`'s first occurrence at or after line `from` of `text`.
std::size_t line_of_key(const std::string& text, const std::string& key, std::size_t from = 1) {
  std::size_t line = 1;
  for (std::size_t at = 0; at < text.size(); ++at) {
    if (line >= from && text.compare(at, key.size() + 2, "\"" + key + "\"") == 0) return line;
    if (text[at] == '\n') ++line;
  }
  return 0;
}

TEST_F(CiOutputs, SarifPlacesEachFindingAtItsFileLineAndPointer) {
  // An array, pretty-printed: each tensor's fields on lines of their own.
  json capsule =
      json::parse(std::ifstream(source_path("conformance/vectors/shape/strides-null-1.2.json")));
  capsule.erase("comment");
  json tensors = json::array({capsule, capsule});
  tensors[1]["dl_tensor"]["strides"] = {3, 0};
  tensors[1]["dl_tensor"]["device"]["device_id"] = -1;
  std::string text = tensors.dump(2);
  std::ofstream(path("array.json")) << text;
  std::string jsonl = source_path("tests/data/capsules/three-tensors.jsonl");

  ToolResult result = run_tool(
      {"capsule", "check", path("array.json"), jsonl, "--sarif", path("out.sarif"), "--json"});
  EXPECT_EQ(result.exit_code, 1) << result.err;
  json findings = json::parse(result.out);
  json sarif = read_json("out.sarif");
  EXPECT_EQ(sarif["version"], "2.1.0");
  const json& run = sarif["runs"][0];
  EXPECT_EQ(run["tool"]["driver"]["name"], "dlpack-usm");
  EXPECT_TRUE(run["invocations"][0]["executionSuccessful"]);
  std::size_t count = 0;
  for (const json& file : findings["files"]) {
    for (const json& tensor : file["tensors"]) count += tensor["findings"].size();
  }
  ASSERT_EQ(run["results"].size(), count) << run.dump(2);

  std::map<std::string, const json*> by_pointer;
  for (const json& result_json : run["results"]) {
    const json& location = result_json["locations"][0];
    std::string uri = location["physicalLocation"]["artifactLocation"]["uri"];
    if (uri.ends_with("array.json")) {
      by_pointer[location["logicalLocations"][0]["fullyQualifiedName"]] = &result_json;
    }
    const json& rule = run["tool"]["driver"]["rules"][result_json["ruleIndex"].get<std::size_t>()];
    EXPECT_EQ(rule["id"], result_json["ruleId"]);
    EXPECT_FALSE(rule["help"]["text"].get<std::string>().empty());
  }
  std::size_t second = line_of_key(text, "strides", line_of_key(text, "strides") + 1);
  ASSERT_GT(second, 0u) << text;
  ASSERT_TRUE(by_pointer.count("/1/dl_tensor/strides/1")) << run["results"].dump(2);
  EXPECT_EQ(by_pointer["/1/dl_tensor/strides/1"]->at(
                "locations")[0]["physicalLocation"]["region"]["startLine"],
            second);
  ASSERT_TRUE(by_pointer.count("/0/dl_tensor/strides")) << run["results"].dump(2);
  EXPECT_EQ(by_pointer["/0/dl_tensor/strides"]->at("level"), "error");
  EXPECT_EQ(by_pointer["/0/dl_tensor/strides"]->at(
                "locations")[0]["physicalLocation"]["region"]["startLine"],
            line_of_key(text, "strides"));
  // A JSON line: the tensor's line; its pointer is within that line's document.
  bool second_line = false;
  for (const json& result_json : run["results"]) {
    const json& location = result_json["locations"][0];
    if (location["logicalLocations"][0]["fullyQualifiedName"] == "/version/major") {
      second_line = location["physicalLocation"]["region"]["startLine"] == 2;
    }
  }
  EXPECT_TRUE(second_line) << run["results"].dump(2);
}

TEST_F(CiOutputs, SarifOfAnUnreadableFileSaysSoAndIsWrittenWhole) {
  std::ofstream(path("broken.json")) << "{\"version\": ";
  ToolResult result =
      run_tool({"capsule", "check", path("broken.json"), "--sarif", path("b.sarif")});
  EXPECT_EQ(result.exit_code, 2) << result.err;
  json sarif = read_json("b.sarif");
  const json& invocation = sarif["runs"][0]["invocations"][0];
  EXPECT_FALSE(invocation["executionSuccessful"]);
  EXPECT_NE(invocation["toolExecutionNotifications"][0]["message"]["text"].get<std::string>().find(
                "broken.json"),
            std::string::npos);
  ToolResult to_stdout = run_tool({"capsule", "check", path("broken.json"), "--sarif", "-"});
  EXPECT_EQ(to_stdout.exit_code, 2);
  EXPECT_NE(to_stdout.err.find("give --sarif a file"), std::string::npos) << to_stdout.err;
  // A folder is made where none is; where a file stands, none can be.
  ToolResult unwritable = run_tool(
      {"capsule", "check", path("broken.json"), "--sarif", path("broken.json/dir/x.sarif")});
  EXPECT_EQ(unwritable.exit_code, 3) << unwritable.err;
}

}  // namespace
}  // namespace dlpack_usm::e2e
