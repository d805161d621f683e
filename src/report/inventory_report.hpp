// The two writers of list-devices: an aligned text table for people and one
// JSON document for machines. Both only format a finished Inventory.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "runtime/device_model.hpp"

namespace dlpack_usm::report {

nlohmann::ordered_json inventory_to_json(const runtime::Inventory& inventory);
std::string inventory_to_text(const runtime::Inventory& inventory);

// "ATC-": access, aTomic, Concurrent, concurrent atomic (X); '-' where absent.
std::string usm_access_code(const runtime::UsmAccess& access);

}  // namespace dlpack_usm::report
