#include "compat/matrix_inputs.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "common/bounded_file.hpp"
#include "common/json_fields.hpp"
#include "common/printable.hpp"
#include "compat/check_input.hpp"
#include "compat/report_bodies.hpp"
#include "report/formats/report_json_reader.hpp"

namespace dlpack_usm::compat {
namespace {

using nlohmann::json;

constexpr const char* kMatrixHint =
    "give 'report matrix' the JSON reports of 'python3 -m dlpack_usm profile MODULE --report "
    "FILE', 'python3 -m dlpack_usm consume EXPR --report FILE' or 'dlpack-usm check "
    "--consumer/--producer LIB --report FILE'";

// The tool's other JSON documents, told apart by a member only they have.
struct OtherDocument {
  const char* member;
  const char* what;
};
constexpr OtherDocument kOtherDocuments[] = {
    {"tensors", "the output of 'capsule dump --json'"},
    {"rules", "a rule catalog ('rules --json')"},
    {"root_device_count", "a device inventory ('list-devices --json')"},
    {"request", "the output of 'exchange --json'"},
    {"files", "the findings of 'capsule check --json'"},
    {"dl_tensor", "a capsule file (one tensor)"},
};

// What a JSON document that is none of the three kinds is, for the message.
std::string what_it_is(const json& document) {
  if (document.is_array()) return "a JSON array (a capsule file of several tensors?), not a report";
  if (!document.is_object()) return fmt::format("JSON {}, not a report", json_type_name(document));
  auto schema = document.find("schema");
  if (schema != document.end() && schema->is_string()) {
    return fmt::format("a document of schema {}, not a report 'report matrix' reads",
                       quote_for_message(schema->get<std::string>()));
  }
  for (const OtherDocument& other : kOtherDocuments) {
    if (document.contains(other.member)) return fmt::format("{}, not a report", other.what);
  }
  return "a JSON object without a \"schema\" member, not a report";
}

std::string schema_of(const json& document) {
  if (!document.is_object()) return {};
  auto schema = document.find("schema");
  return schema != document.end() && schema->is_string() ? schema->get<std::string>() : "";
}

// The day a report's run started ("2026-11-29" of its started_at), "" where
// it names none the page could show.
std::string started_day(const json& document) {
  auto started = document.find("started_at");
  if (started == document.end() || !started->is_string()) return {};
  const std::string& text = started->get_ref<const std::string&>();
  bool dated = text.size() >= 10 && text[4] == '-' && text[7] == '-' &&
               std::all_of(text.begin(), text.begin() + 10,
                           [](char c) { return c == '-' || (c >= '0' && c <= '9'); });
  return dated ? text.substr(0, 10) : std::string();
}

}  // namespace

std::vector<LibraryProfile> read_matrix_input(const std::filesystem::path& path) {
  const JsonInput input{"report matrix", path.string(), kMatrixHint};
  std::string text = read_bounded_file(path, report::kMaxShardReportBytes, "report matrix",
                                       "a profile, consume or check report (JSON)");
  // A top-level array (capsule files are) comes back empty: no report.
  json document =
      report::parse_report_json(input, text, "a profile or check report nests about 10 levels",
                                [](std::size_t, const json&) {});
  text = {};
  std::string schema = schema_of(document);
  std::vector<LibraryProfile> profiles;
  JsonFields top(input, document, "");
  std::string kind;
  auto one_of = [&schema](const auto& schemas) {
    return std::find(std::begin(schemas), std::end(schemas), schema) != std::end(schemas);
  };
  if (one_of(kProfileReportSchemas)) {
    profiles.push_back(read_profile_report(top));
    kind = "profile report";
  } else if (one_of(kConsumeReportSchemas)) {
    profiles.push_back(read_consume_report(top));
    kind = "consume report";
  } else if (report::is_check_report_schema(schema)) {
    profiles = read_check_report(input, document);
    kind = "check report";
  } else {
    fail_input(input, what_it_is(document));
  }
  std::string day = started_day(document);
  for (LibraryProfile& profile : profiles) {
    profile.file = input.file;
    profile.kind = kind;
    profile.measured = day;
    for (PairCase& handed : profile.pairs) handed.measured = day;
  }
  return profiles;
}

}  // namespace dlpack_usm::compat
