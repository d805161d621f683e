// list-devices: the one walk over a finished Inventory, an aligned table per
// platform for people or one JSON document for machines. It only formats.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "report/printer.hpp"
#include "runtime/device_model.hpp"

namespace dlpack_usm::report {

// 3 (environment) when the listing is incomplete (no loader, no platform, a
// platform that errors), 0 otherwise.
ExitCode decide_exit_code(const runtime::Inventory& inventory);

void print_inventory(Printer& printer, const runtime::Inventory& inventory);

nlohmann::ordered_json inventory_to_json(const runtime::Inventory& inventory);
std::string inventory_to_text(const runtime::Inventory& inventory);

// "ATC-": access, aTomic, Concurrent, concurrent atomic (X); '-' where absent,
// '?' where the runtime cannot say ("A???" for SYCL's device allocations).
std::string usm_access_code(const runtime::UsmAccess& access);

}  // namespace dlpack_usm::report
