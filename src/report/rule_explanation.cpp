#include "report/rule_explanation.hpp"

#include <fmt/format.h>

#include "report/envelope.hpp"
#include "report/rules_report.hpp"

namespace dlpack_usm::report {
namespace {

constexpr std::size_t kTextWidth = 76;

// `text` cut at spaces into lines of at most kTextWidth characters (a word
// longer than that keeps a line of its own).
std::vector<std::string> wrapped(std::string_view text) {
  std::vector<std::string> lines;
  std::string line;
  while (!text.empty()) {
    std::size_t space = text.find(' ');
    std::string_view word = text.substr(0, space);
    text = space == std::string_view::npos ? std::string_view() : text.substr(space + 1);
    if (word.empty()) continue;
    if (!line.empty() && line.size() + 1 + word.size() > kTextWidth) {
      lines.push_back(std::move(line));
      line.clear();
    }
    if (!line.empty()) line += ' ';
    line.append(word);
  }
  if (!line.empty()) lines.push_back(std::move(line));
  return lines;
}

// A paragraph for people under a heading, indented below it.
void paragraph(Printer& printer, std::string_view heading, std::string_view text) {
  if (text.empty()) return;
  printer.line("");
  printer.line(fmt::format("{}:", heading));
  for (const std::string& line : wrapped(text)) printer.line("  " + line);
}

// What the severity rests on, in words.
std::string basis_in_words(const rules::RuleInfo& rule) {
  std::string_view word = rule.normative;
  if (rules::is_quoted_word(word)) return fmt::format("'{}' in the quoted sentence", word);
  if (word == "definition") return "the definition of the field, which the value falls outside of";
  if (word == "convention") return "a convention, not a must";
  return "the tool's own judgement (a heuristic)";
}

void print_vectors(Printer& printer, std::string_view key,
                   const std::vector<std::filesystem::path>& paths) {
  ListScope list(printer, key);
  for (const std::filesystem::path& path : paths) printer.data({}, path.string());
  for (const std::filesystem::path& path : paths) {
    printer.line(
        fmt::format("{}  {}", key == "failing_vectors" ? "fails " : "passes", path.string()));
  }
}

}  // namespace

void print_rule_explanation(Printer& printer, const RuleExplanation& explanation) {
  const rules::RuleInfo& rule = *explanation.rule;
  print_envelope(printer, kRuleExplanationSchema);
  printer.line(fmt::format("{}: {}", rule.id, rule.title));
  printer.line(fmt::format("{} ({}), family {}, DLPack {}", rules::to_string(rule.severity),
                           basis_in_words(rule), rule.family, version_range_display(rule)));
  {
    TextView machines_only;
    machines_only.hidden = true;  // people read it above and below
    ObjectScope object(printer, "rule", machines_only);
    print_rule(printer, rule);
  }
  paragraph(printer, fmt::format("quote ({})", rule.reference), rule.quote);
  if (rule.quote.empty()) paragraph(printer, "reference", rule.reference);
  paragraph(printer, "rationale", rule.rationale);
  printer.line("");
  print_vectors(printer, "failing_vectors", explanation.failing_vectors);
  print_vectors(printer, "passing_vectors", explanation.passing_vectors);
  const auto& example = !explanation.failing_vectors.empty() ? explanation.failing_vectors
                                                             : explanation.passing_vectors;
  std::string try_command =
      example.empty() ? std::string() : "dlpack-usm capsule check " + example.front().string();
  printer.data("try", try_command.empty() ? Value(nullptr) : Value(try_command));
  if (example.empty()) {
    printer.line("no vector of the suite shows this rule (it is judged on live devices)");
  } else {
    printer.line(fmt::format("try:    {}", try_command));
  }
}

}  // namespace dlpack_usm::report
