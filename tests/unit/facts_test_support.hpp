// Helpers for the facts and capsule tests: field-by-field comparison of
// Facts (naming what differs, so a failing round trip says where), and
// memory with a PROT_NONE guard page to prove a reader stops where it must.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "facts/tensor_facts.hpp"

namespace dlpack_usm::facts::testing {

// The fields that differ between `a` and `b`; origin (provenance, not a
// tensor field) is left out.
inline std::vector<std::string> differences(const TensorFacts& a, const TensorFacts& b) {
  std::vector<std::string> out;
  auto check = [&out](bool same, const char* field) {
    if (!same) out.emplace_back(field);
  };
  check(a.abi == b.abi, "abi");
  check(a.version.major == b.version.major && a.version.minor == b.version.minor, "version");
  check(a.flags == b.flags, "flags");
  check(a.has_deleter == b.has_deleter, "has_deleter");
  check(a.has_manager_ctx == b.has_manager_ctx, "has_manager_ctx");
  check(a.body_read == b.body_read, "body_read");
  check(a.data == b.data, "data");
  check(a.device_type == b.device_type, "device_type");
  check(a.device_id == b.device_id, "device_id");
  check(a.ndim == b.ndim, "ndim");
  check(a.dtype.code == b.dtype.code && a.dtype.bits == b.dtype.bits &&
            a.dtype.lanes == b.dtype.lanes,
        "dtype");
  check(a.shape == b.shape, "shape");
  check(a.strides == b.strides, "strides");
  check(a.byte_offset == b.byte_offset, "byte_offset");
  check(a.runtime.has_value() == b.runtime.has_value(), "runtime");
  if (a.runtime && b.runtime) {
    const RuntimeFacts& x = *a.runtime;
    const RuntimeFacts& y = *b.runtime;
    check(x.usm_kind == y.usm_kind, "runtime.usm_kind");
    check(x.owner_root_index == y.owner_root_index, "runtime.owner_root_index");
    check(x.owner_sub_device_index == y.owner_sub_device_index, "runtime.owner_sub_device_index");
    check(x.owner_device_name == y.owner_device_name, "runtime.owner_device_name");
    check(x.root_device_count == y.root_device_count, "runtime.root_device_count");
    check(x.default_context == y.default_context, "runtime.default_context");
    check(x.alloc_base == y.alloc_base, "runtime.alloc_base");
    check(x.alloc_size == y.alloc_size, "runtime.alloc_size");
  }
  check(a.reader_notes == b.reader_notes, "reader_notes");
  return out;
}

// Two pages: the first readable and writable, the second PROT_NONE. An
// object placed to end exactly at the boundary cannot be read past its end
// without the process dying of SIGSEGV.
class GuardedPage {
 public:
  GuardedPage() : page_(static_cast<std::size_t>(sysconf(_SC_PAGESIZE))) {
    void* region =
        mmap(nullptr, 2 * page_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (region == MAP_FAILED) throw std::runtime_error("mmap failed");
    base_ = static_cast<char*>(region);
    if (mprotect(base_ + page_, page_, PROT_NONE) != 0) {
      munmap(base_, 2 * page_);
      throw std::runtime_error("mprotect failed");
    }
  }
  ~GuardedPage() { munmap(base_, 2 * page_); }
  GuardedPage(const GuardedPage&) = delete;
  GuardedPage& operator=(const GuardedPage&) = delete;

  // The last `bytes` readable bytes, directly followed by the guard page.
  void* last_bytes(std::size_t bytes) const { return base_ + page_ - bytes; }
  // The first byte of the guard page: any read there kills the process.
  void* guard() const { return base_ + page_; }
  std::size_t page_size() const { return page_; }

 private:
  std::size_t page_;
  char* base_ = nullptr;
};

}  // namespace dlpack_usm::facts::testing
