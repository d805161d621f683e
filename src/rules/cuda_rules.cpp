// CUDA family: what the CUDA driver says about the pointer of a kDLCUDA,
// kDLCUDAHost or kDLCUDAManaged tensor (TensorFacts::runtime, cuda_*):
// the memory type behind each device type, the device a kDLCUDA device_id
// must name, and whether the driver knows the pointer at all. The byte
// extent against the allocation is the addressing family's
// (DLP-EXTENT-OUTSIDE-ALLOCATION), and device_id 0 for pinned and managed
// memory the device family's (DLP-DEVICE-ID-HOST-NONZERO).
#include <fmt/format.h>

#include "rules/rule_definition.hpp"

namespace dlpack_usm::rules {
namespace {

using facts::CudaMemoryType;

bool is_cuda_device_type(std::int32_t device_type) {
  return device_type == dlpack::kDLCUDA || device_type == dlpack::kDLCUDAHost ||
         device_type == dlpack::kDLCUDAManaged;
}

std::string_view cuda_type_name(std::int32_t device_type) {
  const dlpack::DeviceTypeName* known = dlpack::find_device_type(device_type);
  return known != nullptr ? known->name : std::string_view("CUDA");
}

// The driver's facts of a tensor of `device_type` whose memory type is known.
const facts::RuntimeFacts* cuda_facts(const RuleContext& context, std::int32_t device_type) {
  const facts::TensorFacts& tensor = context.tensor;
  if (tensor.device_type != device_type || !tensor.runtime || !tensor.runtime->cuda_memory_type) {
    return nullptr;
  }
  return &*tensor.runtime;
}

// " of cuda:1 NVIDIA H100 (0000:19:00.0)" where the facts name the owner.
std::string cuda_owner_clause(const facts::RuntimeFacts& runtime) {
  if (runtime.owner_device_name) return fmt::format(" of {}", *runtime.owner_device_name);
  if (runtime.cuda_ordinal) return fmt::format(" of CUDA device {}", *runtime.cuda_ordinal);
  return {};
}

// " (cuda:1 NVIDIA H100 (0000:19:00.0))" where the facts name the owner.
std::string cuda_owner_name_clause(const facts::RuntimeFacts& runtime) {
  return runtime.owner_device_name ? fmt::format(" ({})", *runtime.owner_device_name)
                                   : std::string();
}

std::string cuda_visible_clause(const facts::RuntimeFacts& runtime) {
  if (!runtime.cuda_visible_devices) return ", CUDA_VISIBLE_DEVICES unset";
  return fmt::format(", CUDA_VISIBLE_DEVICES={}", *runtime.cuda_visible_devices);
}

void check_cuda_no_runtime(const RuleContext& context, Reporter& report) {
  const facts::TensorFacts& tensor = context.tensor;
  if (!is_cuda_device_type(tensor.device_type) ||
      (tensor.runtime && tensor.runtime->cuda_memory_type)) {
    return;
  }
  report("runtime",
         fmt::format("{} tensor without CUDA runtime facts: memory type, owning device and "
                     "allocation bounds were not checked; check the live tensor (python3 -m "
                     "dlpack_usm check) or record cuda_memory_type and cuda_ordinal in the capsule "
                     "file's \"runtime\" section",
                     cuda_type_name(tensor.device_type)));
}

void check_cuda_pointer_unknown(const RuleContext& context, Reporter& report) {
  const facts::TensorFacts& tensor = context.tensor;
  if (!is_cuda_device_type(tensor.device_type)) return;
  const facts::RuntimeFacts* runtime = cuda_facts(context, tensor.device_type);
  // NULL data is the addressing family's (DLP-DATA-NULL), or right for size 0.
  if (runtime == nullptr || *runtime->cuda_memory_type != CudaMemoryType::unregistered ||
      tensor.data == 0) {
    return;
  }
  report("runtime.cuda_memory_type",
         fmt::format("data {:#x} is no memory the CUDA driver knows (not from cudaMalloc, "
                     "cudaMallocHost, cudaMallocManaged or cudaHostRegister): a consumer that "
                     "trusts {} hands it to CUDA and fails or faults. Export CUDA memory, or "
                     "label pageable host memory kDLCPU",
                     tensor.data, cuda_type_name(tensor.device_type)));
}

void check_cuda_device_id_range(const RuleContext& context, Reporter& report) {
  const facts::TensorFacts& tensor = context.tensor;
  if (tensor.device_type != dlpack::kDLCUDA || !tensor.runtime ||
      !tensor.runtime->cuda_device_count || tensor.device_id < 0 ||
      tensor.device_id < *tensor.runtime->cuda_device_count) {
    return;
  }
  const facts::RuntimeFacts& runtime = *tensor.runtime;
  report("dl_tensor.device.device_id",
         fmt::format("device_id is {} but the process sees {} CUDA device(s){}; kDLCUDA device "
                     "ids are the ordinals of the process that exports, after "
                     "CUDA_VISIBLE_DEVICES, not physical GPU numbers; export the ordinal of the "
                     "device that owns the memory{}",
                     tensor.device_id, *runtime.cuda_device_count, cuda_visible_clause(runtime),
                     runtime.cuda_ordinal ? fmt::format(", {}", *runtime.cuda_ordinal) : ""));
}

void check_cuda_device_id_owner(const RuleContext& context, Reporter& report) {
  const facts::TensorFacts& tensor = context.tensor;
  const facts::RuntimeFacts* runtime = cuda_facts(context, dlpack::kDLCUDA);
  if (runtime == nullptr || *runtime->cuda_memory_type != CudaMemoryType::device ||
      !runtime->cuda_ordinal || tensor.device_id < 0 ||
      (runtime->cuda_device_count && tensor.device_id >= *runtime->cuda_device_count) ||
      tensor.device_id == *runtime->cuda_ordinal) {
    return;
  }
  report("dl_tensor.device.device_id",
         fmt::format("device_id is {} but the memory belongs to CUDA device {}{}{}; a consumer "
                     "makes device {} current and works on memory of another GPU (peer access "
                     "at best, an illegal address at worst); export the owning ordinal {}",
                     tensor.device_id, *runtime->cuda_ordinal, cuda_owner_name_clause(*runtime),
                     cuda_visible_clause(*runtime), tensor.device_id, *runtime->cuda_ordinal));
}

// What the driver says the memory is, in words for messages.
const char* cuda_memory_words(CudaMemoryType type) {
  switch (type) {
    case CudaMemoryType::device:
      return "device memory (cudaMalloc)";
    case CudaMemoryType::host:
      return "page-locked host memory (cudaMallocHost or cudaHostRegister)";
    case CudaMemoryType::managed:
      return "managed memory (cudaMallocManaged)";
    case CudaMemoryType::array:
      return "a CUDA array, which has no linear address";
    case CudaMemoryType::unregistered:
      break;
  }
  return "memory the driver does not know";
}

// The device type (and device_id) that memory of `type` is exported with.
std::string cuda_right_label(CudaMemoryType type, const facts::RuntimeFacts& runtime) {
  switch (type) {
    case CudaMemoryType::device:
      return runtime.cuda_ordinal ? fmt::format("kDLCUDA with device_id {}", *runtime.cuda_ordinal)
                                  : std::string("kDLCUDA with the owning ordinal");
    case CudaMemoryType::host:
      return "kDLCUDAHost with device_id 0";
    case CudaMemoryType::managed:
      return "kDLCUDAManaged with device_id 0";
    default:
      break;
  }
  return "a device type that fits it";
}

// Reports memory of another type than `expected` behind a `device_type`
// tensor; unregistered pointers are DLP-CUDA-POINTER-UNKNOWN's.
void check_cuda_memory_type(const RuleContext& context, Reporter& report, std::int32_t device_type,
                            CudaMemoryType expected, std::string_view consequence) {
  const facts::RuntimeFacts* runtime = cuda_facts(context, device_type);
  if (runtime == nullptr) return;
  CudaMemoryType actual = *runtime->cuda_memory_type;
  if (actual == expected || actual == CudaMemoryType::unregistered) return;
  report("dl_tensor.device.device_type",
         fmt::format("{} but the CUDA driver says the data is {}{}; {}. Export it as {}",
                     cuda_type_name(device_type), cuda_memory_words(actual),
                     cuda_owner_clause(*runtime), consequence, cuda_right_label(actual, *runtime)));
}

void check_cuda_device_memory_type(const RuleContext& context, Reporter& report) {
  check_cuda_memory_type(context, report, dlpack::kDLCUDA, CudaMemoryType::device,
                         "a consumer takes it for device memory of one GPU and copies or frees it "
                         "as such");
}

void check_cuda_host_memory_type(const RuleContext& context, Reporter& report) {
  check_cuda_memory_type(context, report, dlpack::kDLCUDAHost, CudaMemoryType::host,
                         "kDLCUDAHost promises page-locked memory the host reads directly");
}

void check_cuda_managed_memory_type(const RuleContext& context, Reporter& report) {
  check_cuda_memory_type(context, report, dlpack::kDLCUDAManaged, CudaMemoryType::managed,
                         "kDLCUDAManaged promises memory that host and every device can address");
}

constexpr std::string_view kCudaDeviceTypeReference = "dlpack.h 1.3, DLDeviceType";
constexpr std::string_view kCudaDeviceIdReference = "dlpack.h 1.3, DLDevice::device_id";
constexpr dlpack::Release kCudaManagedSince{0, 6};

constexpr std::array kCudaRules{
    RuleDefinition{
        {"DLP-CUDA-NO-RUNTIME", "cuda", "CUDA tensor without CUDA runtime facts", Severity::info,
         kFirstRelease, std::nullopt, kCudaDeviceTypeReference, "heuristic", "",
         "Without what the CUDA driver says about the pointer, the cuda rules cannot run; "
         "`python3 -m dlpack_usm check` and `capture` record the facts of a live tensor."},
        Scope::body,
        check_cuda_no_runtime},
    RuleDefinition{
        {"DLP-CUDA-POINTER-UNKNOWN", "cuda", "CUDA tensor whose pointer the driver does not know",
         Severity::error, kFirstRelease, std::nullopt, "dlpack.h 1.3, DLTensor::data", "definition",
         "This will be CUDA device pointer or cl_mem handle in OpenCL.",
         "The data of a kDLCUDA tensor is a CUDA device pointer, and kDLCUDAHost and "
         "kDLCUDAManaged are defined by the CUDA allocator of their memory: memory the CUDA "
         "driver allocated or registered. cuPointerGetAttributes reports memory type 0 for any "
         "other address, which lies outside that definition; a consumer that hands it to CUDA "
         "fails or faults."},
        Scope::body,
        check_cuda_pointer_unknown},
    RuleDefinition{
        {"DLP-CUDA-DEVICE-ID-RANGE", "cuda",
         "kDLCUDA device_id beyond the devices the process sees", Severity::error, kFirstRelease,
         std::nullopt, kCudaDeviceIdReference, "definition", "The device index.",
         "A kDLCUDA device_id is a CUDA device ordinal of the exporting process, which "
         "CUDA_VISIBLE_DEVICES filters and renumbers; an index at or past the process's device "
         "count lies outside those ordinals and names no device (typically a physical GPU "
         "number)."},
        Scope::body,
        check_cuda_device_id_range},
    RuleDefinition{
        {"DLP-CUDA-DEVICE-ID", "cuda", "kDLCUDA device_id is not the owning device's ordinal",
         Severity::error, kFirstRelease, std::nullopt, kCudaDeviceIdReference, "definition",
         "The device index.",
         "The index of a kDLCUDA tensor is the ordinal of the device that holds the memory "
         "(CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL) as the exporting process numbers devices; "
         "another ordinal names a device that does not hold the data. A device_id hard-coded "
         "to 0 on a multi-GPU machine is the usual defect."},
        Scope::body,
        check_cuda_device_id_owner},
    RuleDefinition{
        {"DLP-CUDA-DEVICE-MEMORY-TYPE", "cuda", "kDLCUDA tensor on pinned host or managed memory",
         Severity::warning, kFirstRelease, std::nullopt, kCudaDeviceTypeReference, "convention",
         "CUDA GPU device",
         "kDLCUDA names a GPU, not an allocator: pinned and managed memory are CUDA device "
         "pointers the GPU reads too (unified addressing), so the elements are where a CUDA "
         "consumer looks. The convention is to label them kDLCUDAHost and kDLCUDAManaged, which "
         "tell the consumer that the host can read them; a consumer that takes them for device "
         "memory of one GPU copies or frees them as such."},
        Scope::body,
        check_cuda_device_memory_type},
    RuleDefinition{
        {"DLP-CUDA-HOST-MEMORY-TYPE", "cuda", "kDLCUDAHost tensor not on page-locked host memory",
         Severity::error, kFirstRelease, std::nullopt, kCudaDeviceTypeReference, "definition",
         "Pinned CUDA CPU memory by cudaMallocHost",
         "kDLCUDAHost is defined as page-locked host memory of cudaMallocHost, which a consumer "
         "reads on the host; device memory there lies outside that definition and faults, and "
         "managed memory has a type of its own."},
        Scope::body,
        check_cuda_host_memory_type},
    RuleDefinition{
        {"DLP-CUDA-MANAGED-MEMORY-TYPE", "cuda", "kDLCUDAManaged tensor not on managed memory",
         Severity::error, kCudaManagedSince, std::nullopt, kCudaDeviceTypeReference, "definition",
         "CUDA managed/unified memory allocated by cudaMallocManaged",
         "kDLCUDAManaged is defined as memory of cudaMallocManaged, which a consumer may touch "
         "from the host and from any device; other memory lies outside that definition, and "
         "device memory of one GPU allows neither."},
        Scope::body,
        check_cuda_managed_memory_type},
};

}  // namespace

std::span<const RuleDefinition> cuda_rules() {
  return kCudaRules;
}

}  // namespace dlpack_usm::rules
