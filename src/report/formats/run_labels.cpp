#include "report/formats/run_labels.hpp"

#include <fmt/format.h>

namespace dlpack_usm::report {

std::string device_group(const suite::RecordedCase& recorded) {
  if (!recorded.spec.device.empty()) return recorded.spec.device;
  // Cases that need no device go by what they check: the shipped vectors,
  // an exchange API's table (source exchange-api).
  return recorded.spec.source == "vector" ? std::string("vectors") : recorded.spec.source;
}

std::string plugin_label(const nlohmann::json& plugin) {
  auto text = [&plugin](const char* key) {
    return plugin.contains(key) && plugin[key].is_string() ? plugin[key].get<std::string>()
                                                           : std::string();
  };
  // fmt, not operator+ on temporaries: GCC 12 at -O3 raises a false
  // -Wstringop-overflow there.
  if (plugin.contains("consumer_path") && plugin.value("producer", nlohmann::json()).is_object() &&
      plugin.value("consumer", nlohmann::json()).is_object()) {
    // A handoff: both libraries, each with its version.
    const nlohmann::json& producer = plugin["producer"];
    const nlohmann::json& consumer = plugin["consumer"];
    return fmt::format(
        "{} {} to {} {} ({} to {})", producer.value("name", std::string()),
        producer.value("version", std::string()), consumer.value("name", std::string()),
        consumer.value("version", std::string()), text("path"), text("consumer_path"));
  }
  std::string label =
      text("name").empty() ? text("path") : fmt::format("{} {}", text("name"), text("version"));
  std::string symbol = text("symbol");
  return fmt::format("{} ({}{}{})", label, text("path"), symbol.empty() ? "" : ":", symbol);
}

}  // namespace dlpack_usm::report
