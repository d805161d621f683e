// The seed protocol's details on real devices: sub-devices report their
// parent root's device_id, version negotiation, READ_ONLY, NULL strides of
// legacy tensors, and what export's facts say about the live pointer.
#include <gtest/gtest.h>

#include <memory>

#include "allocation_reporting.hpp"
#include "common/error.hpp"
#include "exchange/export_tensor.hpp"
#include "exchange/import_tensor.hpp"
#include "exchange_test_support.hpp"

namespace dlpack_usm::exchange {
namespace {

using facts::UsmKind;

struct Produced {
  std::shared_ptr<runtime::UsmBuffer> buffer;
  ExportRequest request;
};

// A 6x4 float32 C-order tensor holding the pattern, ready to export.
Produced produce(const runtime::DeviceRef& device, UsmKind kind) {
  runtime::Runtime& runtime = runtime::opencl_runtime();
  Layout layout = make_layout({6, 4}, 4, Order::c);
  Produced produced;
  produced.buffer = std::make_shared<runtime::UsmBuffer>(runtime.allocate(
      device, kind, layout.allocation_bytes, runtime::ContextChoice::platform_default));
  std::vector<std::byte> image = testing::odometer_image(layout, 4);
  runtime.copy(produced.buffer->context(), device, produced.buffer->data(), image.data(),
               image.size());
  produced.request.data = produced.buffer->data();
  produced.request.context = produced.buffer->context();
  produced.request.shape = layout.shape;
  produced.request.keep_alive = produced.buffer;
  return produced;
}

void expect_pattern(const ImportedView& view) {
  std::vector<std::byte> elements = view.read_all();
  std::vector<std::byte> expected(view.element_bytes());
  ASSERT_EQ(elements.size(), view.element_count() * view.element_bytes());
  for (std::uint64_t i = 0; i < view.element_count(); ++i) {
    pattern_element(i, view.element_bytes(), expected.data());
    ASSERT_EQ(0, std::memcmp(elements.data() + i * view.element_bytes(), expected.data(),
                             expected.size()))
        << "element " << i;
  }
}

TEST(ExchangeProtocol, SubDeviceAllocationReportsItsParentRoot) {
  auto subs = testing::usm_sub_devices();
  SKIP_WITHOUT(subs, "sub-device");
  runtime::Runtime& runtime = runtime::opencl_runtime();
  for (const runtime::DeviceInfo* sub : subs) {
    for (UsmKind kind : {UsmKind::device, UsmKind::shared}) {
      if (!testing::supports(*sub, kind)) continue;
      SCOPED_TRACE(sub->selector_name + " " + facts::to_string(kind));
      Produced produced = produce(sub->ref, kind);
      ExportedTensor exported = export_tensor(runtime, produced.request, {});
      EXPECT_EQ(exported.capsule.dl_tensor()->device.device_id, sub->ref.root_index);
      ASSERT_TRUE(exported.facts.runtime);
      EXPECT_EQ(exported.facts.runtime->owner_root_index, sub->ref.root_index);
      EXPECT_EQ(exported.facts.runtime->owner_sub_device_index,
                dlpack_usm::testing::expected_owner(sub->ref, kind)->sub_index);
      EXPECT_EQ(exported.facts.runtime->default_context, true);

      ImportedView view = import_tensor(runtime, std::move(exported.capsule));
      EXPECT_EQ(view.data(), produced.buffer->data());
      EXPECT_EQ(view.placement().root_device, (runtime::DeviceRef{sub->ref.root_index, {}}));
      ASSERT_TRUE(view.placement().owner_device);
      EXPECT_EQ(*view.placement().owner_device,
                *dlpack_usm::testing::expected_owner(sub->ref, kind));
      expect_pattern(view);
    }
  }
}

TEST(ExchangeProtocol, VersionNegotiation) {
  EXPECT_EQ(negotiated_version({0, 8}), (dlpack::Release{0, 8}));
  EXPECT_EQ(negotiated_version({0, 6}), (dlpack::Release{0, 8}));
  EXPECT_EQ(negotiated_version({1, 0}), (dlpack::Release{1, 0}));
  EXPECT_EQ(negotiated_version({1, 1}), (dlpack::Release{1, 1}));
  EXPECT_EQ(negotiated_version({1, 7}), (dlpack::Release{1, 3}));
  EXPECT_EQ(negotiated_version({2, 0}), (dlpack::Release{1, 3}));
}

TEST(ExchangeProtocol, CompactTensorsGetNullStridesOnlyBefore1Point2) {
  auto devices = testing::usm_root_devices();
  SKIP_WITHOUT(devices, "device");
  runtime::Runtime& runtime = runtime::opencl_runtime();
  struct Case {
    dlpack::Release max_version;
    bool null_strides;
  };
  for (Case c :
       {Case{{0, 8}, true}, Case{{1, 1}, true}, Case{{1, 2}, false}, Case{{1, 3}, false}}) {
    SCOPED_TRACE(dlpack::to_string(c.max_version));
    Produced produced = produce(devices[0]->ref, UsmKind::device);
    ExportOptions options;
    options.max_version = c.max_version;
    ExportedTensor exported = export_tensor(runtime, produced.request, options);
    EXPECT_EQ(exported.capsule.dl_tensor()->strides == nullptr, c.null_strides);
    ImportedView view = import_tensor(runtime, std::move(exported.capsule));
    EXPECT_EQ(view.strides(), (std::vector<std::int64_t>{4, 1}));
    expect_pattern(view);
  }
}

TEST(ExchangeProtocol, ReadOnlyIsHonoured) {
  auto devices = testing::usm_root_devices();
  SKIP_WITHOUT(devices, "device");
  runtime::Runtime& runtime = runtime::opencl_runtime();
  Produced produced = produce(devices[0]->ref, UsmKind::device);
  ExportOptions options;
  options.read_only = true;
  ExportedTensor exported = export_tensor(runtime, produced.request, options);
  EXPECT_EQ(exported.capsule.versioned()->flags, dlpack::kFlagReadOnly);
  ImportedView view = import_tensor(runtime, std::move(exported.capsule));
  EXPECT_FALSE(view.writable());
  std::vector<std::byte> value(4, std::byte{1});
  EXPECT_THROW(view.write_element(0, value.data()), Error);
  expect_pattern(view);  // untouched

  // A legacy tensor has no flags to carry READ_ONLY: export refuses.
  Produced legacy = produce(devices[0]->ref, UsmKind::device);
  options.max_version = {0, 8};
  EXPECT_THROW(export_tensor(runtime, legacy.request, options), Error);
  EXPECT_EQ(legacy.buffer.use_count(), 2);  // the request's and ours: nothing retained
}

TEST(ExchangeProtocol, WritableViewWritesThroughToTheProducer) {
  auto devices = testing::usm_root_devices();
  SKIP_WITHOUT(devices, "device");
  runtime::Runtime& runtime = runtime::opencl_runtime();
  for (UsmKind kind : {UsmKind::host, UsmKind::device, UsmKind::shared}) {
    if (!testing::supports(*devices[0], kind)) continue;
    SCOPED_TRACE(facts::to_string(kind));
    Produced produced = produce(devices[0]->ref, kind);
    ExportRequest request = produced.request;
    // A negative-stride view: element 0 is the last row of the buffer.
    request.strides = std::vector<std::int64_t>{-4, 1};
    request.byte_offset = 5 * 4 * 4;
    ImportedView view =
        import_tensor(runtime, std::move(export_tensor(runtime, request, {}).capsule));
    ASSERT_TRUE(view.writable());
    const std::byte value[4] = {std::byte{1}, std::byte{2}, std::byte{3}, std::byte{4}};
    view.write_element(1, value);  // logical [0, 1] = buffer row 5, column 1
    std::byte back[4];
    runtime.copy(produced.buffer->context(), devices[0]->ref, back,
                 static_cast<std::byte*>(produced.buffer->data()) + (5 * 4 + 1) * 4, 4);
    EXPECT_EQ(0, std::memcmp(back, value, 4));
  }
}

TEST(ExchangeProtocol, HostUsmGetsTheFirstDeviceOfItsPlatform) {
  auto devices = testing::usm_root_devices();
  SKIP_WITHOUT(devices, "device");
  runtime::Runtime& runtime = runtime::opencl_runtime();
  const runtime::DeviceInfo& device = *devices[0];
  if (!testing::supports(device, UsmKind::host)) GTEST_SKIP() << "no host USM";
  Produced produced = produce(device.ref, UsmKind::host);
  ExportedTensor exported = export_tensor(runtime, produced.request, {});
  // Host USM belongs to no device; DPC++'s get_pointer_device answers the
  // first device of the context, which is the platform's first root device.
  const runtime::PlatformInfo* platform = runtime.inventory().platform_of(device.ref);
  ASSERT_NE(platform, nullptr);
  EXPECT_EQ(exported.capsule.dl_tensor()->device.device_id,
            platform->devices.front().ref.root_index);
  std::optional<runtime::DeviceRef> owner =
      dlpack_usm::testing::expected_owner(device.ref, UsmKind::host);
  EXPECT_EQ(exported.facts.runtime->owner_root_index,
            owner ? std::optional<std::int32_t>(owner->root_index) : std::nullopt);
  ImportedView view = import_tensor(runtime, std::move(exported.capsule));
  EXPECT_EQ(view.placement().owner_device, owner);
  expect_pattern(view);
}

}  // namespace
}  // namespace dlpack_usm::exchange
