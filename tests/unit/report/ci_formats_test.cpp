// The formats CI systems read, on runs made by hand: GitHub workflow
// commands (one per failure group and file, escaped as GitHub documents),
// the Markdown job summary (foreign text cannot break a table or inject
// markup), terminal colours (status words only) and SARIF artifact URIs.
#include <gtest/gtest.h>

#include "report/formats/github_annotations.hpp"
#include "report/formats/sarif.hpp"
#include "report/formats/summary_markdown.hpp"
#include "report/status_colors.hpp"

namespace dlpack_usm::report {
namespace {

suite::RecordedCase failing(std::string id, std::string message, suite::Verdict verdict,
                            std::string file = {}) {
  suite::RecordedCase entry;
  entry.spec.id = id;
  entry.spec.file = std::move(file);
  entry.result = suite::CaseResult(id, suite::Outcome::fail, message);
  entry.result.add_finding({"DLP-STRIDES-ZERO", rules::Severity::error, message});
  entry.result.verdict = verdict;
  entry.repro = "dlpack-usm check --filter '" + id + "'";
  return entry;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> found;
  for (std::size_t at = 0, end; at < text.size(); at = end + 1) {
    end = text.find('\n', at);
    found.push_back(text.substr(at, end - at));
  }
  return found;
}

TEST(GithubAnnotations, EscapeAsGithubDocuments) {
  EXPECT_EQ(escape_workflow_message("100% a:b,c\r\nd"), "100%25 a:b,c%0D%0Ad");
  EXPECT_EQ(escape_workflow_property("C:\\dir,x%\n"), "C%3A\\dir%2Cx%25%0A");
}

TEST(GithubAnnotations, OnePerRuleLibraryAndFile) {
  suite::CheckRun run;
  // A producer's one bug: 7 cases, one rule, messages that differ in numbers.
  for (int i = 0; i < 7; ++i) {
    run.cases.push_back(failing("live/p/" + std::to_string(i),
                                "strides[" + std::to_string(i) + "] is 0",
                                suite::Verdict::regression));
  }
  // Two vectors of one group, each an annotation at its file.
  run.cases.push_back(
      failing("vector/a", "strides[1] is 0", suite::Verdict::regression, "suite/a,1.json"));
  run.cases.push_back(
      failing("vector/b", "strides[2] is 0", suite::Verdict::regression, "suite/b.json"));
  run.cases.push_back(failing("vector/known", "known", suite::Verdict::expected_failure));
  run.cases.push_back(failing("live/flaky", "flaky one", suite::Verdict::flaky));
  suite::RecordedCase warned = failing("live/w", "a convention", suite::Verdict::ok);
  warned.result.outcome = suite::Outcome::warn;
  run.cases.push_back(warned);

  std::vector<std::string> commands = lines(check_run_annotations(run));
  ASSERT_EQ(commands.size(), 5u) << check_run_annotations(run);
  EXPECT_TRUE(commands[0].starts_with(
      "::error title=DLP-STRIDES-ZERO::regression: strides[0] is 0%0A7 cases: live/p/0, live/p/1, "
      "live/p/2, live/p/3, live/p/4 ... and 2 more cases%0Arepro: dlpack-usm check --filter "
      "'live/p/0'%0A"
      "see: dlpack-usm rules DLP-STRIDES-ZERO"))
      << commands[0];
  EXPECT_TRUE(commands[1].starts_with("::error file=suite/a%2C1.json,title=DLP-STRIDES-ZERO::"))
      << commands[1];
  EXPECT_NE(commands[1].find("%0Acase: vector/a%0A"), std::string::npos) << commands[1];
  EXPECT_TRUE(commands[2].starts_with("::error file=suite/b.json,title=")) << commands[2];
  EXPECT_TRUE(commands[3].starts_with("::notice title=DLP-STRIDES-ZERO::flaky: flaky one"))
      << commands[3];
  EXPECT_TRUE(commands[4].starts_with("::warning title=DLP-STRIDES-ZERO::warning: a convention"))
      << commands[4];

  // A foreign message cannot start a command of its own.
  suite::CheckRun forged;
  forged.cases.push_back(failing("x", "ok\n::set-output name=x::y", suite::Verdict::regression));
  for (const std::string& line : lines(check_run_annotations(forged))) {
    EXPECT_TRUE(line.starts_with("::error ")) << line;
  }
  forged.interrupted = true;
  EXPECT_NE(check_run_annotations(forged).find("::error title=dlpack-usm::the run was interrupted"),
            std::string::npos);
}

// A library stopped for crashing case after case: its crash and its stop,
// two annotations, not one for the crash and one for the cases left.
TEST(GithubAnnotations, AStopIsOneAnnotationWithItsCount) {
  const std::string reason = "the producer libp.so hung or crashed on 2 consecutive cases";
  suite::CheckRun run;
  for (int i = 0; i < 2; ++i) {
    suite::RecordedCase crashed =
        failing("producer/c/" + std::to_string(i), "died on signal 11", suite::Verdict::regression);
    crashed.result.outcome = suite::Outcome::crash;
    run.cases.push_back(crashed);
  }
  for (int i = 0; i < 9; ++i) {
    suite::RecordedCase left =
        failing("producer/left/" + std::to_string(i), reason, suite::Verdict::regression);
    left.result.outcome = suite::Outcome::not_run;
    run.cases.push_back(left);
  }
  run.stop_reasons = {reason};
  run.interrupted = true;
  std::vector<std::string> commands = lines(check_run_annotations(run));
  ASSERT_EQ(commands.size(), 2u) << check_run_annotations(run);
  EXPECT_TRUE(commands[0].starts_with("::error title=DLP-STRIDES-ZERO::regression: died on"))
      << commands[0];
  EXPECT_EQ(commands[1], "::error title=dlpack-usm::9 cases not run: " + reason +
                             "; the cases that did not run prove nothing, so the gate fails");
  std::string markdown = check_run_markdown(run);
  EXPECT_NE(markdown.find("### 2 cases not ok, in 1 group, and 9 not run\n"), std::string::npos)
      << markdown;
  EXPECT_NE(markdown.find("9 cases not run: " + markdown_text(reason) + ".\n"), std::string::npos)
      << markdown;
}

TEST(GithubAnnotations, GroupsOfOneRuleAndLibraryAreOneAnnotation) {
  suite::CheckRun run;
  // One bug, two kinds of message (an offset view, a negative-stride one),
  // in the producer's cases; the same rule in the consumer's is another.
  for (int i = 0; i < 12; ++i) {
    suite::RecordedCase entry = failing(
        "producer/p/" + std::to_string(i),
        i % 2 == 0 ? "elements differ" : "reads before the allocation", suite::Verdict::regression);
    entry.spec.source = "producer";
    run.cases.push_back(entry);
  }
  suite::RecordedCase consumer = failing("consumer/c/0", "wrong", suite::Verdict::regression);
  consumer.spec.source = "consumer";
  run.cases.push_back(consumer);
  std::vector<std::string> commands = lines(check_run_annotations(run));
  ASSERT_EQ(commands.size(), 2u) << check_run_annotations(run);
  EXPECT_NE(commands[0].find("%0A12 cases: producer/p/0, "), std::string::npos) << commands[0];
  EXPECT_NE(commands[0].find(" ... and 7 more cases%0A"), std::string::npos) << commands[0];
  EXPECT_NE(commands[0].find("%0Atheir messages differ (2 kinds; the first shown)"),
            std::string::npos)
      << commands[0];
  EXPECT_NE(commands[1].find("case: consumer/c/0"), std::string::npos) << commands[1];
}

TEST(SummaryMarkdown, BoundedToTheFirstGroups) {
  suite::CheckRun run;
  for (int i = 0; i < 15; ++i) {
    suite::RecordedCase entry =
        failing("live/p/" + std::to_string(i), "bug", suite::Verdict::regression);
    entry.result.findings.front().rule_id = "DLP-RULE-" + std::to_string(i);
    run.cases.push_back(entry);
  }
  std::string summary = check_run_markdown(run);
  EXPECT_NE(summary.find("| regression | DLP-RULE-9 | 1 | bug |"), std::string::npos) << summary;
  EXPECT_EQ(summary.find("| DLP-RULE-10 |"), std::string::npos) << summary;
  EXPECT_NE(summary.find("And 5 more groups: `--failures FILE` lists every failing case"),
            std::string::npos)
      << summary;
  std::size_t details = 0;
  for (std::size_t at = summary.find("<details>"); at != std::string::npos;
       at = summary.find("<details>", at + 1)) {
    ++details;
  }
  EXPECT_EQ(details, 3u) << summary;
  EXPECT_LT(lines(summary).size(), 60u) << summary;
}

TEST(SummaryMarkdown, ForeignTextNeitherBreaksTablesNorInjectsMarkup) {
  EXPECT_EQ(markdown_text("a|b <script> *x* & @team\nnext"),
            "a\\|b \\<script\\> \\*x\\* &amp; \\@team\\\\x0Anext");
  EXPECT_EQ(markdown_code_block("run ```x``` now"), "````sh\nrun ```x``` now\n````");
  EXPECT_EQ(markdown_code_block("plain"), "```sh\nplain\n```");

  suite::CheckRun run;
  suite::RecordedCase odd =
      failing("vector/a|b", "shape | <b>bold</b>", suite::Verdict::regression);
  odd.spec.device = "cpu|0";
  run.cases.push_back(odd);
  std::string summary = check_run_markdown(run);
  EXPECT_TRUE(summary.starts_with("## dlpack-usm: gate FAILED\n\ngate: FAILED")) << summary;
  EXPECT_NE(summary.find("| cpu\\|0 | 1 | 0 | 0 | 1 |"), std::string::npos) << summary;
  EXPECT_NE(summary.find("| regression | DLP-STRIDES-ZERO | 1 | shape \\| \\<b\\>bold\\</b\\> |"),
            std::string::npos)
      << summary;
  EXPECT_NE(summary.find("Cases: vector/a\\|b"), std::string::npos) << summary;
  EXPECT_EQ(summary.find("<b>"), std::string::npos) << summary;
}

TEST(StatusColors, OnlyStatusWordsAndCountsAboveZero) {
  const std::string red = "\033[31m", yellow = "\033[33m", green = "\033[32m", off = "\033[0m";
  EXPECT_EQ(color_status_words("regression \u00d781  DLP-X\n  message with error inside\n"),
            red + "regression" + off + " \u00d781  DLP-X\n  message with error inside\n");
  EXPECT_EQ(color_status_words("gate: PASSED (3 cases run)"),
            "gate: " + green + "PASSED" + off + " (3 cases run)");
  EXPECT_EQ(color_status_words("gate: FAILED"), "gate: " + red + "FAILED" + off);
  EXPECT_EQ(color_status_words("  warning  DLP-Y  flags  m"),
            "  " + yellow + "warning" + off + "  DLP-Y  flags  m");
  EXPECT_EQ(color_status_words("checked 2 tensors in 1 file: 2 errors, 0 warnings, 1 info"),
            "checked 2 tensors in 1 file: " + red + "2 errors" + off + ", 0 warnings, 1 info");
  EXPECT_EQ(color_status_words("verdicts: 3 ok, 1 flaky, 10 regression"),
            "verdicts: 3 ok, " + yellow + "1 flaky" + off + ", " + red + "10 regression" + off);
  EXPECT_EQ(color_status_words("DEVICE  CASES  PASS\n"), "DEVICE  CASES  PASS\n");
}

TEST(Sarif, ArtifactUrisAreRelativeOrFileUrisPercentEncoded) {
  EXPECT_EQ(artifact_uri("conformance/vectors/a-b_c.json"), "conformance/vectors/a-b_c.json");
  EXPECT_EQ(artifact_uri("/tmp/my dir/x#1.json"), "file:///tmp/my%20dir/x%231.json");
  EXPECT_EQ(artifact_uri("caf\xc3\xa9.json"), "caf%C3%A9.json");
}

}  // namespace
}  // namespace dlpack_usm::report
