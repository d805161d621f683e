#include "suite/model/selection.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "common/error.hpp"

namespace dlpack_usm::suite {

bool glob_matches(const std::string& pattern, const std::string& text) {
  return fnmatch(pattern.c_str(), text.c_str(), 0) == 0;
}

namespace {

bool any_glob_matches(const std::vector<std::string>& patterns, const std::string& text) {
  return std::any_of(patterns.begin(), patterns.end(),
                     [&text](const std::string& p) { return glob_matches(p, text); });
}

int parse_positive(std::string_view text) {
  int value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size() ? value : -1;
}

}  // namespace

Shard parse_shard(const std::string& text) {
  std::size_t slash = text.find('/');
  int index =
      slash == std::string::npos ? -1 : parse_positive(std::string_view(text).substr(0, slash));
  int count =
      slash == std::string::npos ? -1 : parse_positive(std::string_view(text).substr(slash + 1));
  if (index < 1 || count < 1 || index > count) {
    fail_usage(fmt::format("--shard '{}' is not I/N with 1 <= I <= N", text),
               "write --shard 1/3, --shard 2/3 and --shard 3/3 in three CI jobs");
  }
  return Shard{index, count};
}

bool device_matches(const std::string& device, const std::string& wanted) {
  if (device.empty()) return false;
  return device == wanted || device.rfind(wanted + ".", 0) == 0 || glob_matches(wanted, device);
}

bool passes_filters(const CaseSpec& spec, const Selection& selection) {
  if (!selection.id_globs.empty() && !any_glob_matches(selection.id_globs, spec.id)) return false;
  if (!selection.rule_globs.empty() &&
      std::none_of(spec.rules.begin(), spec.rules.end(), [&](const std::string& rule) {
        return any_glob_matches(selection.rule_globs, rule);
      })) {
    return false;
  }
  if (!selection.cells.empty() && std::find(selection.cells.begin(), selection.cells.end(),
                                            spec.cell) == selection.cells.end()) {
    return false;
  }
  return selection.devices.empty() ||
         std::any_of(
             selection.devices.begin(), selection.devices.end(),
             [&](const std::string& wanted) { return device_matches(spec.device, wanted); });
}

SelectedCases partition_cases(std::vector<CaseSpec> cases, const Selection& selection) {
  std::sort(cases.begin(), cases.end(),
            [](const CaseSpec& a, const CaseSpec& b) { return a.id < b.id; });
  auto in_shard = [&selection](std::size_t position) {
    return !selection.shard ||
           static_cast<int>(position % static_cast<std::size_t>(selection.shard->count)) ==
               selection.shard->index - 1;
  };
  SelectedCases selected;
  std::size_t kept = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    if (passes_filters(cases[i], selection)) {
      if (in_shard(kept++)) selected.to_run.push_back(std::move(cases[i]));
    } else if (in_shard(i)) {
      selected.filtered_out.push_back(std::move(cases[i]));
    }
  }
  return selected;
}

std::vector<CaseSpec> select_cases(std::vector<CaseSpec> cases, const Selection& selection) {
  return partition_cases(std::move(cases), selection).to_run;
}

}  // namespace dlpack_usm::suite
