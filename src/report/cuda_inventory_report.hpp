// The CUDA part of list-devices: each device the CUDA driver shows this
// process, with the kDLCUDA device_id it gets, or why there is none.
#pragma once

#include "report/printer.hpp"
#include "runtime/cuda/cuda_driver.hpp"

namespace dlpack_usm::report {

// Under the key "cuda"; in text, a paragraph after the OpenCL/SYCL devices.
void print_cuda_inventory(Printer& printer, const runtime::cuda::CudaInventory& inventory);

}  // namespace dlpack_usm::report
