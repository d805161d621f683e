#include "report/formats/github_annotations.hpp"

#include <map>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/printable.hpp"
#include "report/failure_groups.hpp"

namespace dlpack_usm::report {
namespace {

// Case ids an annotation names before "and N more".
constexpr std::size_t kAnnotationIdsNamed = 5;

std::string escaped(std::string_view text, bool property) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '%':
        out += "%25";
        break;
      case '\r':
        out += "%0D";
        break;
      case '\n':
        out += "%0A";
        break;
      case ':':
        out += property ? "%3A" : ":";
        break;
      case ',':
        out += property ? "%2C" : ",";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// The cases of a group split by the capsule file they read, in the order
// the files first appear ("" for the cases that read none).
std::vector<std::pair<std::string, std::vector<const suite::RecordedCase*>>> by_file(
    const CaseGroup& group) {
  std::vector<std::pair<std::string, std::vector<const suite::RecordedCase*>>> parts;
  std::map<std::string, std::size_t> index;
  for (const suite::RecordedCase* recorded : group.cases) {
    auto [at, added] = index.emplace(recorded->spec.file, parts.size());
    if (added) parts.push_back({recorded->spec.file, {}});
    parts[at->second].second.push_back(recorded);
  }
  return parts;
}

std::string case_ids(const std::vector<const suite::RecordedCase*>& cases) {
  std::vector<std::string> ids;
  for (std::size_t i = 0; i < cases.size() && i < kAnnotationIdsNamed; ++i) {
    ids.push_back(printable(cases[i]->result.id));
  }
  std::string text = fmt::format("{}", fmt::join(ids, ", "));
  if (cases.size() > kAnnotationIdsNamed)
    text += fmt::format(" and {} more", cases.size() - kAnnotationIdsNamed);
  return text;
}

// What a reader of the annotation needs: what went wrong, where, how to
// see it again, and where the rule is told. Foreign text (messages, ids)
// is made printable first, so that only these line breaks are the tool's.
std::string annotation_message(std::string_view heading, const CaseGroup& group,
                               const std::vector<const suite::RecordedCase*>& cases) {
  const suite::RecordedCase& first = *cases.front();
  std::string message = first.result.message.empty()
                            ? std::string(suite::to_string(first.result.outcome))
                            : printable(first.result.message);
  std::vector<std::string> lines{fmt::format("{}: {}", heading, message)};
  lines.push_back(cases.size() == 1 ? fmt::format("case: {}", case_ids(cases))
                                    : fmt::format("{} cases: {}", cases.size(), case_ids(cases)));
  lines.push_back(fmt::format("repro: {}", printable(first.repro)));
  for (const std::string& rule : group.rule_ids) {
    lines.push_back(fmt::format("see: dlpack-usm rules {}", rule));
  }
  return fmt::format("{}", fmt::join(lines, "\n"));
}

void annotate(std::string& out, std::string_view command, std::string_view heading,
              const CaseGroup& group) {
  std::string title = group.rule_ids.empty() ? std::string(heading)
                                             : fmt::format("{}", fmt::join(group.rule_ids, " "));
  for (const auto& [file, cases] : by_file(group)) {
    std::string properties;
    if (!file.empty()) properties += fmt::format("file={},", escape_workflow_property(file));
    properties += fmt::format("title={}", escape_workflow_property(printable(title)));
    out += fmt::format("::{} {}::{}\n", command, properties,
                       escape_workflow_message(annotation_message(heading, group, cases)));
  }
}

const char* command_of(suite::Verdict verdict) {
  switch (verdict) {
    case suite::Verdict::regression:
    case suite::Verdict::unexpected_pass:
      return "error";
    case suite::Verdict::flaky:
      return "notice";
    default:
      return nullptr;
  }
}

}  // namespace

std::string escape_workflow_message(std::string_view text) {
  return escaped(text, false);
}

std::string escape_workflow_property(std::string_view text) {
  return escaped(text, true);
}

std::string check_run_annotations(const suite::CheckRun& run) {
  std::string out;
  for (const CaseGroup& group : group_failures(run)) {
    const char* command = command_of(group.cases.front()->result.verdict);
    if (command != nullptr) annotate(out, command, group.heading, group);
  }
  for (const CaseGroup& group : group_warnings(run)) annotate(out, "warning", "warning", group);
  if (run.interrupted) {
    out += fmt::format(
        "::error title=dlpack-usm::{}\n",
        escape_workflow_message("the run was interrupted: the cases that did not run prove "
                                "nothing, so the gate fails"));
  }
  return out;
}

}  // namespace dlpack_usm::report
