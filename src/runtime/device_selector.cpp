#include "runtime/device_selector.hpp"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "common/error.hpp"

namespace dlpack_usm::runtime {
namespace {

constexpr std::string_view kVariable = "ONEAPI_DEVICE_SELECTOR";

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    std::size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

bool is_number(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool is_known_backend(std::string_view backend) {
  return backend == "*" || backend == "opencl" || backend == "level_zero" || backend == "cuda" ||
         backend == "hip" || backend == "native_cpu";
}

// SYCL calls OpenCL accelerators "fpga" in selectors.
bool device_matches(std::string_view pattern, std::string_view type, int backend_index) {
  if (pattern == "*") return true;
  if (pattern == "fpga") return type == "accelerator";
  if (pattern == "cpu" || pattern == "gpu") return pattern == type;
  if (is_number(pattern)) {
    int index = -1;
    std::from_chars(pattern.data(), pattern.data() + pattern.size(), index);
    return index == backend_index;
  }
  return false;  // sub-device terms never select a root device
}

bool term_matches(const SelectorTerm& term, std::string_view backend, std::string_view type,
                  int backend_index) {
  if (term.backend != "*" && term.backend != backend) return false;
  return std::any_of(term.devices.begin(), term.devices.end(),
                     [&](const std::string& d) { return device_matches(d, type, backend_index); });
}

}  // namespace

DeviceSelector DeviceSelector::parse(std::string_view text, std::vector<std::string>* warnings) {
  DeviceSelector selector;
  for (std::string_view raw : split(text, ';')) {
    if (raw.empty()) continue;
    SelectorTerm term;
    if (raw.front() == '!') {
      term.exclude = true;
      raw.remove_prefix(1);
    }
    std::size_t colon = raw.find(':');
    if (colon == std::string_view::npos || colon == 0 || colon + 1 == raw.size()) {
      fail_usage(fmt::format("{}: term '{}' is not BACKEND:DEVICES", kVariable, raw),
                 "write it like opencl:cpu or opencl:0,1 or !opencl:gpu, or unset the variable");
    }
    term.backend = std::string(raw.substr(0, colon));
    if (!is_known_backend(term.backend)) {
      fail_usage(fmt::format("{}: unknown backend '{}' in '{}'", kVariable, term.backend, raw),
                 "backends are opencl, level_zero, cuda, hip, native_cpu and *");
    }
    for (std::string_view device : split(raw.substr(colon + 1), ',')) {
      bool sub_device = device.find('.') != std::string_view::npos;
      bool valid = device == "*" || device == "cpu" || device == "gpu" || device == "fpga" ||
                   is_number(device) || sub_device;
      if (!valid) {
        fail_usage(fmt::format("{}: unknown device '{}' in '{}'", kVariable, device, raw),
                   "devices are *, cpu, gpu, fpga, an index N, or a sub-device N.M");
      }
      if (sub_device && warnings != nullptr) {
        warnings->push_back(fmt::format(
            "{} term '{}' names a sub-device; SYCL would list it as a root device, which "
            "this tool does not model: it selects no root device here",
            kVariable, device));
      }
      term.devices.emplace_back(device);
    }
    selector.terms_.push_back(std::move(term));
  }
  return selector;
}

bool DeviceSelector::accepts(std::string_view backend, std::string_view type,
                             int backend_index) const {
  bool any_accepting_term = false;
  bool accepted = false;
  for (const SelectorTerm& term : terms_) {
    bool matches = term_matches(term, backend, type, backend_index);
    if (term.exclude && matches) return false;
    if (!term.exclude) {
      any_accepting_term = true;
      accepted = accepted || matches;
    }
  }
  return !any_accepting_term || accepted;
}

}  // namespace dlpack_usm::runtime
