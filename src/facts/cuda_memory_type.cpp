#include "facts/tensor_facts.hpp"

namespace dlpack_usm::facts {

const char* to_string(CudaMemoryType type) {
  switch (type) {
    case CudaMemoryType::device:
      return "device";
    case CudaMemoryType::host:
      return "host";
    case CudaMemoryType::managed:
      return "managed";
    case CudaMemoryType::array:
      return "array";
    case CudaMemoryType::unregistered:
      break;
  }
  return "unregistered";
}

std::optional<CudaMemoryType> parse_cuda_memory_type(const std::string& text) {
  for (CudaMemoryType type :
       {CudaMemoryType::unregistered, CudaMemoryType::device, CudaMemoryType::host,
        CudaMemoryType::managed, CudaMemoryType::array}) {
    if (text == to_string(type)) return type;
  }
  return std::nullopt;
}

}  // namespace dlpack_usm::facts
