#include "report/profile_report.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include <fmt/format.h>

namespace dlpack_usm::report {
namespace {

using suite::ProfileEntry;

// Values joined with ", ", in the order the matrix offered them.
std::string joined(const std::vector<std::string>& values) {
  std::string text;
  for (const std::string& value : values) {
    if (!text.empty()) text.append(", ");
    text.append(value);
  }
  return text;
}

// One axis of one device: what passed, what was declined and why, what failed.
void print_axis(Printer& printer, const std::string& axis,
                const std::vector<const ProfileEntry*>& cells) {
  std::vector<std::string> passed;
  std::string passed_class;
  std::vector<std::pair<std::string, std::vector<std::string>>> declined;  // by reason
  for (const ProfileEntry* cell : cells) {
    if (cell->failed) continue;
    if (cell->outcome == "declined") {
      auto group = std::find_if(declined.begin(), declined.end(),
                                [cell](const auto& entry) { return entry.first == cell->reason; });
      if (group == declined.end()) group = declined.insert(declined.end(), {cell->reason, {}});
      group->second.push_back(cell->value);
    } else {
      passed.push_back(cell->value);
      passed_class = cell->outcome;  // accepted, or refused on the invalid axis
    }
  }
  std::string label = fmt::format("    {:<10}", axis);
  if (!passed.empty()) {
    printer.line(fmt::format("{}{} ({}): {}", label, passed_class, passed.size(), joined(passed)));
    label = std::string(14, ' ');
  }
  for (const auto& [reason, values] : declined) {
    printer.line(
        fmt::format("{}declined ({}): {} ({})", label, values.size(), joined(values), reason));
    label = std::string(14, ' ');
  }
}

}  // namespace

void print_profile(Printer& printer, const std::vector<ProfileEntry>& profile) {
  if (profile.empty()) return;
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
  printer.line("capability profile:");
  for (const std::string& device : devices) {
    printer.line(fmt::format("  {}", device));
    std::vector<const ProfileEntry*> failures;
    for (const std::string& axis : suite::profile_axes()) {
      std::vector<const ProfileEntry*> cells;
      for (const ProfileEntry& cell : profile) {
        if (cell.device != device || cell.axis != axis) continue;
        cells.push_back(&cell);
        if (cell.failed) failures.push_back(&cell);
      }
      print_axis(printer, axis, cells);
    }
    if (failures.empty()) continue;
    printer.line(fmt::format("    failures ({}):", failures.size()));
    for (const ProfileEntry* cell : failures) {
      printer.line(fmt::format("      {:<17} {}={}  {}", cell->outcome, cell->axis, cell->value,
                               cell->case_id));
    }
  }
}

}  // namespace dlpack_usm::report
