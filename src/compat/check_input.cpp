#include "compat/check_input.hpp"

#include <filesystem>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "common/error.hpp"
#include "compat/handoff_input.hpp"
#include "compat/matrix_outcomes.hpp"
#include "compat/report_bodies.hpp"
#include "report/formats/report_json_reader.hpp"

namespace dlpack_usm::compat {
namespace {

using suite::CasePlace;
using suite::Direction;
using suite::ExchangeOutcome;
using suite::MatrixLine;
using suite::RecordedCase;

// The worst of a result's findings (error, then warning, then info; the
// first of equals), or nullptr where it has none.
const suite::CaseFinding* worst_finding(const suite::CaseResult& result) {
  const suite::CaseFinding* worst = nullptr;
  for (const suite::CaseFinding& finding : result.findings) {
    // rules::Severity lists info first: a higher value is worse.
    if (worst == nullptr || finding.severity > worst->severity) worst = &finding;
  }
  return worst;
}

// What every cell of a record shares; the axis and value are its lines'.
ProfileCell record_cell(const RecordedCase& recorded) {
  const suite::CaseResult& result = recorded.result;
  ProfileCell cell;
  cell.direction = suite::to_string(recorded.spec.place.direction);
  cell.device = recorded.spec.device;
  cell.memory = recorded.spec.place.memory;
  cell.outcome = suite::to_string(result.exchange);
  cell.status = suite::to_string(result.outcome);
  cell.case_id = result.id;
  cell.repro = recorded.repro;
  cell.exception = result.exception;
  cell.emitted = result.emitted;
  if (const suite::CaseFinding* worst = worst_finding(result)) {
    cell.rule = worst->rule_id;
    cell.message = worst->message;
  }
  // A consumer's reason is the one it gave for a decline, else what
  // happened; a producer's what happened where no rule says more.
  if (recorded.spec.place.direction == Direction::consumer) {
    cell.reason = result.decline_reason.empty() ? result.message : result.decline_reason;
  } else if (cell.rule.empty()) {
    cell.reason = result.message;
  }
  return cell;
}

// A library under test as the report's plugins name it (the file's name
// where the library gives none).
LibraryProfile plugin_library(const JsonFields& plugin) {
  LibraryProfile profile;
  profile.library = plugin.text_or_null("name");
  if (profile.library.empty()) {
    profile.library = std::filesystem::path(plugin.text("path")).filename().string();
  }
  profile.library = library_text(std::move(profile.library));
  profile.version = library_text(plugin.text_or_null("version"));
  return profile;
}

// Whether `recorded` is a case of the library `plugin` describes: a Python
// library's cases name it (their library is its EXPR or MODULE, both
// directions for a profile), a C plugin's are those of its direction.
bool case_of(const JsonFields& plugin, const RecordedCase& recorded) {
  if (plugin.optional_text("interface") == "python") {
    return recorded.spec.library == plugin.text("path");
  }
  std::optional<Direction> direction = suite::parse_direction(plugin.text("role"));
  return recorded.spec.library.empty() && direction && recorded.spec.place.direction == *direction;
}

void refuse_older_report(const JsonInput& input, const nlohmann::json& document) {
  std::string schema = document.value("schema", std::string());
  if (schema == suite::kCheckReportSchema) return;
  fail_usage(fmt::format("report matrix: {}: a check report of schema {}, written by an older "
                         "dlpack-usm: its cases carry no place in the matrix ({} and later do)",
                         input.file, schema, suite::kCheckReportSchema),
             "run 'dlpack-usm check --producer/--consumer LIB --report FILE' again with this "
             "dlpack-usm, and give 'report matrix' that report");
}

// The run's machine label (check --label), "" where it had none.
std::string run_label(const nlohmann::json& document) {
  auto options = document.find("options");
  if (options == document.end() || !options->is_object()) return {};
  auto label = options->find("label");
  return label != options->end() && label->is_string() ? label->get<std::string>() : "";
}

}  // namespace

std::vector<LibraryProfile> read_check_report(const JsonInput& input,
                                              const nlohmann::json& document) {
  refuse_older_report(input, document);
  report::CheckReportRecords records = report::read_check_report_records(input, document);
  std::vector<LibraryProfile> libraries;
  for (std::size_t i = 0; i < records.plugins.size(); ++i) {
    JsonFields plugin(input, records.plugins[i], fmt::format("/plugins/{}", i));
    if (plugin.text("role") == "handoff") {
      // Two libraries at once: a case of the pairwise grid, no column.
      LibraryProfile pair = plugin_library(plugin);
      pair.handoff = true;
      pair.pairs = read_handoffs(records, records.plugins[i], run_label(document));
      libraries.push_back(std::move(pair));
      continue;
    }
    LibraryProfile library = plugin_library(plugin);
    for (const RecordedCase& recorded : records.cases) {
      if (!case_of(plugin, recorded)) continue;
      std::vector<ProfileCell> cells = record_cells(recorded);
      library.cells.insert(library.cells.end(), cells.begin(), cells.end());
    }
    libraries.push_back(std::move(library));
  }
  if (libraries.empty()) {
    fail_input(input,
               "a check report of a run with no library under test (--producer, --consumer, "
               "--python-...): it measures no library "
               "(its cases are the tool's own vectors and round trips)");
  }
  return libraries;
}

std::vector<ProfileCell> record_cells(const RecordedCase& recorded) {
  const CasePlace& place = recorded.spec.place;
  if (place.empty() || recorded.result.exchange == ExchangeOutcome::none) return {};
  ProfileCell cell = record_cell(recorded);
  std::vector<MatrixLine> lines = place.lines;
  if (lines.empty() && place.off_line && cell_gate(cell.status) != CellGate::passes) {
    lines.push_back(*place.off_line);
  }
  std::vector<ProfileCell> cells;
  for (const MatrixLine& line : lines) {
    ProfileCell& placed = cells.emplace_back(cell);
    placed.axis = line.axis;
    placed.value = line.value;
    drop_memory_from_value(placed);
  }
  return cells;
}

}  // namespace dlpack_usm::compat
