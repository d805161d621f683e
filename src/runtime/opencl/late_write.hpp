// The stream case's control on OpenCL (Runtime::start_late_write): the
// late write of a correct producer, made with the tool's own queue. It is
// the same work the fixture producers with FIXTURE_ASYNC_WRITE do, so that
// the control and the library under test ask the runtime the same thing.
#pragma once

#include <cstddef>
#include <memory>

#include "runtime/opencl/loader.hpp"
#include "runtime/opencl/usm_entry_points.hpp"
#include "runtime/runtime.hpp"

namespace dlpack_usm::runtime::opencl {

// Where the write happens: the consumer's queue, and the context and device
// of the write's own queue.
struct LateWriteTarget {
  cl_command_queue consumer_queue = nullptr;
  cl_context context = nullptr;
  cl_device_id device = nullptr;
};

std::unique_ptr<LateWrite> start_opencl_late_write(const LoaderApi& cl, const UsmEntryPoints& usm,
                                                   const LateWriteTarget& target, void* destination,
                                                   const void* source, std::size_t bytes,
                                                   LateWriteOrder order);

}  // namespace dlpack_usm::runtime::opencl
