#include "report/merged_report.hpp"

#include "report/formats/check_report.hpp"

namespace dlpack_usm::report {

nlohmann::ordered_json merged_run_to_json(const suite::MergedRun& merged) {
  nlohmann::ordered_json json = check_run_to_json(merged.run);
  json["environment"] = merged.environment;
  json["runs"] = merged.runs;
  return json;
}

}  // namespace dlpack_usm::report
