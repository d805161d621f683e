// The one small interface the rest of the tool sees of a device runtime:
// enumerate devices, hand out each platform's default context, allocate and
// free USM of a kind, and say what a pointer is. Two implement it: SYCL
// through dpctl's C interface (runtime/sycl/), the truth for kDLOneAPI, and
// OpenCL (runtime/opencl/), the fallback; --runtime chooses
// (selection.hpp) and nothing above this line knows which.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "facts/tensor_facts.hpp"
#include "runtime/device_model.hpp"

namespace dlpack_usm::runtime {

// A context of the runtime: the default one of a platform (SYCL's default
// platform context, or its OpenCL counterpart) or a separate one the tool
// made for negative cases. `handle` is the native object: a cl_context, or
// dpctl's DPCTLSyclContextRef (a sycl::context*).
struct ContextRef {
  void* handle = nullptr;
  std::int32_t platform_index = 0;
  bool is_platform_default = false;
};

enum class ContextChoice { platform_default, separate };

// The native objects behind a device, for libraries loaded into the process
// (plugins under test) that allocate with the runtime's own API.
struct NativeHandles {
  void* platform = nullptr;  // cl_platform_id
  void* device = nullptr;    // cl_device_id
};

// The SYCL objects behind a device, as dpctl's opaque references
// (sycl::device* and sycl::context*), for plugins written in SYCL. Both null
// on a runtime that is not SYCL.
struct SyclHandles {
  void* device = nullptr;
  void* default_context = nullptr;  // of the device's platform
};

// What the runtime says about a pointer within one context.
struct PointerInfo {
  facts::UsmKind kind = facts::UsmKind::unknown;
  std::optional<DeviceRef> owner;  // none for host allocations and unknown pointers
  // The allocation's bounds; size 0 where the runtime cannot say (SYCL has
  // no such query: it knows the bounds of the tool's own allocations only).
  std::uint64_t base = 0;
  std::uint64_t size = 0;
};

// Whether `caps` allow allocations of `kind` (host, device, single-device
// shared); never for unknown.
bool usm_kind_supported(const UsmCapabilities& caps, facts::UsmKind kind);

class Runtime;

// A queue of the tool's own standing for a consumer's (plugin ABI 4's
// DlpackUsmProduceRequest::consumer_queue): a cl_command_queue, or dpctl's
// DPCTLSyclQueueRef on SYCL. Released when destroyed.
class ConsumerQueue {
 public:
  ConsumerQueue() = default;
  ConsumerQueue(Runtime* runtime, void* handle, ContextRef context, bool out_of_order)
      : runtime_(runtime), handle_(handle), context_(context), out_of_order_(out_of_order) {}
  ConsumerQueue(ConsumerQueue&& other) noexcept { *this = std::move(other); }
  ConsumerQueue& operator=(ConsumerQueue&& other) noexcept;
  ConsumerQueue(const ConsumerQueue&) = delete;
  ConsumerQueue& operator=(const ConsumerQueue&) = delete;
  ~ConsumerQueue() { reset(); }

  void reset() noexcept;
  void* handle() const { return handle_; }
  const ContextRef& context() const { return context_; }
  // Whether commands on it may run in any order: then only a dependency the
  // library put on the queue orders the tool's reads after its work.
  bool out_of_order() const { return out_of_order_; }

 private:
  Runtime* runtime_ = nullptr;
  void* handle_ = nullptr;
  ContextRef context_;
  bool out_of_order_ = false;
};

// Which consumer's queue make_consumer_queue makes: out of order where the
// device supports it (only a dependency the producer put on the queue then
// orders the reads after its work), or in order.
enum class QueueOrder { out_of_order_where_supported, in_order };

// The control of the stream case (DLP-RUNTIME-QUEUE-ORDER): a write of the
// tool's own still in flight, started by Runtime::start_late_write.
// Destroying it waits for the write and frees the queue and the scratch
// memory it used.
class LateWrite {
 public:
  virtual ~LateWrite() = default;
};

// What the tool does after enqueuing its late write: what the protocol asks
// of a producer (a barrier on the consumer's queue that waits for the
// write), or nothing, the bug the control must be able to see.
enum class LateWriteOrder { barrier_on_consumer_queue, none };

// The calls a round trip makes of the runtime, which reports name by the
// runtime's own names: each runtime says what it calls.
enum class RuntimeCall { allocate, copy };

// Owns one USM allocation and frees it (blocking) when destroyed.
class UsmBuffer {
 public:
  UsmBuffer() = default;
  UsmBuffer(Runtime* runtime, void* data, std::size_t bytes, facts::UsmKind kind, DeviceRef device,
            ContextRef context)
      : runtime_(runtime),
        data_(data),
        bytes_(bytes),
        kind_(kind),
        device_(device),
        context_(context) {}
  UsmBuffer(UsmBuffer&& other) noexcept { *this = std::move(other); }
  UsmBuffer& operator=(UsmBuffer&& other) noexcept;
  UsmBuffer(const UsmBuffer&) = delete;
  UsmBuffer& operator=(const UsmBuffer&) = delete;
  ~UsmBuffer() { reset(); }

