#include "report/findings_report.hpp"

#include <fmt/format.h>

#include "common/printable.hpp"
#include "report/json_printer.hpp"
#include "report/text_printer.hpp"

namespace dlpack_usm::report {
namespace {

Value counts_value(const FindingCounts& counts) {
  return {{"error", counts.errors}, {"warning", counts.warnings}, {"info", counts.infos}};
}

std::string plural(std::size_t count, std::string_view noun) {
  return fmt::format("{} {}{}", count, noun, count == 1 ? "" : "s");
}

std::string counts_text(const FindingCounts& counts) {
  return fmt::format("{}, {}, {}", plural(counts.errors, "error"),
                     plural(counts.warnings, "warning"), plural(counts.infos, "info"));
}

void print_tensor_findings(Printer& printer, const TensorFindings& tensor) {
  ObjectScope scope(printer, {});
  FindingCounts counts = count_findings(tensor.findings);
  printer.data("origin", tensor.origin);
  printer.line(fmt::format("{}  {}", printable(tensor.origin),
                           tensor.findings.empty() ? "no findings" : counts_text(counts)));
  printer.data("counts", counts_value(counts));
  TextView table;
  table.indent = 2;
  table.columns = finding_columns();
  ListScope findings(printer, "findings", table);
  for (const rules::Finding& finding : tensor.findings) {
    ObjectScope row(printer, {});
    print_finding(printer, finding);
  }
}

void print_file_findings(Printer& printer, const FileFindings& file) {
  ObjectScope scope(printer, {});
  printer.data("file", file.file);
  printer.data("error", file.error
                            ? Value{{"message", file.error->message}, {"hint", file.error->hint}}
                            : Value(nullptr));
  if (file.error) {
    printer.line(
        fmt::format("{}  not checked: {}", printable(file.file), printable(file.error->message)));
  }
  ListScope tensors(printer, "tensors");
  for (const TensorFindings& tensor : file.tensors) print_tensor_findings(printer, tensor);
}

std::string summary_text(const FindingsReport& report, const FindingsSummary& summary) {
  std::string text = fmt::format("checked {} in {}: {}", plural(summary.tensors, "tensor"),
                                 plural(summary.files, "file"), counts_text(summary.findings));
  if (summary.unreadable_files > 0) {
    text += fmt::format("; {} unreadable", plural(summary.unreadable_files, "file"));
  }
  if (report.strict) text += " (strict: warnings fail)";
  return text;
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

FindingsReport make_findings_report(std::vector<FileFindings> files, bool strict) {
  FindingsReport report;
  report.files = std::move(files);
  report.strict = strict;
  report.exit_code = static_cast<int>(decide_exit_code(report));
  return report;
}

std::vector<Column> finding_columns() {
  return {
      {"SEVERITY", "severity"}, {"RULE", "rule_id"}, {"FIELD", "field"}, {"MESSAGE", "message"}};
}

void print_finding(Printer& printer, const rules::Finding& finding) {
  printer.field("rule_id", finding.rule_id, finding.rule_id);
  printer.field("severity", rules::to_string(finding.severity), rules::to_string(finding.severity));
  printer.field("field", finding.field, printable(finding.field));
  printer.field("message", finding.message, printable(finding.message));
}

nlohmann::ordered_json finding_to_json(const rules::Finding& finding) {
  JsonPrinter printer;
  print_finding(printer, finding);
  return printer.take_document();
}

void print_findings_report(Printer& printer, const FindingsReport& report) {
  printer.data("strict", report.strict);
  {
    ListScope files(printer, "files");
    for (const FileFindings& file : report.files) print_file_findings(printer, file);
  }
  FindingsSummary summary = summarize(report);
  printer.data("summary", {{"files", summary.files},
                           {"unreadable_files", summary.unreadable_files},
                           {"tensors", summary.tensors},
                           {"findings", counts_value(summary.findings)}});
  printer.line(summary_text(report, summary));
  printer.data("exit_code", report.exit_code);
}

nlohmann::ordered_json findings_report_to_json(const FindingsReport& report) {
  return render_json(print_findings_report, report);
}

std::string findings_report_to_text(const FindingsReport& report) {
  return render_text(print_findings_report, report);
}

}  // namespace dlpack_usm::report
