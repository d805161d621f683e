// The end of `check`'s summary for cases a caller ran itself (the Python
// package's consume): the verdicts line, the failing cases grouped as
// `check` groups them (or every one, or none) and the gate line, written by
// the command line's own code (report/failure_groups.hpp) so that both say
// the same thing the same way.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

namespace dlpack_usm::bridge {

// `request` is {"cases": [{"id", "outcome" (check's outcomes: "pass",
// "warn", "fail", "not_supported", "error", "crash", "timeout", "not_run"),
// "message", "findings": [{"rule_id", "severity", "message"}], "rules" (what
// the case is about), "repro", "duration_ms"}], "strict", "duration_ms",
// "detail" ("quiet" | "grouped" | "every_case")}. Each verdict is decided as
// `check` decides it without expectation files. Answers {"text", "gate"
// ("passed" | "failed"), "verdicts": {"ok", ..., "regression"}}; Error(usage)
// for a request of another shape.
nlohmann::ordered_json run_summary_json(std::string_view request);

}  // namespace dlpack_usm::bridge
