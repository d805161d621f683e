// The CUDA part of list-devices: each device the CUDA driver shows this
// process, with the kDLCUDA device_id it gets, or why there is none.
#pragma once

#include "report/inventory_report.hpp"
#include "report/printer.hpp"
#include "runtime/cuda/cuda_driver.hpp"

namespace dlpack_usm::report {

// Under the key "cuda"; in text, a paragraph after the OpenCL/SYCL devices,
// or one line without devices: why there are none, in full with --verbose.
void print_cuda_inventory(Printer& printer, const runtime::cuda::CudaInventory& inventory,
                          InventoryDetail detail = InventoryDetail::summary);

}  // namespace dlpack_usm::report
