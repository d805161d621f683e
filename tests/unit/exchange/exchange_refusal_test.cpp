// What export and import must refuse, on real devices, each with the rule it
// breaks named in the error, and the producer's deleter called exactly once
// on every refused import.
#include <gtest/gtest.h>

#include <algorithm>

#include <memory>

#include "common/error.hpp"
#include "exchange/export_tensor.hpp"
#include "exchange/import_tensor.hpp"
#include "exchange/rule_ids.hpp"
#include "exchange/rule_refusal.hpp"
#include "exchange_test_support.hpp"

namespace dlpack_usm::exchange {
namespace {

using facts::UsmKind;
using testing::DeleterCounter;
using testing::HandMadeTensor;

// Runs `action`, expects Error(findings) whose message names `rule`.
template <typename Action>
void expect_refusal(Action action, std::string_view rule) {
  try {
    action();
    ADD_FAILURE() << "not refused; expected rule " << rule;
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::findings) << error.what();
    EXPECT_NE(std::string(error.what()).find(rule), std::string::npos)
        << "'" << error.what() << "' does not name " << rule;
    // A catalog rule travels as data too, for callers that must not parse
    // messages (the check runner).
    if (rule.rfind("DLP-", 0) == 0) {
      std::vector<std::string> refused_by = refusing_rules(error);
      EXPECT_NE(std::find(refused_by.begin(), refused_by.end(), rule), refused_by.end())
          << "the refusal does not carry " << rule;
    }
  }
}

std::shared_ptr<runtime::UsmBuffer> allocate(const runtime::DeviceRef& device, std::size_t bytes,
                                             runtime::ContextChoice choice) {
  return std::make_shared<runtime::UsmBuffer>(
      runtime::opencl_runtime().allocate(device, UsmKind::device, bytes, choice));
}

ExportRequest request_for(const std::shared_ptr<runtime::UsmBuffer>& buffer,
                          std::vector<std::int64_t> shape) {
  ExportRequest request;
  request.data = buffer->data();
  request.context = buffer->context();
  request.shape = std::move(shape);
  request.keep_alive = buffer;
  return request;
}

TEST(ExchangeRefusal, ExportFromASeparateContext) {
  auto devices = testing::usm_root_devices();
  SKIP_WITHOUT(devices, "device");
  auto buffer = allocate(devices[0]->ref, 64, runtime::ContextChoice::separate);
  expect_refusal([&] { export_tensor(runtime::opencl_runtime(), request_for(buffer, {16}), {}); },
                 rule_ids::kDefaultContext);
  EXPECT_EQ(buffer.use_count(), 1) << "a refused export must not keep the allocation";
}

TEST(ExchangeRefusal, ExportOfAPointerTheContextDoesNotKnow) {
  auto devices = testing::usm_root_devices();
  SKIP_WITHOUT(devices, "device");
  std::vector<float> plain(16);
  ExportRequest request;
  request.data = plain.data();
  request.context = runtime::opencl_runtime().default_context(
      runtime::opencl_runtime().inventory().platform_of(devices[0]->ref)->index);
  request.shape = {16};
  expect_refusal([&] { export_tensor(runtime::opencl_runtime(), request, {}); },
                 rule_ids::kUsmUnknown);
}

TEST(ExchangeRefusal, ExportWhoseElementsLeaveTheAllocation) {
  auto devices = testing::usm_root_devices();
  SKIP_WITHOUT(devices, "device");
  auto buffer = allocate(devices[0]->ref, 64, runtime::ContextChoice::platform_default);
  // 64 bytes hold 16 float32; the rule engine refuses 17 on the live
  // allocation size, and the capsule export built is released again.
  expect_refusal([&] { export_tensor(runtime::opencl_runtime(), request_for(buffer, {17}), {}); },
                 rule_ids::kExtentOutsideAllocation);
  EXPECT_EQ(buffer.use_count(), 1);
}

TEST(ExchangeRefusal, ExportBrokenByTheRuleEngine) {
  auto devices = testing::usm_root_devices();
  SKIP_WITHOUT(devices, "device");
  auto buffer = allocate(devices[0]->ref, 64, runtime::ContextChoice::platform_default);
  expect_refusal(
      [&] {
        export_tensor(runtime::opencl_runtime(), request_for(buffer, {4, -1}), {});
      },
      "DLP-SHAPE-NEGATIVE");
  EXPECT_EQ(buffer.use_count(), 1) << "the refused tensor's deleter released its reference";
  ExportRequest zero_bits = request_for(buffer, {4});
  zero_bits.dtype = dlpack::DLDataType{dlpack::kDLFloat, 0, 1};
  expect_refusal([&] { export_tensor(runtime::opencl_runtime(), zero_bits, {}); },
                 "DLP-DTYPE-BITS-ZERO");
  EXPECT_EQ(buffer.use_count(), 2) << "only the request still holds the buffer";
}

TEST(ExchangeRefusal, ExportOfAShapeWhoseStridesOverflowIsAUsageError) {
  auto devices = testing::usm_root_devices();
  SKIP_WITHOUT(devices, "device");
  auto buffer = allocate(devices[0]->ref, 64, runtime::ContextChoice::platform_default);
  try {
    export_tensor(runtime::opencl_runtime(), request_for(buffer, {4, INT64_MAX / 2, 4}), {});
    ADD_FAILURE() << "exported a shape whose strides overflow";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::usage) << error.what();
  }
  EXPECT_EQ(buffer.use_count(), 1);
}

