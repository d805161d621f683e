// Expectation files of the CI gate: a baseline of known failures and a list
// of flaky cases. One case id per line; '#' starts a comment; blank lines are
// ignored; a duplicate id is an error (it usually hides a merge mistake).
#pragma once

#include <filesystem>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "suite/model/case.hpp"

namespace dlpack_usm::suite {

struct ExpectationFile {
  std::string kind;  // "baseline" or "flakes"
  std::string path;
  std::string sha256;
  std::set<std::string> case_ids;
};

// Throws Error(usage) with the file and line of a duplicate, an id with
// spaces, or an unreadable file.
// Read with a bound: a baseline of every case id of a large suite is a few
// hundred KiB.
inline constexpr std::size_t kMaxExpectationFileBytes = std::size_t{16} << 20;

ExpectationFile read_expectation_file(const std::filesystem::path& path, std::string kind);
ExpectationFile parse_expectation_text(std::string_view text, std::string path, std::string kind);

struct Expectations {
  std::vector<ExpectationFile> files;
  bool expects_failure(const std::string& id) const;
  bool allows_flakiness(const std::string& id) const;
};

// The verdict of one result. A failing case that passed on its re-run is
// flaky (two failing attempts are not, whatever they were); a baselined
// failure is expected; a baselined case that passes is an unexpected pass
// (the baseline should shrink); other failures regress. With `strict`
// (check --strict) a warn outcome fails as well.
Verdict decide_verdict(const CaseResult& result, const Expectations& expectations,
                       bool strict = false);

// A warning per file whose entries name cases `suite_ids` (every case of
// the suite, before the filters) lacks, listing them: a renamed case or a
// typo, which would otherwise expect nothing without a word.
std::vector<std::string> unmatched_entry_warnings(const std::vector<ExpectationFile>& files,
                                                  const std::set<std::string>& suite_ids);

// The baseline-format text listing every case whose outcome is failing.
std::string failures_file_text(const std::vector<CaseResult>& results, bool strict = false);

}  // namespace dlpack_usm::suite
