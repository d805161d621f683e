// The CUDA part of list-devices: each device the CUDA driver shows this
// process, with the kDLCUDA device_id it gets, or why there is none.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "runtime/cuda/cuda_driver.hpp"

namespace dlpack_usm::report {

nlohmann::ordered_json cuda_inventory_to_json(const runtime::cuda::CudaInventory& inventory);
std::string cuda_inventory_to_text(const runtime::cuda::CudaInventory& inventory);

}  // namespace dlpack_usm::report
