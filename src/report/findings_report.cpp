#include "report/findings_report.hpp"

#include <fmt/format.h>

#include "common/printable.hpp"
#include "report/text_table.hpp"

namespace dlpack_usm::report {
namespace {

using nlohmann::ordered_json;

ordered_json counts_json(const FindingCounts& counts) {
  return {{"error", counts.errors}, {"warning", counts.warnings}, {"info", counts.infos}};
}

std::string plural(std::size_t count, std::string_view noun) {
  return fmt::format("{} {}{}", count, noun, count == 1 ? "" : "s");
}

std::string counts_text(const FindingCounts& counts) {
  return fmt::format("{}, {}, {}", plural(counts.errors, "error"),
                     plural(counts.warnings, "warning"), plural(counts.infos, "info"));
}

std::string tensor_findings_text(const TensorFindings& tensor) {
  if (tensor.findings.empty()) return fmt::format("{}  no findings\n", printable(tensor.origin));
  std::string text = fmt::format("{}  {}\n", printable(tensor.origin),
                                 counts_text(count_findings(tensor.findings)));
  TextTable table({"SEVERITY", "RULE", "FIELD", "MESSAGE"});
  for (const rules::Finding& finding : tensor.findings) {
    table.add_row({rules::to_string(finding.severity), finding.rule_id, printable(finding.field),
                   printable(finding.message)});
  }
  return text + table.render("  ");
}

}  // namespace

FindingCounts count_findings(const std::vector<rules::Finding>& findings) {
  FindingCounts counts;
  for (const rules::Finding& finding : findings) {
    switch (finding.severity) {
      case rules::Severity::error:
        ++counts.errors;
        break;
      case rules::Severity::warning:
        ++counts.warnings;
        break;
      case rules::Severity::info:
        ++counts.infos;
        break;
    }
  }
  return counts;
}

FindingsSummary summarize(const FindingsReport& report) {
  FindingsSummary summary;
  summary.files = report.files.size();
  for (const FileFindings& file : report.files) {
    if (file.error) ++summary.unreadable_files;
    summary.tensors += file.tensors.size();
    for (const TensorFindings& tensor : file.tensors) {
      FindingCounts counts = count_findings(tensor.findings);
      summary.findings.errors += counts.errors;
      summary.findings.warnings += counts.warnings;
      summary.findings.infos += counts.infos;
    }
  }
  return summary;
}

ExitCode decide_exit_code(const FindingsReport& report) {
  FindingsSummary summary = summarize(report);
  if (summary.unreadable_files > 0) return ExitCode::usage;
  bool failed = summary.findings.errors > 0 || (report.strict && summary.findings.warnings > 0);
  return failed ? ExitCode::findings : ExitCode::ok;
}

ordered_json finding_to_json(const rules::Finding& finding) {
  return {{"rule_id", finding.rule_id},
          {"severity", rules::to_string(finding.severity)},
          {"field", finding.field},
          {"message", finding.message}};
}

ordered_json findings_report_to_json(const FindingsReport& report) {
  ordered_json out;
  out["strict"] = report.strict;
  out["files"] = ordered_json::array();
  for (const FileFindings& file : report.files) {
    ordered_json entry;
    entry["file"] = file.file;
    entry["error"] =
        file.error ? ordered_json{{"message", file.error->message}, {"hint", file.error->hint}}
                   : ordered_json(nullptr);
    entry["tensors"] = ordered_json::array();
    for (const TensorFindings& tensor : file.tensors) {
      ordered_json findings = ordered_json::array();
      for (const rules::Finding& finding : tensor.findings) {
        findings.push_back(finding_to_json(finding));
      }
      entry["tensors"].push_back({{"origin", tensor.origin},
                                  {"counts", counts_json(count_findings(tensor.findings))},
                                  {"findings", std::move(findings)}});
    }
    out["files"].push_back(std::move(entry));
  }
  FindingsSummary summary = summarize(report);
  out["summary"] = {{"files", summary.files},
                    {"unreadable_files", summary.unreadable_files},
                    {"tensors", summary.tensors},
                    {"findings", counts_json(summary.findings)}};
  out["exit_code"] = report.exit_code;
  return out;
}

std::string findings_report_to_text(const FindingsReport& report) {
  std::string text;
  for (const FileFindings& file : report.files) {
    if (file.error) {
      text += fmt::format("{}  not checked: {}\n", printable(file.file),
                          printable(file.error->message));
    }
    for (const TensorFindings& tensor : file.tensors) text += tensor_findings_text(tensor);
  }
  FindingsSummary summary = summarize(report);
  text += fmt::format("checked {} in {}: {}", plural(summary.tensors, "tensor"),
                      plural(summary.files, "file"), counts_text(summary.findings));
  if (summary.unreadable_files > 0) {
    text += fmt::format("; {} unreadable", plural(summary.unreadable_files, "file"));
  }
  text += report.strict ? " (strict: warnings fail)\n" : "\n";
  return text;
}

}  // namespace dlpack_usm::report
