// The stream case's control (suite/cases/producer/producer_stream_control)
// on the real runtimes of this machine: the tool's late write, left
// unordered, is read stale on an out-of-order consumer queue, so the control
// is an experiment that can fail; ordered by its barrier, every attempt is
// made and read. Whether a runtime then reads stale is the runtime's answer
// (DLP-RUNTIME-QUEUE-ORDER), which no test can fix in advance.
#include <gtest/gtest.h>

#include <vector>

#include "exchange/pattern.hpp"
#include "runtime/runtime.hpp"
#include "suite/cases/producer/producer_stream_control.hpp"
#include "sycl_presence.hpp"

namespace dlpack_usm::suite {
namespace {

using runtime::LateWriteOrder;
using runtime::QueueOrder;

std::vector<std::byte> pattern(std::size_t count) {
  std::vector<std::byte> bytes(count * 4);
  for (std::size_t i = 0; i < count; ++i) exchange::pattern_element(i, 4, bytes.data() + i * 4);
  return bytes;
}

QueueControl control(runtime::Runtime& rt, const runtime::DeviceInfo& device,
                     const runtime::ConsumerQueue& queue, LateWriteOrder order) {
  std::vector<std::byte> expected = pattern(64 * 1024);
  ControlExperiment experiment{device.ref, facts::UsmKind::device, &queue, "a queue", &expected, 4,
                               order};
  return run_queue_control(rt, experiment);
}

// On every USM root device that offers an out-of-order queue (at least one).
void expect_the_control_can_fail(runtime::Runtime& rt) {
  int tried = 0;
  for (const auto& [platform, device] : rt.inventory().roots()) {
    if (!device.usm) continue;
    runtime::ConsumerQueue queue = rt.make_consumer_queue(
        rt.default_context(platform.index), device.ref, QueueOrder::out_of_order_where_supported);
    if (!queue.out_of_order()) continue;
    SCOPED_TRACE(device.selector_name);
    ++tried;
    QueueControl unordered = control(rt, device, queue, LateWriteOrder::none);
    EXPECT_EQ(unordered.why_not, "");
    EXPECT_EQ(unordered.attempts, 4);
    EXPECT_GE(unordered.stale, 1) << "a read behind no barrier never saw the write in flight";
    QueueControl ordered = control(rt, device, queue, LateWriteOrder::barrier_on_consumer_queue);
    EXPECT_EQ(ordered.why_not, "");
    EXPECT_EQ(ordered.attempts, 4);
    EXPECT_LE(ordered.stale, ordered.attempts);
  }
  if (tried == 0) GTEST_SKIP() << "no USM device with an out-of-order queue";
}

TEST(StreamControl, OpenClReadsAnUnorderedWriteStale) {
  expect_the_control_can_fail(runtime::opencl_runtime());
}

TEST(StreamControl, SyclReadsAnUnorderedWriteStale) {
  SKIP_WITHOUT_SYCL();
  std::string why;
  expect_the_control_can_fail(*runtime::sycl_runtime_or_null(&why));
}

TEST(StreamControl, InOrderQueuesAreInOrder) {
  runtime::Runtime& rt = runtime::opencl_runtime();
  for (const auto& [platform, device] : rt.inventory().roots()) {
    if (!device.usm) continue;
    runtime::ConsumerQueue queue = rt.make_consumer_queue(rt.default_context(platform.index),
                                                          device.ref, QueueOrder::in_order);
    EXPECT_FALSE(queue.out_of_order()) << device.selector_name;
  }
}

}  // namespace
}  // namespace dlpack_usm::suite
