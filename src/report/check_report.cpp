#include "report/check_report.hpp"

#include <map>

#include <fmt/format.h>

#include "report/inventory_report.hpp"
#include "report/text_table.hpp"

namespace dlpack_usm::report {
namespace {

using nlohmann::ordered_json;
using suite::CheckRun;
using suite::Outcome;
using suite::RecordedCase;

ordered_json case_to_json(const RecordedCase& recorded) {
  const suite::CaseResult& result = recorded.result;
  ordered_json json;
  json["id"] = result.id;
  json["source"] = recorded.spec.source;
  json["device"] =
      recorded.spec.device.empty() ? ordered_json(nullptr) : ordered_json(recorded.spec.device);
  json["outcome"] = suite::to_string(result.outcome);
  json["verdict"] = suite::to_string(result.verdict);
  json["message"] = result.message;
  json["rule_ids"] = result.rule_ids;
  json["duration_ms"] = result.duration_ms;
  json["attempts"] = result.attempts;
  json["first_outcome"] = result.first_outcome
                              ? ordered_json(suite::to_string(*result.first_outcome))
                              : ordered_json(nullptr);
  json["repro"] = recorded.repro;
  return json;
}

// The JUnit suite a case belongs to: its device, or "vectors" for offline ones.
std::string suite_name(const RecordedCase& recorded) {
  return recorded.spec.device.empty() ? std::string("vectors") : recorded.spec.device;
}

// Length of the valid UTF-8 sequence at `text[i]`, or 0 when invalid.
std::size_t utf8_sequence_length(std::string_view text, std::size_t i) {
  auto byte = static_cast<unsigned char>(text[i]);
  std::size_t length = byte < 0x80           ? 1
                       : (byte >> 5) == 0x6  ? 2
                       : (byte >> 4) == 0xE  ? 3
                       : (byte >> 3) == 0x1E ? 4
                                             : 0;
  if (length == 0 || i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return 0;
  }
  return length;
}

std::string plugin_label(const nlohmann::json& plugin) {
  auto text = [&plugin](const char* key) {
    return plugin.contains(key) && plugin[key].is_string() ? plugin[key].get<std::string>()
                                                           : std::string();
  };
  std::string label = text("name").empty() ? text("path") : text("name") + " " + text("version");
  std::string symbol = text("symbol");
  return fmt::format("{} ({}{}{})", label, text("path"), symbol.empty() ? "" : ":", symbol);
}

// The libraries under test, on every suite, so a CI page shows what was tested.
std::string plugin_properties(const CheckRun& run) {
  if (run.plugins.empty()) return {};
  std::string xml = "    <properties>\n";
  for (const nlohmann::json& plugin : run.plugins) {
    xml += fmt::format("      <property name=\"{}\" value=\"{}\"/>\n",
                       xml_escape(plugin.value("role", std::string("plugin"))),
                       xml_escape(plugin_label(plugin)));
  }
  return xml + "    </properties>\n";
}

}  // namespace

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    std::size_t length = utf8_sequence_length(text, i);
    if (length == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
      continue;
    }
    if (length == 1) {
      char c = text[i];
      switch (c) {
        case '&':
          out += "&amp;";
          break;
        case '<':
          out += "&lt;";
          break;
        case '>':
          out += "&gt;";
          break;
        case '"':
          out += "&quot;";
          break;
        case '\'':
          out += "&apos;";
          break;
        case '\t':
        case '\n':
        case '\r':
          out += c;
          break;
        default:
          if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
            out += "\xEF\xBF\xBD";
          } else {
            out += c;
          }
      }
    } else {
      out.append(text.substr(i, length));
    }
    i += length;
  }
  return out;
}

ordered_json check_run_to_json(const CheckRun& run) {
  ordered_json json;
  json["schema"] = kReportSchema;
  json["tool"] = {{"name", "dlpack-usm"}, {"version", run.tool_version}};
  json["started_at"] = run.started_at;
  json["finished_at"] = run.finished_at;
  json["duration_ms"] = run.duration_ms;
  json["command_line"] = run.command_line;
  json["environment"] = inventory_to_json(run.inventory);
  json["options"] = run.options;
  json["plugins"] = ordered_json(run.plugins);
  ordered_json files = ordered_json::array();
  for (const suite::ExpectationFile& file : run.expectation_files) {
    files.push_back({{"kind", file.kind},
                     {"path", file.path},
                     {"sha256", file.sha256},
                     {"entries", file.case_ids.size()}});
  }
  json["expectations"] = std::move(files);
  suite::VerdictCounts verdicts = run.verdict_counts();
  ordered_json outcomes;
  for (Outcome outcome : {Outcome::pass, Outcome::fail, Outcome::not_supported, Outcome::skipped,
                          Outcome::error, Outcome::crash, Outcome::timeout, Outcome::not_run}) {
    outcomes[suite::to_string(outcome)] = run.outcome_count(outcome);
  }
  json["summary"] = {{"total", run.cases.size()},
                     {"outcomes", std::move(outcomes)},
                     {"verdicts",
                      {{"ok", verdicts.ok},
                       {"expected_failure", verdicts.expected_failure},
                       {"flaky", verdicts.flaky},
                       {"unexpected_pass", verdicts.unexpected_pass},
                       {"regression", verdicts.regression}}},
                     {"interrupted", run.interrupted},
                     {"gate", run.gate_passed() ? "passed" : "failed"}};
  ordered_json results = ordered_json::array();
  for (const RecordedCase& recorded : run.cases) results.push_back(case_to_json(recorded));
  json["results"] = std::move(results);
  return json;
}

