// The one JSON codec of a case's record: the worker channel, the streamed
// results.jsonl line and the check report's "results" entries write it
// here, and the runner and `report merge` / `report matrix` read it back
// here. A record (conformance/schema/report.schema.json, $defs/result):
//   "id", "source", "device", "outcome", "verdict", "message", "rule_ids",
//   "rules", "findings": [{"rule_id", "severity", "message"}],
//   "duration_ms", "attempts", "first_outcome", "repro", "file",
//   "profile" (a cell of the consumer's capability profile only),
//   "place": {"direction", "memory", "lines": [{"axis", "value"}],
//             "off_line": {"axis", "value"} | null} | null,
//   "exchange", "decline_reason", "exception", "emitted", "evidence",
//   "worker", "cell".
// A worker sends the result's fields alone (no source, device, rules,
// repro, file, profile, place or worker): the runner holds the spec.
#pragma once

#include <nlohmann/json.hpp>

#include "common/json_fields.hpp"
#include "suite/model/check_run.hpp"

namespace dlpack_usm::suite {

// Everything a report holds of a case: its result, the fields of its spec a
// reader needs (source, device, rules, file, place, worker) and its repro.
nlohmann::ordered_json record_to_json(const RecordedCase& recorded);
// The result alone, as a worker sends it.
nlohmann::ordered_json result_record_to_json(const CaseResult& result);

// What a reader may take for granted of the record it reads.
enum class RecordSource {
  // A check report's results entry (schema /1 to /3): every member its
  // schema requires is there; the place and exchange from /3 on (a /2
  // consumer cell's "profile" gives both), the file from /2 on.
  report,
  // A worker's line: the id and outcome; the rest where given, each finding
  // at the severity of this binary's catalog (a worker reports what it saw,
  // not how much it weighs). The spec's fields are not read.
  worker,
};

// Reads a record back. Throws Error(usage) naming the input (command,
// file) and the JSON pointer of a member that is missing or of another
// type, or of a name no outcome, verdict, severity or direction has.
RecordedCase record_from_json(const JsonFields& fields, RecordSource source);

}  // namespace dlpack_usm::suite
