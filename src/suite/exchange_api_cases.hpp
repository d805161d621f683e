// `check --producer LIB:SYMBOL`: a library that offers only DLPack's C
// exchange API. Its managed_tensor_allocator is asked for tensors of a few
// dtypes and shapes on every USM root device; each must match its prototype
// (dtype, ndim, shape, device), pass the rule engine on its live facts, and
// be released by its deleter. The allocator fills no data, so there is no
// pattern to compare.
#pragma once

#include <functional>
#include <memory>

#include "plugin/plugin_spec.hpp"
#include "runtime/runtime.hpp"
#include "suite/case.hpp"
#include "suite/plugin_session.hpp"

namespace dlpack_usm::suite {

class ExchangeApiCaseSource final : public CaseSource {
 public:
  ExchangeApiCaseSource(std::function<runtime::Runtime&()> runtime, plugin::PluginSpec spec)
      : runtime_(std::move(runtime)), spec_(std::move(spec)) {}

  std::string_view kind() const override { return "exchange-api"; }
  std::vector<CaseSpec> cases() override;
  CaseResult run(const CaseSpec& spec) override;

 private:
  PluginSession& session();

  std::function<runtime::Runtime&()> runtime_;
  plugin::PluginSpec spec_;
  std::unique_ptr<PluginSession> session_;
};

}  // namespace dlpack_usm::suite
