#include "report/matrix/check_input.hpp"

#include <filesystem>
#include <optional>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "matrix/live_matrix.hpp"
#include "report/matrix/matrix_outcomes.hpp"
#include "report/matrix/report_bodies.hpp"
#include "rules/rule_ids.hpp"

namespace dlpack_usm::report {
namespace {

using AxisValue = std::pair<std::string, std::string>;

// The tensor the lines of the producer matrix cross at.
constexpr std::string_view kBaseDtype = "float32";
constexpr std::string_view kBaseLayout = "C";
const std::string_view kNewestVersion = std::end(suite::kLiveVersions)[-1];

// The live matrix's layouts under the consumer matrix's names, where both
// mean the same tensor.
std::string layout_value(const std::string& layout) {
  static const std::pair<std::string_view, std::string_view> kNames[] = {
      {"C", "c-order"},
      {"F", "f-order"},
      {"offset", "byte-offset"},
      {"negative", "negative-stride"},
      {"ndim0", "ndim-0"}};
  for (const auto& [live, consumer] : kNames) {
    if (layout == live) return std::string(consumer);
  }
  return layout;
}

// producer/<device>/<kind>/<dtype>/<layout>/<version>[/read-only][/lifetime],
// producer/<device>/<kind> and producer/<device>/usm (not supported), and
// exchange-api/<device>/<prototype>.
struct ProducerCaseId {
  std::string source, device, kind, dtype, layout, version;
  bool read_only = false;
  bool lifetime = false;
};

std::vector<std::string> split_id(const std::string& id) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t slash = id.find('/'); slash != std::string::npos; slash = id.find('/', start)) {
    parts.push_back(id.substr(start, slash - start));
    start = slash + 1;
  }
  parts.push_back(id.substr(start));
  return parts;
}

std::optional<ProducerCaseId> parse_case_id(const std::string& id) {
  std::vector<std::string> parts = split_id(id);
  if (parts.size() < 3) return std::nullopt;
  ProducerCaseId parsed{parts[0], parts[1], parts[2], "", "", "", false, false};
  if (parts.size() == 3 || parts[0] != "producer") return parsed;
  if (parts.size() < 6) return std::nullopt;
  parsed.dtype = parts[3];
  parsed.layout = parts[4];
  parsed.version = parts[5];
  for (std::size_t i = 6; i < parts.size(); ++i) {
    parsed.read_only = parsed.read_only || parts[i] == "read-only";
    parsed.lifetime = parsed.lifetime || parts[i] == "lifetime";
  }
  return parsed;
}

// The lines of the matrix a tensor case lies on (the base tensor on three).
std::vector<AxisValue> tensor_lines(const ProducerCaseId& id) {
  bool base_dtype = id.dtype == kBaseDtype;
  bool base_layout = id.layout == kBaseLayout;
  if (id.lifetime) return {{"lifetime", id.version}};
  if (id.read_only) {
    if (base_dtype && base_layout) return {{"read-only", id.version}};
    return {};
  }
  std::vector<AxisValue> lines;
  if (base_dtype && base_layout) lines.emplace_back("version", id.version);
  if (base_layout && id.version == kNewestVersion) lines.emplace_back("dtype", id.dtype);
  if (base_dtype && id.version == kNewestVersion)
    lines.emplace_back("layout", layout_value(id.layout));
  return lines;
}

std::string combined_value(const ProducerCaseId& id) {
  return fmt::format("{}/{}/{}{}", id.dtype, layout_value(id.layout), id.version,
                     id.read_only ? "/read-only" : "");
}

// The producer outcome of a case, from its status (the report's "outcome")
// and its worst finding; "" for a case that never ran.
std::string producer_outcome(const std::string& status, const ProfileCell& cell,
                             const std::string& message) {
  if (status == "skipped" || status == "not_run") return {};
  if (status == "crash" || cell.rule == rules::ids::kPluginCrash) return "crash";
  if (status == "timeout" || cell.rule == rules::ids::kPluginHang) return "hang";
  if (status == "not_supported") return "refused";
  if (status == "error") return "error";
  if (status == "fail") return cell.rule == rules::ids::kPluginStatus ? "wrong" : "emitted-invalid";
  // A READ_ONLY tensor below 1.0 declined: the right answer, and a pass
  // (producer_cases.cpp words it so).
  return message.starts_with("the library declined") ? "refused" : "emitted";
}

