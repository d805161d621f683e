// The limits that turn cases away before their turn: check --max-failures
// stops the whole run after so many failing cases, and
// --max-consecutive-hangs stops testing a library under test that hung or
// crashed on so many cases in a row (a library that hangs on every case
// would otherwise hold a run for hours). The cases of one setup group that
// hung or crashed in a row count once: one crash while the worker made what
// they share is charged to each of them, and is still one crash (a cell's
// 18 requests would otherwise stop the library on its first broken cell).
// Cases are counted as they finish,
// each once with its final result (after its re-run); the runner asks
// skip_reason about the cases still to come.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "plugin/plugin_spec.hpp"
#include "suite/gate/check_options.hpp"
#include "suite/model/check_run.hpp"

namespace dlpack_usm::suite {

// Counts toward --max-failures: a regression, that is a fail, error, crash
// or timeout (a warn too under --strict), still failing after its re-run,
// that no --baseline or --flakes entry expects. A case turned away (not_run)
// is what a stop does, never a cause of one.
bool counts_as_failure(const CaseResult& result);

// A library under test, as the limits count its cases: a key (a Python
// library's worker, a C plugin's role) and a name for messages.
struct LibraryUnderTest {
  std::string key;
  std::string name;  // "Python library numpy.from_dlpack", "consumer libfoo.so"
};

// The library under test whose code the case runs (its crash and hang are
// the library's: the case names a crash or hang rule), or nullopt.
std::optional<LibraryUnderTest> library_of(const CaseSpec& spec,
                                           const std::vector<plugin::PluginSpec>& libraries);

// The library hung or crashed on the case: its outcome says so, or the
// runner charged the case's crash or hang rule at a warning (a hang on an
// invalid tensor only warns).
bool hung_or_crashed(const RecordedCase& recorded);

class RunLimits {
 public:
  // `options` is borrowed for the limits' life.
  explicit RunLimits(const CheckOptions& options) : options_(options) {}

  // Counts a finished case; returns the limits it reached (each is reached
  // once), as the reasons skip_reason gives from now on.
  std::vector<std::string> count(const RecordedCase& recorded);
  // Why `spec` is not to run any more (the runner turns it away), or
  // nullopt.
  std::optional<std::string> skip_reason(const CaseSpec& spec);
  // The reasons that turned a case away, in the order they first did: a
  // limit reached by the last case turned none away.
  const std::vector<std::string>& reasons() const { return used_reasons_; }

 private:
  std::optional<std::string> count_library_case(const LibraryUnderTest& library,
                                                const RecordedCase& recorded);
  const std::string* reached_for(const CaseSpec& spec) const;

  const CheckOptions& options_;
  int failures_ = 0;
  std::optional<std::string> run_stopped_;
  // Per library, by its key.
  std::map<std::string, int> hang_streaks_;
  // The setup group of the library's last case when it hung or crashed
  // ("" for none): the next case of that group adds nothing to the streak.
  std::map<std::string, std::string> streak_groups_;
  std::map<std::string, std::string> libraries_stopped_;
  std::vector<std::string> used_reasons_;
};

}  // namespace dlpack_usm::suite
