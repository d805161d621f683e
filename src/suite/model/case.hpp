// The unit of `dlpack-usm check`: a case, its outcome when run, and the
// verdict once expectations (baseline, flakes) are applied.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "rules/rule.hpp"
#include "suite/model/case_place.hpp"
#include "suite/model/exchange_outcome.hpp"

namespace dlpack_usm::suite {

// What happened when the case ran. A case that ran to its end takes the
// status of its worst finding: an error fails it, a warning makes it warn
// (the gate passes it unless --strict), an info passes it.
enum class Outcome {
  pass,
  warn,  // the worst finding is a warning
  fail,
  not_supported,  // the device lacks a capability the case needs
  skipped,        // filtered out after selection (kept for the record)
  error,          // the harness could not evaluate the case
  crash,          // the isolated child died on a signal or exited abnormally
  timeout,        // the watchdog killed it
  not_run,        // the run was interrupted before the case started
};

// What the gate makes of the outcome, given the expectation files.
enum class Verdict { ok, expected_failure, flaky, unexpected_pass, regression };

const char* to_string(Outcome outcome);
const char* to_string(Verdict verdict);
std::optional<Outcome> parse_outcome(std::string_view text);
std::optional<Verdict> parse_verdict(std::string_view text);
// fail, error, crash, timeout: the outcomes a baseline can expect; with
// `strict` (check --strict) warn as well.
bool is_failing(Outcome outcome, bool strict = false);

// What one case source needs to run one of its cases. Each source declares
// its own type (a vector's file and expected rules; a round trip's USM kind,
// dtype, layout and version...), so that a case says what it is in types the
// compiler checks, not in free-form JSON.
struct CaseDetails {
  virtual ~CaseDetails() = default;
};

// A case that cannot run here (a device without USM, a kind it cannot
// allocate, a runtime answer that would decide its verdict); recorded as
// not_supported with the reason, and with the rule that blocks it, if any.
struct NotSupportedCase final : CaseDetails {
  explicit NotSupportedCase(std::string why, std::vector<std::string> blocking_rules = {})
      : reason(std::move(why)), rule_ids(std::move(blocking_rules)) {}
  std::string reason;
  std::vector<std::string> rule_ids;
};

struct CaseSpec {
  std::string id;      // "vector/shape/strides-null-1.2", "live/opencl:cpu:1/shared/..."
  std::string source;  // the CaseSource kind that runs it: "vector", "live", ...
  // The device the case runs on (a list-devices selector name), or empty for
  // cases that need none (the offline vectors).
  std::string device;
  std::vector<std::string> rules;              // rule ids the case is about, for --rule
  std::shared_ptr<const CaseDetails> details;  // of the source's own type
  // The rules a crash or a hang of the child breaks: set where the code under
  // test (a plugin) runs in the child, empty where a crash is the tool's own.
  std::string crash_rule = {};
  std::string timeout_rule = {};
  // What the case asks of the library under test (check --require): a clean
  // decline (not_supported) of a case naming a required feature breaks
  // `decline_rule` instead.
  std::vector<std::string> features = {};
  std::string decline_rule = {};
  // Its place in the compatibility matrix (empty for the tool's own cases).
  // A consumer case's one line is its cell of the capability profile (check
  // --consumer): its axis ("dtype", "layout", "usm-kind", "version",
  // "invalid") and its value there ("bool", "negative-stride", "device-usm",
  // "1.2").
  CasePlace place = {};
  // The worker a case runs in: cases of one key share a worker process (a
  // batch), cases of two keys never do. Empty: the tool's own worker (the
  // vectors, live cases, C plugins); a Python library's cases name their
  // interpreter and library, so that two libraries never share one.
  std::string worker = {};
  // Cases that share what their worker makes once for them (the array of
  // one cell, asked every request): a crash or hang while the worker makes
  // it is charged to every case of the group. Empty: the case shares none.
  std::string setup_group = {};
  // The worker reports what it saw: the case's outcome is its worst
  // finding at the catalog's severity, and its message the findings' (the
  // recorder decides them, as a C++ source's CaseFindings does). A Python
  // producer's steps and a profile's answers.
  bool outcome_from_findings = false;
  // The options that name its library under test again where check's own
  // do not (a Python library: --python-consumer EXPR --python INTERP), for
  // the case's repro line.
  std::vector<std::string> library_arguments = {};
  // The Python library under test the case calls, as messages name it (its
  // EXPR or MODULE); empty for the tool's own cases and C plugins' (which
  // their role names).
  std::string library = {};
  // A handoff's consumer (its EXPR or MODULE), `library` being its producer;
  // empty for every other case.
  std::string consumer_library = {};
  // The cell of the matrix the case offers or makes ("dtype-int8",
  // "c-order"), which check --cell selects by; empty for other cases.
  std::string cell = {};
  // The capsule file the case reads (a vector's), as a path a user can give
  // to `capsule check`; empty where the case reads none. CI annotations
  // (check --format github) point at it.
  std::string file = {};
  // A standalone program that reproduces the case outside the tool (shell
  // lines: a Python here-document for a Python consumer's cells), which a
  // crash or hang report shows; empty where the source writes none.
  std::string snippet = {};