std::string kind_memory(const std::string& kind) {
  return kind == "usm" ? kind : kind + "-usm";
}

// Where a case is one of the device's kinds (or all of USM) missing.
std::vector<ProfileCell> missing_memory_cell(ProfileCell cell, const ProducerCaseId& id) {
  cell.memory = kind_memory(id.kind);
  cell.axis = "memory";
  cell.value = cell.memory;
  cell.outcome = "not-applicable";
  return {cell};
}

std::vector<ProfileCell> cells_on_lines(const ProfileCell& cell, const ProducerCaseId& id) {
  std::vector<AxisValue> lines = tensor_lines(id);
  if (lines.empty() && cell_gate(cell.status) != CellGate::passes) {
    lines.emplace_back("combined", combined_value(id));
  }
  std::vector<ProfileCell> cells;
  for (auto& [axis, value] : lines) {
    ProfileCell& placed = cells.emplace_back(cell);
    placed.memory = kind_memory(id.kind);
    placed.axis = std::move(axis);
    placed.value = std::move(value);
  }
  return cells;
}

// The library under test in `role`, as the report's plugins name it (the
// file's name where the library gives none).
std::optional<LibraryProfile> plugin_library(const JsonFields& top, const std::string& role) {
  if (!top.has("plugins")) return std::nullopt;
  for (const JsonFields& plugin : top.objects("plugins")) {
    if (plugin.text("role") != role) continue;
    LibraryProfile profile;
    profile.library = plugin.text_or_null("name");
    if (profile.library.empty()) {
      profile.library = std::filesystem::path(plugin.text("path")).filename().string();
    }
    profile.version = plugin.text_or_null("version");
    return profile;
  }
  return std::nullopt;
}

std::vector<ProfileCell> producer_results(const JsonFields& top) {
  std::vector<ProfileCell> cells;
  for (const JsonFields& result : top.objects("results")) {
    std::string source = result.text("source");
    if (source != "producer" && source != "exchange-api") continue;
    std::vector<ProfileCell> made = producer_cells(result);
    cells.insert(cells.end(), made.begin(), made.end());
  }
  return cells;
}

}  // namespace

std::vector<LibraryProfile> read_check_report(const JsonFields& top) {
  std::vector<LibraryProfile> libraries;
  if (std::optional<LibraryProfile> producer = plugin_library(top, "producer")) {
    producer->cells = producer_results(top);
    libraries.push_back(std::move(*producer));
  }
  if (std::optional<LibraryProfile> consumer = plugin_library(top, "consumer")) {
    if (top.has("profile")) consumer->cells = read_body_cells(top, "consumer", "");
    libraries.push_back(std::move(*consumer));
  }
  if (libraries.empty()) {
    fail_input(top.input(),
               "a check report of a run without --producer or --consumer: it measures no library "
               "(its cases are the tool's own vectors and round trips)");
  }
  return libraries;
}

std::vector<ProfileCell> producer_cells(const JsonFields& result) {
  ProfileCell cell;
  cell.direction = "producer";
  cell.case_id = result.text("id");
  cell.device = result.text_or_null("device");
  cell.status = result.text("outcome");
  cell.repro = result.optional_text("repro");
  take_worst_finding(result, cell);
  std::string message = result.optional_text("message");
  if (cell.rule.empty()) cell.reason = message;
  cell.outcome = producer_outcome(cell.status, cell, message);
  std::optional<ProducerCaseId> id = parse_case_id(cell.case_id);
  if (cell.outcome.empty() || !id) return {};
  if (id->kind == "usm" || (id->source == "producer" && id->dtype.empty())) {
    if (cell.outcome == "refused") return missing_memory_cell(cell, *id);
  }
  if (id->source == "exchange-api") {
    cell.axis = "exchange-api";
    cell.value = id->kind;  // the prototype's name
    return {cell};
  }
  return id->dtype.empty() ? std::vector<ProfileCell>{} : cells_on_lines(cell, *id);
}

}  // namespace dlpack_usm::report
