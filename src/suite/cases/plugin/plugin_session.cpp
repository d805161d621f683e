#include "suite/cases/plugin/plugin_session.hpp"

#include <fmt/format.h>

#include "common/printable.hpp"

namespace dlpack_usm::suite {
namespace {

// One host table per process, shared by a producer and a consumer session:
// its C callbacks reach the runtime through it.
const DlpackUsmHost* process_host_table(runtime::Runtime& runtime) {
  static std::unique_ptr<plugin::HostTable> table = std::make_unique<plugin::HostTable>(runtime);
  return table->get();
}

}  // namespace

PluginSession::PluginSession(runtime::Runtime& runtime, const plugin::PluginSpec& spec)
    : runtime_(runtime), spec_(spec) {
  library_ = std::make_unique<plugin::PluginLibrary>(spec.path);
  host_ = process_host_table(runtime);
  if (spec.exchange_api()) {
    // A library driven through its exchange API learns the default contexts
    // only through dlpack_usm_plugin, when it has one.
    table_ = plugin::load_optional_plugin_table(*library_, *host_);
    exchange_api_ = plugin::resolve_exchange_api(*library_, spec.symbol);
  } else {
    table_ = plugin::load_plugin_table(*library_, *host_, spec.role);
  }
}

nlohmann::json PluginSession::describe() const {
  nlohmann::json json{
      {"role", plugin::to_string(spec_.role)},
      {"path", printable(spec_.path)},
      {"interface", spec_.exchange_api() ? "DLPackExchangeAPI" : "dlpack_usm_plugin"},
      {"symbol", spec_.exchange_api() ? nlohmann::json(spec_.symbol) : nlohmann::json(nullptr)},
      {"name", table_.table != nullptr ? nlohmann::json(table_.name) : nlohmann::json(nullptr)},
      {"version",
       table_.table != nullptr ? nlohmann::json(table_.version) : nlohmann::json(nullptr)}};
  if (spec_.exchange_api()) {
    json["exchange_api_version"] =
        fmt::format("{}.{}", exchange_api_.published.major, exchange_api_.published.minor);
  }
  return json;
}

}  // namespace dlpack_usm::suite