TEST(ExchangeRefusal, ImportOfAMallocedPointer) {
  auto devices = testing::usm_root_devices();
  SKIP_WITHOUT(devices, "device");
  std::vector<float> plain(4);
  HandMadeTensor tensor(plain.data(), devices[0]->ref.root_index);
  expect_refusal([&] { import_tensor(runtime::opencl_runtime(), &tensor.versioned); },
                 rule_ids::kUsmUnknown);
  EXPECT_EQ(tensor.deleter_calls, 1);
  HandMadeTensor legacy(plain.data(), devices[0]->ref.root_index);
  expect_refusal([&] { import_tensor(runtime::opencl_runtime(), &legacy.legacy); },
                 rule_ids::kUsmUnknown);
  EXPECT_EQ(legacy.deleter_calls, 1);
}

TEST(ExchangeRefusal, ImportOfASizeZeroTensorWithNullDataLooksNothingUp) {
  // dlpack.h recommends NULL data for a size-0 tensor; NULL is unknown to
  // every context, so looking it up would refuse a valid tensor.
  auto devices = testing::usm_root_devices();
  SKIP_WITHOUT(devices, "device");
  HandMadeTensor tensor(nullptr, devices[0]->ref.root_index);
  tensor.shape[0] = 0;
  {
    ImportedView view = import_tensor(runtime::opencl_runtime(), &tensor.versioned);
    EXPECT_EQ(view.element_count(), 0u);
  }
  EXPECT_EQ(tensor.deleter_calls, 1);
}

TEST(ExchangeRefusal, ImportOfMajorVersion2ReadsNothingButCallsTheDeleter) {
  // No device needed: the header check comes before any lookup.
  HandMadeTensor tensor(reinterpret_cast<void*>(0x10), 0);
  tensor.versioned.version = dlpack::DLPackVersion{2, 0};
  // A major-2 body may mean anything; pointers that would crash if read.
  tensor.versioned.dl_tensor.ndim = 1 << 30;
  tensor.versioned.dl_tensor.shape = reinterpret_cast<std::int64_t*>(0x8);
  tensor.versioned.dl_tensor.strides = reinterpret_cast<std::int64_t*>(0x8);
  expect_refusal([&] { import_tensor(runtime::opencl_runtime(), &tensor.versioned); },
                 rule_ids::kVersionMajor);
  EXPECT_EQ(tensor.deleter_calls, 1);
}

TEST(ExchangeRefusal, ImportWithDeviceIdOutOfRange) {
  auto devices = testing::usm_root_devices();
  SKIP_WITHOUT(devices, "device");
  runtime::Runtime& runtime = runtime::opencl_runtime();
  for (std::int32_t device_id : {runtime.inventory().root_device_count(), 1000, -1}) {
    SCOPED_TRACE(device_id);
    auto buffer = allocate(devices[0]->ref, 64, runtime::ContextChoice::platform_default);
    ExportedTensor exported = export_tensor(runtime, request_for(buffer, {16}), {});
    DeleterCounter counter(exported.capsule.versioned());
    exported.capsule.versioned()->dl_tensor.device.device_id = device_id;
    expect_refusal(
        [&] { import_tensor(runtime, std::move(exported.capsule)); },
        device_id < 0 ? std::string_view("DLP-DEVICE-ID-NEGATIVE") : rule_ids::kDeviceIdRange);
    EXPECT_EQ(counter.calls(), 1);
    EXPECT_EQ(buffer.use_count(), 1) << "the deleter released export's reference";
  }
}

