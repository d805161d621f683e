#include "facts/derived.hpp"

#include <algorithm>
#include <span>

#include "dlpack/names.hpp"
#include "facts/element_size.hpp"

namespace dlpack_usm::facts {
namespace {

using Dims = std::span<const std::int64_t>;

bool any_extent_zero(Dims shape) {
  return std::any_of(shape.begin(), shape.end(), [](std::int64_t n) { return n == 0; });
}

// Whether `strides` are the compact strides of `shape` taken from the last
// dimension (C) or the first (F). Extent-1 dimensions may carry any stride.
bool compact(Dims shape, Dims strides, bool c_order) {
  std::int64_t expected = 1;
  std::size_t n = shape.size();
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t i = c_order ? n - 1 - k : k;
    if (shape[i] == 1) continue;
    if (strides[i] != expected) return false;
    if (__builtin_mul_overflow(expected, shape[i], &expected)) return false;
  }
  return true;
}

Contiguity classify(Dims shape, Dims strides) {
  if (any_extent_zero(shape)) return Contiguity::both;
  bool c = compact(shape, strides, true);
  bool f = compact(shape, strides, false);
  if (c && f) return Contiguity::both;
  if (c) return Contiguity::c;
  if (f) return Contiguity::f;
  return Contiguity::neither;
}

// The shape of a tensor whose body was read, or nullopt where it cannot be
// used: ndim disagrees with it, or an extent is negative. ndim 0 is a
// scalar: one element, no shape needed. A view of the tensor's own.
std::optional<Dims> readable_shape(const TensorFacts& tensor) {
  Dims shape;
  if (tensor.ndim > 0) {
    if (!tensor.shape || static_cast<std::int64_t>(tensor.shape->size()) != tensor.ndim) {
      return std::nullopt;
    }
    shape = *tensor.shape;
  }
  if (std::any_of(shape.begin(), shape.end(), [](std::int64_t n) { return n < 0; })) {
    return std::nullopt;
  }
  return shape;
}

// Row-major strides of `shape` into `strides`; false on overflow.
bool row_major_strides_into(Dims shape, std::vector<std::int64_t>& strides) {
  strides.resize(shape.size());
  std::int64_t running = 1;
  for (std::size_t k = shape.size(); k-- > 0;) {
    strides[k] = running;
    if (__builtin_mul_overflow(running, std::max<std::int64_t>(shape[k], 1), &running)) {
      return false;
    }
  }
  return true;
}

// Byte offsets, from the first element, of the lowest byte and one past the
// highest byte the elements occupy.
struct ByteExtent {
  std::int64_t lowest = 0;
  std::int64_t end = 0;
};

// The extent of a tensor with no zero extent; nullopt on overflow. Each
// dimension moves (extent - 1) * stride away from the first element,
// downwards for negative strides.
std::optional<ByteExtent> byte_extent(Dims shape, Dims strides, std::uint64_t element_size) {
  std::int64_t low = 0;
  std::int64_t high = 0;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    std::int64_t reach = 0;
    if (__builtin_mul_overflow(shape[i] - 1, strides[i], &reach) ||
        __builtin_add_overflow(reach < 0 ? low : high, reach, reach < 0 ? &low : &high)) {
      return std::nullopt;
    }
  }
  std::int64_t element_bytes = static_cast<std::int64_t>(element_size);
  ByteExtent extent;
  if (__builtin_mul_overflow(low, element_bytes, &extent.lowest) ||
      __builtin_mul_overflow(high, element_bytes, &high) ||
      __builtin_add_overflow(high, element_bytes, &extent.end)) {
    return std::nullopt;
  }
  return extent;
}

}  // namespace

const char* to_string(Contiguity contiguity) {
  switch (contiguity) {
    case Contiguity::c:
      return "C";
    case Contiguity::f:
      return "F";
    case Contiguity::both:
      return "both";
    case Contiguity::neither:
      return "neither";
    case Contiguity::unknown:
      break;
  }
  return "unknown";
}

std::uint64_t alignment_of(std::uint64_t address, std::uint64_t cap) {
  if (address == 0) return 0;
  return std::min<std::uint64_t>(address & (~address + 1), cap);
}

std::optional<std::vector<std::int64_t>> row_major_strides(const std::vector<std::int64_t>& shape) {
  std::vector<std::int64_t> strides;
  if (!row_major_strides_into(shape, strides)) return std::nullopt;
  return strides;
}

DerivedFacts derive(const TensorFacts& tensor) {
  DerivedFacts derived;
  derive_into(tensor, derived);
  return derived;
}

void derive_into(const TensorFacts& tensor, DerivedFacts& derived) {
  // The buffer of the strides is kept; everything else starts afresh.
  std::vector<std::int64_t> strides;
  if (derived.effective_strides) strides = std::move(*derived.effective_strides);
  derived = DerivedFacts{};
  derived.element_bytes = element_storage_bytes(tensor.dtype);
  // A handle ("cl_mem handle in OpenCL. It may be opaque on some device
  // types.") has no alignment: both stay 0, as for NULL.
  derived.data_is_handle = dlpack::data_is_handle(tensor.device_type);
  std::uint64_t first_element = 0;
  if (!derived.data_is_handle) {
    derived.data_alignment = alignment_of(tensor.data);
    if (!__builtin_add_overflow(tensor.data, tensor.byte_offset, &first_element)) {
      derived.first_element_alignment = alignment_of(first_element);
    }
  }
  if (!tensor.body_read || tensor.ndim < 0) return;
  std::optional<Dims> shape = readable_shape(tensor);
  if (!shape) return;

  // No extent is negative here, so nullopt means the product overflowed.
  derived.element_count = checked_element_count(*shape);
  derived.element_count_overflows = !derived.element_count;

  if (tensor.strides) {
    if (tensor.strides->size() != shape->size()) return;
    strides.assign(tensor.strides->begin(), tensor.strides->end());
  } else if (!row_major_strides_into(*shape, strides)) {
    derived.extent_overflows = true;
    return;
  }
  const std::vector<std::int64_t>& effective =
      derived.effective_strides.emplace(std::move(strides));
  derived.contiguity = classify(*shape, effective);

  if (derived.element_count == 0 || any_extent_zero(*shape)) {
    derived.lowest_byte = 0;
    derived.end_byte = 0;
    return;
  }
  std::optional<ByteExtent> extent = byte_extent(*shape, effective, derived.element_bytes);
  if (!extent) {
    derived.extent_overflows = true;
    return;
  }
  derived.lowest_byte = extent->lowest;
  derived.end_byte = extent->end;
}

}  // namespace dlpack_usm::facts
