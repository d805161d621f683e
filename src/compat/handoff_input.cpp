#include "compat/handoff_input.hpp"

#include <map>

#include <fmt/format.h>

#include "report/handoff_story.hpp"

namespace dlpack_usm::compat {
namespace {

using suite::Outcome;
using suite::RecordedCase;

std::string text_of(const nlohmann::json& object, const char* key) {
  auto found = object.find(key);
  return found != object.end() && found->is_string() ? found->get<std::string>() : std::string();
}

// The probe's description of one side of `plugin`; a pair whose probe
// failed has none, and takes it from another handoff of the same library.
const nlohmann::json* side_of(const nlohmann::json& plugins, const nlohmann::json& plugin,
                              const char* side) {
  auto described = [side](const nlohmann::json& entry) {
    return entry.is_object() && entry.contains(side) && entry[side].is_object();
  };
  if (described(plugin)) return &plugin[side];
  const char* key = std::string_view(side) == "producer" ? "path" : "consumer_path";
  for (const nlohmann::json& other : plugins) {
    if (described(other) && text_of(other, key) == text_of(plugin, key)) return &other[side];
  }
  return nullptr;
}

// "numpy 2.4.6 (ci)": a side as its probe named it, with the run's label.
std::string title_of(const nlohmann::json& plugins, const nlohmann::json& plugin, const char* side,
                     const std::string& label) {
  const nlohmann::json* described = side_of(plugins, plugin, side);
  if (described == nullptr) {
    std::string text =
        text_of(plugin, std::string_view(side) == "producer" ? "path" : "consumer_path");
    return text.substr(0, text.find_first_of(".( "));
  }
  std::string name = text_of(*described, "name");
  std::string version = text_of(*described, "version");
  std::string title = version.empty() ? name : fmt::format("{} {}", name, version);
  return label.empty() ? title : fmt::format("{} ({})", title, label);
}

bool failed(const RecordedCase& step) {
  Outcome outcome = step.result.outcome;
  return outcome == Outcome::fail || outcome == Outcome::crash || outcome == Outcome::timeout ||
         outcome == Outcome::error;
}

// The step's worst finding, or its message.
void describe(PairCase& handed, const RecordedCase& step) {
  handed.case_id = step.spec.id;
  handed.repro = step.repro;
  handed.note =
      step.result.decline_reason.empty() ? step.result.message : step.result.decline_reason;
  for (const suite::CaseFinding& finding : step.result.findings) {
    if (finding.severity != rules::Severity::error) continue;
    handed.rule = finding.rule_id;
    handed.note = finding.message;
    break;
  }
  handed.note = handed.note.substr(0, handed.note.find("; its stderr ended with:"));
}

// One tensor handed over: the producer's step decides where it failed,
// else the consumer's.
PairCase decided(const RecordedCase* emitted, const RecordedCase& direct) {
  PairCase handed;
  handed.tensor = direct.spec.cell;
  if (emitted != nullptr && failed(*emitted)) {
    handed.result = "fails";
    handed.fault = "producer";
    describe(handed, *emitted);
    return handed;
  }
  describe(handed, direct);
  Outcome outcome = direct.result.outcome;
  handed.result = outcome == Outcome::pass || outcome == Outcome::warn ? "works"
                  : outcome == Outcome::not_supported                  ? "declines"
                                                                       : "fails";
  std::string fault = report::handoff_fault(direct);
  if (handed.result == "fails" && (fault == "producer" || fault == "consumer")) {
    handed.fault = fault;
  }
  return handed;
}

}  // namespace

std::vector<PairCase> read_handoffs(const report::CheckReportRecords& records,
                                    const nlohmann::json& plugin, const std::string& label) {
  std::string producer = text_of(plugin, "path");
  std::string consumer = text_of(plugin, "consumer_path");
  // The steps of each tensor, by the case id without its step.
  std::map<std::string, std::pair<const RecordedCase*, const RecordedCase*>> tensors;
  std::vector<std::string> order;
  std::vector<const RecordedCase*> imports;  // a pair that could not share a process
  for (const RecordedCase& recorded : records.cases) {
    const suite::CaseSpec& spec = recorded.spec;
    if (spec.library != producer || spec.consumer_library != consumer ||
        recorded.result.outcome == Outcome::skipped ||
        recorded.result.outcome == Outcome::not_run) {
      continue;
    }
    std::string place = spec.id.substr(0, spec.id.rfind('/'));
    std::string step = spec.id.substr(spec.id.rfind('/') + 1);
    if (step == "import") {
      imports.push_back(&recorded);
      continue;
    }
    if (step != "emitted" && step != "direct") continue;
    auto [at, added] = tensors.try_emplace(place);
    if (added) order.push_back(place);
    (step == "emitted" ? at->second.first : at->second.second) = &recorded;
  }
  std::vector<PairCase> cases;
  for (const RecordedCase* failed_import : imports) {
    PairCase handed;
    handed.tensor = "import";
    handed.result = "fails";
    describe(handed, *failed_import);
    handed.producer = title_of(records.plugins, plugin, "producer", label);
    handed.consumer = title_of(records.plugins, plugin, "consumer", label);
    cases.push_back(std::move(handed));
  }
  for (const std::string& place : order) {
    const auto& [emitted, direct] = tensors[place];
    // A cell the producer's namespace cannot make was never handed over.
    if (direct == nullptr || direct->result.exchange == suite::ExchangeOutcome::not_applicable) {
      continue;
    }
    PairCase handed = decided(emitted, *direct);
    handed.producer = title_of(records.plugins, plugin, "producer", label);
    handed.consumer = title_of(records.plugins, plugin, "consumer", label);
    cases.push_back(std::move(handed));
  }
  return cases;
}

}  // namespace dlpack_usm::compat
