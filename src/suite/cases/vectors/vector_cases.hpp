// The shipped test vectors as cases: every capsule file in the conformance
// manifest, with the rule ids it must fire (none for a passing vector).
#pragma once

#include <filesystem>
#include <string_view>
#include <vector>

#include "suite/model/case.hpp"

namespace dlpack_usm::suite {

class VectorCaseSource final : public CaseSource {
 public:
  // Throws Error(usage) when the manifest is missing or malformed.
  explicit VectorCaseSource(std::filesystem::path conformance_dir);

  std::string_view kind() const override { return "vector"; }
  bool needs_runtime() const override { return false; }
  std::vector<CaseSpec> cases() override { return cases_; }
  // pass: a failing vector fires every expected rule and no other error
  // rule; a passing vector fires no error and not the rule it demonstrates.
  CaseResult run(const CaseSpec& spec) override;

 private:
  std::filesystem::path directory_;
  std::vector<CaseSpec> cases_;
};

// The vectors of a rule in the suite at `conformance_dir`, as paths under
// it: those whose manifest entry expects it to fire, and those that show it
// passing. Throws Error(usage) when the manifest is missing or malformed.
struct RuleVectors {
  std::vector<std::filesystem::path> failing;
  std::vector<std::filesystem::path> passing;
};
RuleVectors vectors_of_rule(const std::filesystem::path& conformance_dir, std::string_view rule_id);

// The capsule file of a vector case of the suite at `suite_dir` (what
// `capsule check` shows the findings of); empty for a case of another source.
std::filesystem::path vector_file(const CaseSpec& spec, const std::filesystem::path& suite_dir);

// Where the shipped suite is: --suite, else DLPACK_USM_CONFORMANCE_DIR, else
// the installed copy next to the binary, else the source tree it was built from.
std::filesystem::path default_conformance_dir();

}  // namespace dlpack_usm::suite
