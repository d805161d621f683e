#include "compat/report_bodies.hpp"

#include <map>

#include <fmt/format.h>

#include "common/printable.hpp"
#include "common/shell_quote.hpp"
#include "common/text_width.hpp"

namespace dlpack_usm::compat {
namespace {

using nlohmann::json;

// The consume report's results name the kind alone ("host"), on a CUDA
// device too ("device" of cuda:0 is CUDA device memory, not USM).
std::string contract_memory(const std::string& memory, const std::string& device) {
  if (device.starts_with("cuda")) {
    if (memory == "device") return "cuda";
    if (memory == "host" || memory == "managed") return "cuda-" + memory;
    return memory;
  }
  if (memory == "host" || memory == "device" || memory == "shared") return memory + "-usm";
  return memory;
}

int severity_rank(const std::string& severity) {
  if (severity == "error") return 3;
  if (severity == "warning") return 2;
  return severity == "info" ? 1 : 0;
}

ProfileCell read_entry(const JsonFields& entry, const std::string& direction) {
  ProfileCell cell;
  cell.direction = entry.optional_text("direction");
  if (cell.direction.empty()) cell.direction = direction;
  if (cell.direction != "producer" && cell.direction != "consumer") {
    fail_input(entry.input(),
               fmt::format("{} is {}, not producer or consumer", entry.where("direction"),
                           quote_for_message(cell.direction)));
  }
  cell.device = entry.text("device");
  cell.memory = entry.optional_text("memory");
  cell.axis = entry.text("axis");
  cell.value = entry.text("value");
  cell.outcome = entry.text("outcome");
  cell.status = entry.optional_text("status");
  cell.reason = entry.optional_text("reason");
  cell.exception = entry.optional_text("exception");
  cell.case_id = entry.optional_text("case");
  cell.rule = entry.optional_text("rule");
  cell.message = entry.optional_text("message");
  cell.repro = entry.optional_text("repro");
  // Beyond the contract: profile reports say what was emitted, in words.
  auto emitted = entry.raw().find("emitted");
  if (emitted != entry.raw().end() && emitted->is_string())
    cell.emitted = emitted->get<std::string>();
  return cell;
}

// The cell name `consume --cell` takes: the result's, or the last part of
// the case id ("consumer/cpu/cpu/dtype-int8" -> "dtype-int8").
std::string consumer_cell_name(const JsonFields& result, const std::string& case_id) {
  auto cell = result.raw().find("cell");
  if (cell != result.raw().end() && cell->is_object()) {
    std::string name = result.object("cell").optional_text("name");
    if (!name.empty()) return name;
  }
  return case_id.substr(case_id.rfind('/') + 1);
}

void complete_from_result(const JsonFields& result, const std::string& consumer,
                          ProfileCell& cell) {
  if (cell.memory.empty()) {
    cell.memory = contract_memory(result.optional_text("memory"), cell.device);
  }
  if (cell.status.empty()) cell.status = result.optional_text("status");
  if (cell.exception.empty()) cell.exception = result.optional_text("exception_type");
  if (cell.rule.empty() && cell.message.empty() && result.has("findings")) {
    take_worst_finding(result, cell);
  }
  if (cell.repro.empty()) cell.repro = result.optional_text("repro");
  if (cell.repro.empty() && cell.direction == "consumer" && !consumer.empty()) {
    cell.repro =
        fmt::format("python3 -m dlpack_usm consume {} --device {} --cell {}", shell_word(consumer),
                    shell_word(cell.device), shell_word(consumer_cell_name(result, cell.case_id)));
  }
}

// The memory kind a case id of a profile or consume report names
// ("consumer/opencl:cpu:0/host/..." -> "host-usm", ".../cpu/..." -> "cpu"),
// "" where it names none. Those older documents carry no place of their
// own; check reports do, and are never read this way.
std::string memory_of_case(const std::string& case_id) {
  // <direction>/<device>/<kind>/...
  std::size_t first = case_id.find('/');
  std::size_t second = first == std::string::npos ? first : case_id.find('/', first + 1);
  std::size_t third = second == std::string::npos ? second : case_id.find('/', second + 1);
  if (third == std::string::npos) return {};
  std::string device = case_id.substr(first + 1, second - first - 1);
  std::string kind = case_id.substr(second + 1, third - second - 1);
  if (kind == "cpu") return kind;
  std::string memory = contract_memory(kind, device);
  return memory == kind ? "" : memory;  // a kind of no contract: unknown
}

}  // namespace

void drop_memory_from_value(ProfileCell& cell) {
  std::string suffix = "/" + cell.memory;
  if (!cell.memory.empty() && cell.value.size() > suffix.size() && cell.value.ends_with(suffix)) {
    cell.value.resize(cell.value.size() - suffix.size());
  }
}

void take_worst_finding(const JsonFields& result, ProfileCell& cell) {
  int worst = 0;
  for (const JsonFields& finding : result.objects("findings")) {
    int rank = severity_rank(finding.text("severity"));
    if (rank <= worst) continue;
    worst = rank;
    cell.rule = finding.text_or_null("rule_id");
    cell.message = finding.text("message");
  }
}

std::vector<ProfileCell> read_body_cells(const JsonFields& body, const std::string& direction,
                                         const std::string& consumer) {
  std::vector<JsonFields> results =
      body.has("results") ? body.objects("results") : std::vector<JsonFields>{};
  std::map<std::string, const JsonFields*> result_of;
  for (const JsonFields& result : results) result_of.emplace(result.text("id"), &result);
  std::vector<ProfileCell> cells;
  for (const JsonFields& entry : body.objects("profile")) {
    ProfileCell cell = read_entry(entry, direction);
    auto result = result_of.find(cell.case_id);
    if (result != result_of.end()) complete_from_result(*result->second, consumer, cell);
    if (cell.memory.empty()) cell.memory = memory_of_case(cell.case_id);
    drop_memory_from_value(cell);
    cells.push_back(std::move(cell));
  }
  return cells;
}

std::string library_text(std::string text) {
  if (text.size() <= kLibraryTextColumns) return text;
  return cut_to_columns(text, kLibraryTextColumns);
}

LibraryProfile read_profile_report(const JsonFields& top) {
  LibraryProfile profile;
  JsonFields library = top.object("library");
  profile.library = library.optional_text("name");
  if (profile.library.empty()) profile.library = library.text("module");
  profile.library = library_text(std::move(profile.library));
  profile.version = library_text(library.optional_text("version"));
  if (top.has("machine")) profile.machine = top.object("machine").optional_text("label");
  if (!top.has("producer") && !top.has("consumer")) {
    fail_input(top.input(), "a profile report with neither a producer nor a consumer section");
  }
  if (top.has("producer")) profile.cells = read_body_cells(top.object("producer"), "producer", "");
  if (top.has("consumer")) {
    JsonFields consumer = top.object("consumer");
    std::vector<ProfileCell> cells =
        read_body_cells(consumer, "consumer", consumer.optional_text("consumer"));
    profile.cells.insert(profile.cells.end(), cells.begin(), cells.end());
  }
  return profile;
}

LibraryProfile read_consume_report(const JsonFields& top) {
  LibraryProfile profile;
  std::string consumer = top.text("consumer");
  profile.library = consumer.substr(0, consumer.find('.'));
  if (top.has("packages"))
    profile.version = top.object("packages").optional_text(profile.library.c_str());
  profile.library = library_text(std::move(profile.library));
  profile.version = library_text(std::move(profile.version));
  profile.cells = read_body_cells(top, "consumer", consumer);
  return profile;
}

}  // namespace dlpack_usm::compat
