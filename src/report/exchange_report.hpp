// `dlpack-usm exchange`: the one walk over a finished round trip, its steps
// as text for people or one JSON document for machines.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "exchange/round_trip.hpp"
#include "report/printer.hpp"

namespace dlpack_usm::report {

// 1 (findings) unless the round trip kept every promise (RoundTripReport::ok).
ExitCode decide_exit_code(const exchange::RoundTripReport& report);

void print_exchange(Printer& printer, const exchange::RoundTripReport& report);

}  // namespace dlpack_usm::report
