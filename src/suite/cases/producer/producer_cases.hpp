// `check --producer LIB`: every tensor of the live matrix is requested from
// the library (plugin.h's produce) and judged as a conformant consumer would
// judge it: the rule engine on its live facts, every element read back in
// logical order through the strides and byte_offset it declares and compared
// with the pattern, the deleter called once and the allocation gone after.
// A READ_ONLY request below DLPack 1.0 should be declined (a legacy tensor
// has no flags), and each kind gets two lifetime cases (producer_lifetime.hpp)
// for what its deleter frees beyond the allocation.
// A library given as LIB:SYMBOL is driven through its DLPackExchangeAPI
// instead (exchange_api_cases.hpp).
#pragma once

#include "suite/cases/plugin/plugin_case_source.hpp"

namespace dlpack_usm::suite {

class ProducerCaseSource final : public PluginCaseSource {
 public:
  using PluginCaseSource::PluginCaseSource;

  std::string_view kind() const override { return "producer"; }
  std::vector<CaseSpec> cases() override;

 private:
  CaseResult run_on(PluginSession& session, const CaseSpec& spec,
                    const runtime::DeviceInfo& device) override;
};

}  // namespace dlpack_usm::suite
