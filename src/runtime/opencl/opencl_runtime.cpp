// The OpenCL implementation of the runtime interface: default contexts, USM
// allocation through cl_intel_unified_shared_memory, pointer queries.
#include <map>
#include <mutex>
#include <vector>

#include <fmt/format.h>

#include "common/error.hpp"
#include "runtime/opencl/late_write.hpp"
#include "runtime/opencl/topology.hpp"
#include "runtime/runtime.hpp"

namespace dlpack_usm::runtime::opencl {
namespace {

facts::UsmKind from_cl_usm_type(cl_unified_shared_memory_type_intel type) {
  switch (type) {
    case CL_MEM_TYPE_HOST_INTEL:
      return facts::UsmKind::host;
    case CL_MEM_TYPE_DEVICE_INTEL:
      return facts::UsmKind::device;
    case CL_MEM_TYPE_SHARED_INTEL:
      return facts::UsmKind::shared;
    default:
      return facts::UsmKind::unknown;
  }
}

// Fails unless `device` is one of this runtime's (`info` and `handle` are
// what the inventory and the topology found for it) and can allocate USM
// of `kind`.
void require_usm_kind(const DeviceInfo* info, cl_device_id handle, const DeviceRef& device,
                      facts::UsmKind kind) {
  if (info == nullptr || handle == nullptr) {
    fail_environment(
        fmt::format("no device with root index {}{}", device.root_index,
                    device.sub_index ? fmt::format(" and sub-device {}", *device.sub_index) : ""),
        "run 'dlpack-usm list-devices' to see the devices");
  }
  if (!info->usm) {
    fail_environment(fmt::format("{} ({}) has no cl_intel_unified_shared_memory",
                                 info->selector_name, info->name),
                     "use a device whose list-devices entry shows USM capabilities");
  }
  if (!usm_kind_supported(*info->usm, kind)) {
    fail_environment(fmt::format("{} ({}) cannot allocate {} USM", info->selector_name, info->name,
                                 facts::to_string(kind)));
  }
}

// The cl_intel_unified_shared_memory call for `kind`: NULL, with `status`
// saying why, when it fails.
void* usm_alloc(const UsmEntryPoints& usm, cl_context context, cl_device_id device,
                facts::UsmKind kind, std::size_t bytes, cl_int& status) {
  switch (kind) {
    case facts::UsmKind::host:
      return usm.host_alloc(context, nullptr, bytes, 0, &status);
    case facts::UsmKind::device:
      return usm.device_alloc(context, device, nullptr, bytes, 0, &status);
    case facts::UsmKind::shared:
      return usm.shared_alloc(context, device, nullptr, bytes, 0, &status);
    case facts::UsmKind::unknown:
      break;
  }
  fail_usage("cannot allocate USM of kind 'unknown'");
}

class OpenClRuntime final : public Runtime {
 public:
  ~OpenClRuntime() override;

  const Inventory& inventory() const override { return topology_.inventory(); }
  const Inventory& root_inventory() const override { return topology_.root_inventory(); }
  ContextRef default_context(std::int32_t platform_index) override;
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

 protected:
  void release(void* data, const ContextRef& context) noexcept override;
  void release_queue(void* queue) noexcept override;

 private:
  const PlatformHandles& platform(std::int32_t platform_index) const;
  ContextRef make_context(std::int32_t platform_index, bool is_default);
  ContextRef allocation_context(std::int32_t platform_index, ContextChoice choice);
  cl_command_queue queue_for(const ContextRef& context, const DeviceRef& device);

