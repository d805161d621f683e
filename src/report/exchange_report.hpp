// The two writers of `dlpack-usm exchange`: the steps of a finished round
// trip as text for people, or as one JSON document for machines.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "exchange/round_trip.hpp"

namespace dlpack_usm::report {

std::string exchange_to_text(const exchange::RoundTripReport& report);
nlohmann::ordered_json exchange_to_json(const exchange::RoundTripReport& report);

}  // namespace dlpack_usm::report