  void reset() noexcept;
  void* data() const { return data_; }
  std::size_t size() const { return bytes_; }
  facts::UsmKind kind() const { return kind_; }
  const DeviceRef& device() const { return device_; }
  const ContextRef& context() const { return context_; }
  explicit operator bool() const { return data_ != nullptr; }

 private:
  Runtime* runtime_ = nullptr;
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
  facts::UsmKind kind_ = facts::UsmKind::unknown;
  DeviceRef device_;
  ContextRef context_;
};

class Runtime {
 public:
  virtual ~Runtime() = default;

  virtual const Inventory& inventory() const = 0;
  // The root devices alone, where the runtime can tell how many sub-devices
  // each has without making them (DeviceInfo::counted_sub_devices): what
  // list-devices' summary shows. Making sub-devices starts a driver's
  // partition machinery, which costs more than listing devices does.
  virtual const Inventory& root_inventory() const { return inventory(); }

  // The platform's default context, created on first use and shared by
  // everything in the process. Throws Error(environment) if it cannot be made.
  virtual ContextRef default_context(std::int32_t platform_index) = 0;

  // Whether the platform's default context can hold `device`'s allocations.
  // Always for a root device; for a sub-device the runtime decides (SYCL's
  // OpenCL backend says no, Level Zero yes; the OpenCL runtime builds its
  // default contexts with the sub-devices in them).
  virtual bool default_context_holds(const DeviceRef& device) {
    (void)device;
    return true;
  }

  // Allocates `bytes` (at least 1) of `kind` for `device`. Throws
  // Error(environment) when the device has no USM, lacks that kind, or the
  // allocation fails. Host allocations belong to no device; `device` then
  // only picks the platform.
  virtual UsmBuffer allocate(const DeviceRef& device, facts::UsmKind kind, std::size_t bytes,
                             ContextChoice context) = 0;

  // Asks `context` what `ptr` is (clGetMemAllocInfoINTEL): unknown when the
  // context does not know it.
  virtual PointerInfo query(const void* ptr, const ContextRef& context) = 0;

  // Copies through a queue of `device` in `context` and waits for it: the
  // device, not the host, moves the bytes.
  virtual void copy(const ContextRef& context, const DeviceRef& device, void* destination,
                    const void* source, std::size_t bytes) = 0;

  // A new queue of `device` in `context` for a consumer's reads: out of
  // order where the device supports it. Throws Error(environment) when the
  // runtime refuses one.
  virtual ConsumerQueue make_consumer_queue(const ContextRef& context, const DeviceRef& device,
                                            QueueOrder order) = 0;

  // What a correct producer with work in flight does, done by the tool: on
  // an in-order queue of its own on `device` in `queue`'s context it
  // enqueues slow work (fills of a scratch allocation), then a copy of
  // `bytes` from the host memory `source` into `destination`; with
  // barrier_on_consumer_queue it then makes `queue` wait for that copy.
  // Returns without waiting. Throws Error(environment) where the runtime
  // lacks a call it needs.
  virtual std::unique_ptr<LateWrite> start_late_write(const ConsumerQueue& queue,
                                                      const DeviceRef& device, void* destination,
                                                      const void* source, std::size_t bytes,
                                                      LateWriteOrder order);

  // Enqueues a copy of `bytes` from `source` to the host memory
  // `destination` on `queue` at once, behind nothing but what is already
  // on that queue, and waits for that copy.
  virtual void read_on_queue(const ConsumerQueue& queue, void* destination, const void* source,
                             std::size_t bytes) = 0;

  // The runtime's own name of `call` ("clEnqueueMemcpyINTEL" on OpenCL,
  // "DPCTLQueue_Memcpy (sycl::queue::memcpy)" on SYCL); `kind` picks the
  // allocation call and is ignored by the others.
  virtual std::string call_name(RuntimeCall call, facts::UsmKind kind) const = 0;

  // Both null for a device the runtime does not know.
  virtual NativeHandles native_handles(const DeviceRef& device) const = 0;
  virtual SyclHandles sycl_handles(const DeviceRef& device) {
    (void)device;
    return {};
  }

 protected:
  friend class UsmBuffer;
  friend class ConsumerQueue;
  virtual void release(void* data, const ContextRef& context) noexcept = 0;
  virtual void release_queue(void* queue) noexcept = 0;
};

// The process-wide OpenCL runtime: enumerates once (honouring
// ONEAPI_DEVICE_SELECTOR) and never throws; problems land in
// inventory().problems.
Runtime& opencl_runtime();

// The process-wide SYCL runtime, or nullptr with `why` filled when dpctl's
// C interface cannot be found or loaded (see runtime/sycl/dpctl_location.hpp).
Runtime* sycl_runtime_or_null(std::string* why);

// The function `name` of the dpctl C interface the SYCL runtime loaded, for
// libraries that must use that very SYCL (plugins); nullptr when the
// interface is not loaded or has no such function.
void* dpctl_symbol(const char* name);

}  // namespace dlpack_usm::runtime
