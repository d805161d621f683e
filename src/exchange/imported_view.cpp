#include "exchange/imported_view.hpp"

#include <algorithm>
#include <cstring>
#include <optional>

#include <fmt/format.h>

#include "common/error.hpp"
#include "exchange/address_order.hpp"
#include "exchange/layout.hpp"
#include "exchange/pattern.hpp"
#include "exchange/rule_ids.hpp"
#include "exchange/rule_refusal.hpp"
#include "facts/derived.hpp"

namespace dlpack_usm::exchange {

ImportedView::ImportedView(runtime::Runtime& runtime, CapsuleOwner capsule,
                           ImportedPlacement placement, facts::TensorFacts facts,
                           std::vector<rules::Finding> findings)
    : runtime_(&runtime),
      capsule_(std::move(capsule)),
      placement_(placement),
      facts_(std::move(facts)),
      findings_(std::move(findings)) {
  // From here on the capsule is a member: a refusal below destroys it, which
  // calls the producer's deleter once.
  const dlpack::DLTensor* tensor = capsule_.dl_tensor();
  if (tensor == nullptr) fail_usage("no tensor to view");
  data_ = tensor->data;
  writable_ =
      !(capsule_.is_versioned() && (capsule_.versioned()->flags & dlpack::kFlagReadOnly) != 0);

  const facts::DerivedFacts derived = facts::derive(facts_);
  if (!derived.element_count || !derived.effective_strides || !derived.lowest_byte ||
      !derived.end_byte) {
    refuse("import refused: the tensor's shape, strides or byte extent cannot be computed",
           "'dlpack-usm capsule check' on a saved capsule names the broken field");
  }
  // Sub-byte dtypes pack several elements into a byte; this consumer reads
  // whole bytes, as dpctl does (it rejects bits not a multiple of 8).
  if (static_cast<std::uint64_t>(facts_.dtype.bits) * facts_.dtype.lanes !=
      derived.element_bytes * 8) {
    refuse(fmt::format("import refused: this consumer reads whole-byte elements, not {} bits",
                       static_cast<unsigned>(facts_.dtype.bits) * facts_.dtype.lanes));
  }
  element_bytes_ = derived.element_bytes;
  element_count_ = *derived.element_count;
  strides_ = *derived.effective_strides;
  shape_ = facts_.shape.value_or(std::vector<std::int64_t>{});
  lowest_byte_ = *derived.lowest_byte;
  end_byte_ = *derived.end_byte;

  // Never touch a byte outside the allocation, whatever the rules decided.
  if (element_count_ > 0) {
    const auto& live = facts_.runtime;
    if (!live || !live->alloc_base || !live->alloc_size) {
      require_extent_is_usm();
      return;
    }
    // The builtins check in infinite precision, so a wrapped sum is caught.
    std::uint64_t first = 0, low = 0, high = 0, limit = 0;
    bool wraps = __builtin_add_overflow(facts_.data, facts_.byte_offset, &first) ||
                 __builtin_add_overflow(first, lowest_byte_, &low) ||
                 __builtin_add_overflow(first, end_byte_, &high) ||
                 __builtin_add_overflow(*live->alloc_base, *live->alloc_size, &limit);
    if (wraps || low < *live->alloc_base || high > limit) {
      refuse(fmt::format("import refused: the elements reach outside the {}-byte allocation at "
                         "{:#x} (rule {})",
                         *live->alloc_size, *live->alloc_base, rule_ids::kExtentOutsideAllocation),
             {}, {std::string(rule_ids::kExtentOutsideAllocation)});
    }
  }
}

// SYCL cannot say where a foreign allocation lies; what it can say is
// whether an address is USM of the context. The first and last byte of the
// extent both being USM there keeps the reads off memory the producer never
// allocated.
void ImportedView::require_extent_is_usm() const {
  const auto* first = static_cast<const std::byte*>(data_) + facts_.byte_offset;
  for (const std::byte* probe : {first + lowest_byte_, first + end_byte_ - 1}) {
    if (runtime_->query(probe, placement_.context).kind == facts::UsmKind::unknown) {
      refuse(fmt::format("import refused: byte {} of the tensor's extent is no USM of the "
                         "default context (rule {})",
                         static_cast<const void*>(probe), rule_ids::kExtentOutsideAllocation),
             {}, {std::string(rule_ids::kExtentOutsideAllocation)});
    }
  }
}

runtime::DeviceRef ImportedView::transfer_device() const {
  return placement_.owner_device.value_or(placement_.root_device);
}

std::byte* ImportedView::element_address(std::uint64_t index) const {
  if (index >= element_count_) {
    fail_usage(fmt::format("element {} is out of range: the tensor has {}", index, element_count_));
  }
  return static_cast<std::byte*>(data_) + facts_.byte_offset +
         element_byte_position(index, shape_, strides_, element_bytes_);
}

void ImportedView::read_element(std::uint64_t index, std::byte* out) const {
  std::byte* source = element_address(index);
  if (host_accessible()) {
    std::memcpy(out, source, element_bytes_);
  } else {
    runtime_->copy(placement_.context, transfer_device(), out, source, element_bytes_);
  }
}

std::vector<std::byte> ImportedView::read_all() const {
  std::vector<std::byte> elements(element_count_ * element_bytes_);
  for_each_element([&](std::uint64_t index, const std::byte* element) {
    std::memcpy(elements.data() + index * element_bytes_, element, element_bytes_);
  });
  return elements;
}

std::vector<std::byte> ImportedView::read_all_on(const runtime::ConsumerQueue& queue) const {
  std::vector<std::byte> elements(element_count_ * element_bytes_);
  if (element_count_ == 0) return elements;
  const std::byte* first = static_cast<const std::byte*>(data_) + facts_.byte_offset;
  std::vector<std::byte> staging(static_cast<std::size_t>(end_byte_ - lowest_byte_));
  runtime_->read_on_queue(queue, staging.data(), first + lowest_byte_, staging.size());
  const std::byte* base = staging.data() - lowest_byte_;
  for (std::uint64_t i = 0; i < element_count_; ++i) {
    std::memcpy(elements.data() + i * element_bytes_,
                base + element_byte_position(i, shape_, strides_, element_bytes_), element_bytes_);
  }
  return elements;
}

void ImportedView::for_each_element(
    const std::function<void(std::uint64_t index, const std::byte* element)>& visit) const {
  if (element_count_ == 0) return;
  const std::byte* first = static_cast<const std::byte*>(data_) + facts_.byte_offset;
  // Outlives the loop below, which reads through `first` (a broadcast's
  // axes, stride 0, do not nest: they are gathered from this copy).
  std::vector<std::byte> staging;
  if (!host_accessible()) {
    if (visit_in_windows(visit)) return;
    // Axes that do not nest: the whole extent over once, then gather.
    staging.resize(static_cast<std::size_t>(end_byte_ - lowest_byte_));
    runtime_->copy(placement_.context, transfer_device(), staging.data(), first + lowest_byte_,
                   staging.size());
    first = staging.data() - lowest_byte_;
  }
  for (std::uint64_t i = 0; i < element_count_; ++i) {
    visit(i, first + element_byte_position(i, shape_, strides_, element_bytes_));
  }
}

bool ImportedView::visit_in_windows(
    const std::function<void(std::uint64_t index, const std::byte* element)>& visit) const {
  // Every element lies a multiple of its size above the lowest byte, so a
  // window a multiple of that size never cuts one.
  std::uint64_t window =
      std::max(element_bytes_, kStagingWindowBytes / element_bytes_ * element_bytes_);
  auto extent = static_cast<std::uint64_t>(end_byte_ - lowest_byte_);
  const std::byte* lowest =
      static_cast<const std::byte*>(data_) + facts_.byte_offset + lowest_byte_;
  std::vector<std::byte> staging(static_cast<std::size_t>(std::min(window, extent)));
  std::optional<std::uint64_t> loaded;  // the window staging holds
  return walk_in_address_order(
      shape_, strides_, element_bytes_, [&](std::uint64_t index, std::int64_t position) {
        auto above = static_cast<std::uint64_t>(position - lowest_byte_);
        std::uint64_t start = above / window * window;
        if (loaded != start) {
          runtime_->copy(placement_.context, transfer_device(), staging.data(), lowest + start,
                         static_cast<std::size_t>(std::min(window, extent - start)));
          loaded = start;
        }
        visit(index, staging.data() + (above - start));
      });
}

void ImportedView::write_element(std::uint64_t index, const std::byte* in) const {
  if (!writable_) {
    refuse("the producer marked this tensor READ_ONLY; the consumer must not write to it",
           "ask the producer for a writable tensor or copy it first");
  }
  std::byte* destination = element_address(index);
  if (host_accessible()) {
    std::memcpy(destination, in, element_bytes_);
  } else {
    runtime_->copy(placement_.context, transfer_device(), destination, in, element_bytes_);
  }
}

}  // namespace dlpack_usm::exchange
