// The one place a case's result becomes what a run records: the required
// features applied, the exchange of a case the runner charged (crash, hang,
// deleter misuse), the verdict decided from the expectations, the repro
// line. The streamed results line and the report take the same record.
#pragma once

#include <string>
#include <vector>

#include "suite/gate/check_options.hpp"
#include "suite/model/check_run.hpp"
#include "suite/model/expectations.hpp"

namespace dlpack_usm::suite {

// A clean decline (not_supported) of a case that names a required feature
// becomes a finding of the case's decline_rule (an error: the user asked for
// the feature); other results are unchanged.
CaseResult apply_required_features(const CaseSpec& spec, CaseResult result,
                                   const std::vector<std::string>& required_features);

class CaseRecorder {
 public:
  // Both are borrowed for the recorder's life.
  CaseRecorder(const CheckOptions& options, const Expectations& expectations);

  // A case that ran (or was interrupted: not_run).
  RecordedCase record(const CaseSpec& spec, CaseResult result) const;
  // A case the filters left out: skipped, no attempt, its repro line all
  // the same (it runs the case).
  RecordedCase record_left_out(CaseSpec spec) const;

 private:
  std::string repro(const CaseSpec& spec, bool with_features) const;

  const CheckOptions& options_;
  const Expectations& expectations_;
  bool default_suite_;
};

}  // namespace dlpack_usm::suite
