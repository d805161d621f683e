#include "report/findings_report.hpp"

#include <iterator>
#include <set>

#include <fmt/format.h>

#include "common/printable.hpp"
#include "report/envelope.hpp"
#include "report/json_printer.hpp"
#include "report/text_printer.hpp"
#include "report/words.hpp"

namespace dlpack_usm::report {
namespace {

Value counts_value(const FindingCounts& counts) {
  return {{"error", counts.errors}, {"warning", counts.warnings}, {"info", counts.infos}};
}

std::string counts_text(const FindingCounts& counts) {
  return fmt::format("{}, {}, {}", plural(counts.errors, "error"),
                     plural(counts.warnings, "warning"), plural(counts.infos, "info"));
}

void print_counts(Printer& printer, const FindingCounts& counts) {
  printer.data_count("error", counts.errors);
  printer.data_count("warning", counts.warnings);
  printer.data_count("info", counts.infos);
}

// The findings of a tensor as a table. An empty table prints nothing, so an
// empty list (most tensors of a capture) goes without one.
const TextView& findings_view(bool empty) {
  static const TextView kTable = [] {
    TextView table;
    table.indent = 2;
    table.columns = finding_columns();
    return table;
  }();
  static const TextView kEmpty;
  return empty ? kEmpty : kTable;
}

void print_tensor_findings(Printer& printer, std::string_view origin,
                           const std::vector<rules::Finding>& findings) {
  ObjectScope scope(printer, {});
  FindingCounts counts = count_findings(findings);
  printer.data_text("origin", origin);
  // Built on the stack (a printer escapes what it shows): a capture's
  // millions of tensors each print this line.
  fmt::memory_buffer line;
  auto add = [&line](std::string_view text) {
    line.append(text.data(), text.data() + text.size());
  };
  add(origin);
  add("  ");
  add(findings.empty() ? std::string_view("no findings") : std::string_view(counts_text(counts)));
  printer.line(std::string_view(line.data(), line.size()));
  {
    ObjectScope numbers(printer, "counts");
    print_counts(printer, counts);
  }
  {
    ListScope list(printer, "findings", findings_view(findings.empty()));
    for (const rules::Finding& finding : findings) {
      ObjectScope row(printer, {});
      print_finding(printer, finding);
    }
  }
  // Where to read each rule: its quote, reference and vectors.
  std::set<std::string_view> rule_ids;
  for (const rules::Finding& finding : findings) rule_ids.insert(finding.rule_id);
  for (std::string_view rule_id : rule_ids) {
    printer.line(fmt::format("  see: dlpack-usm rules {}", rule_id));
  }
}

std::string summary_text(bool strict, const FindingsSummary& summary) {
  std::string text = fmt::format("checked {} in {}: {}", plural(summary.tensors, "tensor"),
                                 plural(summary.files, "file"), counts_text(summary.findings));
  if (summary.unreadable_files > 0) {
    text += fmt::format("; {} unreadable", plural(summary.unreadable_files, "file"));
  }
  if (strict) text += " (strict: warnings fail)";
  return text;
}

void add_counts(FindingCounts& total, const FindingCounts& counts) {
  total.errors += counts.errors;
  total.warnings += counts.warnings;
  total.infos += counts.infos;
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
      add_counts(summary.findings, count_findings(tensor.findings));
    }
  }
  return summary;
}

ExitCode decide_exit_code(const FindingsSummary& summary, bool strict) {
  if (summary.unreadable_files > 0) return ExitCode::usage;
  bool failed = summary.findings.errors > 0 || (strict && summary.findings.warnings > 0);
  return failed ? ExitCode::findings : ExitCode::ok;
}

ExitCode decide_exit_code(const FindingsReport& report) {
  return decide_exit_code(summarize(report), report.strict);
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

FindingsWalk::FindingsWalk(Printer& printer, bool strict) : printer_(printer), strict_(strict) {
  print_envelope(printer_, kFindingsSchema);
  printer_.data("strict", strict_);
  printer_.begin_list("files");
}

void FindingsWalk::begin_file(const std::string& file) {
  file_ = file;
  file_tensors_ = 0;
  printer_.begin_object({});
  printer_.data("file", file_);
  printer_.begin_list("tensors");
}

void FindingsWalk::tensor(const TensorFindings& tensor) {
  this->tensor(tensor.origin, tensor.findings);
}

void FindingsWalk::tensor(std::string_view origin, const std::vector<rules::Finding>& findings) {
  if (findings.empty()) {
    // Most tensors of a capture: alike but for their origin.
    printer_.item_alike("origin", origin, [](Printer& printer, std::string_view text) {
      static const std::vector<rules::Finding> kNone;
      print_tensor_findings(printer, text, kNone);
    });
  } else {
    print_tensor_findings(printer_, origin, findings);
  }
  ++file_tensors_;
  ++summary_.tensors;
  add_counts(summary_.findings, count_findings(findings));
}

void FindingsWalk::end_file(const std::optional<FileError>& error) {
  printer_.end_list();
  printer_.data("error",
                error ? Value{{"message", error->message}, {"hint", error->hint}} : Value(nullptr));
  if (error) {
    ++summary_.unreadable_files;
    // Tensors before the problem were checked and printed as they came.
    std::string checked = file_tensors_ == 0
                              ? std::string("not checked")
                              : fmt::format("stopped after {}", plural(file_tensors_, "tensor"));
    printer_.line(fmt::format("{}  {}: {}", printable(file_), checked, printable(error->message)));
  }
  printer_.end_object();
  ++summary_.files;
}

int FindingsWalk::finish() {
  printer_.end_list();
  printer_.data("summary", {{"files", summary_.files},
                            {"unreadable_files", summary_.unreadable_files},
                            {"tensors", summary_.tensors},
                            {"findings", counts_value(summary_.findings)}});
  printer_.line(summary_text(strict_, summary_));
  int exit_code = static_cast<int>(decide_exit_code(summary_, strict_));
  printer_.data("exit_code", exit_code);
  return exit_code;
}

void print_findings_report(Printer& printer, const FindingsReport& report) {
  FindingsWalk walk(printer, report.strict);
  for (const FileFindings& file : report.files) {
    walk.begin_file(file.file);
    for (const TensorFindings& tensor : file.tensors) walk.tensor(tensor);
    walk.end_file(file.error);
  }
  walk.finish();
}

nlohmann::ordered_json findings_report_to_json(const FindingsReport& report) {
  return render_json(print_findings_report, report);
}

std::string findings_report_to_text(const FindingsReport& report) {
  return render_text(print_findings_report, report);
}

}  // namespace dlpack_usm::report
