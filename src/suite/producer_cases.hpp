// `check --producer LIB`: every tensor of the live matrix is requested from
// the library (plugin.h's produce) and judged as a conformant consumer would
// judge it: the rule engine on its live facts, every element read back in
// logical order through the strides and byte_offset it declares and compared
// with the pattern, the deleter called once and the allocation gone after.
// A library given as LIB:SYMBOL is driven through its DLPackExchangeAPI
// instead (exchange_api_cases.hpp).
#pragma once

#include <functional>
#include <memory>

#include "plugin/plugin_spec.hpp"
#include "runtime/runtime.hpp"
#include "suite/case.hpp"
#include "suite/plugin_session.hpp"

namespace dlpack_usm::suite {

// The rules every plugin case can break by behaving badly, for --rule.
inline constexpr const char* kPluginCrashRule = "DLP-PLUGIN-CRASH";
inline constexpr const char* kPluginHangRule = "DLP-PLUGIN-HANG";

// A case of a plugin source: crash and hang name their rules.
CaseSpec plugin_case(std::string id, std::string source, std::string device,
                     std::vector<std::string> rules, nlohmann::json params);
// The not_supported case of a device (or kind) a plugin cannot be tested on.
CaseSpec plugin_not_supported_case(std::string id, std::string source, std::string device,
                                   std::string reason);

class ProducerCaseSource final : public CaseSource {
 public:
  ProducerCaseSource(std::function<runtime::Runtime&()> runtime, plugin::PluginSpec spec)
      : runtime_(std::move(runtime)), spec_(std::move(spec)) {}

  std::string_view kind() const override { return "producer"; }
  std::vector<CaseSpec> cases() override;
  CaseResult run(const CaseSpec& spec) override;

 private:
  PluginSession& session();

  std::function<runtime::Runtime&()> runtime_;
  plugin::PluginSpec spec_;
  std::unique_ptr<PluginSession> session_;
};

}  // namespace dlpack_usm::suite
