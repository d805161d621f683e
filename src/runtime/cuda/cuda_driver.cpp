#include "runtime/cuda/cuda_driver.hpp"

#include <array>
#include <cstdlib>

#include <fmt/format.h>

#include "common/contained_call.hpp"
#include "common/error.hpp"
#include "common/library_search.hpp"
#include "runtime/cuda/driver_api.hpp"

namespace dlpack_usm::runtime::cuda {
namespace {

struct CudaDriverStart {
  const DriverApi* api = nullptr;
  std::string why;
};

// cuInit(0) once per process; the producers in the process have called it
// already, and calling it again is harmless.
const CudaDriverStart& started_cuda_driver() {
  static const CudaDriverStart start = [] {
    CudaDriverStart result;
    const DriverApi* api = load_driver(&result.why);
    if (api == nullptr) return result;
    if (CUresult code = api->cuInit(0); code != kSuccess) {
      result.why = fmt::format("the CUDA driver {} failed to initialise: cuInit returned {}",
                               driver_library_name(), error_name(*api, code));
      return result;
    }
    result.api = api;
    return result;
  }();
  return start;
}

const DriverApi& cuda_driver_or_throw() {
  const CudaDriverStart& start = started_cuda_driver();
  if (start.api == nullptr) {
    fail_environment(start.why,
                     "CUDA facts need an NVIDIA driver (libcuda.so.1); set DLPACK_USM_CUDA_DRIVER "
                     "to the library's path if it is installed elsewhere");
  }
  return *start.api;
}

void check_cuda_call(const DriverApi& api, CUresult code, const char* call) {
  if (code != kSuccess) {
    fail_environment(
        fmt::format("the CUDA driver call {} failed: {}", call, error_name(api, code)));
  }
}

std::optional<std::string> cuda_visible_devices_env() {
  const char* value = std::getenv("CUDA_VISIBLE_DEVICES");
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

int cuda_device_attribute(const DriverApi& api, int attribute, CUdevice device) {
  int value = 0;
  return api.cuDeviceGetAttribute(&value, attribute, device) == kSuccess ? value : 0;
}

CudaDevice describe_cuda_device(const DriverApi& api, std::int32_t ordinal) {
  CudaDevice info;
  info.ordinal = ordinal;
  CUdevice device = 0;
  check_cuda_call(api, api.cuDeviceGet(&device, ordinal), "cuDeviceGet");
  std::array<char, 256> text{};
  if (api.cuDeviceGetName(text.data(), static_cast<int>(text.size() - 1), device) == kSuccess) {
    info.name = text.data();
  }
  text.fill('\0');
  if (api.cuDeviceGetPCIBusId(text.data(), static_cast<int>(text.size() - 1), device) == kSuccess) {
    info.pci_bus_id = text.data();
  }
  std::size_t bytes = 0;
  if (api.cuDeviceTotalMem(&bytes, device) == kSuccess) info.total_memory = bytes;
  info.compute_capability_major =
      cuda_device_attribute(api, kAttributeComputeCapabilityMajor, device);
  info.compute_capability_minor =
      cuda_device_attribute(api, kAttributeComputeCapabilityMinor, device);
  info.unified_addressing = cuda_device_attribute(api, kAttributeUnifiedAddressing, device) != 0;
  info.managed_memory = cuda_device_attribute(api, kAttributeManagedMemory, device) != 0;
  info.concurrent_managed_access =
      cuda_device_attribute(api, kAttributeConcurrentManagedAccess, device) != 0;
  return info;
}

std::int32_t cuda_device_count_of(const DriverApi& api) {
  int count = 0;
  CUresult code = api.cuDeviceGetCount(&count);
  if (code == kErrorNoDevice) return 0;
  check_cuda_call(api, code, "cuDeviceGetCount");
  return count;
}

// More devices than any machine holds (CUDA numbers them with an int): a
// broken driver's count, which would make the listing allocate gigabytes.
constexpr std::int32_t kMostCudaDevices = 1024;
// cuInit on a healthy machine takes well under a second, a few on a busy one.
constexpr std::chrono::seconds kDriverStartDeadline{30};

// The driver started in a child process first (cuInit, cuDeviceGetCount): a
// driver that crashes or hangs there must not take the tool with it.
std::string start_in_child() {
  const DriverApi* api = load_driver(nullptr);
  int count = 0;
  if (api != nullptr && api->cuInit(0) == kSuccess) api->cuDeviceGetCount(&count);
  return std::to_string(count);
}

// Why the driver is not started here, or nullopt, from the probe's answer.
std::optional<std::string> probe_failure(const ContainedAnswer& probe) {
  if (probe.ok()) return std::nullopt;
  return fmt::format(
      "the CUDA driver {} {} while a probe process started it (cuInit, "
      "cuDeviceGetCount); the tool does not start it in its own process",
      driver_library_name(), probe.how);
}

std::string cuda_owner_name(const DriverApi& api, std::int32_t ordinal) {
  try {
    CudaDevice device = describe_cuda_device(api, ordinal);
    return device.pci_bus_id.empty()
               ? fmt::format("cuda:{} {}", ordinal, device.name)
               : fmt::format("cuda:{} {} ({})", ordinal, device.name, device.pci_bus_id);
  } catch (const Error&) {
    // An ordinal the driver reports but cannot describe still names the owner.
    return fmt::format("cuda:{}", ordinal);
  }
}

}  // namespace

CudaInventory cuda_inventory() {
  return PendingCudaInventory().finish();
}

PendingCudaInventory::PendingCudaInventory() {
  if (shared_library_may_be_found(driver_library_name())) {
    probe_.emplace(start_in_child, probe_deadline(kDriverStartDeadline), 64);
  }
}

CudaInventory PendingCudaInventory::finish() {
  CudaInventory inventory;
  inventory.library = driver_library_name();
  inventory.visible_devices = cuda_visible_devices_env();
  if (std::optional<std::string> failed =
          probe_ ? probe_failure(probe_->collect()) : std::nullopt) {
    inventory.problem = *failed;
    return inventory;
  }
  const CudaDriverStart& start = started_cuda_driver();
  inventory.driver_loaded = load_driver(nullptr) != nullptr;
  if (start.api == nullptr) {
    inventory.problem = start.why;
    return inventory;
  }
  const DriverApi& api = *start.api;
  int version = 0;
  if (api.cuDriverGetVersion(&version) == kSuccess) inventory.driver_version = version;
  try {
    std::int32_t count = cuda_device_count_of(api);
    if (count == 0) inventory.problem = "the CUDA driver sees no device";
    if (count > kMostCudaDevices) {
      inventory.problem = fmt::format(
          "the CUDA driver {} reports {} devices, more than the {} a machine can have; none "
          "is listed",
          driver_library_name(), count, kMostCudaDevices);
      return inventory;
    }
    for (std::int32_t ordinal = 0; ordinal < count; ++ordinal) {
      inventory.devices.push_back(describe_cuda_device(api, ordinal));
    }
  } catch (const Error& error) {
    inventory.problem = error.what();
  }
  return inventory;
}

facts::CudaMemoryType classify_memory(unsigned memory_type, bool is_managed) {
  if (is_managed || memory_type == kMemoryUnified) return facts::CudaMemoryType::managed;
  switch (memory_type) {
    case kMemoryDevice:
      return facts::CudaMemoryType::device;
    case kMemoryHost:
      return facts::CudaMemoryType::host;
    case kMemoryArray:
      return facts::CudaMemoryType::array;
    default:
      break;
  }
  return facts::CudaMemoryType::unregistered;
}

facts::RuntimeFacts cuda_pointer_facts(std::uint64_t address) {
  const DriverApi& api = cuda_driver_or_throw();
  facts::RuntimeFacts runtime;
  runtime.cuda_visible_devices = cuda_visible_devices_env();
  runtime.cuda_device_count = cuda_device_count_of(api);

  // cuPointerGetAttributes, unlike cuPointerGetAttribute, answers for any
  // address: a pointer the driver does not know gets memory type 0. Every
  // slot is zeroed and 8 bytes wide, whatever width the attribute writes.
  std::array<unsigned, 5> attributes{kPointerMemoryType, kPointerIsManaged, kPointerDeviceOrdinal,
                                     kPointerRangeStartAddr, kPointerRangeSize};
  std::array<std::uint64_t, 5> values{};
  std::array<void*, 5> slots{};
  for (std::size_t i = 0; i < slots.size(); ++i) slots[i] = &values[i];
  check_cuda_call(api,
                  api.cuPointerGetAttributes(static_cast<unsigned>(attributes.size()),
                                             attributes.data(), slots.data(), address),
                  "cuPointerGetAttributes");
  auto memory_type = static_cast<unsigned>(values[0] & 0xffffffffu);
  bool is_managed = (values[1] & 0xffu) != 0;
  runtime.cuda_memory_type = classify_memory(memory_type, is_managed);
  if (*runtime.cuda_memory_type == facts::CudaMemoryType::unregistered) return runtime;

  auto ordinal = static_cast<std::int32_t>(static_cast<std::uint32_t>(values[2] & 0xffffffffu));
  if (ordinal >= 0) {
    runtime.cuda_ordinal = ordinal;
    runtime.owner_device_name = cuda_owner_name(api, ordinal);
  }
  std::uint64_t base = values[3];
  std::uint64_t size = values[4];
  if (size == 0) {
    CUdeviceptr range_base = 0;
    std::size_t range_size = 0;
    if (api.cuMemGetAddressRange(&range_base, &range_size, address) == kSuccess) {
      base = range_base;
      size = range_size;
    }
  }
  if (size != 0) {
    runtime.alloc_base = base;
    runtime.alloc_size = size;
  }
  return runtime;
}

namespace {

// The device of `ordinal`, which must be one this process sees.
CUdevice visible_cuda_device(const DriverApi& api, std::int32_t ordinal) {
  std::int32_t count = cuda_device_count_of(api);
  if (ordinal < 0 || ordinal >= count) {
    fail_usage(fmt::format("no CUDA device {}: this process sees {} device(s)", ordinal, count),
               "CUDA_VISIBLE_DEVICES decides which devices a process sees and how they are "
               "numbered");
  }
  CUdevice device = 0;
  check_cuda_call(api, api.cuDeviceGet(&device, ordinal), "cuDeviceGet");
  return device;
}

// Runs `work` with device `ordinal`'s primary context current, and reports
// the first failing call named `call`.
template <typename Work>
void in_primary_context(const DriverApi& api, std::int32_t ordinal, const char* call, Work work) {
  CUdevice device = visible_cuda_device(api, ordinal);
  CUcontext context = nullptr;
  check_cuda_call(api, api.cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain");
  CUresult code = api.cuCtxPushCurrent(context);
  if (code == kSuccess) {
    code = work();
    CUcontext popped = nullptr;
    api.cuCtxPopCurrent(&popped);
  }
  api.cuDevicePrimaryCtxRelease(device);
  check_cuda_call(api, code, call);
}

}  // namespace

void read_on_stream(std::int32_t ordinal, std::uint64_t stream, std::uint64_t source,
                    void* destination, std::size_t bytes) {
  const DriverApi& api = cuda_driver_or_throw();
  auto handle = reinterpret_cast<CUstream>(stream);
  in_primary_context(api, ordinal, "cuMemcpyDtoHAsync and cuStreamSynchronize", [&] {
    CUresult code = api.cuMemcpyDtoHAsync(destination, source, bytes, handle);
    return code == kSuccess ? api.cuStreamSynchronize(handle) : code;
  });
}

void synchronize_device(std::int32_t ordinal) {
  const DriverApi& api = cuda_driver_or_throw();
  in_primary_context(api, ordinal, "cuCtxSynchronize", [&] { return api.cuCtxSynchronize(); });
}

std::int32_t stream_device(std::uint64_t stream) {
  const DriverApi& api = cuda_driver_or_throw();
  CUcontext context = nullptr;
  check_cuda_call(api, api.cuStreamGetCtx(reinterpret_cast<CUstream>(stream), &context),
                  "cuStreamGetCtx");
  CUdevice device = 0;
  check_cuda_call(api, api.cuCtxPushCurrent(context), "cuCtxPushCurrent");
  CUresult code = api.cuCtxGetDevice(&device);
  CUcontext popped = nullptr;
  api.cuCtxPopCurrent(&popped);
  check_cuda_call(api, code, "cuCtxGetDevice");
  std::int32_t count = cuda_device_count_of(api);
  for (std::int32_t ordinal = 0; ordinal < count; ++ordinal) {
    CUdevice candidate = 0;
    if (api.cuDeviceGet(&candidate, ordinal) == kSuccess && candidate == device) return ordinal;
  }
  fail_environment(
      fmt::format("the CUDA device of stream {:#x} is none this process sees", stream));
}

CudaStream::CudaStream(std::int32_t ordinal) : ordinal_(ordinal) {
  const DriverApi& api = cuda_driver_or_throw();
  device_ = visible_cuda_device(api, ordinal);
  CUcontext context = nullptr;
  check_cuda_call(api, api.cuDevicePrimaryCtxRetain(&context, device_), "cuDevicePrimaryCtxRetain");
  context_ = context;
  CUstream stream = nullptr;
  CUresult code = api.cuCtxPushCurrent(context);
  if (code == kSuccess) {
    code = api.cuStreamCreate(&stream, kStreamNonBlocking);
    CUcontext popped = nullptr;
    api.cuCtxPopCurrent(&popped);
  }
  if (code != kSuccess) {
    api.cuDevicePrimaryCtxRelease(device_);
    check_cuda_call(api, code, "cuStreamCreate");
  }
  stream_ = stream;
}

CudaStream::~CudaStream() {
  try {
    destroy();
  } catch (const Error&) {
    // A destructor cannot report; destroy() is the call that does.
  }
}

std::uint64_t CudaStream::handle() const {
  return reinterpret_cast<std::uint64_t>(stream_);
}

void CudaStream::destroy() {
  if (context_ == nullptr) return;
  const DriverApi& api = cuda_driver_or_throw();
  CUresult code = api.cuCtxPushCurrent(static_cast<CUcontext>(context_));
  if (code == kSuccess) {
    code = api.cuStreamDestroy(static_cast<CUstream>(stream_));
    CUcontext popped = nullptr;
    api.cuCtxPopCurrent(&popped);
  }
  api.cuDevicePrimaryCtxRelease(device_);
  context_ = nullptr;
  stream_ = nullptr;
  check_cuda_call(api, code, "cuStreamDestroy");
}

}  // namespace dlpack_usm::runtime::cuda
