// What people read at the end of `check` and `report merge`: the failing
// cases grouped (one block per verdict, rules and message but for its
// numbers), every case with -v, the gate line alone with -q, the machine
// outputs unchanged by either; counts of the cases that ran, with the
// filtered ones apart; expectation entries that name no case; vector
// regressions with their finding and a `capsule check` repro; and a closing
// line naming every file written.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/text_width.hpp"
#include "e2e_files.hpp"
#include "tool_process.hpp"

namespace dlpack_usm::e2e {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The lines from the "N cases not ok" heading to the warnings or the gate
// line: what the summary says about the failing cases (a runtime's warnings,
// such as PoCL 5.0's owner answer, are not failures).
std::size_t failure_lines(const std::string& summary) {
  std::size_t count = 0;
  bool in_failures = false;
  for (const std::string& line : lines_of(summary)) {
    if (line.find(" not ok, in ") != std::string::npos) in_failures = true;
    if (line.starts_with("gate: ") || line.starts_with("warnings (")) break;
    count += in_failures ? 1 : 0;
  }
  return count;
}

// The report without what differs between two runs of the same cases:
// times and the command line.
json without_run_specifics(json report) {
  for (const char* key : {"started_at", "finished_at", "duration_ms", "command_line"}) {
    report.erase(key);
  }
  // A heap measurement's message counts what this run's allocator did; the
  // runner re-runs the failing first case of each worker's batch, as the
  // scheduling falls.
  for (json& result : report.at("results")) {
    for (const char* key : {"duration_ms", "message", "findings", "attempts", "first_outcome"}) {
      result.erase(key);
    }
  }
  return report;
}

// The acceptance of issue 25: a producer with one bug (it lays every tensor
// out in Fortran order and declares C strides) fails 81 cases on the CI
// machine, 337 lines of repeated blocks before; now one group.
TEST(CheckSummary, AProducerWithOneBugPrintsOneGroup) {
  fs::path dir = scratch_dir("one-bug");
  fs::path report = dir / "out" / "report.json";
  fs::create_directories(report.parent_path());
  ToolResult run = run_tool({"check", "--producer", fixture("producer_f_strides").string(),
                             "--report", report.string(), "--junit", (dir / "junit.xml").string()});
  ASSERT_EQ(run.exit_code, 1) << run.out << run.err;
  json document = read_json(report);
  int regressions = document.at("summary").at("verdicts").at("regression");
  ASSERT_GT(regressions, 3);
  EXPECT_LE(failure_lines(run.out), 15u) << run.out;
  // The bug is one group; the stream cases of the same library, whose
  // elements are wrong rather than late, are the one other.
  EXPECT_NE(run.out.find(fmt::format("{} cases not ok, in 2 groups", regressions)),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find(fmt::format("and {} more", regressions - 3 - 3)), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("\n  see: dlpack-usm rules DLP-PRODUCER-CONTENT\n"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("\n  repro: dlpack-usm check --producer "), std::string::npos);
  // Every file written, the results stream beside the report too.
  EXPECT_NE(run.out.find(fmt::format("\nwrote: {}, {}, {}\n", report.string(),
                                     (dir / "junit.xml").string(),
                                     (dir / "out" / "results.jsonl").string())),
            std::string::npos)
      << run.out;
  fs::remove_all(dir);
}

// A line that is one word (a library's path) wider than what its indent
// leaves: the wrapping keeps a word whole rather than cut a path to copy.
bool one_word_too_wide(const std::string& line, size_t columns) {
  size_t indent = line.find_first_not_of(' ');
  if (indent == std::string::npos || line.find(' ', indent) != std::string::npos) return false;
  return display_columns(line.substr(indent)) > columns - indent;
}

// COLUMNS=80: every line of the summary fits 80 columns, but the repro
// lines, a command to copy whole, and a path too long for its line (the
// build folder's own, which CI's checkout makes longer); without COLUMNS (a
// pipe) a finding's message stays one line, as before.
TEST(CheckSummary, TheSummaryFitsColumnsAndKeepsReproLinesWhole) {
  std::vector<std::string> arguments{"check", "--producer", fixture("producer_f_strides").string(),
                                     "--filter", "producer/*/device/float32/C/*"};
  ToolResult fitted = run_tool(arguments, {{{"COLUMNS", "80"}}, ""});
  ASSERT_EQ(fitted.exit_code, 1) << fitted.out << fitted.err;
  int repro_lines = 0;
  for (const std::string& line : lines_of(fitted.out)) {
    if (line.find("  repro: ") == 0) {
      ++repro_lines;
      continue;
    }
    if (one_word_too_wide(line, 80)) continue;
    EXPECT_LE(display_columns(line), 80u) << line;
  }
  EXPECT_GT(repro_lines, 0) << fitted.out;
  ToolResult whole = run_tool(arguments, {{{"COLUMNS", std::nullopt}}, ""});
  bool long_line = false;
  for (const std::string& line : lines_of(whole.out)) long_line |= display_columns(line) > 80;
  EXPECT_TRUE(long_line) << "without COLUMNS the summary's lines are not wrapped:\n" << whole.out;
}

// -v lists every case, -q prints the gate line alone; the report, JUnit and
// the results stream are what the default gives.
TEST(CheckSummary, VerboseListsEveryCaseQuietOnlyTheGateAndTheReportStays) {
  fs::path dir = scratch_dir("detail");
  auto run_with = [&](const std::string& name, const std::string& detail) {
    std::vector<std::string> arguments{"check",
                                       "--producer",
                                       fixture("producer_f_strides").string(),
                                       "--filter",
                                       "producer/*/device/float32/C/*",
                                       "--jobs",
                                       "1",
                                       "--report",
                                       (dir / (name + ".json")).string()};
    if (!detail.empty()) arguments.push_back(detail);
    return run_tool(arguments);
  };
  ToolResult grouped = run_with("grouped", "");
  ToolResult verbose = run_with("verbose", "-v");
  ToolResult quiet = run_with("quiet", "--quiet");
  for (const ToolResult* run : {&grouped, &verbose, &quiet}) {
    ASSERT_EQ(run->exit_code, 1) << run->out << run->err;
  }
  json report = read_json(dir / "grouped.json");
  EXPECT_EQ(without_run_specifics(read_json(dir / "verbose.json")), without_run_specifics(report));
  EXPECT_EQ(without_run_specifics(read_json(dir / "quiet.json")), without_run_specifics(report));
  std::size_t failing = 0;
  for (const json& result : report.at("results")) {
    if (result.at("verdict") == "ok") continue;
    ++failing;
    std::string id = result.at("id");
    EXPECT_NE(verbose.out.find("regression " + id + ": fail ("), std::string::npos) << id;
  }
  ASSERT_GT(failing, 1u);
  EXPECT_EQ(grouped.out.find("regression producer/"), std::string::npos) << grouped.out;
  // -q: the gate line, and no note of --runtime auto's choice.
  ASSERT_EQ(lines_of(quiet.out).size(), 1u) << quiet.out;
  EXPECT_TRUE(quiet.out.starts_with("gate: FAILED (")) << quiet.out;
  EXPECT_EQ(quiet.err.find("note:"), std::string::npos) << quiet.err;

  // report merge of one report: the same three texts, byte-identical outputs.
  std::vector<std::string> merged_json, merged_junit;
  for (const char* detail : {"", "-v", "-q"}) {
    std::string name = std::string("merged") + (detail[0] != '\0' ? detail + 1 : "");
    std::vector<std::string> arguments{"report",
                                       "merge",
                                       (dir / "grouped.json").string(),
                                       "--report",
                                       (dir / (name + ".json")).string(),
                                       "--junit",
                                       (dir / (name + ".xml")).string()};
    if (detail[0] != '\0') arguments.push_back(detail);
    ToolResult merged = run_tool(arguments);
    ASSERT_EQ(merged.exit_code, 1) << merged.out << merged.err;
    json document = read_json(dir / (name + ".json"));
    document.erase("command_line");
    merged_json.push_back(document.dump());
    merged_junit.push_back(read_file((dir / (name + ".xml")).string()));
    std::string said = std::string(detail) == "-q"   ? "gate: FAILED ("
                       : std::string(detail) == "-v" ? "\nregression producer/"
                                                     : " not ok, in 1 group";
    EXPECT_NE(merged.out.find(said), std::string::npos) << detail << ": " << merged.out;
    if (std::string(detail) == "-q") {
      EXPECT_EQ(lines_of(merged.out).size(), 1u) << merged.out;
    }
  }
  EXPECT_EQ(merged_json[1], merged_json[0]);
  EXPECT_EQ(merged_json[2], merged_json[0]);
  EXPECT_EQ(merged_junit[1], merged_junit[0]);
  EXPECT_EQ(merged_junit[2], merged_junit[0]);
  EXPECT_NE(run_tool({"check", "-v", "-q", "--list"}).exit_code, 0);
  fs::remove_all(dir);
}

// Verdicts and JUnit hold the cases that ran; the gate line counts the
// filtered ones apart; a run of the vectors alone uses no device, so no
// note of the runtime chosen.
TEST(CheckSummary, FilteredCasesAreCountedApart) {
  fs::path dir = scratch_dir("filtered");
  ToolResult run = run_tool({"check", "--vectors-only", "--filter", "vector/dtype/*", "--report",
                             (dir / "r.json").string(), "--junit", (dir / "j.xml").string()});
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  json report = read_json(dir / "r.json");
  int filtered = report.at("summary").at("outcomes").at("skipped");
  int ran = report.at("summary").at("total").get<int>() - filtered;
  ASSERT_GT(filtered, 0);
  ASSERT_GT(ran, 0);
  EXPECT_EQ(report.at("summary").at("verdicts").at("ok"), ran);
  EXPECT_NE(run.out.find(fmt::format("verdicts: {} ok, ", ran)), std::string::npos) << run.out;
  EXPECT_NE(
      run.out.find(fmt::format("gate: PASSED ({} cases run, {} filtered, in ", ran, filtered)),
      std::string::npos)
      << run.out;
  std::string junit = read_file((dir / "j.xml").string());
  EXPECT_EQ(junit.find("<skipped"), std::string::npos);
  EXPECT_NE(junit.find(fmt::format("<testsuites name=\"dlpack-usm check\" tests=\"{}\"", ran)),
            std::string::npos)
      << junit.substr(0, 300);
  EXPECT_EQ(run.err.find("note:"), std::string::npos) << run.err;
  EXPECT_EQ(run_tool({"check", "--list", "--filter", "vector/dtype/*"}).err.find("note:"),
            std::string::npos);
  fs::remove_all(dir);
}

// A baseline or flakes entry that names no case is a warning listing it,
// in check and in report merge; a run that writes no file says nothing of
// files.
TEST(CheckSummary, ExpectationEntriesThatNameNoCaseAreWarnings) {
  fs::path dir = scratch_dir("unmatched");
  fs::path baseline = dir / "baseline.txt";
  std::ofstream(baseline) << "vector/dtype/no-such-vector\nvector/shape/strides-null-1.2\n";
  fs::path flakes = dir / "flakes.txt";
  std::ofstream(flakes) << "live/typo\n";
  ToolResult run = run_tool({"check", "--vectors-only", "--filter", "vector/shape/*", "--baseline",
                             baseline.string(), "--flakes", flakes.string(), "--report",
                             (dir / "r.json").string()});
  ASSERT_EQ(run.exit_code, 1) << run.out << run.err;  // the baselined vector passes
  EXPECT_NE(run.err.find(fmt::format("dlpack-usm: warning: --baseline {}: 1 entry names no case "
                                     "of the suite, and expects nothing: "
                                     "vector/dtype/no-such-vector",
                                     baseline.string())),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("--flakes " + flakes.string() +
                         ": 1 entry names no case of the suite, "
                         "and excuses nothing: live/typo"),
            std::string::npos)
      << run.err;
  ToolResult merged = run_tool({"report", "merge", (dir / "r.json").string(), "--baseline",
                                baseline.string(), "--flakes", flakes.string()});
  EXPECT_EQ(merged.exit_code, 1) << merged.out << merged.err;
  EXPECT_NE(merged.err.find("vector/dtype/no-such-vector"), std::string::npos) << merged.err;
  EXPECT_NE(merged.err.find("live/typo"), std::string::npos) << merged.err;
  EXPECT_EQ(merged.out.find("wrote:"), std::string::npos) << merged.out;
  fs::remove_all(dir);
}

// A vector that fires another rule than its manifest says shows the finding
// (field, value, message), points to both rules, and its repro is the
// capsule check of its file, which exits 1 with the same finding.
TEST(CheckSummary, AVectorRegressionShowsItsFindingAndCapsuleCheck) {
  fs::path dir = scratch_dir("vector-regression");
  fs::path suite = dir / "suite";
  fs::create_directories(suite / "vectors/shape");
  fs::copy_file(source_path("conformance/vectors/shape/strides-null-1.2.json"),
                suite / "vectors/shape/wrong.json");
  std::ofstream(suite / "manifest.json")
      << R"({"vectors": [{"file": "vectors/shape/wrong.json", "expect": ["DLP-STRIDES-ZERO"]}]})";
  ToolResult run = run_tool({"check", "--vectors-only", "--suite", suite.string()});
  ASSERT_EQ(run.exit_code, 1) << run.out << run.err;
  EXPECT_NE(run.out.find("expected DLP-STRIDES-ZERO to fire; unexpected DLP-STRIDES-NULL"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("\n  finding: DLP-STRIDES-NULL (error): dl_tensor.strides: "),
            std::string::npos)
      << run.out;
  std::string file = (suite / "vectors/shape/wrong.json").string();
  EXPECT_NE(run.out.find("\n  repro: dlpack-usm capsule check '" + file + "'\n"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("\n  see: dlpack-usm rules DLP-STRIDES-NULL\n"), std::string::npos);
  EXPECT_NE(run.out.find("\n  see: dlpack-usm rules DLP-STRIDES-ZERO\n"), std::string::npos);
  ToolResult repro = run_tool({"capsule", "check", file});
  EXPECT_EQ(repro.exit_code, 1) << repro.out << repro.err;
  EXPECT_NE(repro.out.find("DLP-STRIDES-NULL"), std::string::npos) << repro.out;
  EXPECT_NE(repro.out.find("\n  see: dlpack-usm rules DLP-STRIDES-NULL\n"), std::string::npos)
      << repro.out;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace dlpack_usm::e2e
