// The rules on a DLPackExchangeAPI table (the exchange-api family): the
// slots dlpack.h says must not be NULL, the prev_api chain, and what
// current_work_stream answers. Pure functions of plain values, so that
// `check --producer LIB:SYMBOL` and, through the bridge, Python (a type's
// __dlpack_c_exchange_api__) judge a table alike.
#pragma once

#include <vector>

#include "facts/exchange_api_facts.hpp"
#include "rules/rule.hpp"

namespace dlpack_usm::rules {

// The findings of the slot and prev_api rules on a table read with
// facts::read_exchange_api: every header of major 1 in the chain is judged
// (a consumer of major 1 may use any of them).
std::vector<Finding> check_exchange_api(const facts::ExchangeApiFacts& table);

// The findings on one answer of current_work_stream, asked for a device
// type the library produces tensors of. A failed call (status not 0) is the
// library declining, and no finding.
std::vector<Finding> check_work_stream(const facts::WorkStreamAnswer& answer);

// Whether NULL is itself a work stream of the device type: kDLCPU, where the
// header lets a producer answer NULL, and CUDA's and ROCm's memory types,
// whose NULL stream is the default (legacy) stream.
bool null_is_a_stream(std::int32_t device_type);

}  // namespace dlpack_usm::rules
