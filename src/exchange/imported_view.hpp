// What a consumer holds after importing a kDLOneAPI tensor: the producer's
// capsule (whose deleter it calls exactly once, when the view goes away),
// the device and context the import protocol found, and element access in
// logical (row-major) order that honours strides of any sign, byte_offset
// and READ_ONLY. Device USM is reached only through the runtime's copies.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "exchange/capsule_owner.hpp"
#include "facts/tensor_facts.hpp"
#include "rules/rule.hpp"
#include "runtime/runtime.hpp"

namespace dlpack_usm::exchange {

// Where the import protocol found the pointer.
struct ImportedPlacement {
  runtime::DeviceRef root_device;                  // from device_id
  std::optional<runtime::DeviceRef> owner_device;  // none for host USM
  runtime::ContextRef context;                     // the platform's default context
  facts::UsmKind usm_kind = facts::UsmKind::unknown;
};

class ImportedView {
 public:
  // Made by import_tensor(), which has checked everything the accessors rely
  // on: whole-byte elements, a byte extent inside the allocation.
  ImportedView(runtime::Runtime& runtime, CapsuleOwner capsule, ImportedPlacement placement,
               facts::TensorFacts facts, std::vector<rules::Finding> findings);

  // The data pointer exactly as the producer handed it over: equal to the
  // producer's allocation pointer when nothing was copied.
  void* data() const { return data_; }
  std::uint64_t byte_offset() const { return facts_.byte_offset; }
  dlpack::DLDataType dtype() const { return facts_.dtype; }
  const std::vector<std::int64_t>& shape() const { return shape_; }
  // The strides that apply, in elements (row-major ones when the producer
  // passed NULL strides, as releases before 1.2 allow).
  const std::vector<std::int64_t>& strides() const { return strides_; }
  std::uint64_t element_bytes() const { return element_bytes_; }
  std::uint64_t element_count() const { return element_count_; }
  bool writable() const { return writable_; }
  const ImportedPlacement& placement() const { return placement_; }
  const facts::TensorFacts& facts() const { return facts_; }
  const std::vector<rules::Finding>& findings() const { return findings_; }
  const CapsuleOwner& capsule() const { return capsule_; }

  // Element `index` (row-major position, below element_count()) into `out`
  // (element_bytes() bytes). Throws Error(usage) for an index out of range.
  void read_element(std::uint64_t index, std::byte* out) const;
  // Every element in logical order, element_bytes() each; one transfer of
  // the tensor's byte extent for device USM.
  std::vector<std::byte> read_all() const;
  // The same, with the byte extent copied by a command on `queue` (also for
  // host-accessible USM): what a consumer that works on that queue reads.
  std::vector<std::byte> read_all_on(const runtime::ConsumerQueue& queue) const;
  // Calls `visit(index, element)` for every element without a copy of them
  // all: host-accessible USM in logical order, read in place; device USM in
  // address order, a 16 MiB window of it at a time (or, where the axes do
  // not nest, the whole extent at once), whatever the tensor's size.
  void for_each_element(
      const std::function<void(std::uint64_t index, const std::byte* element)>& visit) const;
  // Throws Error(findings) when the producer marked the tensor READ_ONLY.
  void write_element(std::uint64_t index, const std::byte* in) const;

 private:
  std::byte* element_address(std::uint64_t index) const;
  // for_each_element on device USM whose axes nest; false, visiting
  // nothing, for axes that do not.
  bool visit_in_windows(
      const std::function<void(std::uint64_t index, const std::byte* element)>& visit) const;
  bool host_accessible() const { return placement_.usm_kind != facts::UsmKind::device; }
  runtime::DeviceRef transfer_device() const;
  void require_extent_is_usm() const;

  runtime::Runtime* runtime_;
  CapsuleOwner capsule_;
  ImportedPlacement placement_;
  facts::TensorFacts facts_;
  std::vector<rules::Finding> findings_;
  void* data_ = nullptr;
  std::vector<std::int64_t> shape_;
  std::vector<std::int64_t> strides_;
  std::uint64_t element_bytes_ = 0;
  std::uint64_t element_count_ = 0;
  std::int64_t lowest_byte_ = 0;  // byte extent relative to data + byte_offset
  std::int64_t end_byte_ = 0;
  bool writable_ = true;
};

}  // namespace dlpack_usm::exchange
