// `check --producer LIB:SYMBOL`: a library that offers only DLPack's C
// exchange API. Its managed_tensor_allocator is asked for tensors of a few
// dtypes and shapes on every USM root device; each must match its prototype
// (dtype, ndim, shape, device), pass the rule engine on its live facts, and
// be released by its deleter. The allocator fills no data, so there is no
// pattern to compare.
#pragma once

#include "suite/cases/plugin/plugin_case_source.hpp"

namespace dlpack_usm::suite {

class ExchangeApiCaseSource final : public PluginCaseSource {
 public:
  using PluginCaseSource::PluginCaseSource;

  std::string_view kind() const override { return "exchange-api"; }
  std::vector<CaseSpec> cases() override;

 private:
  CaseResult run_on(PluginSession& session, const CaseSpec& spec,
                    const runtime::DeviceInfo& device) override;
};

}  // namespace dlpack_usm::suite
