// A broadcast tensor (stride 0: its axes do not nest) in device USM, read
// back whole by the consumer: its elements are gathered from one copy of
// the allocation, which must outlive the gathering (found by dlpack-usm
// handoff dpnp dpnp, where a copy freed too early gave heap addresses).
#include <gtest/gtest.h>

#include <cstring>
#include <memory>

#include "dlpack/names.hpp"
#include "exchange/export_tensor.hpp"
#include "exchange/import_tensor.hpp"
#include "exchange_test_support.hpp"

namespace dlpack_usm::exchange {
namespace {

TEST(ExchangeBroadcast, AStrideZeroAxisInDeviceUsmReadsBackEveryRow) {
  auto devices = testing::usm_root_devices();
  SKIP_WITHOUT(devices, "device");
  runtime::Runtime& runtime = runtime::opencl_runtime();
  bool ran = false;
  for (const runtime::DeviceInfo* device : devices) {
    if (!testing::supports(*device, facts::UsmKind::device)) continue;
    ran = true;
    SCOPED_TRACE(device->selector_name);
    const float row[5] = {0.0f, 1.0f, 2.0f, 3.0f, 4.0f};
    auto buffer = std::make_shared<runtime::UsmBuffer>(
        runtime.allocate(device->ref, facts::UsmKind::device, sizeof(row),
                         runtime::ContextChoice::platform_default));
    runtime.copy(buffer->context(), device->ref, buffer->data(), row, sizeof(row));
    ExportRequest request;
    request.data = buffer->data();
    request.context = buffer->context();
    request.dtype = *dlpack::parse_dtype("float32");
    request.shape = {3, 5};
    request.strides = {0, 1};
    request.keep_alive = buffer;
    ImportedView view = import_tensor(runtime, export_tensor(runtime, request, {}).capsule);
    std::vector<std::byte> elements = view.read_all();
    ASSERT_EQ(elements.size(), 15 * sizeof(float));
    for (int r = 0; r < 3; ++r) {
      EXPECT_EQ(std::memcmp(elements.data() + r * sizeof(row), row, sizeof(row)), 0) << "row " << r;
    }
  }
  if (!ran) GTEST_SKIP() << "no device here allocates device USM";
}

}  // namespace
}  // namespace dlpack_usm::exchange
