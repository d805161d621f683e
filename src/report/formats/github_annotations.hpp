// `check --format github` and `report merge --format github`: GitHub Actions
// workflow commands (`::error file=F,title=T::message`) that the runner
// turns into annotations of the run, the pull request and the file. At most
// one annotation per kind (error, warning, notice), rule, library and
// capsule file: a producer with one bug fails dozens of cases with one rule,
// in a few failure groups (report/failure_groups.hpp) where their messages
// differ in more than numbers, which is one annotation that counts them
// ("... and N more cases"), while each failing conformance vector is an
// annotation on its own file. GitHub shows only the first ten annotations of
// each kind per step, so fewer, counted ones say more.
#pragma once

#include <string>
#include <string_view>

#include "suite/model/check_run.hpp"

namespace dlpack_usm::report {

// The escaping GitHub documents for workflow commands: '%', '\r' and '\n'
// in the message; also ':' and ',' in a property (file=, title=).
std::string escape_workflow_message(std::string_view text);
std::string escape_workflow_property(std::string_view text);

// The commands, a line each: `::error` for the groups that fail the gate
// (regressions, unexpected passes; an interrupted run), `::warning` for the
// warnings it lets pass, `::notice` for flaky cases. Expected failures get
// none: they are the baseline's. Empty when there is nothing to say.
std::string check_run_annotations(const suite::CheckRun& run);

}  // namespace dlpack_usm::report
