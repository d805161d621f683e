#include "suite/report_merge.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/bounded_file.hpp"
#include "common/error.hpp"
#include "suite/selection.hpp"

namespace dlpack_usm::suite {
namespace {

using nlohmann::ordered_json;

constexpr const char* kMergeHint =
    "merge the reports of one 'check' command run as --shard 1/N ... N/N; give the runs of "
    "different machines or configurations 'check --label NAME'";

// One input, read into what the merge compares and keeps.
struct ParsedRun {
  const ShardReport* input = nullptr;
  std::string label;
  Shard shard;
  std::string tool_version;
  std::string suite_digest;
  std::size_t suite_cases = 0;
  ordered_json selection;     // filter, rule, device: the same for every shard
  ordered_json expectations;  // kind and sha256 of each file: the same gate
  ordered_json plugins;       // the libraries under test, without their paths
  bool strict = false;        // check --strict: the same gate
  std::vector<RecordedCase> cases;
};

[[noreturn]] void fail_input(const ShardReport& input, const std::string& what) {
  fail_usage(fmt::format("report merge: {}: {}", input.file, what),
             "give 'report merge' the files that 'check --report FILE' wrote");
}

const ordered_json& member(const ShardReport& input, const ordered_json& object,
                           const std::string& key, bool (ordered_json::*is_type)() const noexcept,
                           const char* type) {
  auto it = object.find(key);
  if (it == object.end() || !((*it).*is_type)()) {
    fail_input(input, fmt::format("'{}' is missing or not {}", key, type));
  }
  return *it;
}

std::string text_member(const ShardReport& input, const ordered_json& object,
                        const std::string& key) {
  return member(input, object, key, &ordered_json::is_string, "a string").get<std::string>();
}

// A case's findings, each at the severity the report gives (an older report
// has none: its rule ids stand alone).
void parse_findings(const ShardReport& input, const ordered_json& json, CaseResult& result) {
  auto findings = json.find("findings");
  if (findings == json.end()) return;
  if (!findings->is_array())
    fail_input(input, fmt::format("case {}: 'findings' is not an array", result.id));
  for (const ordered_json& finding : *findings) {
    if (!finding.is_object()) continue;
    auto rule = finding.find("rule_id");
    std::optional<rules::Severity> severity =
        rules::parse_severity(finding.value("severity", std::string()));
    if (!severity) {
      fail_input(input, fmt::format("case {}: a finding has no severity", result.id));
    }
    result.findings.push_back(
        {rule != finding.end() && rule->is_string() ? rule->get<std::string>() : std::string(),
         *severity, finding.value("message", std::string())});
  }
}

RecordedCase parse_case(const ShardReport& input, const ordered_json& json) {
  if (!json.is_object()) fail_input(input, "an entry of 'results' is not an object");
  RecordedCase recorded;
  CaseResult& result = recorded.result;
  result.id = text_member(input, json, "id");
  recorded.spec.id = result.id;
  recorded.spec.source = text_member(input, json, "source");
  auto device = json.find("device");
  if (device != json.end() && device->is_string())
    recorded.spec.device = device->get<std::string>();
  std::optional<Outcome> outcome = parse_outcome(text_member(input, json, "outcome"));
  std::optional<Verdict> verdict = parse_verdict(text_member(input, json, "verdict"));
  if (!outcome || !verdict) {
    fail_input(input, fmt::format("case {} has an unknown outcome or verdict", result.id));
  }
  result.outcome = *outcome;
  result.verdict = *verdict;
  result.message = text_member(input, json, "message");
  for (const auto& rule : member(input, json, "rule_ids", &ordered_json::is_array, "an array")) {
    if (rule.is_string()) result.rule_ids.push_back(rule.get<std::string>());
  }
  result.duration_ms =
      member(input, json, "duration_ms", &ordered_json::is_number, "a number").get<double>();
  result.attempts =
      member(input, json, "attempts", &ordered_json::is_number, "a number").get<int>();
  auto first = json.find("first_outcome");
  if (first != json.end() && first->is_string()) {
    result.first_outcome = parse_outcome(first->get<std::string>());
  }
  recorded.repro = text_member(input, json, "repro");
  parse_findings(input, json, result);
  // Where a consumer case sits in the capability profile; its class follows
  // from the outcome and rules again.
  auto profile = json.find("profile");
  if (profile != json.end() && profile->is_object()) {
    recorded.spec.profile_axis = profile->value("axis", std::string());
    recorded.spec.profile_value = profile->value("value", std::string());
    auto cell_class = profile->find("outcome");
    if (cell_class != profile->end() && cell_class->is_string()) {
      result.profile_class = cell_class->get<std::string>();
    }
    auto reason = profile->find("reason");
    if (reason != profile->end() && reason->is_string()) {
      result.decline_reason = reason->get<std::string>();
    }
  }
  return recorded;
}

ParsedRun parse_run(const ShardReport& input) {
  const ordered_json& report = input.report;
  ParsedRun run;
  run.input = &input;
  const ordered_json& tool = member(input, report, "tool", &ordered_json::is_object, "an object");
  run.tool_version = text_member(input, tool, "version");
  const ordered_json& options =
      member(input, report, "options", &ordered_json::is_object, "an object");
  if (!options.contains("suite_digest")) {
    fail_input(
        input,
        "it names no suite_digest: an older dlpack-usm wrote it; re-run 'check' with this one");
  }
  run.suite_digest = text_member(input, options, "suite_digest");
  run.suite_cases =
      member(input, options, "suite_cases", &ordered_json::is_number_unsigned, "a count")
          .get<std::size_t>();
  auto strict = options.find("strict");
  run.strict = strict != options.end() && strict->is_boolean() && strict->get<bool>();
  auto label = options.find("label");
  if (label != options.end() && label->is_string()) run.label = label->get<std::string>();
  auto shard = options.find("shard");
  if (shard != options.end() && shard->is_string()) {
    run.shard = parse_shard(shard->get<std::string>());
  }
  for (const char* key : {"filter", "rule", "device"}) {
    run.selection[key] = options.contains(key) ? options[key] : ordered_json(nullptr);
  }
  run.expectations = ordered_json::array();
  for (const auto& file :
       member(input, report, "expectations", &ordered_json::is_array, "an array")) {
    run.expectations.push_back(
        {{"kind", file.value("kind", "")}, {"sha256", file.value("sha256", "")}});
  }
  run.plugins = ordered_json::array();
  auto plugins = report.find("plugins");
  if (plugins != report.end() && plugins->is_array()) {
    for (ordered_json plugin : *plugins) {
      if (plugin.is_object()) plugin.erase("path");  // the machine's own checkout
      run.plugins.push_back(std::move(plugin));
    }
  }
  for (const auto& json : member(input, report, "results", &ordered_json::is_array, "an array")) {
    run.cases.push_back(parse_case(input, json));
  }
  return run;
}

std::string group_name(const std::string& label) {
  return label.empty() ? std::string("the runs without --label")
                       : fmt::format("the runs labelled {}", label);
}

// The shards of one label must be the parts of one run.
void require_one_run(const std::vector<const ParsedRun*>& group) {
  const ParsedRun& first = *group.front();
  for (const ParsedRun* other : group) {
    auto differ = [&](const char* what, const std::string& a, const std::string& b) {
      if (a == b) return;
      fail_usage(fmt::format("report merge: {} and {} are not shards of one run: their {} differ "
                             "({} and {})",
                             first.input->file, other->input->file, what, a, b),
                 kMergeHint);
    };
    differ("dlpack-usm versions", first.tool_version, other->tool_version);
    differ("suites (the case lists of their machines, suites or libraries)",
           first.suite_digest.substr(0, 12), other->suite_digest.substr(0, 12));
    differ("selections (--filter, --rule, --device)", first.selection.dump(),
           other->selection.dump());
    differ("shard counts", std::to_string(first.shard.count), std::to_string(other->shard.count));
    differ("expectation files (--baseline, --flakes)", first.expectations.dump(),
           other->expectations.dump());
    differ("libraries under test", first.plugins.dump(), other->plugins.dump());
    differ("gates (--strict)", first.strict ? "strict" : "not strict",
           other->strict ? "strict" : "not strict");
  }
  std::map<int, const ParsedRun*> by_index;
  std::size_t cases = 0;
  for (const ParsedRun* run : group) {
    auto [it, fresh] = by_index.emplace(run->shard.index, run);
    if (!fresh) {
      fail_usage(
          fmt::format("report merge: {} and {} are both shard {}/{} of {}", it->second->input->file,
                      run->input->file, run->shard.index, run->shard.count, group_name(run->label)),
          "give each shard's report once");
    }
    cases += run->cases.size();
  }
  std::vector<std::string> missing;
  for (int index = 1; index <= first.shard.count; ++index) {
    if (!by_index.count(index)) missing.push_back(fmt::format("{}/{}", index, first.shard.count));
  }
  if (!missing.empty()) {
    fail_usage(fmt::format("report merge: {} lack shard {}", group_name(first.label),
                           fmt::join(missing, ", ")),
               "merge the report of every shard: a failing shard still writes its report");
  }
  if (cases != first.suite_cases) {
    fail_usage(fmt::format("report merge: the shards of {} hold {} cases, their suite {}",
                           group_name(first.label), cases, first.suite_cases),
               kMergeHint);
  }
}

ordered_json run_header(const ParsedRun& run) {
  const ordered_json& report = run.input->report;
  ordered_json header;
  header["file"] = run.input->file;
  header["label"] = run.label.empty() ? ordered_json(nullptr) : ordered_json(run.label);
  header["shard"] = fmt::format("{}/{}", run.shard.index, run.shard.count);
  header["tool_version"] = run.tool_version;
  for (const char* key :
       {"started_at", "finished_at", "duration_ms", "command_line", "environment", "summary"}) {
    header[key] = report.contains(key) ? report[key] : ordered_json(nullptr);
  }
  return header;
}

// Label prefixes keep the cases of different machines apart.
void prefix_with_label(RecordedCase& recorded, const std::string& label) {
  if (label.empty()) return;
  recorded.result.id = fmt::format("{}/{}", label, recorded.result.id);
  recorded.spec.id = recorded.result.id;
  if (!recorded.spec.device.empty()) {
    recorded.spec.device = fmt::format("{}/{}", label, recorded.spec.device);
  }
}

}  // namespace

ShardReport read_shard_report(const std::filesystem::path& path) {
  std::string text =
      read_bounded_file(path, kMaxShardReportBytes, "report merge", "a 'check --report' file");
  ShardReport input{path.string(), {}};
  input.report = ordered_json::parse(text, nullptr, false);
  if (input.report.is_discarded()) fail_input(input, "not valid JSON");
  if (!input.report.is_object() || input.report.value("schema", "") != kCheckReportSchema) {
    fail_input(input, fmt::format("not a check report (its schema is not {})", kCheckReportSchema));
  }
  return input;
}

MergedRun merge_shard_reports(const std::vector<ShardReport>& inputs,
                              const std::vector<std::string>& command_line) {
  std::vector<ParsedRun> runs;
  for (const ShardReport& input : inputs) runs.push_back(parse_run(input));
  std::map<std::string, std::vector<const ParsedRun*>> groups;
  for (const ParsedRun& run : runs) groups[run.label].push_back(&run);
  for (const auto& [label, group] : groups) require_one_run(group);

  MergedRun merged;
  CheckRun& out = merged.run;
  out.command_line = command_line;
  merged.environment = runs.front().input->report.value("environment", ordered_json::object());
  std::set<std::string> versions, labels;
  std::map<std::string, std::string> file_of_case;
  for (const ParsedRun& run : runs) {
    const ordered_json& report = run.input->report;
    versions.insert(run.tool_version);
    labels.insert(run.label);
    std::string started = report.value("started_at", ""),
                finished = report.value("finished_at", "");
    if (out.started_at.empty() || started < out.started_at) out.started_at = started;
    if (finished > out.finished_at) out.finished_at = finished;
    out.duration_ms += report.value("duration_ms", 0.0);
    const ordered_json& summary = report.value("summary", ordered_json::object());
    out.interrupted = out.interrupted || summary.value("interrupted", false);
    for (const ordered_json& described : report.value("plugins", ordered_json::array())) {
      nlohmann::json plugin(described);
      if (std::find(out.plugins.begin(), out.plugins.end(), plugin) == out.plugins.end()) {
        out.plugins.push_back(std::move(plugin));
      }
    }
    for (const ordered_json& file : report["expectations"]) {
      if (std::find(merged.expectations.begin(), merged.expectations.end(), file) ==
          merged.expectations.end()) {
        merged.expectations.push_back(file);
      }
    }
    for (RecordedCase recorded : run.cases) {
      prefix_with_label(recorded, run.label);
      auto [it, fresh] = file_of_case.emplace(recorded.result.id, run.input->file);
      if (!fresh) {
        fail_usage(fmt::format("report merge: case {} is in {} and in {}", recorded.result.id,
                               it->second, run.input->file),
                   kMergeHint);
      }
      out.cases.push_back(std::move(recorded));
    }
    merged.runs.push_back(run_header(run));
  }
  out.tool_version = fmt::format("{}", fmt::join(versions, ", "));
  // Runs of different labels may differ in strictness; the merged gate is
  // strict when one of them was.
  out.strict =
      std::any_of(runs.begin(), runs.end(), [](const ParsedRun& run) { return run.strict; });
  out.options = {{"merged_reports", inputs.size()}, {"labels", labels}};
  std::sort(out.cases.begin(), out.cases.end(),
            [](const RecordedCase& a, const RecordedCase& b) { return a.result.id < b.result.id; });
  return merged;
}

}  // namespace dlpack_usm::suite
