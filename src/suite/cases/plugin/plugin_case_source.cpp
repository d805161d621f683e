#include "suite/cases/plugin/plugin_case_source.hpp"

#include <fmt/format.h>

namespace dlpack_usm::suite {

CaseSpec plugin_case(std::string id, std::string source, std::string device,
                     std::vector<std::string> rules, std::shared_ptr<const CaseDetails> details) {
  rules.emplace_back(kPluginCrashRule);
  rules.emplace_back(kPluginHangRule);
  CaseSpec spec{std::move(id), std::move(source), std::move(device), std::move(rules),
                std::move(details)};
  spec.crash_rule = kPluginCrashRule;
  spec.timeout_rule = kPluginHangRule;
  return spec;
}

CaseSpec plugin_not_supported_case(std::string id, std::string source, std::string device,
                                   std::string reason) {
  return {std::move(id),
          std::move(source),
          std::move(device),
          {},
          std::make_shared<const NotSupportedCase>(std::move(reason))};
}

CaseResult PluginCaseSource::run(const CaseSpec& spec) {
  if (const NotSupportedCase* not_supported = spec.not_supported()) {
    return not_supported_result(spec, *not_supported);
  }
  const runtime::DeviceInfo* device =
      spec.device.empty() ? nullptr : runtime().inventory().find(spec.device);
  if (device == nullptr && !spec.device.empty()) {
    return {spec.id, Outcome::error, fmt::format("device {} is gone", spec.device)};
  }
  if (!session_) session_ = std::make_unique<PluginSession>(runtime(), spec_);
  return device == nullptr ? run_unplaced(*session_, spec) : run_on(*session_, spec, *device);
}

CaseResult PluginCaseSource::run_unplaced(PluginSession&, const CaseSpec& spec) {
  // A bug of the tool: only a source that lists device-less cases runs them.
  return {spec.id, Outcome::error, fmt::format("{} names no device", spec.id)};
}

}  // namespace dlpack_usm::suite
