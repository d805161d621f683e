// Which platforms list-devices asks who owns an allocation: those where two
// or more root devices have USM of their own, so that a wrong answer can
// name another root and change a device_id. check asks every platform. A
// runtime of plain values: its allocations are addresses nobody touches,
// and it names the first root device of the platform as every owner.
#include <gtest/gtest.h>

#include "runtime/owner_probe.hpp"

namespace dlpack_usm::runtime {
namespace {

DeviceInfo device(const std::string& name, DeviceRef ref, bool usm) {
  DeviceInfo info;
  info.ref = ref;
  info.selector_name = name;
  if (usm) {
    UsmCapabilities caps;
    caps.device = UsmAccess{true, true, true, true};
    info.usm = caps;
  }
  return info;
}

// Platform 0: two USM roots. Platform 1: one USM root with a USM
// sub-device. Platform 2: two roots without USM.
Inventory three_platforms() {
  Inventory inventory;
  PlatformInfo two_roots{0, "two roots", "", "1", "", true, {}, {}};
  two_roots.devices = {device("x:cpu:0", {0, {}}, true), device("x:cpu:1", {1, {}}, true)};
  PlatformInfo one_root{1, "one root", "", "1", "", true, {}, {}};
  one_root.devices = {device("y:cpu:2", {2, {}}, true)};
  one_root.devices[0].sub_devices = {device("y:cpu:2.0", {2, 0}, true)};
  PlatformInfo no_usm{2, "no USM", "", "1", "", false, {}, {}};
  no_usm.devices = {device("z:cpu:3", {3, {}}, false), device("z:cpu:4", {4, {}}, false)};
  inventory.platforms = {two_roots, one_root, no_usm};
  return inventory;
}

class FirstRootAnswers final : public Runtime {
 public:
  const Inventory& inventory() const override { return inventory_; }
  ContextRef default_context(std::int32_t platform) override { return {nullptr, platform, true}; }
  UsmBuffer allocate(const DeviceRef& device, facts::UsmKind kind, std::size_t bytes,
                     ContextChoice) override {
    ++allocations;
    // An address of its own per device, never read or written.
    void* data =
        &addresses_[static_cast<std::size_t>(device.root_index) * 2 + (device.sub_index ? 1 : 0)];
    return UsmBuffer(this, data, bytes, kind, device, {nullptr, 0, true});
  }
  PointerInfo query(const void* ptr, const ContextRef&) override {
    auto slot = static_cast<std::size_t>(static_cast<const char*>(ptr) - addresses_);
    const PlatformInfo* platform =
        inventory_.platform_of(DeviceRef{static_cast<std::int32_t>(slot / 2), {}});
    return PointerInfo{facts::UsmKind::device, platform->devices.front().ref, 0, 0};
  }
  void copy(const ContextRef&, const DeviceRef&, void*, const void*, std::size_t) override {}
  ConsumerQueue make_consumer_queue(const ContextRef&, const DeviceRef&, QueueOrder) override {
    return {};
  }
  void read_on_queue(const ConsumerQueue&, void*, const void*, std::size_t) override {}
  std::string call_name(RuntimeCall, facts::UsmKind) const override { return "fake"; }
  NativeHandles native_handles(const DeviceRef&) const override { return {}; }

  int allocations = 0;

 protected:
  void release(void*, const ContextRef&) noexcept override {}
  void release_queue(void*) noexcept override {}

 private:
  Inventory inventory_ = three_platforms();
  char addresses_[16] = {};
};

TEST(OwnerProbe, ListDevicesAsksWhereTwoRootsCouldBeNamed) {
  FirstRootAnswers runtime;
  std::vector<OwnerAnswerCheck> checks = owner_answer_checks_where_ids_can_differ(runtime);
  ASSERT_EQ(checks.size(), 1U);
  EXPECT_EQ(checks[0].platform_index, 0);
  EXPECT_EQ(checks[0].answers.probes.size(), 2U);
  ASSERT_EQ(checks[0].verdict.wrong.size(), 1U);
  EXPECT_EQ(checks[0].verdict.wrong[0].allocated_on.name, "x:cpu:1");
  EXPECT_TRUE(checks[0].verdict.finding.has_value());
  EXPECT_EQ(runtime.allocations, 2) << "the platform of one USM root is not asked";
}

TEST(OwnerProbe, CheckAsksEveryPlatformWithUsm) {
  FirstRootAnswers runtime;
  const std::vector<OwnerAnswerCheck>& checks = owner_answer_checks(runtime);
  ASSERT_EQ(checks.size(), 2U);
  EXPECT_EQ(checks[1].platform_index, 1);
  // The sub-device's allocation named its root: wrong, though its id is the root's.
  ASSERT_EQ(checks[1].verdict.wrong.size(), 1U);
  EXPECT_EQ(checks[1].verdict.wrong[0].allocated_on.name, "y:cpu:2.0");
}

}  // namespace
}  // namespace dlpack_usm::runtime
