// What the three plugin case sources (producer, consumer, exchange API) share:
// the library under test, loaded once per child process; the not_supported
// cases listed for devices it cannot be tested on; and the crash and hang
// rules every plugin case names, so the runner can blame the library.
#pragma once

#include <functional>
#include <memory>

#include "plugin/plugin_spec.hpp"
#include "rules/rule_ids.hpp"
#include "runtime/runtime.hpp"
#include "suite/cases/plugin/plugin_session.hpp"
#include "suite/model/case.hpp"

namespace dlpack_usm::suite {

// The rules every plugin case can break by behaving badly, for --rule.
inline constexpr std::string_view kPluginCrashRule = rules::ids::kPluginCrash;
inline constexpr std::string_view kPluginHangRule = rules::ids::kPluginHang;

// A case of a plugin source: crash and hang name their rules.
CaseSpec plugin_case(std::string id, std::string source, std::string device,
                     std::vector<std::string> rules, std::shared_ptr<const CaseDetails> details);
// The not_supported case of a device (or kind) a plugin cannot be tested on.
CaseSpec plugin_not_supported_case(std::string id, std::string source, std::string device,
                                   std::string reason);

class PluginCaseSource : public CaseSource {
 public:
  PluginCaseSource(std::function<runtime::Runtime&()> runtime, plugin::PluginSpec spec)
      : runtime_(std::move(runtime)), spec_(std::move(spec)) {}

  // Answers not_supported cases and a vanished device itself; loads the
  // library only for a case that calls it.
  CaseResult run(const CaseSpec& spec) final;

 protected:
  runtime::Runtime& runtime() { return runtime_(); }
  const plugin::PluginSpec& plugin_spec() const { return spec_; }
  // One case on its device, with the library loaded.
  virtual CaseResult run_on(PluginSession& session, const CaseSpec& spec,
                            const runtime::DeviceInfo& device) = 0;
  // One case that needs no device (its spec names none), with the library
  // loaded; a source with such cases answers them here.
  virtual CaseResult run_unplaced(PluginSession& session, const CaseSpec& spec);

 private:
  std::function<runtime::Runtime&()> runtime_;
  plugin::PluginSpec spec_;
  std::unique_ptr<PluginSession> session_;
};

}  // namespace dlpack_usm::suite
