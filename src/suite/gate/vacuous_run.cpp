#include "suite/gate/vacuous_run.hpp"

#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/printable.hpp"

namespace dlpack_usm::suite {
namespace {

// The library a case puts under test: a C producer plugin, or a Python
// library (as a producer, a consumer, or both in a profile); empty for the
// tool's own cases and C consumers.
std::string library_of(const CaseSpec& spec) {
  if (spec.source == "producer") return "the --producer plugin";
  return spec.library;
}

// Whether the case handed a tensor over: it ran to a verdict, and that
// verdict is no decline (a producer that rightly declines a READ_ONLY tensor
// below DLPack 1.0 passes, with nothing exchanged).
bool exchanged_something(const CaseResult& result) {
  if (result.outcome == Outcome::not_supported) return false;
  return result.exchange != ExchangeOutcome::refused &&
         result.exchange != ExchangeOutcome::declined &&
         result.exchange != ExchangeOutcome::not_applicable;
}

bool asks_for_a_tensor(const CaseSpec& spec) {
  return spec.source == "producer" || spec.source == "python-producer";
}

}  // namespace

std::vector<VacuousLibrary> vacuous_libraries(const CheckRun& run) {
  // A library counts where it was asked for a tensor (a producer, or a
  // profile's producer side); it exchanged something where any of its
  // cases, a profile's consumer side included, handed a tensor over.
  std::map<std::string, VacuousLibrary> seen;
  std::vector<std::string> order;
  std::map<std::string, bool> asked;
  std::map<std::string, bool> exchanged;
  for (const RecordedCase& recorded : run.cases) {
    Outcome outcome = recorded.result.outcome;
    std::string name = library_of(recorded.spec);
    if (outcome == Outcome::skipped || outcome == Outcome::not_run || name.empty()) continue;
    auto [entry, added] = seen.try_emplace(name, VacuousLibrary{name, 0});
    if (added) order.push_back(name);
    ++entry->second.cases;
    asked[name] = asked[name] || asks_for_a_tensor(recorded.spec);
    exchanged[name] = exchanged[name] || exchanged_something(recorded.result);
  }
  std::vector<VacuousLibrary> vacuous;
  for (const std::string& name : order) {
    if (asked[name] && !exchanged[name]) vacuous.push_back(seen[name]);
  }
  return vacuous;
}

std::string vacuous_message(const std::vector<VacuousLibrary>& libraries) {
  std::vector<std::string> named;
  for (const VacuousLibrary& library : libraries) {
    named.push_back(fmt::format("{} ({} case{}, every one declined)", printable(library.name),
                                library.cases, library.cases == 1 ? "" : "s"));
  }
  return fmt::format(
      "nothing was exchanged with {}: a library under test that gives no tensor proves nothing, "
      "so this run does not pass",
      fmt::join(named, ", "));
}

}  // namespace dlpack_usm::suite
