// libFuzzer target: the in-memory facts reader on DLManagedTensor and
// DLManagedTensorVersioned structs built from fuzz bytes. Each allocation
// holds exactly what the struct declares (shape and strides have ndim
// entries; under an unknown major version only the 32-byte stable header
// exists), so AddressSanitizer reports any read past what was declared.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "facts/memory_reader.hpp"
#include "fuzz_checks.hpp"

namespace {

using namespace dlpack_usm;

// Consumes fixed-size values from the front of the fuzz input; zeros once
// it runs out.
class Bytes {
 public:
  Bytes(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  template <typename T>
  T take() {
    T value{};
    std::size_t n = std::min(sizeof(T), size_);
    std::memcpy(&value, data_, n);
    data_ += n;
    size_ -= n;
    return value;
  }
  std::size_t left() const { return size_; }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
};

// An array of exactly `count` entries on the heap (count may be 0: then
// any read of it is an overflow).
std::unique_ptr<std::int64_t[]> dims(Bytes& bytes, std::size_t count) {
  auto array = std::make_unique<std::int64_t[]>(count);
  for (std::size_t i = 0; i < count; ++i) array[i] = bytes.take<std::int64_t>();
  return array;
}

void no_op(dlpack::DLManagedTensor*) {}
void no_op_versioned(dlpack::DLManagedTensorVersioned*) {}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Bytes bytes(data, size);
  auto choice = bytes.take<std::uint8_t>();
  bool versioned = choice & 1;
  bool null_shape = choice & 2;
  bool null_strides = choice & 4;
  bool has_deleter = choice & 8;
  bool has_context = choice & 16;
  auto version = bytes.take<dlpack::DLPackVersion>();
  auto flags = bytes.take<std::uint64_t>();
  dlpack::DLTensor tensor{};
  tensor.data = reinterpret_cast<void*>(bytes.take<std::uintptr_t>());
  tensor.device = bytes.take<dlpack::DLDevice>();
  tensor.ndim = bytes.take<std::int32_t>();
  tensor.dtype = bytes.take<dlpack::DLDataType>();
  tensor.byte_offset = bytes.take<std::uint64_t>();

  // Arrays as long as ndim says, from what input is left; where the reader
  // must not read them at all, zero entries.
  bool readable = tensor.ndim >= 0 && tensor.ndim <= facts::kMaxReadableDims;
  std::size_t available = bytes.left() / (2 * sizeof(std::int64_t));
  if (readable && static_cast<std::size_t>(tensor.ndim) > available) {
    tensor.ndim = static_cast<std::int32_t>(available);
  }
  std::size_t count = readable ? static_cast<std::size_t>(tensor.ndim) : 0;
  std::unique_ptr<std::int64_t[]> shape = dims(bytes, count);
  std::unique_ptr<std::int64_t[]> strides = dims(bytes, count);
  tensor.shape = null_shape ? nullptr : shape.get();
  tensor.strides = null_strides ? nullptr : strides.get();
  int context = 0;

  facts::TensorFacts facts;
  if (!versioned) {
    auto managed = std::make_unique<dlpack::DLManagedTensor>();
    *managed = {tensor, has_context ? &context : nullptr, has_deleter ? no_op : nullptr};
    facts = facts::read_managed_tensor(managed.get(), "fuzz");
  } else if (version.major != dlpack::kModelMajor) {
    // Only the header every major version keeps: version, manager_ctx,
    // deleter, flags.
    constexpr std::size_t kHeader = offsetof(dlpack::DLManagedTensorVersioned, dl_tensor);
    auto header = std::make_unique<unsigned char[]>(kHeader);
    void* context_pointer = has_context ? &context : nullptr;
    void (*deleter)(dlpack::DLManagedTensorVersioned*) = has_deleter ? no_op_versioned : nullptr;
    std::memcpy(header.get() + offsetof(dlpack::DLManagedTensorVersioned, version), &version,
                sizeof version);
    std::memcpy(header.get() + offsetof(dlpack::DLManagedTensorVersioned, manager_ctx),
                &context_pointer, sizeof context_pointer);
    std::memcpy(header.get() + offsetof(dlpack::DLManagedTensorVersioned, deleter), &deleter,
                sizeof deleter);
    std::memcpy(header.get() + offsetof(dlpack::DLManagedTensorVersioned, flags), &flags,
                sizeof flags);
    facts = facts::read_managed_tensor_versioned(
        reinterpret_cast<const dlpack::DLManagedTensorVersioned*>(header.get()), "fuzz");
    if (facts.body_read) fuzz::broken("body read under an unknown major version", "");
  } else {
    auto managed = std::make_unique<dlpack::DLManagedTensorVersioned>();
    managed->version = version;
    managed->manager_ctx = has_context ? &context : nullptr;
    managed->deleter = has_deleter ? no_op_versioned : nullptr;
    managed->flags = flags;
    managed->dl_tensor = tensor;
    facts = facts::read_managed_tensor_versioned(managed.get(), "fuzz");
  }
  dlpack_usm::fuzz::check_tensor(facts);
  return 0;
}
