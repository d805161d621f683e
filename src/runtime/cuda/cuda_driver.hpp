// What the CUDA driver of this process says: its devices, numbered as
// kDLCUDA device ids number them (CUDA_VISIBLE_DEVICES applied), and what a
// pointer is. The facts of kDLCUDA, kDLCUDAHost and kDLCUDAManaged tensors,
// as runtime/sycl and runtime/opencl give those of kDLOneAPI. No USM and no
// exchange here: the tool only asks about memory that producers made.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/contained_call.hpp"
#include "facts/tensor_facts.hpp"

namespace dlpack_usm::runtime::cuda {

struct CudaDevice {
  std::int32_t ordinal = 0;  // the kDLCUDA device_id of this device in this process
  std::string name;
  std::string pci_bus_id;  // "0000:19:00.0": which physical GPU the ordinal is
  std::uint64_t total_memory = 0;
  int compute_capability_major = 0;
  int compute_capability_minor = 0;
  bool unified_addressing = false;
  bool managed_memory = false;
  bool concurrent_managed_access = false;
};

struct CudaInventory {
  std::string library;  // the driver library opened (or tried)
  bool driver_loaded = false;
  // Why the list is empty: no driver, cuInit failed, no device. Not an
  // error of the tool: most machines that check kDLOneAPI have no CUDA.
  std::optional<std::string> problem;
  int driver_version = 0;                      // cuDriverGetVersion: 12080 is CUDA 12.8
  std::optional<std::string> visible_devices;  // CUDA_VISIBLE_DEVICES when set
  std::vector<CudaDevice> devices;
};

// Enumerates once per call; never throws.
CudaInventory cuda_inventory();

// cuda_inventory in two steps: the constructor starts the driver's probe (a
// child process that loads it and calls cuInit), finish() collects it and
// enumerates. list-devices starts it before a runtime loads its drivers,
// so the child runs meanwhile, off the path of the listing. Where the
// driver library is surely absent (common/library_search.hpp) there is no
// child: loading it here then fails before any of its code could run.
class PendingCudaInventory {
 public:
  PendingCudaInventory();
  CudaInventory finish();

 private:
  std::optional<ContainedCall> probe_;
};

// The memory type a pointer has, from CU_POINTER_ATTRIBUTE_MEMORY_TYPE and
// CU_POINTER_ATTRIBUTE_IS_MANAGED (managed memory reports the device type).
facts::CudaMemoryType classify_memory(unsigned memory_type, bool is_managed);

// What the driver says about `address`: memory type, owning ordinal, the
// allocation's bounds, the device count and CUDA_VISIBLE_DEVICES. A pointer
// the driver does not know is "unregistered". Throws Error(environment)
// when the driver is absent or cannot be initialised.
facts::RuntimeFacts cuda_pointer_facts(std::uint64_t address);

// A stream of device `ordinal`'s primary context (the context torch, cupy
// and jax use), as a consumer passes one to __dlpack__(stream=...):
// non-blocking, so that nothing but what is put on it (a producer's wait
// for its own work) orders its commands. The primary context stays retained
// while the stream lives. Throws Error(environment) or Error(usage) for an
// ordinal out of range.
class CudaStream {
 public:
  explicit CudaStream(std::int32_t ordinal);
  CudaStream(const CudaStream&) = delete;
  CudaStream& operator=(const CudaStream&) = delete;
  ~CudaStream();

  // The CUstream as an integer, the form __dlpack__ takes.
  std::uint64_t handle() const;
  std::int32_t ordinal() const { return ordinal_; }
  // Destroys the stream now; reports a failure as the destructor cannot.
  void destroy();

 private:
  std::int32_t ordinal_;
  int device_ = 0;
  void* context_ = nullptr;
  void* stream_ = nullptr;
};

// The stream values of __dlpack__ for CUDA that name no CUstream: the
// legacy default stream and the per-thread default stream, which the driver
// API takes as these handles (CU_STREAM_LEGACY, CU_STREAM_PER_THREAD).
inline constexpr std::uint64_t kLegacyDefaultStream = 1;
inline constexpr std::uint64_t kPerThreadDefaultStream = 2;

// Copies `bytes` at the device or managed address `source` to the host
// memory `destination` by a copy on `stream` of device `ordinal`'s primary
// context (a CUstream, or kLegacyDefaultStream, kPerThreadDefaultStream),
// and waits for that stream: what a consumer working on the stream reads.
// Throws Error(environment) when the driver refuses.
void read_on_stream(std::int32_t ordinal, std::uint64_t stream, std::uint64_t source,
                    void* destination, std::size_t bytes);

// Waits until device `ordinal`'s primary context is idle: the work of every
// stream of every library of the process that uses it.
void synchronize_device(std::int32_t ordinal);

// The ordinal of the device whose context `stream` (a CUstream) belongs to.
std::int32_t stream_device(std::uint64_t stream);

}  // namespace dlpack_usm::runtime::cuda
