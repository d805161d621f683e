#include "report/formats/failures_file.hpp"

#include <vector>

#include "suite/model/expectations.hpp"

namespace dlpack_usm::report {

std::string check_run_failures(const suite::CheckRun& run) {
  std::vector<suite::CaseResult> results;
  results.reserve(run.cases.size());
  for (const suite::RecordedCase& recorded : run.cases) results.push_back(recorded.result);
  return suite::failures_file_text(results, run.strict);
}

}  // namespace dlpack_usm::report
