// results.jsonl (check --stream): one line per finished case, its record
// as the JSON report holds it (the one codec, suite/model/record_json.hpp),
// so a reader of the stream and of the report parse one shape.
// cli/result_stream.hpp writes it.
#pragma once

#include <string>

#include "suite/model/check_run.hpp"

namespace dlpack_usm::report {

// One line of results.jsonl (no newline).
std::string recorded_case_line(const suite::RecordedCase& recorded);

}  // namespace dlpack_usm::report
