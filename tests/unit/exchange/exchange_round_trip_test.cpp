// Round trips that move data on the real USM devices of this machine: the
// producer writes the pattern through the device, exports, the consumer
// imports and reads every element back in logical order. Every USM kind the
// device supports, every layout (C, F, strided, byte_offset, negative
// stride, size 0, ndim 0), every dtype width, versioned and legacy.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <tuple>

#include "dlpack/names.hpp"
#include "exchange/export_tensor.hpp"
#include "exchange/import_tensor.hpp"
#include "exchange_test_support.hpp"

namespace dlpack_usm::exchange {
namespace {

bool layout_is_empty(const Layout& layout) {
  return std::find(layout.shape.begin(), layout.shape.end(), 0) != layout.shape.end();
}

using facts::UsmKind;
using testing::odometer_image;

struct DtypeCase {
  const char* name;
  std::uint64_t bytes;
};
constexpr DtypeCase kDtypes[] = {{"int8", 1},    {"float16", 2}, {"bfloat16", 2},
                                 {"float32", 4}, {"float64", 8}, {"complex128", 16}};

struct ShapeCase {
  const char* name;
  std::vector<std::int64_t> shape;
};
const ShapeCase kShapes[] = {{"3x5x7", {3, 5, 7}}, {"size0", {4, 0, 3}}, {"ndim0", {}}};

using Param = std::tuple<UsmKind, Order, DtypeCase, ShapeCase, bool /* legacy */>;

std::string param_name(const ::testing::TestParamInfo<Param>& info) {
  auto [kind, order, dtype, shape, legacy] = info.param;
  return std::string(facts::to_string(kind)) + "_" + to_string(order) + "_" + dtype.name + "_" +
         shape.name + (legacy ? "_legacy" : "_versioned");
}

class RoundTrip : public ::testing::TestWithParam<Param> {};

TEST_P(RoundTrip, ConsumerReadsWhatTheProducerWroteWithoutACopy) {
  auto [kind, order, dtype_case, shape_case, legacy] = GetParam();
  auto devices = testing::usm_root_devices();
  SKIP_WITHOUT(devices, "device");
  runtime::Runtime& runtime = runtime::opencl_runtime();
  auto dtype = dlpack::parse_dtype(dtype_case.name);
  ASSERT_TRUE(dtype);
  const std::uint64_t element_bytes = dtype_case.bytes;
  bool ran = false;
  for (const runtime::DeviceInfo* device : devices) {
    if (!testing::supports(*device, kind)) continue;
    ran = true;
    SCOPED_TRACE(device->selector_name);

    // Producer: allocate, write the pattern through the device, export.
    Layout layout = make_layout(shape_case.shape, element_bytes, order);
    auto buffer = std::make_shared<runtime::UsmBuffer>(
        runtime.allocate(device->ref, kind, std::max<std::uint64_t>(layout.allocation_bytes, 1),
                         runtime::ContextChoice::platform_default));
    std::vector<std::byte> image = odometer_image(layout, element_bytes);
    runtime.copy(buffer->context(), device->ref, buffer->data(), image.data(), image.size());

    ExportRequest request;
    request.data = buffer->data();
    request.context = buffer->context();
    request.dtype = *dtype;
    request.shape = layout.shape;
    request.strides = layout.strides;
    request.byte_offset = layout.byte_offset;
    request.keep_alive = buffer;
    ExportOptions options;
    options.max_version = legacy ? dlpack::Release{0, 8} : dlpack::kModelRelease;
    ExportedTensor exported = export_tensor(runtime, request, options);

    ASSERT_EQ(exported.capsule.is_versioned(), !legacy);
    const dlpack::DLTensor& tensor = *exported.capsule.dl_tensor();
    EXPECT_EQ(tensor.device.device_type, dlpack::kDLOneAPI);
    EXPECT_EQ(tensor.device.device_id, device->ref.root_index);
    // A size-0 tensor goes out with NULL data, as dlpack.h recommends; the
    // others with the producer's pointer.
    bool empty = layout_is_empty(layout);
    EXPECT_EQ(tensor.data, empty ? nullptr : buffer->data());
    EXPECT_EQ(tensor.byte_offset, layout.byte_offset);
    if (!legacy) {
      EXPECT_EQ(exported.capsule.versioned()->version.major, 1u);
      EXPECT_EQ(exported.capsule.versioned()->version.minor, 3u);
      // Export never copies, so IS_COPIED is never set.
      EXPECT_EQ(exported.capsule.versioned()->flags & dlpack::kFlagIsCopied, 0u);
    }
    EXPECT_FALSE(rules::has_errors(exported.findings));

    // Consumer: import and read every element in logical order.
    ImportedView view = import_tensor(runtime, std::move(exported.capsule));
    EXPECT_EQ(view.data(), empty ? nullptr : buffer->data())
        << "the consumer must see the producer's pointer";
    // NULL data has no pointer to look up: no USM kind, no owner.
    EXPECT_EQ(view.placement().usm_kind, empty ? UsmKind::unknown : kind);
    EXPECT_EQ(view.placement().root_device.root_index, device->ref.root_index);
    if (kind != UsmKind::host && !empty) {
      ASSERT_TRUE(view.placement().owner_device);
      EXPECT_EQ(*view.placement().owner_device, device->ref);
    }
    EXPECT_TRUE(view.writable());

    std::uint64_t count = 1;
    for (std::int64_t extent : layout.shape) count *= static_cast<std::uint64_t>(extent);
    ASSERT_EQ(view.element_count(), count);
    std::vector<std::byte> elements = view.read_all();
    ASSERT_EQ(elements.size(), count * element_bytes);
    std::vector<std::byte> expected(element_bytes);
    std::uint64_t wrong = 0;
    for (std::uint64_t i = 0; i < count; ++i) {
      pattern_element(i, element_bytes, expected.data());
      if (std::memcmp(elements.data() + i * element_bytes, expected.data(), element_bytes) != 0) {
        ++wrong;
      }
    }
    EXPECT_EQ(wrong, 0u) << "of " << count << " elements";
    // Single-element reads go through the same placement rules.
    if (count > 0) {
      std::vector<std::byte> one(element_bytes);
      for (std::uint64_t i : {std::uint64_t{0}, count / 2, count - 1}) {
        view.read_element(i, one.data());
        pattern_element(i, element_bytes, expected.data());
        EXPECT_EQ(one, expected) << "element " << i;
      }
    }
  }
  if (!ran) GTEST_SKIP() << "no USM device here supports " << facts::to_string(kind) << " USM";
}

INSTANTIATE_TEST_SUITE_P(Matrix, RoundTrip,
                         ::testing::Combine(::testing::Values(UsmKind::host, UsmKind::device,
                                                              UsmKind::shared),
                                            ::testing::Values(Order::c, Order::f, Order::strided,
                                                              Order::offset, Order::negative),
                                            ::testing::ValuesIn(kDtypes),
                                            ::testing::ValuesIn(kShapes), ::testing::Bool()),
                         param_name);

}  // namespace
}  // namespace dlpack_usm::exchange
