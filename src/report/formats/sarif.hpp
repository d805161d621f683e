// `capsule check --sarif FILE`: the findings as a SARIF 2.1.0 log (OASIS
// Static Analysis Results Interchange Format), the format GitHub code
// scanning and other viewers read. One result per finding, with its rule's
// id, a level from its severity (error, warning, note) and the message; its
// location is the capsule file and line of the finding's field, and the
// field's JSON pointer as a logical location. tool.driver.rules describes
// every rule of the catalog: title, the quoted sentence with its reference
// and basis, and the tool's rationale. A file that could not be read is a
// tool execution notification, and the run is then not successful.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "capsule/capsule_file.hpp"
#include "report/findings_report.hpp"
#include "rules/rule.hpp"

namespace dlpack_usm::report {

inline constexpr const char* kSarifSchemaUri =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

class SarifLog {
 public:
  // A result per finding of the tensor at `place` in `file`.
  void add_tensor(const std::string& file, const capsule::TensorPlace& place,
                  const std::vector<rules::Finding>& findings);
  // `file` could not be read to its end.
  void add_file_error(const std::string& file, const FileError& error);
  // The log: one run of dlpack-usm, as JSON text.
  std::string text() const;

 private:
  nlohmann::ordered_json results_ = nlohmann::ordered_json::array();
  nlohmann::ordered_json notifications_ = nlohmann::ordered_json::array();
};

// A path as a SARIF artifact URI: a relative reference for a relative path
// (GitHub reads it from the repository's root), file:// for an absolute one;
// every byte but unreserved ones and '/' percent-encoded (RFC 3986).
std::string artifact_uri(std::string_view path);

}  // namespace dlpack_usm::report
