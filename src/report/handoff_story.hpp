// A handoff told step by step (dlpack-usm handoff PRODUCER CONSUMER): for
// each tensor handed over, what the producer emitted and what SYCL or CUDA
// says of its memory, the rules it broke, what the consumer did, the
// verdict and whose fault it is, then the remedies tried and whether each
// worked. One walk over the run's handoff cases: the text for people, and
// the same walk through the JSON printer for `handoff --json`
// (conformance/schema/handoff.schema.json).
#pragma once

#include <cstddef>
#include <string>

#include "report/printer.hpp"
#include "suite/model/check_run.hpp"

namespace dlpack_usm::report {

inline constexpr const char* kHandoffSchema = "dlpack-usm.handoff/1";

void print_handoffs(Printer& printer, const suite::CheckRun& run);

// Whose fault a handoff step's outcome is: "none", "producer", "consumer",
// "unknown" (a crash with no call announced) or "tool". A crash or hang is
// the side whose call the worker announced; the rest is what the worker
// judged.
std::string handoff_fault(const suite::RecordedCase& recorded);

// The story as text, fitted to `width` columns (0: whole lines).
std::string handoff_story(const suite::CheckRun& run, std::size_t width);
// The JSON document, with its envelope and the gate's decision.
std::string handoff_document(const suite::CheckRun& run);

}  // namespace dlpack_usm::report
