#include "report/formats/check_report.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "report/envelope.hpp"
#include "report/failure_groups.hpp"
#include "report/formats/run_labels.hpp"
#include "report/inventory_report.hpp"
#include "report/json_printer.hpp"
#include "report/profile_report.hpp"
#include "report/text_printer.hpp"
#include "report/text_table.hpp"
#include "report/words.hpp"
#include "suite/model/record_json.hpp"

namespace dlpack_usm::report {
namespace {

using nlohmann::ordered_json;
using suite::CheckRun;
using suite::Outcome;
using suite::RecordedCase;

// Cases per device and outcome: the table people read first.
TextTable outcome_table(const CheckRun& run) {
  struct Row {
    int total = 0;
    std::map<Outcome, int> outcomes;
  };
  std::map<std::string, Row> rows;
  for (const RecordedCase& recorded : run.cases) {
    // Cases the filters left out are counted on the gate line, not here.
    if (recorded.result.outcome == Outcome::skipped) continue;
    Row& row = rows[device_group(recorded)];
    ++row.total;
    ++row.outcomes[recorded.result.outcome];
  }
  TextTable table(
      {"DEVICE", "CASES", "PASS", "WARN", "FAIL", "N/S", "ERROR", "CRASH", "TIMEOUT", "NOT RUN"});
  for (const auto& [name, row] : rows) {
    auto count = [&row](Outcome o) {
      auto it = row.outcomes.find(o);
      return std::to_string(it == row.outcomes.end() ? 0 : it->second);
    };
    table.add_row({name, std::to_string(row.total), count(Outcome::pass), count(Outcome::warn),
                   count(Outcome::fail), count(Outcome::not_supported), count(Outcome::error),
                   count(Outcome::crash), count(Outcome::timeout), count(Outcome::not_run)});
  }
  return table;
}

void print_plugins(Printer& printer, const CheckRun& run) {
  printer.data("plugins", Value(run.plugins));
  for (const nlohmann::json& plugin : run.plugins) {
    printer.line(
        fmt::format("{}: {}", plugin.value("role", std::string("plugin")), plugin_label(plugin)));
  }
  if (!run.plugins.empty()) printer.line("");
}

void print_expectation_files(Printer& printer, const CheckRun& run) {
  ListScope files(printer, "expectations");
  for (const suite::ExpectationFile& file : run.expectation_files) {
    printer.data({}, {{"kind", file.kind},
                      {"path", file.path},
                      {"sha256", file.sha256},
                      {"entries", file.case_ids.size()}});
  }
}

std::string verdicts_line(const CheckRun& run) {
  suite::VerdictCounts verdicts = run.verdict_counts();
  return fmt::format(
      "verdicts: {} ok, {} expected failure, {} flaky, {} unexpected pass, {} regression",
      verdicts.ok, verdicts.expected_failure, verdicts.flaky, verdicts.unexpected_pass,
      verdicts.regression);
}

// The counts. Verdicts are those of the cases the selection ran: a case the
// filters left out is in "outcomes" as skipped, and proves nothing.
void print_summary(Printer& printer, const CheckRun& run) {
  suite::VerdictCounts verdicts = run.verdict_counts();
  Value outcomes;
  for (Outcome outcome :
       {Outcome::pass, Outcome::warn, Outcome::fail, Outcome::not_supported, Outcome::skipped,
        Outcome::error, Outcome::crash, Outcome::timeout, Outcome::not_run}) {
    outcomes[suite::to_string(outcome)] = run.outcome_count(outcome);
  }
  printer.data("summary", {{"total", run.cases.size()},
                           {"outcomes", std::move(outcomes)},
                           {"verdicts", verdict_counts_json(verdicts)},
                           {"interrupted", run.interrupted},
                           {"stop_reasons", run.stop_reasons},
                           {"gate", run.gate_passed() ? "passed" : "failed"}});
  printer.line("");
  printer.line(verdicts_line(run));
}

// The run's header: the tool, when, how, on which machine, with what options.
void print_header(Printer& printer, const CheckRun& run) {
  print_envelope(printer, kReportSchema, run.tool_version);
  printer.data("started_at", run.started_at);
  printer.data("finished_at", run.finished_at);
  printer.data("duration_ms", run.duration_ms);
  printer.data("command_line", run.command_line);
  {
    // The machine the run saw, for machines: people ran list-devices.
    TextView hidden;
    hidden.hidden = true;
    ObjectScope environment(printer, "environment", hidden);
    print_inventory(printer, run.inventory, run.owner_answers);
  }
  printer.data("options", Value(run.options));
}

// Why cases were left unrun (--max-failures, a library that kept hanging)
// and how many each stop left, just above the gate line.
void print_stop_reasons(Printer& printer, const CheckRun& run) {
  std::vector<StoppedCases> stopped = stopped_cases(run);
  for (const std::string& reason : run.stop_reasons) {
    auto stop = std::find_if(stopped.begin(), stopped.end(),
                             [&](const StoppedCases& s) { return s.reason == reason; });
    printer.line(stop == stopped.end()
                     ? "not run: " + reason
                     : fmt::format("{} not run: {}", plural(stop->count, "case"), reason));
  }
}

}  // namespace

void print_case(Printer& printer, const RecordedCase& recorded) {
  const Value record = suite::record_to_json(recorded);
  for (const auto& [key, value] : record.items()) printer.data(key, value);
}

void print_check_run(Printer& printer, const CheckRun& run, SummaryDetail detail) {
  print_header(printer, run);
  print_plugins(printer, run);
  printer.table(outcome_table(run));
  print_profile(printer, suite::capability_profile(run),
                {suite::consumer_streams(run), suite::consumer_calls(run)});
  print_expectation_files(printer, run);
  print_summary(printer, run);
  {
    ListScope results(printer, "results");
    for (const RecordedCase& recorded : run.cases) {
      ObjectScope object(printer, {});
      print_case(printer, recorded);
    }
  }
  print_failures(printer, run, detail);
  printer.line("");
  print_stop_reasons(printer, run);
  printer.line(gate_line(run));
}

ordered_json verdict_counts_json(const suite::VerdictCounts& verdicts) {
  return {{"ok", verdicts.ok},
          {"expected_failure", verdicts.expected_failure},
          {"flaky", verdicts.flaky},
          {"unexpected_pass", verdicts.unexpected_pass},
          {"regression", verdicts.regression}};
}

std::string gate_line(const CheckRun& run) {
  int filtered = run.outcome_count(Outcome::skipped);
  std::size_t selected = run.cases.size() - static_cast<std::size_t>(filtered);
  return fmt::format(
      "gate: {}{} ({} run{} in {:.1f} s{})", run.gate_passed() ? "PASSED" : "FAILED",
      run.strict ? " (strict)" : "", fmt::format("{} case{}", selected, selected == 1 ? "" : "s"),
      filtered > 0 ? fmt::format(", {} filtered,", filtered) : "", run.duration_ms / 1000,
      !run.interrupted           ? ""
      : run.stop_reasons.empty() ? ", interrupted"
                                 : ", stopped early");
}

ordered_json check_run_to_json(const CheckRun& run) {
  JsonPrinter printer;
  print_check_run(printer, run, SummaryDetail::every_case);
  return printer.take_document();
}

std::string check_run_summary(const CheckRun& run, SummaryDetail detail, std::size_t width) {
  TextPrinter printer(width);
  if (detail == SummaryDetail::quiet) {
    printer.line(gate_line(run));
  } else {
    print_check_run(printer, run, detail);
  }
  return printer.text();
}

std::string run_ending_summary(const CheckRun& run, SummaryDetail detail, std::size_t width) {
  TextPrinter printer(width);
  if (detail != SummaryDetail::quiet) {
    printer.line(verdicts_line(run));
    print_failures(printer, run, detail);
    printer.line("");
    print_stop_reasons(printer, run);
  }
  printer.line(gate_line(run));
  return printer.text();
}

TextTable device_outcome_table(const CheckRun& run) {
  return outcome_table(run);
}

std::string check_run_gate_line(const CheckRun& run) {
  return gate_line(run);
}

}  // namespace dlpack_usm::report
