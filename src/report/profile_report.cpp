#include "report/profile_report.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "matrix/consumer_matrix.hpp"
#include "matrix/consumer_verdict.hpp"

namespace dlpack_usm::report {
namespace {

using suite::ProfileEntry;

// The symbol of a profile class (matrix::profile_classes), '?' for none.
char class_symbol(const std::string& outcome) {
  for (const matrix::ProfileClassInfo& info : matrix::profile_classes()) {
    if (outcome == info.name) return info.symbol;
  }
  return '?';
}

// The legend every rendering of a profile prints, C++ and Python alike.
std::string legend() {
  std::string text;
  for (const matrix::ProfileClassInfo& info : matrix::profile_classes()) {
    text += fmt::format("{}{} {}", text.empty() ? "" : ", ", info.symbol, info.meaning);
  }
  return text;
}

// The values of `axis` in the order the consumer matrix lays them out
// (int8 before int16, c-order first); empty for an axis whose values read
// well in the order the cases ran (their ids' order).
std::vector<std::string> matrix_order(const std::string& axis) {
  std::vector<std::string> order;
  if (axis == "dtype") {
    for (const matrix::OfferedShape& shape : matrix::dtype_axis()) {
      order.push_back(shape.name.substr(std::string_view("dtype-").size()));
    }
  } else if (axis == "layout") {
    for (const matrix::OfferedShape& shape : matrix::layout_axis()) order.push_back(shape.name);
  } else if (axis == "invalid") {
    order = matrix::invalid_case_names();
  }
  return order;
}

// One axis of one device: each value with the symbol of its class, in the
// matrix's order; values the matrix does not list stay last, as they ran.
void print_axis(Printer& printer, const std::string& axis, std::vector<const ProfileEntry*> cells) {
  if (cells.empty()) return;
  const std::vector<std::string> order = matrix_order(axis);
  auto rank = [&order](const ProfileEntry* cell) {
    return std::find(order.begin(), order.end(), cell->value) - order.begin();
  };
  std::stable_sort(
      cells.begin(), cells.end(),
      [&rank](const ProfileEntry* a, const ProfileEntry* b) { return rank(a) < rank(b); });
  std::string marks;
  for (const ProfileEntry* cell : cells) {
    marks +=
        fmt::format("{}{}{}", marks.empty() ? "" : " ", cell->value, class_symbol(cell->outcome));
  }
  printer.line(fmt::format("    {:<10}{}", axis, marks));
}

// The declines of one device grouped by their reason, in the run's order.
void print_declines(Printer& printer, const std::vector<const ProfileEntry*>& cells) {
  std::vector<std::pair<std::string, std::vector<std::string>>> declined;
  for (const ProfileEntry* cell : cells) {
    if (cell->outcome != "declined") continue;
    auto group = std::find_if(declined.begin(), declined.end(),
                              [cell](const auto& entry) { return entry.first == cell->reason; });
    if (group == declined.end()) group = declined.insert(declined.end(), {cell->reason, {}});
    group->second.push_back(cell->value);
  }
  for (const auto& [reason, values] : declined) {
    printer.line(
        fmt::format("    declined ({}): {}: {}", values.size(), fmt::join(values, ", "), reason));
  }
}

// The streams the consumer passed on `device`, a memory at a time.
void print_streams(Printer& printer, const std::string& device,
                   const std::vector<suite::StreamsPassed>& streams) {
  for (const suite::StreamsPassed& entry : streams) {
    if (entry.device != device) continue;
    printer.line(
        fmt::format("    {:<10}{}: {}", "streams", entry.memory, fmt::join(entry.passed, ", ")));
  }
}

void print_streams_data(Printer& printer, const std::vector<suite::StreamsPassed>& streams) {
  if (streams.empty()) return;
  ListScope list(printer, "streams");
  for (const suite::StreamsPassed& entry : streams) {
    printer.data({},
                 {{"device", entry.device}, {"memory", entry.memory}, {"passed", entry.passed}});
  }
}

}  // namespace

void print_profile(Printer& printer, const std::vector<ProfileEntry>& profile,
                   const ConsumerCalls& calls) {
  if (profile.empty()) return;
  const std::vector<suite::StreamsPassed>& streams = calls.streams;
  print_streams_data(printer, streams);
  if (!calls.asked.empty()) printer.data("asked", calls.asked);
  {
    ListScope list(printer, "profile");
    for (const ProfileEntry& cell : profile) {
      printer.data({}, {{"device", cell.device},
                        {"axis", cell.axis},
                        {"value", cell.value},
                        {"outcome", cell.outcome},
                        {"status", cell.status},
                        {"reason", cell.reason},
                        {"case", cell.case_id}});
    }
  }
  // Devices in the order the run met them.
  std::vector<std::string> devices;
  for (const ProfileEntry& cell : profile) {
    if (std::find(devices.begin(), devices.end(), cell.device) == devices.end()) {
      devices.push_back(cell.device);
    }
  }
  printer.line("");
  printer.line(fmt::format("capability profile ({}):", legend()));
  for (const std::string& form : calls.asked) printer.line(fmt::format("  asked: {}", form));
  for (const std::string& device : devices) {
    printer.line(fmt::format("  {}", device));
    std::vector<const ProfileEntry*> failures;
    std::vector<const ProfileEntry*> on_device;
    for (const std::string& axis : suite::profile_axes()) {
      std::vector<const ProfileEntry*> cells;
      for (const ProfileEntry& cell : profile) {
        if (cell.device != device || cell.axis != axis) continue;
        cells.push_back(&cell);
        on_device.push_back(&cell);
        if (cell.failed) failures.push_back(&cell);
      }
      print_axis(printer, axis, cells);
    }
    print_streams(printer, device, streams);
    print_declines(printer, on_device);
    if (failures.empty()) continue;
    printer.line(fmt::format("    failures ({}):", failures.size()));
    for (const ProfileEntry* cell : failures) {
      printer.line(fmt::format("      {:<17} {}={}  {}", cell->outcome, cell->axis, cell->value,
                               cell->case_id));
    }
  }
}

}  // namespace dlpack_usm::report
