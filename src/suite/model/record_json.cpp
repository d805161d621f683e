#include "suite/model/record_json.hpp"

#include <optional>
#include <string>

#include <fmt/format.h>

#include "common/printable.hpp"
#include "rules/rule.hpp"
#include "suite/model/consumer_profile.hpp"

namespace dlpack_usm::suite {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

ordered_json text_or_null(const std::string& text) {
  return text.empty() ? ordered_json(nullptr) : ordered_json(text);
}

ordered_json line_json(const MatrixLine& line) {
  return {{"axis", line.axis}, {"value", line.value}};
}

ordered_json place_json(const CasePlace& place) {
  if (place.empty()) return nullptr;
  ordered_json lines = ordered_json::array();
  for (const MatrixLine& line : place.lines) lines.push_back(line_json(line));
  return {{"direction", to_string(place.direction)},
          {"memory", place.memory},
          {"lines", std::move(lines)},
          {"off_line", place.off_line ? line_json(*place.off_line) : ordered_json(nullptr)}};
}

ordered_json findings_json(const std::vector<CaseFinding>& findings) {
  ordered_json list = ordered_json::array();
  for (const CaseFinding& finding : findings) {
    list.push_back({{"rule_id", text_or_null(finding.rule_id)},
                    {"severity", rules::to_string(finding.severity)},
                    {"message", finding.message}});
  }
  return list;
}

// The fields of the spec a report holds after the result's own: the repro,
// the file, and where the case sits. A cell of the consumer's capability
// profile also carries its place there and its one class (null where it
// never ran), as reports before the place had it.
void write_place(ordered_json& out, const RecordedCase& recorded) {
  const CaseResult& result = recorded.result;
  out["repro"] = recorded.repro;
  out["file"] = text_or_null(recorded.spec.file);
  if (!recorded.spec.snippet.empty()) out["snippet"] = recorded.spec.snippet;
  if (const MatrixLine* line = profile_line(recorded)) {
    out["profile"] = {{"axis", line->axis},
                      {"value", line->value},
                      {"outcome", text_or_null(to_string(result.exchange))},
                      {"reason", result.decline_reason}};
  }
  out["place"] = place_json(recorded.spec.place);
}

// One writer for both shapes: `whole` adds the spec's fields and the repro.
ordered_json write_record(const CaseResult& result, const RecordedCase* whole) {
  ordered_json out;
  out["id"] = result.id;
  if (whole != nullptr) {
    out["source"] = whole->spec.source;
    out["device"] = text_or_null(whole->spec.device);
  }
  out["outcome"] = to_string(result.outcome);
  out["verdict"] = to_string(result.verdict);
  out["message"] = result.message;
  out["rule_ids"] = result.rule_ids;
  // The rules the case is about, which --rule selects by: report merge
  // checks with them that a skipped case is one the selection left out.
  if (whole != nullptr) out["rules"] = whole->spec.rules;
  out["findings"] = findings_json(result.findings);
  out["duration_ms"] = result.duration_ms;
  out["attempts"] = result.attempts;
  out["first_outcome"] =
      result.first_outcome ? ordered_json(to_string(*result.first_outcome)) : ordered_json(nullptr);
  if (whole != nullptr) write_place(out, *whole);
  out["exchange"] = text_or_null(to_string(result.exchange));
  out["decline_reason"] = result.decline_reason;
  out["exception"] = result.exception;
  out["emitted"] = result.emitted;
  out["evidence"] =
      result.evidence.is_null() ? ordered_json(nullptr) : ordered_json(result.evidence);
  if (whole != nullptr) {
    out["worker"] = whole->spec.worker;
    // The matrix cell, which --cell selects by: report merge checks with it
    // that a skipped case is one the selection left out.
    out["cell"] = text_or_null(whole->spec.cell);
    // The Python library the case calls, which report matrix gives it to.
    out["library"] = text_or_null(whole->spec.library);
    // A handoff's consumer, `library` being its producer.
    if (!whole->spec.consumer_library.empty()) {
      out["consumer_library"] = whole->spec.consumer_library;
    }
  }
  return out;
}

// A member whose string names a value of an enum; `expected` says which
// names there are, for the message.
template <typename Parse>
auto named_value(const JsonFields& fields, const char* key, Parse parse, const char* expected) {
  std::string text = fields.text(key);
  auto value = parse(text);
  if (!value) {
    fail_input(fields.input(), fmt::format("{} is {}, not {}", fields.where(key),
                                           quote_for_message(text), expected));
  }
  return *value;
}

constexpr const char* kOutcomesExpected = "an outcome (pass, warn, fail, ...)";
constexpr const char* kExchangesExpected = "an exchange outcome (accepted, emitted, refused, ...)";

std::optional<Direction> parse_place_direction(std::string_view text) {
  std::optional<Direction> direction = parse_direction(text);
  if (direction == Direction::none) return std::nullopt;
  return direction;
}

bool is_null(const JsonFields& fields, const char* key) {
  auto found = fields.raw().find(key);
  return found != fields.raw().end() && found->is_null();
}

MatrixLine read_line(const JsonFields& line) {
  return {line.text("axis"), line.text("value")};
}

CasePlace read_place(const JsonFields& fields) {
  if (is_null(fields, "place")) return {};
  JsonFields object = fields.object("place");
  CasePlace place;
  place.direction = named_value(object, "direction", parse_place_direction, "producer or consumer");
  place.memory = object.text("memory");
  for (const JsonFields& line : object.objects("lines")) place.lines.push_back(read_line(line));
  if (!is_null(object, "off_line")) place.off_line = read_line(object.object("off_line"));
  return place;
}

ExchangeOutcome read_exchange(const JsonFields& fields, const char* key) {
  if (is_null(fields, key)) return ExchangeOutcome::none;
  return named_value(fields, key, parse_exchange_outcome, kExchangesExpected);
}

class RecordReader {
 public:
  RecordReader(const JsonFields& fields, RecordSource source) : fields_(fields), source_(source) {}

