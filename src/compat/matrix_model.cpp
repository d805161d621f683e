#include "compat/matrix_model.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <string_view>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "compat/matrix_outcomes.hpp"

namespace dlpack_usm::compat {
namespace {

// Axes in the order a reader meets them: the versions a library speaks,
// where the memory is, what the tensor holds and how it is laid out, the
// protocol's keywords, then the invalid tensors and what did not fit.
constexpr std::string_view kAxisOrder[] = {"version", "max_version", "memory",    "usm-kind",
                                           "device",  "dl_device",   "dtype",     "layout",
                                           "ndim",    "size0",       "read-only", "copy",
                                           "stream",  "lifetime",    "invalid",   "combined"};

int direction_order(std::string_view direction) {
  if (direction == "producer") return 0;
  return direction == "consumer" ? 1 : 2;
}

int axis_order(std::string_view axis) {
  auto found = std::find(std::begin(kAxisOrder), std::end(kAxisOrder), axis);
  return static_cast<int>(found - std::begin(kAxisOrder));
}

// The memory kinds of the contract, and the older names the consume
// reports' results use on a USM device.
struct MemoryKind {
  std::string_view name;
  std::string_view label;
};
constexpr MemoryKind kMemoryKinds[] = {{"cpu", "host"},
                                       {"host-usm", "USM host"},
                                       {"host", "USM host"},
                                       {"device-usm", "USM device"},
                                       {"device", "USM device"},
                                       {"shared-usm", "USM shared"},
                                       {"shared", "USM shared"},
                                       {"usm", "USM"},
                                       {"cuda", "CUDA device"},
                                       {"cuda-host", "CUDA host"},
                                       {"cuda-managed", "CUDA managed"}};

// "1" of "cuda:1", "0.1" of "opencl:gpu:0.1"; "" for "cpu" or a name
// without a trailing index.
std::string device_index(std::string_view device) {
  std::size_t colon = device.rfind(':');
  if (colon == std::string_view::npos || colon + 1 == device.size()) return {};
  std::string_view index = device.substr(colon + 1);
  if (index.find_first_not_of("0123456789.") != std::string_view::npos) return {};
  return std::string(index);
}

using ColumnKey = std::pair<std::string, std::string>;

struct RowKey {
  int direction_rank;
  std::string direction;
  int axis_rank;
  std::string axis;
  int place_rank;
  std::string place;
  std::size_t value_rank;
  std::string value;

  auto operator<=>(const RowKey&) const = default;
};

// Values in the order the inputs first list them (int8 before int16, as
// the libraries' own matrices have them), per direction and axis.
class ValueOrder {
 public:
  std::size_t rank(const ProfileCell& cell) {
    auto key = std::tie(cell.direction, cell.axis, cell.value);
    auto found = ranks_.find(key);
    if (found != ranks_.end()) return found->second;
    std::size_t rank = ranks_.size();
    ranks_.emplace(std::make_tuple(cell.direction, cell.axis, cell.value), rank);
    return rank;
  }

