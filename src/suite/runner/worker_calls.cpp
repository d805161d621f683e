#include "suite/runner/worker_calls.hpp"

#include <nlohmann/json.hpp>

#include "suite/runner/worker_protocol.hpp"

namespace dlpack_usm::suite {
namespace {

constexpr const char* kCallingKey = "calling";
constexpr const char* kSetupKey = "setup";

}  // namespace

std::string calling_line(const WorkerCall& call) {
  return json_line({{kCallingKey, call.call}, {kSetupKey, call.setup}});
}

std::optional<WorkerCall> call_from_line(std::string_view payload) {
  nlohmann::json json = nlohmann::json::parse(payload, nullptr, false);
  if (!json.is_object() || !json.contains(kCallingKey) || !json[kCallingKey].is_string()) {
    return std::nullopt;
  }
  WorkerCall call{json[kCallingKey].get<std::string>(), false};
  auto setup = json.find(kSetupKey);
  call.setup = setup != json.end() && setup->is_boolean() && setup->get<bool>();
  return call;
}

}  // namespace dlpack_usm::suite
