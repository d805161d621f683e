// `check --producer LIB`: every tensor of the live matrix is requested from
// the library (plugin.h's produce) and judged as a conformant consumer would
// judge it: the rule engine on its live facts, every element read back in
// logical order through the strides and byte_offset it declares and compared
// with the pattern, the deleter called once and the allocation gone after.
// A READ_ONLY request below DLPack 1.0 should be declined (a legacy tensor
// has no flags), and each kind gets two lifetime cases (producer_lifetime.hpp)
// for what its deleter frees beyond the allocation, and a stream case
// (producer_stream.hpp) for whether its elements are ready on the consumer's
// queue when produce returns.
// A library given as LIB:SYMBOL is driven through its DLPackExchangeAPI
// instead (exchange_api_cases.hpp).
#pragma once

#include "suite/cases/plugin/plugin_case_source.hpp"

namespace dlpack_usm::suite {

class ProducerCaseSource final : public PluginCaseSource {
 public:
  // `stream_attempts`: the requests each stream case makes (check --stream-attempts).
  ProducerCaseSource(std::function<runtime::Runtime&()> runtime, plugin::PluginSpec spec,
                     int stream_attempts)
      : PluginCaseSource(std::move(runtime), std::move(spec)), stream_attempts_(stream_attempts) {}

  std::string_view kind() const override { return "producer"; }
  std::vector<CaseSpec> cases() override;

 private:
  CaseResult run_on(PluginSession& session, const CaseSpec& spec,
                    const runtime::DeviceInfo& device) override;

  int stream_attempts_;
};

}  // namespace dlpack_usm::suite
