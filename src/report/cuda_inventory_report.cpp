#include "report/cuda_inventory_report.hpp"

#include <fmt/format.h>

#include "report/text_table.hpp"

namespace dlpack_usm::report {
namespace {

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

// Why there is no kDLCUDA device. Without --verbose a driver that was not
// loaded is said in a few words: most machines that list USM devices have
// no NVIDIA driver, and the loader's own message is long.
std::string no_devices_text(const CudaInventory& inventory, InventoryDetail detail) {
  if (detail == InventoryDetail::summary && !inventory.driver_loaded) {
    return fmt::format("CUDA: no kDLCUDA devices: driver {} not loaded (--verbose says why)",
                       inventory.library);
  }
  return fmt::format("CUDA: no kDLCUDA device ids: {}",
                     inventory.problem ? *inventory.problem : "the driver lists no device");
}

}  // namespace

void print_cuda_inventory(Printer& printer, const CudaInventory& inventory,
                          InventoryDetail detail) {
  ObjectScope cuda(printer, "cuda");
  printer.data("driver_library", inventory.library);
  printer.data("driver_loaded", inventory.driver_loaded);
  printer.data("driver_version", inventory.driver_version != 0
                                     ? Value(cuda_driver_version_text(inventory.driver_version))
                                     : Value(nullptr));
  printer.data("visible_devices",
               inventory.visible_devices ? Value(*inventory.visible_devices) : Value(nullptr));
  printer.data("problem", inventory.problem ? Value(*inventory.problem) : Value(nullptr));
  printer.line("");
  if (inventory.devices.empty()) {
    printer.line(no_devices_text(inventory, detail));
  } else {
    printer.line(fmt::format(
        "CUDA driver {} ({}); kDLCUDA device ids are this process's CUDA ordinals ({}); {} "
        "device(s)",
        cuda_driver_version_text(inventory.driver_version), inventory.library,
        cuda_visible_text(inventory), inventory.devices.size()));
  }
  TextView table{"",
                 2,
                 {{"ID", "dlpack_device_id", true},
                  {"NAME", "name"},
                  {"PCI BUS", "pci_bus_id"},
                  {"MEMORY", "total_memory"},
                  {"CC", "compute_capability"},
                  {"MANAGED", "managed_memory"}}};
  // As the OpenCL and SYCL tables: a record per device rather than cut cells.
  table.stack_when_too_wide = true;
  ListScope devices(printer, "devices", table);
  for (const CudaDevice& device : inventory.devices) {
    ObjectScope entry(printer, {});
    std::string capability =
        fmt::format("{}.{}", device.compute_capability_major, device.compute_capability_minor);
    printer.data("dlpack_device_type", "kDLCUDA");
    printer.field("dlpack_device_id", device.ordinal, std::to_string(device.ordinal));
    printer.field("name", device.name, device.name);
    printer.field("pci_bus_id", device.pci_bus_id, device.pci_bus_id);
    printer.field("total_memory", device.total_memory,
                  fmt::format("{:.1f} GiB", static_cast<double>(device.total_memory) /
                                                (1024.0 * 1024.0 * 1024.0)));
    printer.field("compute_capability", capability, capability);
    printer.data("unified_addressing", device.unified_addressing);
    printer.field("managed_memory", device.managed_memory, cuda_managed_text(device));
    printer.data("concurrent_managed_access", device.concurrent_managed_access);
  }
}

}  // namespace dlpack_usm::report
