// `check --consumer LIB`: the tool exports its own tensors of the default
// context and hands each to the library's consume. Valid tensors that real
// consumers get wrong (extent-1 axes with odd strides, size 0 with NULL
// data, byte_offset views, negative strides, ndim 0, legacy, NULL strides
// before 1.2, READ_ONLY) must be accepted with the checksum of the pattern;
// invalid ones (major version 2, another context, an unknown pointer, NULL
// strides at 1.2) must be rejected. Either way the tool counts its deleter's
// calls: exactly one by the time consume returns.
#pragma once

#include <functional>
#include <memory>

#include "plugin/plugin_spec.hpp"
#include "runtime/runtime.hpp"
#include "suite/case.hpp"
#include "suite/plugin_session.hpp"

namespace dlpack_usm::suite {

class ConsumerCaseSource final : public CaseSource {
 public:
  ConsumerCaseSource(std::function<runtime::Runtime&()> runtime, plugin::PluginSpec spec)
      : runtime_(std::move(runtime)), spec_(std::move(spec)) {}

  std::string_view kind() const override { return "consumer"; }
  std::vector<CaseSpec> cases() override;
  CaseResult run(const CaseSpec& spec) override;

 private:
  PluginSession& session();

  std::function<runtime::Runtime&()> runtime_;
  plugin::PluginSpec spec_;
  std::unique_ptr<PluginSession> session_;
};

}  // namespace dlpack_usm::suite
