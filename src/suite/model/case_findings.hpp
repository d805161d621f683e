// The one way a case turns what it found into its result: each finding
// keeps the severity the rule catalog gives its rule, and the case takes the
// status of the worst (suite/case.hpp, outcome_of). A case source says what
// it saw; it never decides on its own whether that fails.
#pragma once

#include <string>
#include <vector>

#include "rules/rule.hpp"
#include "suite/model/case.hpp"

namespace dlpack_usm::suite {

class CaseFindings {
 public:
  // A finding of catalog rule `rule_id`, at the catalog's severity.
  void add(std::string_view rule_id, std::string message);
  // A finding of the rule engine, at the severity it was evaluated with.
  void add(const rules::Finding& finding, std::string message);
  // A failure of the tool's own check or of the harness, with no rule of
  // the catalog behind it: it fails the case.
  void add_failure(std::string message);

  bool empty() const { return findings_.empty(); }
  bool has_errors() const;
  const std::vector<CaseFinding>& findings() const { return findings_; }

  // The case's result: failing on an error (the errors' messages), warn on
  // a warning (`pass_message` and the warnings), else pass.
  CaseResult result(const std::string& id, const std::string& pass_message) const;

 private:
  std::vector<CaseFinding> findings_;
};

}  // namespace dlpack_usm::suite
