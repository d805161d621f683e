#include "suite/runner/worker_protocol.hpp"

#include "rules/rule.hpp"

namespace dlpack_usm::suite {
namespace {

constexpr const char* kDescribedKey = "described";
constexpr const char* kErrorKey = "error";

// A string member of a worker's line, or "" where it is absent or not one.
std::string text_member(const nlohmann::json& line, const char* key) {
  auto it = line.find(key);
  return it != line.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The findings a worker reported, each at the severity of this binary's
// catalog (a worker reports what it saw, not how much it weighs).
void add_findings_from_line(CaseResult& result, const nlohmann::json& line) {
  auto findings = line.find("findings");
  if (findings == line.end() || !findings->is_array()) return;
  for (const auto& finding : *findings) {
    if (!finding.is_object()) continue;
    std::string rule = text_member(finding, "rule_id");
    const rules::RuleInfo* known = rule.empty() ? nullptr : rules::find_rule(rule);
    result.add_finding({rule, known != nullptr ? known->severity : rules::Severity::error,
                        text_member(finding, "message")});
  }
}

// The exit codes a worker's Error may carry; anything else is the tool's bug.
ExitCode exit_code_from(const nlohmann::json& value) {
  int code = value.is_number_integer() ? value.get<int>() : 4;
  switch (code) {
    case static_cast<int>(ExitCode::usage):
    case static_cast<int>(ExitCode::environment):
    case static_cast<int>(ExitCode::findings):
      return static_cast<ExitCode>(code);
    default:
      return ExitCode::internal;
  }
}

}  // namespace

std::vector<std::string> worker_argv(const std::string& self, const WorkerJob& job) {
  std::vector<std::string> argv{
      self,      kWorkerCommand, "--runtime",    job.runtime,
      "--suite", job.suite_dir,  "--runner-pid", std::to_string(job.runner_pid)};
  if (job.task == WorkerJob::Task::describe_libraries) argv.push_back("--describe-libraries");
  for (const std::string& id : job.case_ids) {
    argv.push_back("--run-case");
    argv.push_back(id);
  }
  argv.insert(argv.end(), job.plugin_arguments.begin(), job.plugin_arguments.end());
  if (job.stream_attempts > 0) {
    argv.push_back("--stream-attempts");
    argv.push_back(std::to_string(job.stream_attempts));
  }
  return argv;
}

nlohmann::json result_to_json(const CaseResult& result) {
  nlohmann::json findings = nlohmann::json::array();
  for (const CaseFinding& finding : result.findings) {
    findings.push_back({{"rule_id", finding.rule_id}, {"message", finding.message}});
  }
  return {{"id", result.id},
          {"outcome", to_string(result.outcome)},
          {"message", result.message},
          {"rule_ids", result.rule_ids},
          {"findings", findings},
          {"profile_class", result.profile_class},
          {"decline_reason", result.decline_reason}};
}

std::optional<CaseResult> result_from_line(const std::string& id, std::string_view payload) {
  nlohmann::json json = nlohmann::json::parse(payload, nullptr, false);
  std::optional<Outcome> outcome =
      json.is_object() && json.value("outcome", nlohmann::json()).is_string()
          ? parse_outcome(json["outcome"].get<std::string>())
          : std::nullopt;
  if (!outcome || json.value("id", std::string()) != id) return std::nullopt;
  CaseResult result;
  result.id = id;
  result.outcome = *outcome;
  result.message = json.value("message", std::string());
  if (json.contains("rule_ids") && json["rule_ids"].is_array()) {
    for (const auto& rule : json["rule_ids"]) {
      if (rule.is_string()) result.rule_ids.push_back(rule.get<std::string>());
    }
  }
  add_findings_from_line(result, json);
  result.profile_class = text_member(json, "profile_class");
  result.decline_reason = text_member(json, "decline_reason");
  return result;
}

std::string described_line(const nlohmann::json& descriptions) {
  return json_line({{kDescribedKey, descriptions}});
}

std::optional<nlohmann::json> described_from_line(std::string_view payload) {
  nlohmann::json json = nlohmann::json::parse(payload, nullptr, false);
  if (!json.is_object() || !json.contains(kDescribedKey) || !json[kDescribedKey].is_array()) {
    return std::nullopt;
  }
  return json[kDescribedKey];
}

std::string error_line(const Error& error) {
  return json_line({{kErrorKey,
                     {{"exit_code", static_cast<int>(error.code())},
                      {"message", error.what()},
                      {"hint", error.hint()}}}});
}

std::optional<Error> error_from_line(std::string_view payload) {
  nlohmann::json json = nlohmann::json::parse(payload, nullptr, false);
  if (!json.is_object() || !json.contains(kErrorKey) || !json[kErrorKey].is_object()) {
    return std::nullopt;
  }
  const nlohmann::json& error = json[kErrorKey];
  return Error(exit_code_from(error.value("exit_code", nlohmann::json())),
               text_member(error, "message"), text_member(error, "hint"));
}

std::string json_line(const nlohmann::json& json) {
  return json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace dlpack_usm::suite
