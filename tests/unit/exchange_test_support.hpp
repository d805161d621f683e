// Shared by the exchange tests: the USM devices of this machine, a producer
// image computed independently of the exchange's own index arithmetic, and
// deleter counting for tensors the exchange made and tensors a test made.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "dlpack/abi.hpp"
#include "exchange/layout.hpp"
#include "exchange/pattern.hpp"
#include "matrix/live_matrix.hpp"
#include "runtime/runtime.hpp"

namespace dlpack_usm::exchange::testing {

inline std::vector<const runtime::DeviceInfo*> usm_root_devices() {
  std::vector<const runtime::DeviceInfo*> devices;
  for (const auto& [platform, root] : runtime::opencl_runtime().inventory().roots()) {
    if (root.usm) devices.push_back(&root);
  }
  return devices;
}

inline std::vector<const runtime::DeviceInfo*> usm_sub_devices() {
  std::vector<const runtime::DeviceInfo*> devices;
  for (const runtime::DeviceInfo* root : usm_root_devices()) {
    for (const runtime::DeviceInfo& sub : root->sub_devices) {
      if (sub.usm) devices.push_back(&sub);
    }
  }
  return devices;
}

// CI sets DLPACK_USM_REQUIRE_USM=1 after installing Intel's CPU runtime: a
// machine that should have a USM device but shows none fails there.
inline bool usm_required() {
  const char* value = std::getenv("DLPACK_USM_REQUIRE_USM");
  return value != nullptr && std::string(value) == "1";
}

// Visible skip (never a silent pass) where the machine has no USM device;
// a failure where one is required.
#define SKIP_WITHOUT(devices, what)                                                          \
  if ((devices).empty()) {                                                                   \
    if (::dlpack_usm::exchange::testing::usm_required()) {                                   \
      FAIL() << "DLPACK_USM_REQUIRE_USM=1 but there is no OpenCL " << (what)                 \
             << " with cl_intel_unified_shared_memory";                                      \
    }                                                                                        \
    GTEST_SKIP() << "no OpenCL " << (what)                                                   \
                 << " with cl_intel_unified_shared_memory on this machine (PoCL before 5.0 " \
                    "has none); install Intel's CPU runtime to run this test";               \
  }

inline bool supports(const runtime::DeviceInfo& device, facts::UsmKind kind) {
  return matrix::kind_supported(device, kind);
}

// The producer's bytes for `layout`, walking the multi-index like an
// odometer (last axis fastest), which is what logical row-major order means;
// deliberately not the exchange's unravel-by-division.
inline std::vector<std::byte> odometer_image(const Layout& layout, std::uint64_t element_bytes) {
  std::vector<std::byte> image(layout.allocation_bytes, kGapFiller);
  const auto& shape = layout.shape;
  for (std::int64_t extent : shape) {
    if (extent == 0) return image;
  }
  std::vector<std::int64_t> index(shape.size(), 0);
  for (std::uint64_t logical = 0;; ++logical) {
    std::int64_t position = 0;
    for (std::size_t k = 0; k < shape.size(); ++k) position += index[k] * layout.strides[k];
    std::int64_t at = static_cast<std::int64_t>(layout.byte_offset) +
                      position * static_cast<std::int64_t>(element_bytes);
    EXPECT_GE(at, 0);
    EXPECT_LE(at + static_cast<std::int64_t>(element_bytes),
              static_cast<std::int64_t>(image.size()));
    pattern_element(logical, element_bytes, image.data() + at);
    std::size_t axis = shape.size();
    while (axis > 0 && ++index[axis - 1] == shape[axis - 1]) index[--axis] = 0;
    if (axis == 0) return image;
  }
}

// Wraps the deleter of a tensor the exchange made, so a test can count how
// often it ran while the original still releases what export took.
class DeleterCounter {
 public:
  explicit DeleterCounter(dlpack::DLManagedTensorVersioned* tensor) {
    key_ = tensor;
    originals_versioned()[tensor] = tensor->deleter;
    counts()[tensor] = 0;
    tensor->deleter = [](dlpack::DLManagedTensorVersioned* self) {
      ++counts()[self];
      auto original = originals_versioned()[self];
      if (original != nullptr) original(self);
    };
  }
  explicit DeleterCounter(dlpack::DLManagedTensor* tensor) {
    key_ = tensor;
    originals_legacy()[tensor] = tensor->deleter;
    counts()[tensor] = 0;
    tensor->deleter = [](dlpack::DLManagedTensor* self) {
      ++counts()[self];
      auto original = originals_legacy()[self];
      if (original != nullptr) original(self);
    };
  }
  int calls() const { return counts()[key_]; }

 private:
  static std::map<const void*, int>& counts() {
    static std::map<const void*, int> map;
    return map;
  }
  static std::map<const void*, void (*)(dlpack::DLManagedTensorVersioned*)>& originals_versioned() {
    static std::map<const void*, void (*)(dlpack::DLManagedTensorVersioned*)> map;
    return map;
  }
  static std::map<const void*, void (*)(dlpack::DLManagedTensor*)>& originals_legacy() {
    static std::map<const void*, void (*)(dlpack::DLManagedTensor*)> map;
    return map;
  }
  const void* key_ = nullptr;
};

// A tensor a test builds by hand (as a foreign or broken producer would),
// whose deleter only counts: the test owns the memory, so the count can be
// read after the deleter ran.
struct HandMadeTensor {
  std::vector<std::int64_t> shape{4};
  std::vector<std::int64_t> strides{1};
  dlpack::DLManagedTensorVersioned versioned{};
  dlpack::DLManagedTensor legacy{};
  int deleter_calls = 0;

  HandMadeTensor(void* data, std::int32_t device_id) {
    dlpack::DLTensor tensor{};
    tensor.data = data;
    tensor.device = dlpack::DLDevice{dlpack::kDLOneAPI, device_id};
    tensor.ndim = 1;
    tensor.dtype = dlpack::DLDataType{dlpack::kDLFloat, 32, 1};
    tensor.shape = shape.data();
    tensor.strides = strides.data();
    versioned.version = dlpack::DLPackVersion{1, 3};
    versioned.manager_ctx = this;
    versioned.deleter = [](dlpack::DLManagedTensorVersioned* self) {
      ++static_cast<HandMadeTensor*>(self->manager_ctx)->deleter_calls;
    };
    versioned.dl_tensor = tensor;
    legacy.dl_tensor = tensor;
    legacy.manager_ctx = this;
    legacy.deleter = [](dlpack::DLManagedTensor* self) {
      ++static_cast<HandMadeTensor*>(self->manager_ctx)->deleter_calls;
    };
  }
  HandMadeTensor(const HandMadeTensor&) = delete;
  HandMadeTensor& operator=(const HandMadeTensor&) = delete;
};

}  // namespace dlpack_usm::exchange::testing
