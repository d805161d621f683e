// Where a producer case sits in the compatibility matrix, set when the case
// is planned, and what the library did with the request, judged from the
// case's result. The producer matrix is every dtype x layout x version
// (matrix/live_matrix.hpp); its lines are the three through the tensor a
// consumer asks for most (float32, C order, the newest version): each dtype
// at C order and the newest version, each layout at float32, each version at
// float32 C order; read-only and lifetime cases at float32 C order. A tensor
// off those lines is on the "combined" row, shown only where it does not
// pass, so harm is never folded away.
#pragma once

#include <string>

#include "matrix/live_matrix.hpp"
#include "suite/model/case.hpp"

namespace dlpack_usm::suite {

// A tensor of the matrix asked for by produce.
CasePlace tensor_place(const matrix::MatrixTensor& tensor);
// The lifetime case of a struct (tensor.version: legacy or versioned).
CasePlace lifetime_place(const matrix::MatrixTensor& tensor);
// Whether a kind's elements are ready on the consumer's queue.
CasePlace stream_place(facts::UsmKind kind);
// A memory the device lacks: "usm" (no USM at all) or a kind's ("host-usm").
CasePlace missing_memory_place(std::string memory);
// A prototype of DLPackExchangeAPI's managed_tensor_allocator.
CasePlace exchange_api_place(std::string prototype);

// The exchange a producer case's result shows where the source did not set
// one: emitted (pass or warn), emitted-invalid (an error of a rule), wrong
// (an error status), not-applicable (the tool could not measure the cell);
// none for a case that did not run to its end (the recorder judges a crash
// or hang).
ExchangeOutcome judged_producer_exchange(const CaseResult& result);

}  // namespace dlpack_usm::suite
