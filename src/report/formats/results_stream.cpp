#include "report/formats/results_stream.hpp"

#include "suite/model/record_json.hpp"

namespace dlpack_usm::report {

std::string recorded_case_line(const suite::RecordedCase& recorded) {
  return suite::record_to_json(recorded).dump(-1, ' ', false,
                                              nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace dlpack_usm::report
