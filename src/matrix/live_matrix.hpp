// The matrix of live tensors every device gets: the tool's own round trips
// (live_cases.cpp) and the producer plugin cases (producer_cases.cpp) walk
// the same kinds, dtypes, layouts and versions.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "dlpack/names.hpp"
#include "exchange/layout.hpp"
#include "facts/tensor_facts.hpp"
#include "runtime/device_model.hpp"

namespace dlpack_usm::matrix {

// Every dtype width the exchange must carry: 1, 2, 4, 8 and 16 bytes.
inline constexpr const char* kLiveDtypes[] = {"int8", "float16", "float32", "float64",
                                              "complex128"};
// The layouts of exchange::Order plus the two degenerate shapes.
inline constexpr const char* kLiveLayouts[] = {"C",        "F",     "strided", "offset",
                                               "negative", "size0", "ndim0"};
// Legacy (what a consumer asking for < 1.0 gets), the first and the newest versioned ABI.
inline constexpr const char* kLiveVersions[] = {"0.8", "1.0", "1.3"};
inline constexpr facts::UsmKind kLiveKinds[] = {facts::UsmKind::host, facts::UsmKind::device,
                                                facts::UsmKind::shared};

// One tensor of the matrix: what a live round trip exports and imports, and
// what a producer plugin is asked for.
struct MatrixTensor {
  facts::UsmKind kind = facts::UsmKind::device;
  std::string dtype;    // a kLiveDtypes name
  std::string layout;   // a kLiveLayouts name
  std::string version;  // a kLiveVersions name
  bool read_only = false;
};

bool kind_supported(const runtime::DeviceInfo& device, facts::UsmKind kind);

// The shape a layout name stands for: 3x5, or 0x5 ("size0"), or none ("ndim0").
std::vector<std::int64_t> live_shape(const std::string& layout);
// The memory order of a layout name ("size0" and "ndim0" are compact C).
exchange::Order live_order(const std::string& layout);
// "0.8", "1.0", "1.3".
dlpack::Release live_version(const std::string& version);

// What a walk of the matrix (walk_live_matrix) hands its caller, in the
// order the cases are listed. Per device, root first and then its
// sub-devices: device_begins, then no_usm, or per kind of kLiveKinds
// kind_unsupported or its tensors.
class LiveMatrixVisitor {
 public:
  virtual ~LiveMatrixVisitor() = default;
  virtual void device_begins(const runtime::DeviceInfo& /*device*/, bool /*sub_device*/) {}
  // A device without USM: nothing else is walked on it.
  virtual void no_usm(const runtime::DeviceInfo& device) = 0;
  virtual void kind_unsupported(const runtime::DeviceInfo& device, facts::UsmKind kind) = 0;
  // A kind the device can allocate, before its tensors: false skips them
  // (a case of the caller's own stands for the kind).
  virtual bool kind_begins(const runtime::DeviceInfo& /*device*/, facts::UsmKind /*kind*/) {
    return true;
  }
  virtual void tensor(const runtime::DeviceInfo& device, const MatrixTensor& tensor) = 0;
  // After a kind's tensors on a root device (the full matrix).
  virtual void full_kind_done(const runtime::DeviceInfo& /*device*/, facts::UsmKind /*kind*/) {}
  // After a root device and its sub-devices.
  virtual void root_done(const runtime::DeviceInfo& /*root*/) {}
};

// Walks every device of `inventory`. A root device gets the full matrix:
// every dtype x layout x version, then READ_ONLY in C order at each of
// `read_only_versions`, per dtype. A sub-device proves that its parent is
// named: one tensor a kind (float32, C, 1.3).
void walk_live_matrix(const runtime::Inventory& inventory,
                      std::span<const char* const> read_only_versions, LiveMatrixVisitor& visitor);

}  // namespace dlpack_usm::matrix
