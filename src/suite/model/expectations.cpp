#include "suite/model/expectations.hpp"

#include <fstream>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/bounded_file.hpp"
#include "common/error.hpp"
#include "common/sha256.hpp"

namespace dlpack_usm::suite {
namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return text;
}

bool contains(const std::vector<ExpectationFile>& files, const std::string& kind,
              const std::string& id) {
  for (const ExpectationFile& file : files) {
    if (file.kind == kind && file.case_ids.count(id) > 0) return true;
  }
  return false;
}

// Entries a warning names before "and N more".
constexpr std::size_t kUnmatchedShown = 10;

}  // namespace

ExpectationFile parse_expectation_text(std::string_view text, std::string path, std::string kind) {
  ExpectationFile file{std::move(kind), std::move(path), sha256_hex(text), {}};
  std::map<std::string, int> first_line;
  int line_number = 0;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    std::string_view line = text.substr(start, end == std::string_view::npos ? end : end - start);
    ++line_number;
    start = end == std::string_view::npos ? text.size() + 1 : end + 1;
    if (std::size_t hash = line.find('#'); hash != std::string_view::npos) {
      line = line.substr(0, hash);
    }
    line = trim(line);
    if (line.empty()) continue;
    if (line.find_first_of(" \t") != std::string_view::npos) {
      fail_usage(fmt::format("{}:{}: '{}' is not one case id", file.path, line_number, line),
                 "write one case id per line; '#' starts a comment");
    }
    auto [it, inserted] = first_line.emplace(std::string(line), line_number);
    if (!inserted) {
      fail_usage(fmt::format("{}:{}: duplicate case id '{}' (first on line {})", file.path,
                             line_number, line, it->second),
                 "remove one of the two lines");
    }
    file.case_ids.emplace(line);
  }
  return file;
}

ExpectationFile read_expectation_file(const std::filesystem::path& path, std::string kind) {
  std::string text = read_bounded_file(path, kMaxExpectationFileBytes, fmt::format("--{}", kind),
                                       "a text file of case ids, one per line");
  return parse_expectation_text(text, path.string(), std::move(kind));
}

bool Expectations::expects_failure(const std::string& id) const {
  return contains(files, "baseline", id);
}

bool Expectations::allows_flakiness(const std::string& id) const {
  return contains(files, "flakes", id);
}

Verdict decide_verdict(const CaseResult& result, const Expectations& expectations, bool strict) {
  bool failing = is_failing(result.outcome, strict) || result.outcome == Outcome::not_run;
  // A re-run happens only after a failing first attempt: a case is flaky
  // when the re-run passed. Two failing attempts, even different ones (a
  // hang, then a crash), are a failure.
  bool passed_on_rerun =
      result.first_outcome && is_failing(*result.first_outcome, strict) && !failing;
  if (expectations.expects_failure(result.id)) {
    if (failing) return Verdict::expected_failure;
    if (result.outcome == Outcome::pass || result.outcome == Outcome::warn) {
      return passed_on_rerun ? Verdict::flaky : Verdict::unexpected_pass;
    }
    return Verdict::ok;
  }
  if (passed_on_rerun) return Verdict::flaky;
  if (failing)
    return expectations.allows_flakiness(result.id) ? Verdict::flaky : Verdict::regression;
  return Verdict::ok;
}

std::string failures_file_text(const std::vector<CaseResult>& results, bool strict) {
  std::string text =
      fmt::format("# dlpack-usm check: cases whose outcome was fail, error, crash{} or timeout\n",
                  strict ? ", warn (--strict)" : "");
  for (const CaseResult& result : results) {
    if (is_failing(result.outcome, strict))
      text += fmt::format("{}  # {}\n", result.id, to_string(result.outcome));
  }
  return text;
}

std::vector<std::string> unmatched_entry_warnings(const std::vector<ExpectationFile>& files,
                                                  const std::set<std::string>& suite_ids) {
  std::vector<std::string> warnings;
  for (const ExpectationFile& file : files) {
    std::vector<std::string> unmatched;
    for (const std::string& id : file.case_ids) {
      if (suite_ids.count(id) == 0) unmatched.push_back(id);
    }
    if (unmatched.empty()) continue;
    std::size_t more = unmatched.size() > kUnmatchedShown ? unmatched.size() - kUnmatchedShown : 0;
    unmatched.resize(unmatched.size() - more);
    warnings.push_back(fmt::format(
        "--{} {}: {} {} no case of the suite, and {} nothing: {}{}", file.kind, file.path,
        unmatched.size() + more, unmatched.size() + more == 1 ? "entry names" : "entries name",
        file.kind == "baseline" ? "expects" : "excuses", fmt::join(unmatched, ", "),
        more > 0 ? fmt::format(" and {} more", more) : std::string()));
  }
  return warnings;
}

}  // namespace dlpack_usm::suite
