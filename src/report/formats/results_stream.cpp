#include "report/formats/results_stream.hpp"

#include "report/formats/check_report.hpp"
#include "report/json_printer.hpp"

namespace dlpack_usm::report {

std::string recorded_case_line(const suite::RecordedCase& recorded) {
  JsonPrinter printer;
  print_case(printer, recorded);
  return printer.document().dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace dlpack_usm::report