std::string recorded_case_line(const RecordedCase& recorded) {
  return case_to_json(recorded).dump(-1, ' ', false, ordered_json::error_handler_t::replace);
}

std::string check_run_to_junit(const CheckRun& run) {
  std::map<std::string, std::vector<const RecordedCase*>> suites;
  for (const RecordedCase& recorded : run.cases) suites[suite_name(recorded)].push_back(&recorded);

  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  xml += fmt::format("<testsuites name=\"dlpack-usm check\" tests=\"{}\" time=\"{:.3f}\">\n",
                     run.cases.size(), run.duration_ms / 1000.0);
  for (const auto& [name, members] : suites) {
    int failures = 0, errors = 0, skipped = 0;
    double seconds = 0;
    for (const RecordedCase* recorded : members) {
      Outcome outcome = recorded->result.outcome;
      failures += outcome == Outcome::fail ? 1 : 0;
      errors += (outcome == Outcome::crash || outcome == Outcome::timeout ||
                 outcome == Outcome::error || outcome == Outcome::not_run)
                    ? 1
                    : 0;
      skipped += (outcome == Outcome::not_supported || outcome == Outcome::skipped) ? 1 : 0;
      seconds += recorded->result.duration_ms / 1000.0;
    }
    xml += fmt::format(
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" "
        "time=\"{:.3f}\">\n",
        xml_escape(name), members.size(), failures, errors, skipped, seconds);
    xml += plugin_properties(run);
    for (const RecordedCase* recorded : members) {
      const suite::CaseResult& result = recorded->result;
      std::string classname = recorded->spec.source + "." + name;
      xml += fmt::format("    <testcase name=\"{}\" classname=\"{}\" time=\"{:.3f}\"",
                         xml_escape(result.id), xml_escape(classname), result.duration_ms / 1000.0);
      std::string detail =
          fmt::format("verdict: {}\nrepro: {}", suite::to_string(result.verdict), recorded->repro);
      std::string message = xml_escape(result.message);
      switch (result.outcome) {
        case Outcome::pass:
          xml += "/>\n";
          continue;
        case Outcome::fail:
          xml += fmt::format(">\n      <failure message=\"{}\" type=\"fail\">{}</failure>\n",
                             message, xml_escape(detail));
          break;
        case Outcome::not_supported:
        case Outcome::skipped:
          xml += fmt::format(">\n      <skipped message=\"{}\"/>\n", message);
          break;
        default:
          xml += fmt::format(">\n      <error message=\"{}\" type=\"{}\">{}</error>\n", message,
                             suite::to_string(result.outcome), xml_escape(detail));
      }
      xml += "    </testcase>\n";
    }
    xml += "  </testsuite>\n";
  }
  xml += "</testsuites>\n";
  return xml;
}

std::string check_run_summary(const CheckRun& run) {
  struct Row {
    int total = 0;
    std::map<Outcome, int> outcomes;
  };
  std::map<std::string, Row> rows;
  for (const RecordedCase& recorded : run.cases) {
    Row& row = rows[suite_name(recorded)];
    ++row.total;
    ++row.outcomes[recorded.result.outcome];
  }
  TextTable table(
      {"DEVICE", "CASES", "PASS", "FAIL", "N/S", "SKIP", "ERROR", "CRASH", "TIMEOUT", "NOT RUN"});
  for (const auto& [name, row] : rows) {
    auto count = [&row](Outcome o) {
      auto it = row.outcomes.find(o);
      return std::to_string(it == row.outcomes.end() ? 0 : it->second);
    };
    table.add_row({name, std::to_string(row.total), count(Outcome::pass), count(Outcome::fail),
                   count(Outcome::not_supported), count(Outcome::skipped), count(Outcome::error),
                   count(Outcome::crash), count(Outcome::timeout), count(Outcome::not_run)});
  }
  std::string out;
  for (const nlohmann::json& plugin : run.plugins) {
    out +=
        fmt::format("{}: {}\n", plugin.value("role", std::string("plugin")), plugin_label(plugin));
  }
  if (!out.empty()) out += "\n";
  out += table.render();
  suite::VerdictCounts verdicts = run.verdict_counts();
  out += fmt::format(
      "\nverdicts: {} ok, {} expected failure, {} flaky, {} unexpected pass, {} regression\n",
      verdicts.ok, verdicts.expected_failure, verdicts.flaky, verdicts.unexpected_pass,
      verdicts.regression);
  for (const RecordedCase& recorded : run.cases) {
    const suite::CaseResult& result = recorded.result;
    if (result.verdict == suite::Verdict::ok) continue;
    out +=
        fmt::format("\n{} {}: {} ({})\n  {}\n  repro: {}\n", suite::to_string(result.verdict),
                    result.id, suite::to_string(result.outcome),
                    result.duration_ms >= 1000 ? fmt::format("{:.1f} s", result.duration_ms / 1000)
                                               : fmt::format("{:.0f} ms", result.duration_ms),
                    result.message, recorded.repro);
  }
  out += fmt::format(
      "\ngate: {} ({} cases run{} in {:.1f} s{})\n", run.gate_passed() ? "PASSED" : "FAILED",
      run.cases.size() - static_cast<std::size_t>(run.outcome_count(Outcome::skipped)),
      run.outcome_count(Outcome::skipped) > 0
          ? fmt::format(", {} skipped by the filters,", run.outcome_count(Outcome::skipped))
          : "",
      run.duration_ms / 1000, run.interrupted ? ", interrupted" : "");
  return out;
}

}  // namespace dlpack_usm::report