 private:
  std::map<std::tuple<std::string, std::string, std::string>, std::size_t, std::less<>> ranks_;
};

RowKey row_key(const ProfileCell& cell, ValueOrder& values) {
  Place place = place_of(cell);
  return {direction_order(cell.direction),
          cell.direction,
          axis_order(cell.axis),
          cell.axis,
          place.order,
          place.label,
          values.rank(cell),
          cell.value};
}

// Python's package names match whatever their case and separators
// (array-api-strict is array_api_strict, as pip has it): one column.
std::string canonical_name(const std::string& library) {
  std::string name;
  for (char c : library) {
    name +=
        c == '-' || c == '.' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return name;
}

ColumnKey column_key(const LibraryProfile& profile) {
  return {canonical_name(profile.library), profile.version};
}

// The columns, sorted, and for each profile the index of its column.
std::vector<std::size_t> assign_columns(const std::vector<LibraryProfile>& profiles,
                                        std::vector<MatrixColumn>& columns) {
  std::map<ColumnKey, MatrixColumn> by_key;
  for (const LibraryProfile& profile : profiles) {
    MatrixColumn& column = by_key[column_key(profile)];
    if (column.library.empty()) column.library = profile.library;
    column.version = profile.version;
    std::vector<std::string>& machines = column.machines;
    if (!profile.machine.empty() &&
        std::find(machines.begin(), machines.end(), profile.machine) == machines.end()) {
      machines.insert(std::upper_bound(machines.begin(), machines.end(), profile.machine),
                      profile.machine);
    }
    column.files.push_back(
        profile.measured.empty()
            ? fmt::format("{} ({})", profile.file, profile.kind)
            : fmt::format("{} ({}, {})", profile.file, profile.kind, profile.measured));
  }
  std::vector<std::size_t> index_of;
  for (const LibraryProfile& profile : profiles) {
    auto found = by_key.find(column_key(profile));
    index_of.push_back(static_cast<std::size_t>(std::distance(by_key.begin(), found)));
  }
  for (auto& [key, column] : by_key) columns.push_back(std::move(column));
  return index_of;
}

// "rule DLP-X: text" as the findings word it, without the rule shown beside it.
std::string without_rule_prefix(const std::string& message, const std::string& rule) {
  std::string prefix = fmt::format("rule {}: ", rule);
  return !rule.empty() && message.starts_with(prefix) ? message.substr(prefix.size()) : message;
}

}  // namespace

std::string MatrixColumn::title() const {
  std::string title = version.empty() ? library : fmt::format("{} {}", library, version);
  return machines.empty() ? title : fmt::format("{} ({})", title, fmt::join(machines, ", "));
}

Place place_of(const ProfileCell& cell) {
  std::string memory = cell.memory;
  if (memory.empty())
    memory = cell.device == "cpu" ? "cpu" : cell.device.starts_with("cuda") ? "cuda" : "device-usm";
  Place place{memory, static_cast<int>(std::size(kMemoryKinds))};
  for (std::size_t i = 0; i < std::size(kMemoryKinds); ++i) {
    if (kMemoryKinds[i].name == memory)
      place = {std::string(kMemoryKinds[i].label), static_cast<int>(i)};
  }
  std::string index = device_index(cell.device);
  if (!index.empty() && index != "0") place.label += fmt::format(" #{}", index);
  return place;
}

bool MatrixRow::agrees() const {
  if (cells.empty() || !cells.front()) return false;
  std::string first = cell_mark(*cells.front());
  return std::all_of(cells.begin(), cells.end(),
                     [&first](const auto& cell) { return cell && cell_mark(*cell) == first; });
}

std::size_t CompatibilityMatrix::folded_rows() const {
  return static_cast<std::size_t>(
      std::count_if(rows.begin(), rows.end(), [this](const MatrixRow& row) { return folds(row); }));
}

CompatibilityMatrix build_matrix(std::vector<LibraryProfile> profiles) {
  CompatibilityMatrix matrix;
  // The handoffs make the pairwise grid; the other inputs the columns.
  std::vector<PairCase> pairs;
  for (LibraryProfile& input : profiles) {
    for (PairCase& handed : input.pairs) pairs.push_back(std::move(handed));
  }
  profiles.erase(std::remove_if(profiles.begin(), profiles.end(),
                                [](const LibraryProfile& input) { return input.handoff; }),
                 profiles.end());
  matrix.pairs = build_pair_grid(std::move(pairs));
  std::vector<std::size_t> column_of = assign_columns(profiles, matrix.columns);
  // Profiles in column order, so that values rank as the first column lists them.
  std::vector<std::size_t> order(profiles.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&column_of](std::size_t a, std::size_t b) {
    return column_of[a] < column_of[b];
  });
  ValueOrder values;
  std::map<RowKey, MatrixRow> rows;
  for (std::size_t index : order) {
    std::size_t column = column_of[index];
    for (const ProfileCell& cell : profiles[index].cells) {
      RowKey key = row_key(cell, values);
      MatrixRow& row = rows[key];
      if (row.cells.empty()) {
        row = {cell.direction, cell.axis, key.place, cell.value, {}};
        row.cells.resize(matrix.columns.size());
      }
      std::optional<ProfileCell>& slot = row.cells[column];
      if (!slot ||
          outcome_rank(cell.outcome, cell.status) > outcome_rank(slot->outcome, slot->status)) {
        slot = cell;
      }
    }
  }
  for (auto& [key, row] : rows) {
    for (std::size_t column = 0; column < row.cells.size(); ++column) {
      if (row.cells[column]) ++matrix.columns[column].cells;
    }
    matrix.rows.push_back(std::move(row));
  }
  return matrix;
}

std::string cell_mark(const ProfileCell& cell) {
  return fmt::format("{}{}", matrix_outcome(cell.outcome).symbol,
                     gate_suffix(cell_gate(cell.status)));
}

std::string cell_detail(const ProfileCell& cell) {
  std::vector<std::string> parts;
  if (!cell.emitted.empty()) parts.push_back(cell.emitted);
  if (!cell.reason.empty()) parts.push_back(cell.reason);
  if (!cell.exception.empty() && cell.reason.find(cell.exception) == std::string::npos) {
    parts.push_back(fmt::format("raised {}", cell.exception));
  }
  std::string message = without_rule_prefix(cell.message, cell.rule);
  if (!cell.rule.empty()) {
    parts.push_back(message.empty() ? cell.rule : fmt::format("{}: {}", cell.rule, message));
  } else if (!message.empty() && message != cell.reason) {
    parts.push_back(message);
  }
  return fmt::format("{}", fmt::join(parts, "; "));
}

std::string cell_note(const ProfileCell& cell) {
  const MatrixOutcome& outcome = matrix_outcome(cell.outcome);
  std::string name = outcome.name.empty() ? cell.outcome : outcome.name;
  std::string status = cell.status.empty() ? "" : fmt::format(" ({})", cell.status);
  std::string detail = cell_detail(cell);
  return detail.empty() ? name + status : fmt::format("{}{}: {}", name, status, detail);
}

}  // namespace dlpack_usm::compat
