// The SYCL implementation of the runtime interface, over dpctl's C
// interface: SYCL's default platform contexts, USM through sycl::malloc_*,
// pointer queries through sycl::get_pointer_type and get_pointer_device.
#include <map>
#include <mutex>

#include <fmt/format.h>

#include "common/error.hpp"
#include "runtime/runtime.hpp"
#include "runtime/sycl/late_write.hpp"
#include "runtime/sycl/sycl_topology.hpp"

namespace dlpack_usm::runtime::sycl {
namespace {

// dpctl reports failures of the calls that take a handler through it; the
// tool turns the NULL result into its own error, so the code is only kept.
thread_local int g_last_sycl_error = 0;
void record_sycl_error(int code) {
  g_last_sycl_error = code;
}

facts::UsmKind from_dpctl_usm_type(int type) {
  switch (type) {
    case kUsmHost:
      return facts::UsmKind::host;
    case kUsmDevice:
      return facts::UsmKind::device;
    case kUsmShared:
      return facts::UsmKind::shared;
    default:
      return facts::UsmKind::unknown;
  }
}

// An allocation the tool made: SYCL has no query for an allocation's bounds,
// so the runtime remembers those of its own.
struct Allocation {
  std::size_t bytes = 0;
  SyclQueueRef queue = nullptr;
  void* context = nullptr;
};

class SyclRuntime final : public Runtime {
 public:
  explicit SyclRuntime(const DpctlLibrary& library)
      : api_(*library.api), topology_(*library.api, library) {}

  const Inventory& inventory() const override { return topology_.inventory(); }
  const Inventory& root_inventory() const override { return topology_.root_inventory(); }
  ContextRef default_context(std::int32_t platform_index) override;
  bool default_context_holds(const DeviceRef& device) override;
  UsmBuffer allocate(const DeviceRef& device, facts::UsmKind kind, std::size_t bytes,
                     ContextChoice context) override;
  PointerInfo query(const void* ptr, const ContextRef& context) override;
  void copy(const ContextRef& context, const DeviceRef& device, void* destination,
            const void* source, std::size_t bytes) override;
  ConsumerQueue make_consumer_queue(const ContextRef& context, const DeviceRef& device,
                                    QueueOrder order) override;
  std::unique_ptr<LateWrite> start_late_write(const ConsumerQueue& queue, const DeviceRef& device,
                                              void* destination, const void* source,
                                              std::size_t bytes, LateWriteOrder order) override;
  void read_on_queue(const ConsumerQueue& queue, void* destination, const void* source,
                     std::size_t bytes) override;
  std::string call_name(RuntimeCall call, facts::UsmKind kind) const override;
  NativeHandles native_handles(const DeviceRef& device) const override;
  SyclHandles sycl_handles(const DeviceRef& device) override;

 protected:
  void release(void* data, const ContextRef& context) noexcept override;
  void release_queue(void* queue) noexcept override;

 private:
  const SyclRoot& root(std::int32_t root_index) const;
  ContextRef separate_context(const DeviceRef& device);
  // NULL where SYCL refuses the pair (a sub-device outside the context).
  SyclQueueRef try_queue(const ContextRef& context, SyclDeviceRef device);
  SyclQueueRef queue_for(const ContextRef& context, const DeviceRef& device);
  SyclDeviceRef own_queue_device(const ContextRef& context, const DeviceRef& device);

