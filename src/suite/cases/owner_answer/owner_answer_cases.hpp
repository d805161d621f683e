// DLP-RUNTIME-OWNER-ANSWER in `check`: one case per platform the tool asked
// who owns an allocation of each of its USM devices (runtime/owner_probe.hpp),
// which names a wrong answer once; and the blocking of the live, producer and
// consumer cases whose verdict would rest on that answer. A blocked case is
// not_supported with the rule in its result, so the runtime's defect is
// neither charged to the tool nor to the library under test.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "runtime/owner_probe.hpp"
#include "suite/model/case.hpp"

namespace dlpack_usm::suite {

// runtime/<first device asked>/owner-answer, one per platform.
class OwnerAnswerCaseSource final : public CaseSource {
 public:
  explicit OwnerAnswerCaseSource(std::function<runtime::Runtime&()> runtime)
      : runtime_(std::move(runtime)) {}

  std::string_view kind() const override { return "runtime"; }
  std::vector<CaseSpec> cases() override;
  CaseResult run(const CaseSpec& spec) override;

 private:
  std::function<runtime::Runtime&()> runtime_;
};

// The devices whose own allocations the runtime attributes to another device.
class OwnerAnswerBlocks {
 public:
  explicit OwnerAnswerBlocks(runtime::Runtime& runtime)
      : checks_(runtime::owner_answer_checks(runtime)) {}

  // Makes `spec`, a case on its device, a not_supported case blocked by
  // DLP-RUNTIME-OWNER-ANSWER when the runtime answered wrong for that device;
  // leaves it alone otherwise.
  void block(CaseSpec& spec) const;

 private:
  const std::vector<runtime::OwnerAnswerCheck>& checks_;
};

}  // namespace dlpack_usm::suite
