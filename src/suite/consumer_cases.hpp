// `check --consumer LIB`: the tool exports its own tensors of the default
// context and hands each to the library's consume. Valid tensors that real
// consumers get wrong (extent-1 axes with odd strides, size 0 with NULL
// data, byte_offset views, negative strides, ndim 0, legacy, NULL strides
// before 1.2, READ_ONLY) must be accepted with the checksum of the pattern;
// invalid ones (major version 2, another context, an unknown pointer, NULL
// strides at 1.2) must be rejected. Either way the tool counts its deleter's
// calls: exactly one by the time consume returns.
#pragma once

#include "suite/plugin_case_source.hpp"

namespace dlpack_usm::suite {

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
