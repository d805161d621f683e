#include "report/cuda_inventory_report.hpp"

#include <fmt/format.h>

#include "report/text_table.hpp"

namespace dlpack_usm::report {
namespace {

using nlohmann::ordered_json;
using runtime::cuda::CudaDevice;
using runtime::cuda::CudaInventory;

// cuDriverGetVersion's 12080 is "12.8".
std::string cuda_driver_version_text(int version) {
  return fmt::format("{}.{}", version / 1000, (version % 1000) / 10);
}

std::string cuda_visible_text(const CudaInventory& inventory) {
  return inventory.visible_devices
             ? fmt::format("CUDA_VISIBLE_DEVICES={}", *inventory.visible_devices)
             : std::string("CUDA_VISIBLE_DEVICES unset");
}

const char* cuda_managed_text(const CudaDevice& device) {
  if (!device.managed_memory) return "no";
  return device.concurrent_managed_access ? "concurrent" : "yes";
}

}  // namespace

ordered_json cuda_inventory_to_json(const CudaInventory& inventory) {
  ordered_json json;
  json["driver_library"] = inventory.library;
  json["driver_loaded"] = inventory.driver_loaded;
  json["driver_version"] = inventory.driver_version != 0
                               ? ordered_json(cuda_driver_version_text(inventory.driver_version))
                               : ordered_json(nullptr);
  json["visible_devices"] =
      inventory.visible_devices ? ordered_json(*inventory.visible_devices) : ordered_json(nullptr);
  json["problem"] = inventory.problem ? ordered_json(*inventory.problem) : ordered_json(nullptr);
  ordered_json devices = ordered_json::array();
  for (const CudaDevice& device : inventory.devices) {
    devices.push_back({{"dlpack_device_type", "kDLCUDA"},
                       {"dlpack_device_id", device.ordinal},
                       {"name", device.name},
                       {"pci_bus_id", device.pci_bus_id},
                       {"total_memory", device.total_memory},
                       {"compute_capability", fmt::format("{}.{}", device.compute_capability_major,
                                                          device.compute_capability_minor)},
                       {"unified_addressing", device.unified_addressing},
                       {"managed_memory", device.managed_memory},
                       {"concurrent_managed_access", device.concurrent_managed_access}});
  }
  json["devices"] = std::move(devices);
  return json;
}

std::string cuda_inventory_to_text(const CudaInventory& inventory) {
  if (inventory.devices.empty()) {
    return fmt::format("\nCUDA: no kDLCUDA device ids: {}\n",
                       inventory.problem ? *inventory.problem : "the driver lists no device");
  }
  std::string out = fmt::format(
      "\nCUDA driver {} ({}); kDLCUDA device ids are this process's CUDA ordinals ({}); {} "
      "device(s)\n",
      cuda_driver_version_text(inventory.driver_version), inventory.library,
      cuda_visible_text(inventory), inventory.devices.size());
  TextTable table({"ID", "NAME", "PCI BUS", "MEMORY", "CC", "MANAGED"});
  for (const CudaDevice& device : inventory.devices) {
    table.add_row(
        {std::to_string(device.ordinal), device.name, device.pci_bus_id,
         fmt::format("{:.1f} GiB",
                     static_cast<double>(device.total_memory) / (1024.0 * 1024.0 * 1024.0)),
         fmt::format("{}.{}", device.compute_capability_major, device.compute_capability_minor),
         cuda_managed_text(device)});
  }
  out += table.render("  ");
  return out;
}

}  // namespace dlpack_usm::report
