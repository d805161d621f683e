#include "report/formats/report_json_reader.hpp"

#include <cstdint>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include "capsule/bounded_json.hpp"
#include "capsule/document_error.hpp"
#include "common/bounded_file.hpp"
#include "common/error.hpp"
#include "common/json_fields.hpp"
#include "common/printable.hpp"
#include "report/envelope.hpp"

namespace dlpack_usm::report {
namespace {

// The run model the report describes.
using suite::CaseResult;
using suite::is_plain_label;
using suite::kCheckReportSchema;
using suite::kCheckReportSchemaV1;
using suite::kMaxLabelLength;
using suite::Outcome;
using suite::parse_outcome;
using suite::parse_shard;
using suite::parse_verdict;
using suite::RecordedCase;
using suite::Selection;
using suite::Shard;
using suite::Verdict;

using nlohmann::json;

constexpr const char* kReportHint =
    "give 'report merge' the files that 'check --report FILE' wrote, as they were written";

[[noreturn]] void fail_report(const std::string& file, const std::string& what,
                              const char* hint = kReportHint) {
  fail_usage(fmt::format("report merge: {}: {}", file, what), hint);
}

// The members of a report's objects, read by type (json_fields.hpp).
using Fields = JsonFields;

Outcome outcome_field(const Fields& fields, const char* key) {
  std::string text = fields.text(key);
  std::optional<Outcome> outcome = parse_outcome(text);
  if (!outcome) {
    fail_report(fields.file(), fmt::format("{} is {}, not an outcome (pass, warn, fail, ...)",
                                           fields.where(key), quote_for_message(text)));
  }
  return *outcome;
}

void read_findings(const Fields& fields, CaseResult& result) {
  for (const Fields& finding : fields.objects("findings")) {
    std::string severity_text = finding.text("severity");
    std::optional<rules::Severity> severity = rules::parse_severity(severity_text);
    if (!severity) {
      fail_report(fields.file(),
                  fmt::format("{} is {}, not error, warning or info", finding.where("severity"),
                              quote_for_message(severity_text)));
    }
    result.findings.push_back(
        {finding.text_or_null("rule_id"), *severity, finding.text("message")});
  }
}

// Where a consumer case sits in the capability profile; its class follows
// from the outcome and rules again.
void read_profile(const Fields& fields, RecordedCase& recorded) {
  if (!fields.has("profile")) return;
  Fields profile = fields.object("profile");
  recorded.spec.profile_axis = profile.text("axis");
  recorded.spec.profile_value = profile.text("value");
  recorded.result.profile_class = profile.text_or_null("outcome");
  if (profile.has("reason")) recorded.result.decline_reason = profile.text("reason");
}

RecordedCase read_case(const Fields& fields) {
  RecordedCase recorded;
  CaseResult& result = recorded.result;
  result.id = fields.text("id");
  if (result.id.empty()) fail_report(fields.file(), fmt::format("{} is empty", fields.where("id")));
  recorded.spec.id = result.id;
  recorded.spec.source = fields.text("source");
  recorded.spec.device = fields.text_or_null("device");
  recorded.spec.rules = fields.texts("rules");
  result.outcome = outcome_field(fields, "outcome");
  std::string verdict = fields.text("verdict");
  std::optional<Verdict> parsed = parse_verdict(verdict);
  if (!parsed) {
    fail_report(fields.file(), fmt::format("{} is {}, not a verdict", fields.where("verdict"),
                                           quote_for_message(verdict)));
  }
  result.verdict = *parsed;
  result.message = fields.text("message");
  result.rule_ids = fields.texts("rule_ids");
  read_findings(fields, result);
  result.duration_ms = fields.milliseconds("duration_ms");
  result.attempts = static_cast<int>(fields.integer("attempts", 0, 2));
  if (!fields.value("first_outcome", &json::is_primitive, "an outcome or null").is_null()) {
    result.first_outcome = outcome_field(fields, "first_outcome");
  }
  recorded.repro = fields.text("repro");
  // A /1 report names no file.
  if (fields.has("file")) recorded.spec.file = fields.text_or_null("file");
  read_profile(fields, recorded);
  return recorded;
}

// --filter, --rule, --device, --shard and the label as the run gave them.
void read_options(const Fields& options, ShardReport& report) {
  report.selection.id_globs = options.texts("filter");
  report.selection.rule_globs = options.texts("rule");
  report.selection.devices = options.texts("device");
  std::string shard = options.text_or_null("shard");
  if (!shard.empty()) {
    try {
      report.shard = parse_shard(shard);
    } catch (const Error&) {
      fail_report(report.file, fmt::format("{} is {}, not I/N", options.where("shard"),
                                           quote_for_message(shard)));
    }
    report.selection.shard = report.shard;
  }
  report.strict = options.flag("strict");
  report.label = options.text_or_null("label");
  if (!report.label.empty() && !is_plain_label(report.label)) {
    fail_report(
        report.file,
        fmt::format("{} is {}, not a label of 'check --label' (1 to {} letters, digits, "
                    "'.', '_' or '-')",
                    options.where("label"), quote_for_message(report.label), kMaxLabelLength));
  }
  report.suite_digest = options.text("suite_digest");
  if (report.suite_digest.size() != 64 ||
      report.suite_digest.find_first_not_of("0123456789abcdef") != std::string::npos) {
    fail_report(report.file,
                fmt::format("{} is not a SHA-256 (64 hex digits)", options.where("suite_digest")));
  }
  report.suite_cases = static_cast<std::size_t>(
      options.integer("suite_cases", 0, std::numeric_limits<std::int64_t>::max()));
}

// What `report merge` itself wrote has no suite of its own to check the
// cases against: it is refused as what it is.
void refuse_merged_report(const ShardReport& report) {
  const json& document = report.document;
  auto options = document.find("options");
  bool merged = document.contains("runs") || (options != document.end() && options->is_object() &&
                                              options->contains("merged_reports"));
  if (!merged) return;
  fail_report(report.file,
              "it is a merged report (written by 'report merge'), not the report of one 'check' "
              "run; a merged report cannot be merged again",
              "merge the reports of the 'check' runs it was made from, all at once; keep the "
              "merged report out of the list of inputs (or write it to another directory)");
}

// The version of the tool that wrote the report: /2 says it in its
// envelope, /1 in its "tool" object.
std::string tool_version(const Fields& top, bool first_schema) {
  if (first_schema) return top.object("tool").text("version");
  std::string tool = top.text("tool");
  if (tool != "dlpack-usm") {
    fail_report(top.file(), fmt::format("{} is {}, not \"dlpack-usm\"", top.where("tool"),
                                        quote_for_message(tool)));
  }
  return top.text("version");
}

void read_header(const JsonInput& input, ShardReport& report, bool first_schema) {
  Fields top(input, report.document, "");
  report.tool_version = tool_version(top, first_schema);
  report.started_at = top.text("started_at");
  report.finished_at = top.text("finished_at");
  report.duration_ms = top.milliseconds("duration_ms");
  top.texts("command_line");
  top.object("environment");
  Fields options = top.object("options");
  if (!options.has("suite_digest")) {
    fail_report(report.file, "its options name no suite_digest: an older dlpack-usm wrote it",
                "re-run 'check' with this dlpack-usm");
  }
  read_options(options, report);
  Fields summary = top.object("summary");
  report.interrupted = summary.flag("interrupted");
  if (summary.has("stop_reasons")) report.stop_reasons = summary.texts("stop_reasons");
  for (const Fields& file : top.objects("expectations")) {
    report.expectations.push_back({file.text("kind"), file.text("path"), file.text("sha256")});
  }
  if (top.has("plugins")) {
    for (const Fields& plugin : top.objects("plugins")) plugin.text("role");
    report.plugins = top.array("plugins");
  }
}

// The environment of a /1 report as /2 writes it: "tool": {"name",
// "version"} becomes the inventory's envelope. read_header has checked that
// "environment" is an object.
void upgrade_first_environment(json& document) {
  json& environment = document["environment"];
  auto tool = environment.find("tool");
  if (tool == environment.end()) return;
  std::string version = tool->is_object() ? tool->value("version", std::string()) : std::string();
  environment.erase(tool);
  environment["schema"] = kInventorySchema;
  environment["tool"] = "dlpack-usm";
  environment["version"] = version;
}

}  // namespace

json parse_report_json(const JsonInput& input, std::string_view text, std::string_view depth_note,
                       const capsule::RootEntryHandler& on_root_entry) {
  capsule::JsonLimits limits;
  limits.max_depth = kMaxReportDepth;
  limits.max_nested_array_entries = kMaxShardReportBytes;
  limits.max_object_members = 4096;
  limits.integers_only = false;
  limits.max_string_bytes = kMaxReportStringBytes;
  limits.depth_note = depth_note;
  limits.members_note = "the objects of a report have a few dozen";
  try {
    return capsule::parse_bounded_json(text, limits, on_root_entry);
  } catch (const capsule::DocumentError& error) {
    std::string where = error.byte_offset()
                            ? fmt::format("byte {}", *error.byte_offset())
                            : fmt::format("{}", error.pointer().empty() ? "/" : error.pointer());
    fail_input(input, fmt::format("{}: {}", where, error.what()));
  }
}

ShardReport read_shard_report(const std::filesystem::path& path) {
  std::string text =
      read_bounded_file(path, kMaxShardReportBytes, "report merge", "a 'check --report' file");
  ShardReport report;
  report.file = path.string();
  const JsonInput input{"report merge", report.file, kReportHint};
  report.document = parse_report_json(input, text, "a check report nests 10 levels",
                                      [&report](std::size_t, const json&) {
                                        fail_report(report.file,
                                                    "not a check report (a JSON array, not an "
                                                    "object)");
                                      });
  text = {};
  json schema = report.document.is_object() ? report.document.value("schema", json()) : json();
  bool first_schema = schema == json(kCheckReportSchemaV1);
  if (!first_schema && schema != json(kCheckReportSchema)) {
    fail_report(report.file, fmt::format("not a check report (its schema is not {} or {})",
                                         kCheckReportSchema, kCheckReportSchemaV1));
  }
  refuse_merged_report(report);
  read_header(input, report, first_schema);
  // A /1 environment carried the tool as an object of its own; the merged
  // report, written as /2, copies environments with the envelope instead.
  if (first_schema) upgrade_first_environment(report.document);
  for (const Fields& entry : Fields(input, report.document, "").objects("results")) {
    report.cases.push_back(read_case(entry));
  }
  return report;
}

}  // namespace dlpack_usm::report
