#include "report/formats/junit.hpp"

#include <map>
#include <vector>

#include <fmt/format.h>

#include "report/formats/run_labels.hpp"
#include "report/formats/xml_writer.hpp"
#include "suite/model/consumer_profile.hpp"

namespace dlpack_usm::report {
namespace {

using suite::CheckRun;
using suite::Outcome;
using suite::RecordedCase;

std::string seconds(double milliseconds) {
  return fmt::format("{:.3f}", milliseconds / 1000.0);
}

// The libraries under test, on every suite, so a CI page shows what was tested.
void write_plugin_properties(XmlWriter& xml, const CheckRun& run) {
  if (run.plugins.empty()) return;
  xml.start("properties");
  for (const nlohmann::json& plugin : run.plugins) {
    xml.element("property", {{"name", plugin.value("role", std::string("plugin"))},
                             {"value", plugin_label(plugin)}});
  }
  xml.end();
}

// The testsuite's counts, as JUnit readers expect them.
XmlAttributes suite_attributes(const std::string& name,
                               const std::vector<const RecordedCase*>& members, bool strict) {
  int failures = 0, errors = 0, skipped = 0;
  double milliseconds = 0;
  for (const RecordedCase* recorded : members) {
    Outcome outcome = recorded->result.outcome;
    failures += (outcome == Outcome::fail || (strict && outcome == Outcome::warn)) ? 1 : 0;
    errors += (outcome == Outcome::crash || outcome == Outcome::timeout ||
               outcome == Outcome::error || outcome == Outcome::not_run)
                  ? 1
                  : 0;
    skipped += outcome == Outcome::not_supported ? 1 : 0;
    milliseconds += recorded->result.duration_ms;
  }
  return {{"name", name},
          {"tests", std::to_string(members.size())},
          {"failures", std::to_string(failures)},
          {"errors", std::to_string(errors)},
          {"skipped", std::to_string(skipped)},
          {"time", seconds(milliseconds)}};
}

// What a testcase holds besides its name: nothing for a pass, a failure, an
// error or a skip, and for a warning the warning (a failure under --strict).
void write_case_outcome(XmlWriter& xml, const RecordedCase& recorded, bool strict) {
  const suite::CaseResult& result = recorded.result;
  std::string detail =
      fmt::format("verdict: {}\nrepro: {}", suite::to_string(result.verdict), recorded.repro);
  switch (result.outcome) {
    case Outcome::pass:
      return;
    case Outcome::warn:
      if (strict) {
        xml.element("failure", {{"message", result.message}, {"type", "warn"}}, detail);
        return;
      }
      xml.start("properties");
      xml.element("property", {{"name", "outcome"}, {"value", "warn"}});
      xml.end();
      xml.element("system-out", {}, "warning: " + result.message);
      return;
    case Outcome::fail:
      xml.element("failure", {{"message", result.message}, {"type", "fail"}}, detail);
      return;
    case Outcome::not_supported:
      xml.element("skipped", {{"message", result.message}});
      return;
    default:
      xml.element("error",
                  {{"message", result.message}, {"type", suite::to_string(result.outcome)}},
                  detail);
  }
}

void write_case(XmlWriter& xml, const RecordedCase& recorded, const std::string& suite,
                bool strict) {
  const suite::CaseResult& result = recorded.result;
  // A cell of the consumer matrix says where it sits: "... [layout=broadcast]".
  const suite::MatrixLine* line = suite::profile_line(recorded);
  std::string testcase =
      line == nullptr ? result.id : fmt::format("{} [{}={}]", result.id, line->axis, line->value);
  xml.start("testcase", {{"name", testcase},
                         {"classname", recorded.spec.source + "." + suite},
                         {"time", seconds(result.duration_ms)}});
  write_case_outcome(xml, recorded, strict);
  xml.end();
}

}  // namespace

std::string check_run_to_junit(const CheckRun& run) {
  // The cases that ran: one the filters left out is no test of this run
  // (the JSON report keeps it, for report merge).
  std::map<std::string, std::vector<const RecordedCase*>> suites;
  std::size_t tests = 0;
  for (const RecordedCase& recorded : run.cases) {
    if (recorded.result.outcome == Outcome::skipped) continue;
    suites[device_group(recorded)].push_back(&recorded);
    ++tests;
  }
  XmlWriter xml;
  xml.start("testsuites", {{"name", "dlpack-usm check"},
                           {"tests", std::to_string(tests)},
                           {"time", seconds(run.duration_ms)}});
  for (const auto& [name, members] : suites) {
    xml.start("testsuite", suite_attributes(name, members, run.strict));
    write_plugin_properties(xml, run);
    for (const RecordedCase* recorded : members) write_case(xml, *recorded, name, run.strict);
    xml.end();
  }
  xml.end();
  return xml.finish();
}

}  // namespace dlpack_usm::report
