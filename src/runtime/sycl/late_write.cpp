#include "runtime/sycl/late_write.hpp"

#include "common/error.hpp"
#include "runtime/late_write_size.hpp"

namespace dlpack_usm::runtime::sycl {
namespace {

// The write's queue, its scratch allocation and the copy's event; the
// destructor waits for the copy (the queue is in order: all before it is
// done) before it frees them, as a producer's deleter would.
class SyclLateWrite final : public LateWrite {
 public:
  explicit SyclLateWrite(const DpctlApi& api) : api_(api) {}
  SyclLateWrite(const SyclLateWrite&) = delete;
  SyclLateWrite& operator=(const SyclLateWrite&) = delete;
  ~SyclLateWrite() override {
    if (written != nullptr) {
      api_.DPCTLEvent_Wait(written);
      api_.DPCTLEvent_Delete(written);
    }
    // Nothing of the queue left in flight when it goes: the SYCL runtime
    // otherwise keeps its commands' objects past the queue's end.
    if (queue != nullptr && api_.DPCTLQueue_Wait != nullptr) api_.DPCTLQueue_Wait(queue);
    if (scratch != nullptr) api_.DPCTLfree_with_queue(scratch, queue);
    if (queue != nullptr) api_.DPCTLQueue_Delete(queue);
  }

  SyclQueueRef queue = nullptr;
  void* scratch = nullptr;
  SyclEventRef written = nullptr;

 private:
  const DpctlApi& api_;
};

void require(bool ok, const char* call) {
  if (!ok) fail_environment(std::string("the stream case's control: ") + call + " failed");
}

// The slow work, then the copy: submitted, not waited for.
void enqueue_work(const DpctlApi& api, SyclLateWrite& write, void* destination, const void* source,
                  std::size_t bytes) {
  for (std::uint32_t k = 0; k < kLateWriteScratchFills; ++k) {
    SyclEventRef filled = api.DPCTLQueue_Fill32(write.queue, write.scratch, k,
                                                kLateWriteScratchBytes / sizeof(std::uint32_t));
    require(filled != nullptr, "DPCTLQueue_Fill32");
    api.DPCTLEvent_Delete(filled);
  }
  write.written = api.DPCTLQueue_Memcpy(write.queue, destination, source, bytes);
  require(write.written != nullptr, "DPCTLQueue_Memcpy");
}

}  // namespace

std::unique_ptr<LateWrite> start_sycl_late_write(const DpctlApi& api, const LateWriteTarget& target,
                                                 void* destination, const void* source,
                                                 std::size_t bytes, LateWriteOrder order) {
  if (api.DPCTLQueue_Fill32 == nullptr || api.DPCTLQueue_SubmitBarrierForEvents == nullptr) {
    fail_environment(
        "the stream case's control: dpctl's C interface lacks DPCTLQueue_Fill32 or "
        "DPCTLQueue_SubmitBarrierForEvents");
  }
  auto write = std::make_unique<SyclLateWrite>(api);
  write->queue = api.DPCTLQueue_Create(target.context, target.device, nullptr, kDpctlQueueInOrder);
  require(write->queue != nullptr, "DPCTLQueue_Create");
  write->scratch = api.DPCTLmalloc_device(kLateWriteScratchBytes, write->queue);
  require(write->scratch != nullptr, "DPCTLmalloc_device");
  enqueue_work(api, *write, destination, source, bytes);
  if (order == LateWriteOrder::barrier_on_consumer_queue) {
    SyclEventRef barrier =
        api.DPCTLQueue_SubmitBarrierForEvents(target.consumer_queue, &write->written, 1);
    require(barrier != nullptr, "DPCTLQueue_SubmitBarrierForEvents");
    api.DPCTLEvent_Delete(barrier);
  }
  return write;
}

}  // namespace dlpack_usm::runtime::sycl