  Topology topology_;
  std::mutex mutex_;
  std::map<std::int32_t, ContextRef> default_contexts_;
  std::map<std::int32_t, ContextRef> separate_contexts_;
  std::map<std::pair<void*, cl_device_id>, cl_command_queue> queues_;
};

OpenClRuntime::~OpenClRuntime() {
  const LoaderApi* cl = topology_.api();
  if (cl == nullptr) return;
  for (auto& [key, queue] : queues_) cl->clReleaseCommandQueue(queue);
  for (auto& [index, context] : separate_contexts_) {
    cl->clReleaseContext(static_cast<cl_context>(context.handle));
  }
  for (auto& [index, context] : default_contexts_) {
    cl->clReleaseContext(static_cast<cl_context>(context.handle));
  }
}

const PlatformHandles& OpenClRuntime::platform(std::int32_t platform_index) const {
  const auto& platforms = topology_.platforms();
  if (platform_index < 0 || static_cast<std::size_t>(platform_index) >= platforms.size()) {
    fail_environment(fmt::format("there is no OpenCL platform {}", platform_index),
                     "run 'dlpack-usm list-devices' to see the platforms");
  }
  return platforms[static_cast<std::size_t>(platform_index)];
}

ContextRef OpenClRuntime::make_context(std::int32_t platform_index, bool is_default) {
  const PlatformHandles& handles = platform(platform_index);
  if (handles.root_devices.empty()) {
    fail_environment(fmt::format("OpenCL platform {} has no visible device", platform_index));
  }
  // OpenCL, unlike Level Zero, does not let a context of root devices serve
  // their sub-devices, so the context names both: a sub-device allocation can
  // then live in the platform's default context, as the seed protocol needs.
  std::vector<cl_device_id> members = handles.root_devices;
  for (const RootHandles& root : topology_.roots()) {
    if (root.platform_index != platform_index) continue;
    members.insert(members.end(), root.sub_devices.begin(), root.sub_devices.end());
  }
  cl_context_properties properties[] = {
      CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(handles.platform), 0};
  cl_int status = CL_SUCCESS;
  cl_context context = topology_.api()->clCreateContext(
      properties, static_cast<cl_uint>(members.size()), members.data(), nullptr, nullptr, &status);
  if (status != CL_SUCCESS || context == nullptr) {
    fail_environment(fmt::format("clCreateContext failed on OpenCL platform {}: {}", platform_index,
                                 error_name(status)));
  }
  return ContextRef{context, platform_index, is_default};
}

ContextRef OpenClRuntime::default_context(std::int32_t platform_index) {
  std::lock_guard lock(mutex_);
  auto found = default_contexts_.find(platform_index);
  if (found != default_contexts_.end()) return found->second;
  // One context per platform holding all its devices: what SYCL's
  // ext_oneapi_get_default_context() returns, and where the seed protocol
  // requires exported allocations to live.
  ContextRef context = make_context(platform_index, true);
  default_contexts_.emplace(platform_index, context);
  return context;
}

// The platform's default context, or the separate one (made once) where a
// case needs memory the default context does not hold.
ContextRef OpenClRuntime::allocation_context(std::int32_t platform_index, ContextChoice choice) {
  if (choice == ContextChoice::platform_default) return default_context(platform_index);
  std::lock_guard lock(mutex_);
  auto found = separate_contexts_.find(platform_index);
  return found != separate_contexts_.end()
             ? found->second
             : separate_contexts_.emplace(platform_index, make_context(platform_index, false))
                   .first->second;
}

UsmBuffer OpenClRuntime::allocate(const DeviceRef& device, facts::UsmKind kind, std::size_t bytes,
                                  ContextChoice choice) {
  const DeviceInfo* info = inventory().find(device);
  cl_device_id handle = topology_.device_handle(device);
  require_usm_kind(info, handle, device, kind);
  std::int32_t platform_index =
      topology_.roots()[static_cast<std::size_t>(device.root_index)].platform_index;
  ContextRef context = allocation_context(platform_index, choice);

  const UsmEntryPoints& usm = platform(platform_index).usm;
  if (!usm.complete()) {
    fail_environment(
        fmt::format("OpenCL platform {} does not hand out the "
                    "cl_intel_unified_shared_memory entry points",
                    platform_index));
  }
  std::size_t request = bytes == 0 ? 1 : bytes;
  cl_int status = CL_SUCCESS;
  void* data =
      usm_alloc(usm, static_cast<cl_context>(context.handle), handle, kind, request, status);
  if (status != CL_SUCCESS || data == nullptr) {
    fail_environment(fmt::format("allocating {} bytes of {} USM on {} failed: {}", request,
                                 facts::to_string(kind), info->selector_name, error_name(status)));
  }
  return UsmBuffer(this, data, bytes, kind, device, context);
}

PointerInfo OpenClRuntime::query(const void* ptr, const ContextRef& context) {
  PointerInfo result;
  const UsmEntryPoints& usm = platform(context.platform_index).usm;
  if (usm.get_alloc_info == nullptr || ptr == nullptr) return result;
  auto cl_context_handle = static_cast<cl_context>(context.handle);
  cl_unified_shared_memory_type_intel type = CL_MEM_TYPE_UNKNOWN_INTEL;
  if (usm.get_alloc_info(cl_context_handle, ptr, CL_MEM_ALLOC_TYPE_INTEL, sizeof(type), &type,
                         nullptr) != CL_SUCCESS) {
    return result;
  }
  result.kind = from_cl_usm_type(type);
  if (result.kind == facts::UsmKind::unknown) return result;
  void* base = nullptr;
  std::size_t size = 0;
  cl_device_id owner = nullptr;
  usm.get_alloc_info(cl_context_handle, ptr, CL_MEM_ALLOC_BASE_PTR_INTEL, sizeof(base), &base,
                     nullptr);
  usm.get_alloc_info(cl_context_handle, ptr, CL_MEM_ALLOC_SIZE_INTEL, sizeof(size), &size, nullptr);
  usm.get_alloc_info(cl_context_handle, ptr, CL_MEM_ALLOC_DEVICE_INTEL, sizeof(owner), &owner,
                     nullptr);
  result.base = reinterpret_cast<std::uint64_t>(base);
  result.size = size;
  if (owner != nullptr) result.owner = topology_.find_ref(owner);
  return result;
}

cl_command_queue OpenClRuntime::queue_for(const ContextRef& context, const DeviceRef& device) {
  cl_device_id handle = topology_.device_handle(device);
  if (handle == nullptr) fail_environment("no such device for a command queue");
  std::lock_guard lock(mutex_);
  auto key = std::make_pair(context.handle, handle);
  if (auto found = queues_.find(key); found != queues_.end()) return found->second;
  cl_int status = CL_SUCCESS;
  cl_command_queue queue = topology_.api()->clCreateCommandQueueWithProperties(
      static_cast<cl_context>(context.handle), handle, nullptr, &status);
  if (status != CL_SUCCESS || queue == nullptr) {
    fail_environment(
        fmt::format("clCreateCommandQueueWithProperties failed: {}", error_name(status)));
  }
  queues_.emplace(key, queue);
  return queue;
}

void OpenClRuntime::copy(const ContextRef& context, const DeviceRef& device, void* destination,
                         const void* source, std::size_t bytes) {
  if (bytes == 0) return;
  const UsmEntryPoints& usm = platform(context.platform_index).usm;
  cl_int status = usm.enqueue_memcpy(queue_for(context, device), CL_TRUE, destination, source,
                                     bytes, 0, nullptr, nullptr);
  if (status != CL_SUCCESS) {
    fail_environment(
        fmt::format("clEnqueueMemcpyINTEL of {} bytes failed: {}", bytes, error_name(status)));
  }
}

ConsumerQueue OpenClRuntime::make_consumer_queue(const ContextRef& context, const DeviceRef& device,
                                                 QueueOrder order) {
  cl_device_id handle = topology_.device_handle(device);
  if (handle == nullptr) fail_environment("no such device for a command queue");
  const LoaderApi* cl = topology_.api();
  cl_command_queue_properties supported = 0;
  if (cl->clGetDeviceInfo(handle, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof supported, &supported,
                          nullptr) != CL_SUCCESS) {
    supported = 0;
  }
  bool out_of_order = order == QueueOrder::out_of_order_where_supported &&
                      (supported & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0;
  cl_queue_properties properties[] = {
      CL_QUEUE_PROPERTIES,
      out_of_order ? static_cast<cl_queue_properties>(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) : 0,
      0};
  cl_int status = CL_SUCCESS;
  cl_command_queue queue = cl->clCreateCommandQueueWithProperties(
      static_cast<cl_context>(context.handle), handle, properties, &status);
  if (status != CL_SUCCESS || queue == nullptr) {
    fail_environment(
        fmt::format("clCreateCommandQueueWithProperties for a consumer's queue "
                    "failed: {}",
                    error_name(status)));
  }
  return ConsumerQueue(this, queue, context, out_of_order);
}

std::unique_ptr<LateWrite> OpenClRuntime::start_late_write(const ConsumerQueue& queue,
                                                           const DeviceRef& device,
                                                           void* destination, const void* source,
                                                           std::size_t bytes,
                                                           LateWriteOrder order) {
  cl_device_id handle = topology_.device_handle(device);
  if (handle == nullptr) fail_environment("no such device for the stream case's control");
  LateWriteTarget target{static_cast<cl_command_queue>(queue.handle()),
                         static_cast<cl_context>(queue.context().handle), handle};
  return start_opencl_late_write(*topology_.api(), platform(queue.context().platform_index).usm,
                                 target, destination, source, bytes, order);
}

void OpenClRuntime::read_on_queue(const ConsumerQueue& queue, void* destination, const void* source,
                                  std::size_t bytes) {
  if (bytes == 0) return;
  const LoaderApi* cl = topology_.api();
  const UsmEntryPoints& usm = platform(queue.context().platform_index).usm;
  cl_event done = nullptr;
  cl_int status = usm.enqueue_memcpy(static_cast<cl_command_queue>(queue.handle()), CL_FALSE,
                                     destination, source, bytes, 0, nullptr, &done);
  if (status == CL_SUCCESS) {
    status = cl->clWaitForEvents(1, &done);
    cl->clReleaseEvent(done);
  }
  if (status != CL_SUCCESS) {
    fail_environment(
        fmt::format("clEnqueueMemcpyINTEL of {} bytes on the consumer's queue "
                    "failed: {}",
                    bytes, error_name(status)));
  }
}

// The entry points of cl_intel_unified_shared_memory the runtime calls.
std::string OpenClRuntime::call_name(RuntimeCall call, facts::UsmKind kind) const {
  if (call == RuntimeCall::copy) return "clEnqueueMemcpyINTEL";
  switch (kind) {
    case facts::UsmKind::host:
      return "clHostMemAllocINTEL";
    case facts::UsmKind::shared:
      return "clSharedMemAllocINTEL";
    default:
      return "clDeviceMemAllocINTEL";
  }
}

NativeHandles OpenClRuntime::native_handles(const DeviceRef& device) const {
  cl_device_id handle = topology_.device_handle(device);
  if (handle == nullptr) return {};
  std::int32_t platform_index =
      topology_.roots()[static_cast<std::size_t>(device.root_index)].platform_index;
  return {platform(platform_index).platform, handle};
}

void OpenClRuntime::release(void* data, const ContextRef& context) noexcept {
  const auto& platforms = topology_.platforms();
  if (context.platform_index < 0 ||
      static_cast<std::size_t>(context.platform_index) >= platforms.size()) {
    return;
  }
  const UsmEntryPoints& usm = platforms[static_cast<std::size_t>(context.platform_index)].usm;
  if (usm.blocking_free != nullptr)
    usm.blocking_free(static_cast<cl_context>(context.handle), data);
}

void OpenClRuntime::release_queue(void* queue) noexcept {
  const LoaderApi* cl = topology_.api();
  auto handle = static_cast<cl_command_queue>(queue);
  // Whatever the library left on it finishes before the queue goes.
  cl->clFinish(handle);
  cl->clReleaseCommandQueue(handle);
}

}  // namespace

}  // namespace dlpack_usm::runtime::opencl

namespace dlpack_usm::runtime {

Runtime& opencl_runtime() {
  // Never destroyed: OpenCL drivers tear down their own state from static
  // destructors in an order nobody controls, and releasing contexts after
  // that crashes some of them. The process exit frees everything anyway.
  static auto* runtime = new opencl::OpenClRuntime;
  return *runtime;
}

}  // namespace dlpack_usm::runtime
