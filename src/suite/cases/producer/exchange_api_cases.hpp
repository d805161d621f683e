// `check --producer LIB:SYMBOL`: a library that offers only DLPack's C
// exchange API. One case judges the table (exchange-api/table: the slots
// dlpack.h says must not be NULL, the prev_api chain). On every USM root
// device its managed_tensor_allocator is asked for tensors of a few dtypes
// and shapes; each must match its prototype (dtype, ndim, shape, device),
// pass the rule engine on its live facts, and be released by its deleter
// (the allocator fills no data, so there is no pattern to compare); and its
// current_work_stream is asked for the stream of what it produces there
// (exchange-api/DEVICE/stream).
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
  CaseResult run_unplaced(PluginSession& session, const CaseSpec& spec) override;
};

}  // namespace dlpack_usm::suite
