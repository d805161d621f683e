// What drivers say (CUDA and OpenCL device names, platform names, driver
// versions) and the selector text of the environment reach list-devices and
// the check report as foreign text: a name with ESC and newlines forges no
// line of the text output and sends no control byte to a terminal, and the
// JSON keeps the name as the driver gave it.
#include <gtest/gtest.h>

#include <string>

#include "report/cuda_inventory_report.hpp"
#include "report/inventory_report.hpp"
#include "report/json_printer.hpp"
#include "report/text_printer.hpp"

namespace dlpack_usm::report {
namespace {

const std::string kHostile = "GPU\x1b[2J\x07\r\nFAKE gate: PASSED\n\xff";

void expect_no_forged_line(const std::string& text) {
  EXPECT_EQ(text.find("\nFAKE"), std::string::npos) << text;
  EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
  EXPECT_EQ(text.find('\x07'), std::string::npos) << text;
  EXPECT_EQ(text.find('\r'), std::string::npos) << text;
  EXPECT_EQ(text.find('\xff'), std::string::npos) << text;
  EXPECT_NE(text.find("GPU\\x1B[2J\\x07\\x0D\\x0AFAKE gate: PASSED\\x0A\\xFF"), std::string::npos)
      << text;
}

TEST(DriverText, CudaDeviceNamesAreEscapedInText) {
  runtime::cuda::CudaInventory inventory;
  inventory.library = "libcuda.so.1";
  inventory.driver_loaded = true;
  inventory.driver_version = 12080;
  inventory.visible_devices = kHostile;
  runtime::cuda::CudaDevice device;
  device.name = kHostile;
  device.pci_bus_id = kHostile;
  inventory.devices.push_back(device);

  TextPrinter text;
  print_cuda_inventory(text, inventory);
  expect_no_forged_line(text.text());

  JsonPrinter json;
  print_cuda_inventory(json, inventory);
  EXPECT_EQ(json.document()["cuda"]["devices"][0]["name"], kHostile);
}

TEST(DriverText, OpenClNamesAndTheSelectorAreEscapedInText) {
  runtime::Inventory inventory;
  inventory.selector = kHostile;
  runtime::PlatformInfo platform;
  platform.name = kHostile;
  platform.vendor = kHostile;
  platform.error = kHostile;
  runtime::DeviceInfo device;
  device.selector_name = "opencl:gpu:0";
  device.name = kHostile;
  device.driver_version = kHostile;
  device.partition_error = kHostile;
  platform.devices.push_back(device);
  inventory.platforms.push_back(platform);

  for (InventoryDetail detail : {InventoryDetail::summary, InventoryDetail::verbose}) {
    TextPrinter text;
    print_inventory(text, inventory, {}, detail);
    expect_no_forged_line(text.text());
    // Fitted to a width, a cut never leaves half an escape's line behind.
    TextPrinter narrow(60);
    print_inventory(narrow, inventory, {}, detail);
    EXPECT_EQ(narrow.text().find("\nFAKE"), std::string::npos) << narrow.text();
    EXPECT_EQ(narrow.text().find('\x1b'), std::string::npos) << narrow.text();
  }
}

TEST(InventoryText, ShortNamesDropTrademarkSignsAndDoubledBlanks) {
  EXPECT_EQ(short_device_name("Intel(R) Xeon(R) Processor"), "Intel Xeon Processor");
  EXPECT_EQ(short_device_name("Intel(R) Data Center GPU Max 1100 (TM)  "),
            "Intel Data Center GPU Max 1100");
  EXPECT_EQ(short_device_name("NVIDIA H100 80GB HBM3"), "NVIDIA H100 80GB HBM3");
}

// The kinds of USM a device can allocate; a kind the runtime cannot say is
// named with '?', one it cannot allocate is left out.
TEST(InventoryText, UsmKindsNameWhatTheDeviceCanAllocate) {
  runtime::DeviceInfo device;
  EXPECT_EQ(usm_kinds(device), "no USM");
  runtime::UsmCapabilities usm;
  device.usm = usm;
  EXPECT_EQ(usm_kinds(device), "none");
  usm.host.access = true;
  usm.device.access = true;
  usm.cross_device_shared.access = std::nullopt;
  usm.shared_system.access = true;
  device.usm = usm;
  EXPECT_EQ(usm_kinds(device), "host device cross? system");
}

}  // namespace
}  // namespace dlpack_usm::report
