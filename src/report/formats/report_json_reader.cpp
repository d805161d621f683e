#include "report/formats/report_json_reader.hpp"

#include <cstdint>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include "capsule/bounded_json.hpp"
#include "capsule/document_error.hpp"
#include "common/bounded_file.hpp"
#include "common/error.hpp"
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

const char* type_name(const json& value) {
  switch (value.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::object:
      return "an object";
    case json::value_t::array:
      return "an array";
    case json::value_t::string:
      return "a string";
    case json::value_t::boolean:
      return "a boolean";
    default:
      return "a number";
  }
}

// The members of one JSON object of a report, read by type: a member that
// is missing or of another type is a usage error naming its JSON pointer.
class Fields {
 public:
  Fields(const std::string& file, const json& object, std::string pointer)
      : file_(file), object_(object), pointer_(std::move(pointer)) {}

  const json& value(const char* key, bool (json::*is_type)() const noexcept,
                    const char* expected) const {
    auto it = object_.find(key);
    if (it == object_.end()) {
      fail_report(file_, fmt::format("{} is missing ({} expected)", where(key), expected));
    }
    if (!((*it).*is_type)()) wrong(key, *it, expected);
    return *it;
  }
  std::string text(const char* key) const {
    return value(key, &json::is_string, "a string").get<std::string>();
  }
  // A string, or "" for null.
  std::string text_or_null(const char* key) const {
    const json& found = value(key, &json::is_primitive, "a string or null");
    if (found.is_null()) return {};
    if (!found.is_string()) wrong(key, found, "a string or null");
    return found.get<std::string>();
  }
  bool flag(const char* key) const {
    return value(key, &json::is_boolean, "true or false").get<bool>();
  }
  double milliseconds(const char* key) const {
    double number = value(key, &json::is_number, "a number").get<double>();
    if (!(number >= 0)) fail_report(file_, fmt::format("{} is negative", where(key)));
    return number;
  }
  std::int64_t integer(const char* key, std::int64_t low, std::int64_t high) const {
    const json& found = value(key, &json::is_number_integer, "an integer");
    bool too_large =
        found.is_number_unsigned() && found.get<std::uint64_t>() > static_cast<std::uint64_t>(high);
    std::int64_t number = too_large ? high : found.get<std::int64_t>();
    if (too_large || number < low || number > high) {
      fail_report(file_,
                  fmt::format("{} is {}, not from {} to {}", where(key), found.dump(), low, high));
    }
    return number;
  }
  Fields object(const char* key) const {
    return {file_, value(key, &json::is_object, "an object"), where(key)};
  }
  const json& array(const char* key) const { return value(key, &json::is_array, "an array"); }
  // The objects of an array member, each with its pointer.
  std::vector<Fields> objects(const char* key) const {
    std::vector<Fields> items;
    const json& list = array(key);
    for (std::size_t i = 0; i < list.size(); ++i) {
      std::string pointer = fmt::format("{}/{}", where(key), i);
      if (!list[i].is_object()) {
        fail_report(file_, fmt::format("{} is {}, not an object", pointer, type_name(list[i])));
      }
      items.emplace_back(file_, list[i], std::move(pointer));
    }
    return items;
  }
  std::vector<std::string> texts(const char* key) const {
    std::vector<std::string> items;
    const json& list = array(key);
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (!list[i].is_string()) {
        fail_report(file_,
                    fmt::format("{}/{} is {}, not a string", where(key), i, type_name(list[i])));
      }
      items.push_back(list[i].get<std::string>());
    }
    return items;
  }
  bool has(const char* key) const { return object_.contains(key); }
  std::string where(const char* key) const {
    return fmt::format("{}/{}", pointer_, capsule::pointer_token(key));
  }
  const std::string& file() const { return file_; }

 private:
  [[noreturn]] void wrong(const char* key, const json& found, const char* expected) const {
    fail_report(file_, fmt::format("{} is {}, not {}", where(key), type_name(found), expected));
  }

  const std::string& file_;
  const json& object_;
  std::string pointer_;
};

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

void read_header(ShardReport& report, bool first_schema) {
  Fields top(report.file, report.document, "");
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

json parse_report(const std::string& file, const std::string& text) {
  capsule::JsonLimits limits;
  limits.max_depth = kMaxReportDepth;
  limits.max_nested_array_entries = kMaxShardReportBytes;
  limits.max_object_members = 4096;
  limits.integers_only = false;
  limits.max_string_bytes = kMaxReportStringBytes;
  limits.depth_note = "a check report nests 10 levels";
  limits.members_note = "the objects of a check report have a few dozen";
  try {
    return capsule::parse_bounded_json(text, limits, [&file](std::size_t, const json&) {
      fail_report(file, "not a check report (a JSON array, not an object)");
    });
  } catch (const capsule::DocumentError& error) {
    std::string where = error.byte_offset()
                            ? fmt::format("byte {}", *error.byte_offset())
                            : fmt::format("{}", error.pointer().empty() ? "/" : error.pointer());
    fail_report(file, fmt::format("{}: {}", where, error.what()));
  }
}

}  // namespace

ShardReport read_shard_report(const std::filesystem::path& path) {
  std::string text =
      read_bounded_file(path, kMaxShardReportBytes, "report merge", "a 'check --report' file");
  ShardReport report;
  report.file = path.string();
  report.document = parse_report(report.file, text);
  text = {};
  json schema = report.document.is_object() ? report.document.value("schema", json()) : json();
  bool first_schema = schema == json(kCheckReportSchemaV1);
  if (!first_schema && schema != json(kCheckReportSchema)) {
    fail_report(report.file, fmt::format("not a check report (its schema is not {} or {})",
                                         kCheckReportSchema, kCheckReportSchemaV1));
  }
  refuse_merged_report(report);
  read_header(report, first_schema);
  // A /1 environment carried the tool as an object of its own; the merged
  // report, written as /2, copies environments with the envelope instead.
  if (first_schema) upgrade_first_environment(report.document);
  for (const Fields& entry : Fields(report.file, report.document, "").objects("results")) {
    report.cases.push_back(read_case(entry));
  }
  return report;
}

}  // namespace dlpack_usm::report
