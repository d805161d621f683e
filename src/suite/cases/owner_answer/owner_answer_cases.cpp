#include "suite/cases/owner_answer/owner_answer_cases.hpp"

#include <fmt/format.h>

#include "suite/cases/plugin/produced_tensor.hpp"

namespace dlpack_usm::suite {
namespace {

// The platform an owner-answer case is about.
struct OwnerAnswerCase final : CaseDetails {
  explicit OwnerAnswerCase(std::int32_t platform) : platform_index(platform) {}
  std::int32_t platform_index;
};

std::string owner_answer_case_id(const runtime::OwnerAnswerCheck& check) {
  return fmt::format("runtime/{}/owner-answer", check.first_device);
}

std::string blocked_reason(const runtime::OwnerAnswerCheck& check, const rules::OwnerProbe& wrong) {
  return fmt::format(
      "blocked by {}: asked who owns {} USM allocated on {}, the runtime names {}, and this "
      "case's verdict rests on that answer (every export takes its device_id from it); "
      "{} names the runtime",
      rules::kOwnerAnswerRule, facts::to_string(wrong.kind), wrong.allocated_on.name,
      wrong.answered ? wrong.answered->name : std::string("no device it lists"),
      owner_answer_case_id(check));
}

}  // namespace

std::vector<CaseSpec> OwnerAnswerCaseSource::cases() {
  std::vector<CaseSpec> cases;
  for (const runtime::OwnerAnswerCheck& check : runtime::owner_answer_checks(runtime_())) {
    cases.push_back({owner_answer_case_id(check),
                     "runtime",
                     check.first_device,
                     {std::string(rules::kOwnerAnswerRule)},
                     std::make_shared<const OwnerAnswerCase>(check.platform_index)});
  }
  return cases;
}

CaseResult OwnerAnswerCaseSource::run(const CaseSpec& spec) {
  const auto& checks = runtime::owner_answer_checks(runtime_());
  const runtime::OwnerAnswerCheck* check =
      runtime::find_owner_answer_check(checks, spec.details_as<OwnerAnswerCase>().platform_index);
  if (check == nullptr) {
    return {spec.id, Outcome::error, "the runtime's platform was not asked this time"};
  }
  const rules::OwnerAnswers& answers = check->answers;
  CaseFindings found;
  // A warning: the case warns and the gate stays green, as the runtime, not
  // what is under test, is wrong (issue 22: name it, don't fail on it).
  if (const auto& finding = check->verdict.finding) {
    found.add(*finding,
              fmt::format("rule {} ({}): {}", finding->rule_id, finding->field, finding->message));
  }
  std::size_t asked = answers.probes.size();
  std::size_t right = asked - check->verdict.wrong.size();
  return found.result(
      spec.id,
      check->verdict.finding
          ? fmt::format("{} of {} USM device(s) asked were named as the owner of their own "
                        "allocation",
                        right, asked)
          : fmt::format("{} ({}) names each of its {} USM device(s) asked as the owner of its "
                        "own allocation ({})",
                        answers.platform_name, answers.platform_version, asked, answers.query));
}

void OwnerAnswerBlocks::block(CaseSpec& spec) const {
  for (const runtime::OwnerAnswerCheck& check : checks_) {
    const rules::OwnerProbe* wrong = check.wrong_answer(spec.device);
    if (wrong == nullptr) continue;
    std::string rule(rules::kOwnerAnswerRule);
    spec.rules.push_back(rule);
    spec.details = std::make_shared<const NotSupportedCase>(blocked_reason(check, *wrong),
                                                            std::vector<std::string>{rule});
    // Nothing of the library runs: no crash or hang to blame and no decline
    // to require. The case keeps its place: its cell is not applicable here
    // (not_supported_result), and no cell of a capability profile.
    spec.crash_rule.clear();
    spec.timeout_rule.clear();
    spec.features.clear();
    spec.decline_rule.clear();
    return;
  }
}

}  // namespace dlpack_usm::suite
