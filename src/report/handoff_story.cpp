#include "report/handoff_story.hpp"

#include <algorithm>
#include <cctype>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "report/envelope.hpp"
#include "report/formats/check_report.hpp"
#include "report/json_printer.hpp"
#include "report/text_printer.hpp"
#include "rules/rule.hpp"

namespace dlpack_usm::report {
namespace {

using nlohmann::json;
using suite::Outcome;
using suite::RecordedCase;

// The cases of one tensor handed over: the direct handoff, then each remedy.
struct Handoff {
  const RecordedCase* emitted = nullptr;
  const RecordedCase* direct = nullptr;
  std::vector<const RecordedCase*> remedies;
};

std::string last_segment(const std::string& id) {
  return id.substr(id.rfind('/') + 1);
}
std::string place_of(const std::string& id) {
  return id.substr(0, id.rfind('/'));
}

bool ran(const RecordedCase& recorded) {
  return recorded.spec.source == "python-handoff" && !recorded.spec.consumer_library.empty() &&
         recorded.result.outcome != Outcome::skipped;
}

// The run's handoffs, in the order their first case was planned.
std::vector<Handoff> handoffs_of(const suite::CheckRun& run) {
  std::vector<Handoff> handoffs;
  std::map<std::string, std::size_t> index;
  for (const RecordedCase& recorded : run.cases) {
    if (!ran(recorded)) continue;
    auto [at, added] = index.emplace(place_of(recorded.spec.id), handoffs.size());
    if (added) handoffs.emplace_back();
    Handoff& handoff = handoffs[at->second];
    std::string step = last_segment(recorded.spec.id);
    if (step == "emitted") {
      handoff.emitted = &recorded;
    } else if (step == "direct") {
      handoff.direct = &recorded;
    } else {
      handoff.remedies.push_back(&recorded);
    }
  }
  handoffs.erase(std::remove_if(handoffs.begin(), handoffs.end(),
                                [](const Handoff& handoff) { return handoff.direct == nullptr; }),
                 handoffs.end());
  return handoffs;
}

const json& evidence_at(const RecordedCase& recorded, const char* key) {
  static const json none;
  const json& evidence = recorded.result.evidence;
  if (!evidence.is_object() || !evidence.contains(key)) return none;
  return evidence.at(key);
}

std::string text_at(const json& object, const char* key) {
  if (!object.is_object() || !object.contains(key)) return {};
  const json& value = object.at(key);
  return value.is_string() ? value.get<std::string>() : value.is_null() ? "" : value.dump();
}

}  // namespace

std::string handoff_fault(const RecordedCase& recorded) {
  const std::string& message = recorded.result.message;
  Outcome outcome = recorded.result.outcome;
  if (outcome == Outcome::crash || outcome == Outcome::timeout) {
    if (message.find("the consumer: ") != std::string::npos) return "consumer";
    if (message.find("the producer: ") != std::string::npos) return "producer";
    return "unknown";
  }
  if (outcome == Outcome::error) return "tool";
  std::string judged = text_at(recorded.result.evidence, "fault");
  return judged.empty() ? "none" : judged;
}

namespace {

// "float32", "int8", "float32x4": the dtype's code without its kDL, its
// bits and, for vectors, its lanes.
std::string dtype_text(const json& dtype) {
  std::string code = text_at(dtype, "code");
  if (code.rfind("kDL", 0) == 0) code = code.substr(3);
  for (char& c : code) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string lanes = text_at(dtype, "lanes");
  return code + text_at(dtype, "bits") + (lanes.empty() || lanes == "1" ? "" : "x" + lanes);
}

// "float32 shape [2, 2] strides [3, 2] byte_offset 0, kDLCPU:0": what the
// producer's capsule says, as the story's first step shows it.
std::string emitted_text(const json& emitted) {
  if (!emitted.is_object()) return "nothing was read";
  std::string capsule = text_at(emitted, "capsule");
  std::string version = text_at(emitted, "version");
  const json& dtype = emitted.value("dtype", json());
  const json& device = emitted.value("device", json());
  std::string words = capsule + (version.empty() ? "" : " " + version);
  if (dtype.is_object()) words += ", " + dtype_text(dtype);
  if (emitted.contains("shape")) words += " shape " + emitted.at("shape").dump();
  if (emitted.contains("strides")) {
    const json& strides = emitted.at("strides");
    words += strides.is_null() ? " strides NULL" : " strides " + strides.dump();
  }
  if (emitted.contains("byte_offset")) words += " byte_offset " + text_at(emitted, "byte_offset");
  if (device.is_object()) {
    words += fmt::format(", {}:{}", text_at(device, "device_type"), text_at(device, "device_id"));
  }
  return words;
}

// What the runtime says of the memory: "device USM of opencl:cpu:0 (the
// platform's default context)", "CUDA device memory", "host memory".
std::string memory_text(const json& emitted) {
  const json& pointer = emitted.is_object() ? emitted.value("pointer", json()) : json();
  std::string usm = text_at(pointer, "usm_kind");
  if (!usm.empty()) {
    bool in_default = pointer.value("default_context", false);
    return fmt::format(
        "{} USM of {} ({})", usm, text_at(pointer, "owner_device"),
        in_default ? "the platform's default context" : "not the platform's default context");
  }
  std::string cuda = text_at(pointer, "cuda_memory_type");
  if (!cuda.empty()) return fmt::format("CUDA {} memory", cuda);
  const json& device = emitted.is_object() ? emitted.value("device", json()) : json();
  return text_at(device, "device_type") == "kDLCPU" ? "host memory" : "not known to a runtime here";
}

std::string findings_text(const json& findings) {
  if (!findings.is_array() || findings.empty()) return "none broken";
  std::vector<std::string> each;
  for (const json& item : findings) {
    each.push_back(fmt::format("{} ({}): {}", text_at(item, "rule_id"), text_at(item, "severity"),
                               text_at(item, "message")));
  }
  return fmt::format("{}", fmt::join(each, "; "));
}

// A crash's or hang's message without the stderr it quotes (the report
// keeps it whole).
std::string without_stderr(const std::string& message) {
  return message.substr(0, message.find("; its stderr ended with:"));
}

bool ended(const RecordedCase& recorded) {
  Outcome outcome = recorded.result.outcome;
  return outcome == Outcome::crash || outcome == Outcome::timeout || outcome == Outcome::error;
}

// What a step did, in a few words.
std::string consumer_text(const RecordedCase& recorded) {
  const suite::CaseResult& result = recorded.result;
  switch (result.outcome) {
    case Outcome::crash:
      return "crashed: " + without_stderr(result.message);
    case Outcome::timeout:
      return "hung: " + without_stderr(result.message);
    case Outcome::error:
      return "not observed (the tool's error): " + result.message;
    default:
      // The record's message names the consumer; the story's line does.
      return result.message.rfind("the consumer ", 0) == 0
                 ? result.message.substr(std::string_view("the consumer ").size())
                 : result.message;
  }
}

// The verdict, and whose fault it is per the verdict model: a library may
// decline anything; harm (wrong data, a crash or hang on a valid tensor)
// fails it; a broken capsule is the producer's.
std::string verdict_text(const RecordedCase& recorded, const std::string& fault) {
  const suite::CaseResult& result = recorded.result;
  std::vector<std::string> rules;
  for (const suite::CaseFinding& finding : result.findings) rules.push_back(finding.rule_id);
  std::string broken = rules.empty() ? "" : fmt::format(" (rule {})", fmt::join(rules, ", "));
  switch (result.outcome) {
    case Outcome::pass:
      return "works: no one's fault";
    case Outcome::warn:
      return fmt::format("works, with a warning{} of the {}", broken, fault);
    case Outcome::not_supported:
      return result.exchange == suite::ExchangeOutcome::declined
                 ? "declined: no one's fault (a library may decline any tensor)"
                 : "not handed over: " + result.message;
    default:
      return fmt::format("fails{}: the {}'s fault", broken,
                         fault == "unknown" ? "library's (no call was announced)" : fault);
  }
}

// A remedy's result: worked, declined, not tried, wrong, crash or hang.
std::string remedy_result(const RecordedCase& recorded) {
  const suite::CaseResult& result = recorded.result;
  switch (result.outcome) {
    case Outcome::pass:
    case Outcome::warn:
      return "worked";
    case Outcome::not_supported:
      return result.exchange == suite::ExchangeOutcome::declined ? "declined" : "not tried";
    case Outcome::fail:
      return "wrong data";
    case Outcome::crash:
      return "crash";
    case Outcome::timeout:
      return "hang";
    default:
      return "error";
  }
}

void print_remedies(Printer& printer, const Handoff& handoff, bool shown) {
  TextView view{"remedies, each tried:",
                2,
                {{"REMEDY", "name", true}, {"RESULT", "result"}, {"DETAIL", "detail"}},
                true,
                !shown};
  ListScope remedies(printer, "remedies", view);
  for (const RecordedCase* recorded : handoff.remedies) {
    ObjectScope remedy(printer, "");
    std::string name = last_segment(recorded->spec.id);
    std::string result = remedy_result(*recorded);
    std::string code = text_at(recorded->result.evidence, "code");
    std::string detail = result == "worked" ? code : without_stderr(recorded->result.message);
    printer.field("name", name, name);
    printer.field("result", result, result);
    printer.field("detail", detail, detail);
    printer.data("code", code);
    printer.data("case_id", recorded->spec.id);
  }
}

std::string title_of(const RecordedCase& recorded) {
  const suite::CaseSpec& spec = recorded.spec;
  std::string tensor = spec.cell == "given" || spec.cell.empty()
                           ? std::string()
                           : fmt::format(", its {} tensor on {}", spec.cell, spec.device);
  return fmt::format("{} to {}{}", spec.library, spec.consumer_library, tensor);
}

// The producer's step: what it emitted, where, and the rules it broke; a
// crash there is told as such.
void print_emitted(Printer& printer, const RecordedCase* step) {
  if (step == nullptr) return;
  if (ended(*step)) {
    printer.field("emitted", nullptr, consumer_text(*step));
    return;
  }
  const json& emitted = evidence_at(*step, "emitted");
  const json& findings = evidence_at(*step, "producer_findings");
  printer.field("emitted", emitted,
                step->result.outcome == Outcome::not_supported ? step->result.message
                                                               : emitted_text(emitted));
  std::string memory = memory_text(emitted);
  printer.field("memory", memory, memory);
  printer.field("rules", findings, findings_text(findings));
}

// Where a crash or hang ended a step: the standalone program that does it
// again, outside the tool.
void print_snippet(Printer& printer, const RecordedCase& step) {
  if (!ended(step) || step.spec.snippet.empty()) return;
  printer.line("reproduce it alone:");
  std::string_view rest = step.spec.snippet;
  while (!rest.empty()) {
    std::size_t end = rest.find('\n');
    printer.whole_line(fmt::format("  {}", rest.substr(0, end)));
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
  }
}

// The handoff's verdict: the producer's where its step failed, else the
// consumer's step's.
const RecordedCase& deciding_step(const Handoff& handoff) {
  const RecordedCase* emitted = handoff.emitted;
  bool producer_failed = emitted != nullptr && emitted->result.outcome != Outcome::pass &&
                         emitted->result.outcome != Outcome::warn &&
                         emitted->result.outcome != Outcome::not_supported;
  return producer_failed ? *emitted : *handoff.direct;
}

// "dpnp 0.20.0, numpy 2.4.6": the libraries' versions as their probe said.
std::string versions_of(const suite::CheckRun& run, const suite::CaseSpec& spec) {
  for (const json& plugin : run.plugins) {
    if (text_at(plugin, "path") != spec.library ||
        text_at(plugin, "consumer_path") != spec.consumer_library) {
      continue;
    }
    const json& producer = plugin.value("producer", json());
    const json& consumer = plugin.value("consumer", json());
    return fmt::format("{} {}, {} {}", text_at(producer, "name"), text_at(producer, "version"),
                       text_at(consumer, "name"), text_at(consumer, "version"));
  }
  return "unknown";
}

void print_handoff(Printer& printer, const suite::CheckRun& run, const Handoff& handoff) {
  const RecordedCase& direct = *handoff.direct;
  ObjectScope scope(printer, "", TextView{title_of(direct), 2, {}});
  printer.data("producer_library", direct.spec.library);
  printer.data("consumer_library", direct.spec.consumer_library);
  std::string versions = versions_of(run, direct.spec);
  printer.field("versions", versions, versions);
  printer.data("tensor", direct.spec.cell);
  printer.data("case_id", direct.spec.id);
  print_emitted(printer, handoff.emitted);
  printer.field("consumer", evidence_at(direct, "consumer"), consumer_text(direct));
  const RecordedCase& deciding = deciding_step(handoff);
  std::string fault = &deciding == handoff.emitted ? "producer" : handoff_fault(direct);
  std::string verdict = verdict_text(deciding, fault);
  printer.field("verdict", verdict, verdict);
  printer.data("outcome", suite::to_string(deciding.result.outcome));
  printer.data("gate_verdict", suite::to_string(deciding.result.verdict));
  printer.data("fault", fault);
  print_snippet(printer, deciding);
  bool worked = direct.result.outcome == Outcome::pass || direct.result.outcome == Outcome::warn;
  // The remedies are the story's where the handoff did not work; machines
  // get them always.
  if (worked && !handoff.remedies.empty()) printer.line("remedies  none needed");
  print_remedies(printer, handoff, !worked);
}

}  // namespace

// The producer's devices it made no array on, and a pair that cannot share
// a process: nothing was handed over there.
void print_not_handed_over(Printer& printer, const suite::CheckRun& run) {
  ListScope list(printer, "not_handed_over", TextView{"not handed over:", 2, {}});
  for (const RecordedCase& recorded : run.cases) {
    std::string step = last_segment(recorded.spec.id);
    if (!ran(recorded) || (step != "array" && step != "import")) continue;
    ObjectScope entry(printer, "");
    printer.data("case_id", recorded.spec.id);
    printer.field("reason", recorded.result.message, recorded.result.message);
  }
}

void print_handoffs(Printer& printer, const suite::CheckRun& run) {
  {
    ListScope handoffs(printer, "handoffs");
    for (const Handoff& handoff : handoffs_of(run)) print_handoff(printer, run, handoff);
  }
  print_not_handed_over(printer, run);
}

std::string handoff_story(const suite::CheckRun& run, std::size_t width) {
  TextPrinter printer(width);
  print_handoffs(printer, run);
  return printer.text();
}

std::string handoff_document(const suite::CheckRun& run) {
  JsonPrinter printer;
  print_envelope(printer, kHandoffSchema);
  print_handoffs(printer, run);
  printer.data("gate", json{{"passed", run.gate_passed()}, {"line", check_run_gate_line(run)}});
  return printer.document().dump(2) + "\n";
}

}  // namespace dlpack_usm::report