TEST(ExchangeRefusal, ImportWithTheDeviceIdOfAnotherPlatform) {
  auto devices = testing::usm_root_devices();
  SKIP_WITHOUT(devices, "device");
  runtime::Runtime& runtime = runtime::opencl_runtime();
  const runtime::PlatformInfo* own = runtime.inventory().platform_of(devices[0]->ref);
  std::optional<std::int32_t> foreign;
  for (const runtime::PlatformInfo& platform : runtime.inventory().platforms) {
    if (&platform != own && !platform.devices.empty()) foreign = platform.devices[0].ref.root_index;
  }
  if (!foreign) GTEST_SKIP() << "only one OpenCL platform with devices here";
  auto buffer = allocate(devices[0]->ref, 64, runtime::ContextChoice::platform_default);
  ExportedTensor exported = export_tensor(runtime, request_for(buffer, {16}), {});
  DeleterCounter counter(exported.capsule.versioned());
  exported.capsule.versioned()->dl_tensor.device.device_id = *foreign;
  // That platform's default context does not know the pointer.
  expect_refusal([&] { import_tensor(runtime, std::move(exported.capsule)); },
                 rule_ids::kUsmUnknown);
  EXPECT_EQ(counter.calls(), 1);
}

TEST(ExchangeRefusal, ImportWhoseByteOffsetLeavesTheAllocation) {
  auto devices = testing::usm_root_devices();
  SKIP_WITHOUT(devices, "device");
  runtime::Runtime& runtime = runtime::opencl_runtime();
  auto buffer = allocate(devices[0]->ref, 64, runtime::ContextChoice::platform_default);
  ExportedTensor exported = export_tensor(runtime, request_for(buffer, {16}), {});
  DeleterCounter counter(exported.capsule.versioned());
  auto size = static_cast<std::uint64_t>(exported.facts.runtime->alloc_size.value_or(64));
  exported.capsule.versioned()->dl_tensor.byte_offset = size;
  expect_refusal([&] { import_tensor(runtime, std::move(exported.capsule)); },
                 rule_ids::kExtentOutsideAllocation);
  EXPECT_EQ(counter.calls(), 1);
}

TEST(ExchangeRefusal, ImportOfNullStridesFrom1Point2) {
  auto devices = testing::usm_root_devices();
  SKIP_WITHOUT(devices, "device");
  runtime::Runtime& runtime = runtime::opencl_runtime();
  auto buffer = allocate(devices[0]->ref, 64, runtime::ContextChoice::platform_default);
  ExportedTensor exported = export_tensor(runtime, request_for(buffer, {16}), {});
  DeleterCounter counter(exported.capsule.versioned());
  exported.capsule.versioned()->dl_tensor.strides = nullptr;
  expect_refusal([&] { import_tensor(runtime, std::move(exported.capsule)); }, "DLP-STRIDES-NULL");
  EXPECT_EQ(counter.calls(), 1);
}

TEST(ExchangeRefusal, ImportOfAnotherDeviceType) {
  HandMadeTensor tensor(reinterpret_cast<void*>(0x1000), 0);
  tensor.versioned.dl_tensor.device.device_type = dlpack::kDLCUDA;
  expect_refusal([&] { import_tensor(runtime::opencl_runtime(), &tensor.versioned); }, "kDLCUDA");
  EXPECT_EQ(tensor.deleter_calls, 1);
}

TEST(ExchangeRefusal, ImportOfNullIsAUsageError) {
  try {
    import_tensor(runtime::opencl_runtime(),
                  static_cast<dlpack::DLManagedTensorVersioned*>(nullptr));
    ADD_FAILURE() << "a NULL tensor was imported";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ExitCode::usage);
  }
}

}  // namespace
}  // namespace dlpack_usm::exchange
