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
#include "suite/model/record_json.hpp"

namespace dlpack_usm::report {
namespace {

// The run model the report describes.
using suite::is_plain_label;
using suite::kCheckReportSchema;
using suite::kCheckReportSchemaV1;
using suite::kMaxLabelLength;
using suite::parse_shard;
using suite::Selection;
using suite::Shard;

using nlohmann::json;

constexpr const char* kReportHint =
    "give 'report merge' the files that 'check --report FILE' wrote, as they were written";

[[noreturn]] void fail_report(const std::string& file, const std::string& what,
                              const char* hint = kReportHint) {
  fail_usage(fmt::format("report merge: {}: {}", file, what), hint);
}

// The members of a report's objects, read by type (common/json_fields.hpp).
using Fields = JsonFields;

// --filter, --rule, --device, --shard and the label as the run gave them.
void read_options(const Fields& options, ShardReport& report) {
  report.selection.id_globs = options.texts("filter");
  report.selection.rule_globs = options.texts("rule");
  report.selection.devices = options.texts("device");
  // A report older than --cell names no cells.
  if (options.has("cell")) report.selection.cells = options.texts("cell");
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

bool is_check_report_schema(std::string_view schema) {
  return schema == kCheckReportSchema || schema == suite::kCheckReportSchemaV2 ||
         schema == kCheckReportSchemaV1;
}

CheckReportRecords read_check_report_records(const JsonInput& input, const json& document) {
  Fields top(input, document, "");
  CheckReportRecords records;
  records.schema = top.text("schema");
  if (top.has("plugins")) {
    for (const Fields& plugin : top.objects("plugins")) plugin.text("role");
    records.plugins = top.array("plugins");
  }
  for (const Fields& entry : top.objects("results")) {
    records.cases.push_back(suite::record_from_json(entry, suite::RecordSource::report));
  }
  return records;
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
  if (!schema.is_string() || !is_check_report_schema(schema.get<std::string>())) {
    fail_report(report.file,
                fmt::format("not a check report (its schema is not {}, {} or {})",
                            kCheckReportSchema, suite::kCheckReportSchemaV2, kCheckReportSchemaV1));
  }
  bool first_schema = schema == json(kCheckReportSchemaV1);
  refuse_merged_report(report);
  read_header(input, report, first_schema);
  // A /1 environment carried the tool as an object of its own; the merged
  // report, written as /3, copies environments with the envelope instead.
  if (first_schema) upgrade_first_environment(report.document);
  CheckReportRecords records = read_check_report_records(input, report.document);
  report.plugins = std::move(records.plugins);
  report.cases = std::move(records.cases);
  return report;
}

}  // namespace dlpack_usm::report
