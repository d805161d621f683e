#include "runtime/opencl/late_write.hpp"

#include <fmt/format.h>

#include "common/error.hpp"
#include "runtime/late_write_size.hpp"

namespace dlpack_usm::runtime::opencl {
namespace {

// The write's queue, its scratch allocation and the copy's event; the
// destructor waits for the queue before it frees them, as a producer's
// deleter would.
class OpenClLateWrite final : public LateWrite {
 public:
  OpenClLateWrite(const LoaderApi& cl, const UsmEntryPoints& usm, cl_context context)
      : cl_(cl), usm_(usm), context_(context) {}
  OpenClLateWrite(const OpenClLateWrite&) = delete;
  OpenClLateWrite& operator=(const OpenClLateWrite&) = delete;
  ~OpenClLateWrite() override {
    if (queue != nullptr) cl_.clFinish(queue);
    if (written != nullptr) cl_.clReleaseEvent(written);
    if (scratch != nullptr) usm_.blocking_free(context_, scratch);
    if (queue != nullptr) cl_.clReleaseCommandQueue(queue);
  }

  cl_command_queue queue = nullptr;
  void* scratch = nullptr;
  cl_event written = nullptr;

 private:
  const LoaderApi& cl_;
  const UsmEntryPoints& usm_;
  cl_context context_;
};

void check(cl_int status, const char* call) {
  if (status != CL_SUCCESS) {
    fail_environment(
        fmt::format("the stream case's control: {} failed: {}", call, error_name(status)));
  }
}

// The slow work, then the copy: submitted, not waited for.
void enqueue_work(const LoaderApi& cl, const UsmEntryPoints& usm, OpenClLateWrite& write,
                  void* destination, const void* source, std::size_t bytes) {
  for (cl_uint k = 0; k < kLateWriteScratchFills; ++k) {
    check(usm.enqueue_mem_fill(write.queue, write.scratch, &k, sizeof k, kLateWriteScratchBytes, 0,
                               nullptr, nullptr),
          "clEnqueueMemFillINTEL");
  }
  check(usm.enqueue_memcpy(write.queue, CL_FALSE, destination, source, bytes, 0, nullptr,
                           &write.written),
        "clEnqueueMemcpyINTEL");
  check(cl.clFlush(write.queue), "clFlush");
}

}  // namespace

std::unique_ptr<LateWrite> start_opencl_late_write(const LoaderApi& cl, const UsmEntryPoints& usm,
                                                   const LateWriteTarget& target, void* destination,
                                                   const void* source, std::size_t bytes,
                                                   LateWriteOrder order) {
  if (usm.enqueue_mem_fill == nullptr) {
    fail_environment("the stream case's control: the platform has no clEnqueueMemFillINTEL");
  }
  auto write = std::make_unique<OpenClLateWrite>(cl, usm, target.context);
  cl_int status = CL_SUCCESS;
  write->queue =
      cl.clCreateCommandQueueWithProperties(target.context, target.device, nullptr, &status);
  check(status, "clCreateCommandQueueWithProperties");
  write->scratch =
      usm.device_alloc(target.context, target.device, nullptr, kLateWriteScratchBytes, 0, &status);
  check(write->scratch != nullptr ? status : CL_OUT_OF_RESOURCES, "clDeviceMemAllocINTEL");
  enqueue_work(cl, usm, *write, destination, source, bytes);
  if (order == LateWriteOrder::barrier_on_consumer_queue) {
    check(cl.clEnqueueBarrierWithWaitList(target.consumer_queue, 1, &write->written, nullptr),
          "clEnqueueBarrierWithWaitList");
  }
  return write;
}

}  // namespace dlpack_usm::runtime::opencl
