// list-devices: the one walk over a finished Inventory, an aligned table per
// platform for people or one JSON document for machines. It only formats.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "report/printer.hpp"
#include "runtime/device_model.hpp"
#include "runtime/owner_probe.hpp"

namespace dlpack_usm::report {

// 3 (environment) when the listing is incomplete (no loader, no platform, a
// platform that errors), 0 otherwise.
ExitCode decide_exit_code(const runtime::Inventory& inventory);

// `owner_answers`: what each platform answered when asked who owns an
// allocation on its devices (runtime/owner_probe.hpp); a platform missing
// there shows null, as not asked.
void print_inventory(Printer& printer, const runtime::Inventory& inventory,
                     const std::vector<runtime::OwnerAnswerCheck>& owner_answers);

// "ATC-": access, aTomic, Concurrent, concurrent atomic (X); '-' where absent,
// '?' where the runtime cannot say ("A???" for SYCL's device allocations).
std::string usm_access_code(const runtime::UsmAccess& access);

}  // namespace dlpack_usm::report