  // The details as the source declared them; Error(internal) for a case of
  // another source (a bug of the tool).
  template <typename Details>
  const Details& details_as() const {
    const auto* typed = dynamic_cast<const Details*>(details.get());
    if (typed == nullptr) throw_details_mismatch();
    return *typed;
  }
  // The reason, when the case is a NotSupportedCase.
  const NotSupportedCase* not_supported() const {
    return dynamic_cast<const NotSupportedCase*>(details.get());
  }

 private:
  [[noreturn]] void throw_details_mismatch() const;
};

// One finding of a case: the rule it breaks and how severe the catalog
// says that is. A finding with no rule is a check of the tool itself (a
// vector that did not fire its rule, a step of the harness) and fails the
// case.
struct CaseFinding {
  std::string rule_id;
  rules::Severity severity = rules::Severity::error;
  std::string message;
};

struct CaseResult {
  CaseResult() = default;
  // A result with no rule fired (yet): pass, not_supported, error...
  CaseResult(std::string case_id, Outcome case_outcome, std::string case_message = {})
      : id(std::move(case_id)), outcome(case_outcome), message(std::move(case_message)) {}

  std::string id;
  Outcome outcome = Outcome::error;
  std::string message;
  std::vector<std::string> rule_ids;  // rules that fired, each once, in order
  std::vector<CaseFinding> findings;  // what decided the outcome, with severities
  double duration_ms = 0;
  int attempts = 1;
  // Set by the runner when a re-run gave another outcome.
  std::optional<Outcome> first_outcome;
  Verdict verdict = Verdict::ok;
  // The exchange as the matrix shows it: set where the source judged one
  // (a consumer cell's class in the capability profile, from
  // matrix/consumer_verdict.hpp; what a producer did with a request), by the
  // recorder for a crash, hang or deleter misuse the runner charged.
  ExchangeOutcome exchange = ExchangeOutcome::none;
  // For a decline, the library's reason.
  std::string decline_reason;
  // A Python library's exception ("BufferError: ..."), and what a producer
  // emitted ("dltensor_versioned 1.3, strides [5, 1], kDLCPU:0").
  std::string exception;
  std::string emitted;
  // What the case observed beyond its findings, for the report's readers
  // (a consumer's calls and the stream it passed); null where nothing.
  nlohmann::json evidence = nullptr;

  // Records a finding and its rule id.
  void add_finding(CaseFinding finding);
};

// The status a case's findings give it: fail on an error, warn on a
// warning, pass otherwise.
Outcome outcome_of(const std::vector<CaseFinding>& findings);

// The catalog's severity of `rule_id`; Error(internal) for an id the
// catalog does not have (a bug of the tool).
rules::Severity catalog_severity(std::string_view rule_id);

// The result of a NotSupportedCase: not_supported, its reason, the rules
// that block it, and not_applicable where the case has a place.
CaseResult not_supported_result(const CaseSpec& spec, const NotSupportedCase& not_supported);

// Produces the cases of one kind and runs one of them. run() executes inside
// the isolated child process; it reports failures through the result and
// throws only for harness errors.
class CaseSource {
 public:
  virtual ~CaseSource() = default;
  // The first part of every id of its cases ("vector" for "vector/...").
  virtual std::string_view kind() const = 0;
  // Whether its cases need the runtime: a worker that runs none of them
  // never starts it (the offline vectors).
  virtual bool needs_runtime() const { return true; }
  // Deterministic: the same machine and options give the same list.
  virtual std::vector<CaseSpec> cases() = 0;
  virtual CaseResult run(const CaseSpec& spec) = 0;
};

using CaseSources = std::vector<std::unique_ptr<CaseSource>>;

}  // namespace dlpack_usm::suite
