#include "report/formats/sarif.hpp"

#include <map>

#include <fmt/format.h>

#include "build_info.hpp"

namespace dlpack_usm::report {
namespace {

using nlohmann::ordered_json;

const char* sarif_level(rules::Severity severity) {
  switch (severity) {
    case rules::Severity::error:
      return "error";
    case rules::Severity::warning:
      return "warning";
    case rules::Severity::info:
      break;
  }
  return "note";
}

// What a reader of the rule needs: the sentence it rests on, where it is,
// how strong its word is, and the tool's reasoning.
std::string help_text(const rules::RuleInfo& rule) {
  std::string text;
  if (!rule.quote.empty()) text += fmt::format("\"{}\" ({}). ", rule.quote, rule.reference);
  if (rule.quote.empty() && !rule.reference.empty()) text += fmt::format("{}. ", rule.reference);
  text += fmt::format("Basis: {}; severity {}; DLPack {}{}.", rule.normative,
                      rules::to_string(rule.severity), dlpack::to_string(rule.since),
                      rule.until ? fmt::format(" to {}", dlpack::to_string(*rule.until)) : "+");
  if (!rule.rationale.empty()) text += fmt::format(" {}", rule.rationale);
  return text + fmt::format(" Run `dlpack-usm rules {}` for its vectors.", rule.id);
}

std::string help_markdown(const rules::RuleInfo& rule) {
  std::string text;
  if (!rule.quote.empty()) text += fmt::format("> {}\n\n", rule.quote);
  if (!rule.reference.empty()) text += fmt::format("Reference: {}\n\n", rule.reference);
  text += fmt::format("Basis: *{}*; severity **{}**; DLPack {}{}.\n\n", rule.normative,
                      rules::to_string(rule.severity), dlpack::to_string(rule.since),
                      rule.until ? fmt::format(" to {}", dlpack::to_string(*rule.until)) : "+");
  if (!rule.rationale.empty()) text += fmt::format("{}\n\n", rule.rationale);
  return text + fmt::format("Run `dlpack-usm rules {}` for its vectors.", rule.id);
}

ordered_json text_of(std::string_view text) {
  return {{"text", std::string(text)}};
}

ordered_json rule_descriptor(const rules::RuleInfo& rule) {
  ordered_json help = text_of(help_text(rule));
  help["markdown"] = help_markdown(rule);
  ordered_json tags = ordered_json::array({std::string(rule.family), std::string(rule.normative)});
  return {{"id", std::string(rule.id)},
          {"shortDescription", text_of(rule.title)},
          {"fullDescription", text_of(rule.quote.empty() ? rule.title : rule.quote)},
          {"help", help},
          {"defaultConfiguration", {{"level", sarif_level(rule.severity)}}},
          {"properties", {{"tags", tags}}}};
}

ordered_json artifact_location(const std::string& file) {
  return {{"artifactLocation", {{"uri", artifact_uri(file)}}}};
}

ordered_json finding_location(const std::string& file, const capsule::TensorPlace& place,
                              const rules::Finding& finding) {
  std::string pointer = place.pointer + capsule::pointer_of_field(finding.field);
  ordered_json physical = artifact_location(file);
  physical["region"] = {{"startLine", place.line_of(pointer)}};
  ordered_json logical = {{"fullyQualifiedName", pointer.empty() ? "/" : pointer},
                          {"kind", "value"}};
  return {{"physicalLocation", physical}, {"logicalLocations", ordered_json::array({logical})}};
}

// The rules the results name, in catalog order, each result pointing at its own.
ordered_json referenced_rules(ordered_json& results) {
  std::map<std::string, std::size_t> index;
  for (const ordered_json& result : results) {
    index.emplace(result.at("ruleId").get<std::string>(), 0);
  }
  ordered_json rules = ordered_json::array();
  for (const rules::RuleInfo& rule : rules::rule_catalog()) {
    auto it = index.find(std::string(rule.id));
    if (it == index.end()) continue;
    it->second = rules.size();
    rules.push_back(rule_descriptor(rule));
  }
  for (ordered_json& result : results) {
    auto it = index.find(result.at("ruleId").get<std::string>());
    if (rules::find_rule(it->first) != nullptr) result["ruleIndex"] = it->second;
  }
  return rules;
}

}  // namespace

std::string artifact_uri(std::string_view path) {
  std::string uri = path.starts_with('/') ? "file://" : "";
  for (unsigned char c : path) {
    bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
    uri += unreserved ? std::string(1, static_cast<char>(c)) : fmt::format("%{:02X}", c);
  }
  return uri;
}

void SarifLog::add_tensor(const std::string& file, const capsule::TensorPlace& place,
                          const std::vector<rules::Finding>& findings) {
  for (const rules::Finding& finding : findings) {
    std::string message = finding.field.empty()
                              ? finding.message
                              : fmt::format("{}: {}", finding.field, finding.message);
    results_.push_back(
        {{"ruleId", finding.rule_id},
         {"level", sarif_level(finding.severity)},
         {"message", text_of(message)},
         {"locations", ordered_json::array({finding_location(file, place, finding)})},
         {"properties", {{"tensor", place.index}, {"field", finding.field}}}});
  }
}

void SarifLog::add_file_error(const std::string& file, const FileError& error) {
  std::string message =
      error.hint.empty() ? error.message : fmt::format("{} (hint: {})", error.message, error.hint);
  ordered_json location = {{"physicalLocation", artifact_location(file)}};
  notifications_.push_back({{"level", "error"},
                            {"message", text_of(message)},
                            {"locations", ordered_json::array({location})}});
}

std::string SarifLog::text() const {
  ordered_json results = results_;
  ordered_json driver = {{"name", "dlpack-usm"},
                         {"version", kToolVersion},
                         {"semanticVersion", kToolVersion},
                         {"rules", referenced_rules(results)}};
  ordered_json invocation = {{"executionSuccessful", notifications_.empty()},
                             {"toolExecutionNotifications", notifications_}};
  ordered_json run = {{"tool", {{"driver", driver}}},
                      {"invocations", ordered_json::array({invocation})},
                      {"results", results}};
  ordered_json log = {
      {"$schema", kSarifSchemaUri}, {"version", "2.1.0"}, {"runs", ordered_json::array({run})}};
  return log.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace dlpack_usm::report
