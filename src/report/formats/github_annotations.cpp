#include "report/formats/github_annotations.hpp"

#include <map>
#include <set>
#include <tuple>
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

// What one annotation tells: the cases of one command, one set of rules,
// one library and one capsule file, from however many groups their messages
// make. GitHub shows ten annotations of each kind per step, so a library
// with one bug must read as one annotation per rule, not one per case.
struct Annotation {
  const char* command;
  std::string heading;
  std::vector<std::string> rule_ids;
  std::string file;
  std::vector<const suite::RecordedCase*> cases;
  std::size_t groups = 0;
};

using AnnotationKey = std::tuple<std::string, std::vector<std::string>, std::string, std::string>;

// The library a case tests: a Python library's expression, or a C plugin's
// role (one --producer and one --consumer per run).
const std::string& library_of(const suite::RecordedCase& recorded) {
  return recorded.spec.library.empty() ? recorded.spec.source : recorded.spec.library;
}

void add_group(std::vector<Annotation>& annotations, std::map<AnnotationKey, std::size_t>& index,
               const char* command, const CaseGroup& group) {
  std::set<std::size_t> joined;
  for (const suite::RecordedCase* recorded : group.cases) {
    AnnotationKey key{command, group.rule_ids, library_of(*recorded), recorded->spec.file};
    auto [at, added] = index.emplace(key, annotations.size());
    if (added) {
      annotations.push_back({command, group.heading, group.rule_ids, recorded->spec.file, {}});
    }
    Annotation& annotation = annotations[at->second];
    if (joined.insert(at->second).second) ++annotation.groups;
    annotation.cases.push_back(recorded);
  }
}

std::string case_ids(const std::vector<const suite::RecordedCase*>& cases) {
  std::vector<std::string> ids;
  for (std::size_t i = 0; i < cases.size() && i < kAnnotationIdsNamed; ++i) {
    ids.push_back(printable(cases[i]->result.id));
  }
  std::string text = fmt::format("{}", fmt::join(ids, ", "));
  if (cases.size() > kAnnotationIdsNamed) {
    std::size_t more = cases.size() - kAnnotationIdsNamed;
    text += fmt::format(" ... and {} more case{}", more, more == 1 ? "" : "s");
  }
  return text;
}

// What a reader of the annotation needs: what went wrong, where, how to
// see it again, and where the rule is told. Foreign text (messages, ids)
// is made printable first, so that only these line breaks are the tool's.
std::string annotation_message(const Annotation& annotation) {
  const suite::RecordedCase& first = *annotation.cases.front();
  std::string message = first.result.message.empty()
                            ? std::string(suite::to_string(first.result.outcome))
                            : printable(first.result.message);
  std::vector<std::string> lines{fmt::format("{}: {}", annotation.heading, message)};
  std::size_t count = annotation.cases.size();
  lines.push_back(count == 1 ? fmt::format("case: {}", case_ids(annotation.cases))
                             : fmt::format("{} cases: {}", count, case_ids(annotation.cases)));
  if (annotation.groups > 1) {
    lines.push_back(
        fmt::format("their messages differ ({} kinds; the first shown); the text "
                    "summary has a block for each",
                    annotation.groups));
  }
  lines.push_back(fmt::format("repro: {}", printable(first.repro)));
  for (const std::string& rule : annotation.rule_ids) {
    lines.push_back(fmt::format("see: dlpack-usm rules {}", rule));
  }
  return fmt::format("{}", fmt::join(lines, "\n"));
}

std::string annotation_line(const Annotation& annotation) {
  std::string title = annotation.rule_ids.empty()
                          ? annotation.heading
                          : fmt::format("{}", fmt::join(annotation.rule_ids, " "));
  std::string properties;
  if (!annotation.file.empty()) {
    properties += fmt::format("file={},", escape_workflow_property(annotation.file));
  }
  properties += fmt::format("title={}", escape_workflow_property(printable(title)));
  return fmt::format("::{} {}::{}\n", annotation.command, properties,
                     escape_workflow_message(annotation_message(annotation)));
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
  std::vector<Annotation> annotations;
  std::map<AnnotationKey, std::size_t> index;
  for (const CaseGroup& group : group_failures(run)) {
    const char* command = command_of(group.cases.front()->result.verdict);
    if (command != nullptr) add_group(annotations, index, command, group);
  }
  for (const CaseGroup& group : group_warnings(run)) {
    add_group(annotations, index, "warning", group);
  }
  std::string out;
  for (const Annotation& annotation : annotations) out += annotation_line(annotation);
  // A stop (a library that kept crashing) is one annotation with its
  // reason and count, not a group of not_run cases.
  for (const StoppedCases& stop : stopped_cases(run)) {
    out += fmt::format("::error title=dlpack-usm::{}\n",
                       escape_workflow_message(fmt::format(
                           "{} case{} not run: {}; the cases that did not run prove nothing, "
                           "so the gate fails",
                           stop.count, stop.count == 1 ? "" : "s", stop.reason)));
  }
  if (run.interrupted && run.stop_reasons.empty()) {
    out += fmt::format(
        "::error title=dlpack-usm::{}\n",
        escape_workflow_message("the run was interrupted: the cases that did not run prove "
                                "nothing, so the gate fails"));
  }
  return out;
}

}  // namespace dlpack_usm::report
