// list-devices: the one walk over a finished Inventory, an aligned table per
// platform for people or one JSON document for machines. It only formats.
// People see one row per root device, or every detail with --verbose;
// machines see every detail either way.
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

// How much of the inventory the text shows: a row per root device (its id,
// name, USM kinds and sub-device range), or every sub-device, driver and
// USM access bit. The JSON is the same for both.
enum class InventoryDetail { summary, verbose };

// `owner_answers`: what each platform answered when asked who owns an
// allocation on its devices (runtime/owner_probe.hpp); a platform missing
// there shows null, as not asked.
void print_inventory(Printer& printer, const runtime::Inventory& inventory,
                     const std::vector<runtime::OwnerAnswerCheck>& owner_answers,
                     InventoryDetail detail = InventoryDetail::summary);

// "ATC-": access, aTomic, Concurrent, concurrent atomic (X); '-' where absent,
// '?' where the runtime cannot say ("A???" for SYCL's device allocations).
std::string usm_access_code(const runtime::UsmAccess& access);

// "host device shared cross? system": the kinds of USM the device can
// allocate, '?' after a kind the runtime cannot say; "none", or "no USM"
// without the extension.
std::string usm_kinds(const runtime::DeviceInfo& device);

// The device's name without trademark signs and doubled blanks: "Intel(R)
// Xeon(R) Processor" is "Intel Xeon Processor".
std::string short_device_name(std::string_view name);

}  // namespace dlpack_usm::report
