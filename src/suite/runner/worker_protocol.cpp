#include "suite/runner/worker_protocol.hpp"

#include "common/json_fields.hpp"
#include "suite/model/record_json.hpp"

namespace dlpack_usm::suite {
namespace {

constexpr const char* kDescribedKey = "described";
constexpr const char* kErrorKey = "error";

// A string member of a worker's line, or "" where it is absent or not one.
std::string text_member(const nlohmann::json& line, const char* key) {
  auto it = line.find(key);
  return it != line.end() && it->is_string() ? it->get<std::string>() : std::string();
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
  for (const std::string& source : job.case_sources) {
    argv.push_back("--case-source");
    argv.push_back(source);
  }
  if (job.more_cases) argv.push_back("--more-cases");
  if (job.ready_for_any_case) argv.push_back("--ready-for-any-case");
  argv.insert(argv.end(), job.plugin_arguments.begin(), job.plugin_arguments.end());
  if (job.stream_attempts > 0) {
    argv.push_back("--stream-attempts");
    argv.push_back(std::to_string(job.stream_attempts));
  }
  return argv;
}

std::string more_cases_text(const std::vector<const CaseSpec*>& batch) {
  std::string text;
  for (const CaseSpec* spec : batch) {
    // An id is one line on the channel; one that is not cannot be sent.
    if (spec->id.find('\n') != std::string::npos) return {};
    text += spec->source;
    text += ' ';
    text += spec->id;
    text += '\n';
  }
  return text;
}

std::optional<CaseToRun> case_from_line(std::string_view line) {
  std::size_t space = line.find(' ');
  if (space == std::string_view::npos || space == 0 || space + 1 == line.size()) {
    return std::nullopt;
  }
  return CaseToRun{std::string(line.substr(0, space)), std::string(line.substr(space + 1))};
}

nlohmann::json result_to_json(const CaseResult& result) {
  return nlohmann::json(result_record_to_json(result));
}

std::optional<CaseResult> result_from_line(const std::string& id, std::string_view payload) {
  nlohmann::json json = nlohmann::json::parse(payload, nullptr, false);
  if (!json.is_object()) return std::nullopt;
  const JsonInput input{"worker", "result channel", ""};
  try {
    RecordedCase recorded = record_from_json(JsonFields(input, json, ""), RecordSource::worker);
    if (recorded.result.id != id) return std::nullopt;
    return std::move(recorded.result);
  } catch (const Error&) {
    // Not a record, or one with a member of another type: the runner
    // charges the line to the case as no result of it.
    return std::nullopt;
  }
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