  const DpctlApi& api_;
  SyclTopology topology_;
  std::recursive_mutex mutex_;
  std::map<std::int32_t, ContextRef> default_contexts_;
  std::map<std::pair<std::int32_t, std::int32_t>, ContextRef> separate_contexts_;
  std::map<std::pair<void*, SyclDeviceRef>, SyclQueueRef> queues_;
  std::map<std::uintptr_t, Allocation> allocations_;
};

const SyclRoot& SyclRuntime::root(std::int32_t root_index) const {
  const auto& roots = topology_.roots();
  if (root_index < 0 || static_cast<std::size_t>(root_index) >= roots.size()) {
    fail_environment(fmt::format("SYCL lists no root device {}", root_index),
                     "run 'dlpack-usm list-devices --runtime sycl' to see the devices");
  }
  return roots[static_cast<std::size_t>(root_index)];
}

ContextRef SyclRuntime::default_context(std::int32_t platform_index) {
  std::lock_guard lock(mutex_);
  if (auto found = default_contexts_.find(platform_index); found != default_contexts_.end()) {
    return found->second;
  }
  const auto& platforms = topology_.platforms();
  if (platform_index < 0 || static_cast<std::size_t>(platform_index) >= platforms.size()) {
    fail_environment(fmt::format("SYCL has no platform {}", platform_index),
                     "run 'dlpack-usm list-devices --runtime sycl' to see the platforms");
  }
  // sycl::platform::ext_oneapi_get_default_context(): the context the seed
  // protocol requires exports to live in and imports to be looked up in.
  // One reference is kept, so its address identifies the context.
  SyclContextRef context =
      api_.DPCTLPlatform_GetDefaultContext(platforms[static_cast<std::size_t>(platform_index)]);
  if (context == nullptr) {
    fail_environment(fmt::format(
        "SYCL platform {} has no default context (ext_oneapi_default_context)", platform_index));
  }
  ContextRef ref{context, platform_index, true};
  default_contexts_.emplace(platform_index, ref);
  return ref;
}

SyclQueueRef SyclRuntime::try_queue(const ContextRef& context, SyclDeviceRef device) {
  std::lock_guard lock(mutex_);
  auto key = std::make_pair(context.handle, device);
  if (auto found = queues_.find(key); found != queues_.end()) return found->second;
  SyclQueueRef queue = api_.DPCTLQueue_Create(static_cast<SyclContextRef>(context.handle), device,
                                              record_sycl_error, 0);
  queues_.emplace(key, queue);
  return queue;
}

bool SyclRuntime::default_context_holds(const DeviceRef& device) {
  SyclDeviceRef handle = topology_.device_handle(device);
  if (handle == nullptr) return false;
  // SYCL decides: Level Zero lets a sub-device use its root's context, the
  // OpenCL backend does not (DPC++ refuses the queue).
  return try_queue(default_context(root(device.root_index).platform_index), handle) != nullptr;
}

ContextRef SyclRuntime::separate_context(const DeviceRef& device) {
  std::lock_guard lock(mutex_);
  auto key = std::make_pair(device.root_index, device.sub_index.value_or(-1));
  if (auto found = separate_contexts_.find(key); found != separate_contexts_.end()) {
    return found->second;
  }
  // A context of this device alone, as sycl::queue(device) makes one: not
  // the platform's default context.
  SyclContextRef context =
      api_.DPCTLContext_Create(topology_.device_handle(device), record_sycl_error, 0);
  if (context == nullptr) {
    fail_environment(fmt::format("sycl::context creation failed (error {})", g_last_sycl_error));
  }
  ContextRef ref{context, root(device.root_index).platform_index, false};
  separate_contexts_.emplace(key, ref);
  return ref;
}

SyclQueueRef SyclRuntime::queue_for(const ContextRef& context, const DeviceRef& device) {
  SyclDeviceRef handle = topology_.device_handle(device);
  if (handle == nullptr) fail_environment("no such SYCL device for a queue");
  SyclQueueRef queue = try_queue(context, handle);
  if (queue == nullptr) {
    const DeviceInfo* info = inventory().find(device);
    fail_environment(fmt::format(
        "SYCL refuses a queue for {} in that context{}", info ? info->selector_name : "?",
        device.sub_index ? ": on this backend a sub-device is not a member of its "
                           "platform's default context"
                         : ""));
  }
  return queue;
}

UsmBuffer SyclRuntime::allocate(const DeviceRef& device, facts::UsmKind kind, std::size_t bytes,
                                ContextChoice choice) {
  const DeviceInfo* info = inventory().find(device);
  if (info == nullptr || topology_.device_handle(device) == nullptr) {
    fail_environment(
        fmt::format("no SYCL device with root index {}{}", device.root_index,
                    device.sub_index ? fmt::format(" and sub-device {}", *device.sub_index) : ""),
        "run 'dlpack-usm list-devices --runtime sycl' to see the devices");
  }
  if (!info->usm || !usm_kind_supported(*info->usm, kind)) {
    fail_environment(
        fmt::format("{} ({}) cannot allocate {} USM (SYCL's usm_*_allocations aspects)",
                    info->selector_name, info->name, facts::to_string(kind)),
        "use a device whose list-devices entry shows that USM kind");
  }
  ContextRef context = choice == ContextChoice::platform_default
                           ? default_context(root(device.root_index).platform_index)
                           : separate_context(device);
  // Host USM belongs to no device: where the default context does not hold
  // a sub-device, its root's queue allocates it in that context.
  DeviceRef queue_device = device;
  if (kind == facts::UsmKind::host && choice == ContextChoice::platform_default &&
      device.sub_index && !default_context_holds(device)) {
    queue_device = DeviceRef{device.root_index, std::nullopt};
  }
  SyclQueueRef queue = queue_for(context, queue_device);
  std::size_t request = bytes == 0 ? 1 : bytes;
  void* data = nullptr;
  switch (kind) {
    case facts::UsmKind::host:
      data = api_.DPCTLmalloc_host(request, queue);
      break;
    case facts::UsmKind::device:
      data = api_.DPCTLmalloc_device(request, queue);
      break;
    case facts::UsmKind::shared:
      data = api_.DPCTLmalloc_shared(request, queue);
      break;
    case facts::UsmKind::unknown:
      fail_usage("cannot allocate USM of kind 'unknown'");
  }
  if (data == nullptr) {
    fail_environment(fmt::format("sycl::malloc_{} of {} bytes on {} failed", facts::to_string(kind),
                                 request, info->selector_name));
  }
  {
    std::lock_guard lock(mutex_);
    allocations_[reinterpret_cast<std::uintptr_t>(data)] = {request, queue, context.handle};
  }
  return UsmBuffer(this, data, bytes, kind, device, context);
}

PointerInfo SyclRuntime::query(const void* ptr, const ContextRef& context) {
  PointerInfo result;
  if (ptr == nullptr || context.handle == nullptr) return result;
  auto sycl_context = static_cast<SyclContextRef>(context.handle);
  result.kind = from_dpctl_usm_type(api_.DPCTLUSM_GetPointerType(ptr, sycl_context));
  if (result.kind == facts::UsmKind::unknown) return result;
  // Host allocations belong to no device (SYCL names the context's first).
  if (result.kind != facts::UsmKind::host) {
    SyclDeviceRef owner = api_.DPCTLUSM_GetPointerDevice(ptr, sycl_context);
    if (owner != nullptr) {
      result.owner = topology_.find_ref(owner);
      api_.DPCTLDevice_Delete(owner);
    }
  }
  // Bounds are known for the tool's own allocations only (base/size 0
  // otherwise: SYCL cannot say).
  std::lock_guard lock(mutex_);
  auto address = reinterpret_cast<std::uintptr_t>(ptr);
  auto after = allocations_.upper_bound(address);
  if (after != allocations_.begin()) {
    auto containing = std::prev(after);
    if (address < containing->first + containing->second.bytes &&
        containing->second.context == context.handle) {
      result.base = containing->first;
      result.size = containing->second.bytes;
    }
  }
  return result;
}

void SyclRuntime::copy(const ContextRef& context, const DeviceRef& device, void* destination,
                       const void* source, std::size_t bytes) {
  if (bytes == 0) return;
  DeviceRef queue_device = device;
  if (device.sub_index && context.is_platform_default && !default_context_holds(device)) {
    queue_device = DeviceRef{device.root_index, std::nullopt};
  }
  SyclEventRef event =
      api_.DPCTLQueue_Memcpy(queue_for(context, queue_device), destination, source, bytes);
  if (event == nullptr) {
    fail_environment(fmt::format("sycl::queue::memcpy of {} bytes failed", bytes));
  }
  api_.DPCTLEvent_Wait(event);
  api_.DPCTLEvent_Delete(event);
}

// The device of a queue of the tool's own in `context`: a sub-device
// outside the default context is served by its root's queue.
SyclDeviceRef SyclRuntime::own_queue_device(const ContextRef& context, const DeviceRef& device) {
  DeviceRef queue_device = device;
  if (device.sub_index && context.is_platform_default && !default_context_holds(device)) {
    queue_device = DeviceRef{device.root_index, std::nullopt};
  }
  SyclDeviceRef handle = topology_.device_handle(queue_device);
  if (handle == nullptr) fail_environment("no such SYCL device for a queue");
  return handle;
}

ConsumerQueue SyclRuntime::make_consumer_queue(const ContextRef& context, const DeviceRef& device,
                                               QueueOrder order) {
  SyclDeviceRef handle = own_queue_device(context, device);
  // A queue of its own, not the shared one of queue_for: without the
  // in_order property a sycl::queue runs its commands in any order.
  bool in_order = order == QueueOrder::in_order;
  SyclQueueRef queue = api_.DPCTLQueue_Create(static_cast<SyclContextRef>(context.handle), handle,
                                              record_sycl_error, in_order ? kDpctlQueueInOrder : 0);
  if (queue == nullptr) {
    fail_environment(fmt::format("SYCL refuses a consumer's queue in that context (error {})",
                                 g_last_sycl_error));
  }
  return ConsumerQueue(this, queue, context, !in_order);
}

std::unique_ptr<LateWrite> SyclRuntime::start_late_write(const ConsumerQueue& queue,
                                                         const DeviceRef& device, void* destination,
                                                         const void* source, std::size_t bytes,
                                                         LateWriteOrder order) {
  LateWriteTarget target{static_cast<SyclQueueRef>(queue.handle()),
                         static_cast<SyclContextRef>(queue.context().handle),
                         own_queue_device(queue.context(), device)};
  return start_sycl_late_write(api_, target, destination, source, bytes, order);
}

void SyclRuntime::read_on_queue(const ConsumerQueue& queue, void* destination, const void* source,
                                std::size_t bytes) {
  if (bytes == 0) return;
  SyclEventRef event =
      api_.DPCTLQueue_Memcpy(static_cast<SyclQueueRef>(queue.handle()), destination, source, bytes);
  if (event == nullptr) {
    fail_environment(
        fmt::format("sycl::queue::memcpy of {} bytes on the consumer's queue failed", bytes));
  }
  api_.DPCTLEvent_Wait(event);
  api_.DPCTLEvent_Delete(event);
}

// dpctl's C functions the runtime calls, and the SYCL calls they make.
std::string SyclRuntime::call_name(RuntimeCall call, facts::UsmKind kind) const {
  if (call == RuntimeCall::copy) return "DPCTLQueue_Memcpy (sycl::queue::memcpy)";
  switch (kind) {
    case facts::UsmKind::host:
      return "DPCTLmalloc_host (sycl::malloc_host)";
    case facts::UsmKind::shared:
      return "DPCTLmalloc_shared (sycl::malloc_shared)";
    default:
      return "DPCTLmalloc_device (sycl::malloc_device)";
  }
}

NativeHandles SyclRuntime::native_handles(const DeviceRef&) const {
  // SYCL objects are no OpenCL handles; plugins get them as SyclHandles.
  return {};
}

SyclHandles SyclRuntime::sycl_handles(const DeviceRef& device) {
  SyclDeviceRef handle = topology_.device_handle(device);
  if (handle == nullptr) return {};
  return {handle, default_context(root(device.root_index).platform_index).handle};
}

void SyclRuntime::release(void* data, const ContextRef&) noexcept {
  std::lock_guard lock(mutex_);
  auto found = allocations_.find(reinterpret_cast<std::uintptr_t>(data));
  if (found == allocations_.end()) return;
  // sycl::free waits for nothing; the tool's copies have all been waited on.
  api_.DPCTLfree_with_queue(data, found->second.queue);
  allocations_.erase(found);
}

void SyclRuntime::release_queue(void* queue) noexcept {
  // A consumer's queue may still hold a barrier of the stream case's
  // control: drained first, as the tool's own late write's queue is.
  if (api_.DPCTLQueue_Wait != nullptr) api_.DPCTLQueue_Wait(static_cast<SyclQueueRef>(queue));
  api_.DPCTLQueue_Delete(static_cast<SyclQueueRef>(queue));
}

}  // namespace
}  // namespace dlpack_usm::runtime::sycl

namespace dlpack_usm::runtime {

Runtime* sycl_runtime_or_null(std::string* why) {
  // Never destroyed, for the reason opencl_runtime() gives.
  static Runtime* runtime = [why]() -> Runtime* {
    std::optional<sycl::DpctlLibrary> library = sycl::load_dpctl(why);
    if (!library) return nullptr;
    return new sycl::SyclRuntime(*library);
  }();
  if (runtime == nullptr && why != nullptr && why->empty()) sycl::load_dpctl(why);
  return runtime;
}

}  // namespace dlpack_usm::runtime