  RecordedCase read() const;

 private:
  // Whether to read `key`: where it is given, and in a report also where
  // its schema requires it (a missing one is an error then).
  bool wanted(const char* key, bool required_in_reports = true) const {
    return fields_.has(key) || (required_in_reports && source_ == RecordSource::report);
  }
  void read_result(CaseResult& result) const;
  void read_findings(CaseResult& result) const;
  void read_exchange_fields(RecordedCase& recorded) const;
  void read_spec(RecordedCase& recorded) const;

  const JsonFields& fields_;
  RecordSource source_;
};

void RecordReader::read_findings(CaseResult& result) const {
  for (const JsonFields& finding : fields_.objects("findings")) {
    std::string rule = finding.text_or_null("rule_id");
    std::string message = finding.text("message");
    if (source_ == RecordSource::worker) {
      const rules::RuleInfo* known = rule.empty() ? nullptr : rules::find_rule(rule);
      result.add_finding(
          {rule, known != nullptr ? known->severity : rules::Severity::error, std::move(message)});
      continue;
    }
    rules::Severity severity =
        named_value(finding, "severity", rules::parse_severity, "error, warning or info");
    result.findings.push_back({std::move(rule), severity, std::move(message)});
  }
}

void RecordReader::read_result(CaseResult& result) const {
  result.id = fields_.text("id");
  if (result.id.empty())
    fail_input(fields_.input(), fmt::format("{} is empty", fields_.where("id")));
  result.outcome = named_value(fields_, "outcome", parse_outcome, kOutcomesExpected);
  if (wanted("verdict"))
    result.verdict = named_value(fields_, "verdict", parse_verdict, "a verdict");
  if (wanted("message")) result.message = fields_.text("message");
  if (wanted("rule_ids")) result.rule_ids = fields_.texts("rule_ids");
  if (wanted("findings")) read_findings(result);
  if (wanted("duration_ms")) result.duration_ms = fields_.milliseconds("duration_ms");
  if (wanted("attempts")) result.attempts = static_cast<int>(fields_.integer("attempts", 0, 2));
  if (wanted("first_outcome") && !is_null(fields_, "first_outcome")) {
    result.first_outcome = named_value(fields_, "first_outcome", parse_outcome, kOutcomesExpected);
  }
}

// The exchange and what the library said. A report of /2 or /1 carries a
// consumer cell's place and class in "profile" alone (its memory unknown).
void RecordReader::read_exchange_fields(RecordedCase& recorded) const {
  CaseResult& result = recorded.result;
  if (source_ == RecordSource::report && !fields_.has("place") && fields_.has("profile")) {
    JsonFields profile = fields_.object("profile");
    recorded.spec.place = {Direction::consumer, "", {read_line(profile)}, std::nullopt};
    result.exchange = read_exchange(profile, "outcome");
    if (profile.has("reason")) result.decline_reason = profile.text("reason");
    return;
  }
  if (fields_.has("exchange")) result.exchange = read_exchange(fields_, "exchange");
  if (fields_.has("decline_reason")) result.decline_reason = fields_.text("decline_reason");
  if (fields_.has("exception")) result.exception = fields_.text("exception");
  if (fields_.has("emitted")) result.emitted = fields_.text("emitted");
  if (fields_.has("evidence") && !is_null(fields_, "evidence")) {
    result.evidence = fields_.object("evidence").raw();
  }
}

void RecordReader::read_spec(RecordedCase& recorded) const {
  CaseSpec& spec = recorded.spec;
  spec.id = recorded.result.id;
  spec.source = fields_.text("source");
  spec.device = fields_.text_or_null("device");
  spec.rules = fields_.texts("rules");
  recorded.repro = fields_.text("repro");
  // A /1 report names no file.
  if (fields_.has("file")) spec.file = fields_.text_or_null("file");
  if (fields_.has("snippet")) spec.snippet = fields_.text("snippet");
  if (fields_.has("place")) spec.place = read_place(fields_);
  if (fields_.has("worker")) spec.worker = fields_.text("worker");
  if (fields_.has("cell")) spec.cell = fields_.text_or_null("cell");
  if (fields_.has("library")) spec.library = fields_.text_or_null("library");
  if (fields_.has("consumer_library")) spec.consumer_library = fields_.text("consumer_library");
}

RecordedCase RecordReader::read() const {
  RecordedCase recorded;
  read_result(recorded.result);
  if (source_ == RecordSource::report) read_spec(recorded);
  read_exchange_fields(recorded);
  return recorded;
}

}  // namespace

ordered_json record_to_json(const RecordedCase& recorded) {
  return write_record(recorded.result, &recorded);
}

ordered_json result_record_to_json(const CaseResult& result) {
  return write_record(result, nullptr);
}

RecordedCase record_from_json(const JsonFields& fields, RecordSource source) {
  return RecordReader(fields, source).read();
}

}  // namespace dlpack_usm::suite
