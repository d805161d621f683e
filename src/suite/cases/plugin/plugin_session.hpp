// A library under test as the child process of a plugin case sees it:
// loaded once, handed the host table, its table validated. Also what reports
// say about it (path, name, version, interface).
#pragma once

#include <memory>
#include <optional>

#include <nlohmann/json.hpp>

#include "plugin/exchange_api.hpp"
#include "plugin/host_table.hpp"
#include "plugin/plugin_library.hpp"
#include "plugin/plugin_spec.hpp"
#include "runtime/runtime.hpp"

namespace dlpack_usm::suite {

class PluginSession {
 public:
  // Loads the library and calls its entry points. Throws Error(usage) for a
  // library that is missing or breaks the interface.
  PluginSession(runtime::Runtime& runtime, const plugin::PluginSpec& spec);

  runtime::Runtime& runtime() const { return runtime_; }
  const DlpackUsmHost* host() const { return host_; }
  const plugin::PluginSpec& spec() const { return spec_; }
  // Empty (table == nullptr) for an exchange-API library without dlpack_usm_plugin.
  const plugin::PluginTable& table() const { return table_; }
  const plugin::ExchangeApi& exchange_api() const { return exchange_api_; }

  // {"role", "path", "interface", "symbol", "name", "version"} for reports.
  nlohmann::json describe() const;

 private:
  runtime::Runtime& runtime_;
  plugin::PluginSpec spec_;
  const DlpackUsmHost* host_ = nullptr;
  std::unique_ptr<plugin::PluginLibrary> library_;
  plugin::PluginTable table_;
  plugin::ExchangeApi exchange_api_;
};

}  // namespace dlpack_usm::suite
