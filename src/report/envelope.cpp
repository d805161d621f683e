#include "report/envelope.hpp"

#include <string>

#include "build_info.hpp"

namespace dlpack_usm::report {

void print_envelope(Printer& printer, std::string_view schema, std::string_view version) {
  printer.data("schema", std::string(schema));
  printer.data("tool", std::string(kToolName));
  printer.data("version", std::string(version.empty() ? std::string_view(kToolVersion) : version));
}

}  // namespace dlpack_usm::report
