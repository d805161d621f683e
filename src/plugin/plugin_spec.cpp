#include "plugin/plugin_spec.hpp"

#include <cctype>
#include <filesystem>

#include <fmt/format.h>

#include "common/error.hpp"

namespace dlpack_usm::plugin {
namespace {

bool is_c_identifier(const std::string& text) {
  if (text.empty() || (std::isdigit(static_cast<unsigned char>(text[0])) != 0)) return false;
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '_') return false;
  }
  return true;
}

}  // namespace

const char* to_string(Role role) {
  return role == Role::producer ? "producer" : "consumer";
}

PluginSpec parse_plugin_spec(Role role, const std::string& text) {
  PluginSpec spec;
  spec.role = role;
  spec.path = text;
  std::size_t colon = text.rfind(':');
  if (colon != std::string::npos && is_c_identifier(text.substr(colon + 1)) &&
      !std::filesystem::exists(text)) {
    spec.path = text.substr(0, colon);
    spec.symbol = text.substr(colon + 1);
  }
  if (spec.path.empty()) {
    fail_usage(fmt::format("{}: the library path is empty", spec.option()),
               "name a shared library, e.g. ./libmyproducer.so");
  }
  if (role == Role::consumer && spec.exchange_api()) {
    fail_usage(fmt::format("--consumer {}: a DLPackExchangeAPI symbol names a producer", text),
               "test the exchange API with --producer LIB:SYMBOL; a consumer exports "
               "dlpack_usm_plugin (man dlpack-usm-plugin)");
  }
  return spec;
}

std::vector<std::string> plugin_arguments(const std::vector<PluginSpec>& specs) {
  std::vector<std::string> arguments;
  for (const PluginSpec& spec : specs) {
    arguments.push_back(spec.option());
    arguments.push_back(spec.text());
  }
  return arguments;
}

}  // namespace dlpack_usm::plugin
