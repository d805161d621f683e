// `check --consumer LIB`: the tool exports its own tensors of the default
// context and hands each to the library's consume. The valid tensors are
// generated along three axes rather than crossed: every version on every USM
// kind, every dtype of the tool's tables, and the layouts real consumers get
// wrong (stride 0, negative strides, byte_offset on scalars and legacy
// views, size 0 with odd strides, extent-1 axes, ndim 0..8 and 40,
// READ_ONLY, IS_COPIED). Each must be accepted with the checksum of its
// elements or cleanly declined (DLPACK_USM_UNSUPPORTED: not_supported).
// Invalid ones (major version 2, another context, an unknown pointer, NULL
// strides at 1.2) must be refused. Either way the tool counts its deleter's
// calls: exactly one by the time consume returns.
#pragma once

#include "suite/cases/plugin/plugin_case_source.hpp"

namespace dlpack_usm::suite {

// Every feature name a consumer case carries, for check --require: case
// names ("ndim-40", "dtype-bool"), dtypes ("bool"), USM kinds ("host-usm")
// and families ("size0", "negative-strides", "legacy", "byte-offset").
std::vector<std::string> consumer_features();

class ConsumerCaseSource final : public PluginCaseSource {
 public:
  using PluginCaseSource::PluginCaseSource;

  std::string_view kind() const override { return "consumer"; }
  std::vector<CaseSpec> cases() override;

 private:
  CaseResult run_on(PluginSession& session, const CaseSpec& spec,
                    const runtime::DeviceInfo& device) override;
};

}  // namespace dlpack_usm::suite
