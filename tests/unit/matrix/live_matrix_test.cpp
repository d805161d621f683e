// One walk of the live matrix serves the live and the producer cases: per
// root device the full matrix, then its sub-devices one tensor a kind, in
// the order their case ids are listed.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <fmt/format.h>

#include "matrix/live_matrix.hpp"

namespace dlpack_usm::matrix {
namespace {

using runtime::DeviceInfo;

DeviceInfo device(std::string name, bool host, bool device_usm, bool shared) {
  DeviceInfo info;
  info.selector_name = std::move(name);
  info.usm = runtime::UsmCapabilities{};
  info.usm->host.access = host;
  info.usm->device.access = device_usm;
  info.usm->single_device_shared.access = shared;
  return info;
}

// Every call of the walk, as a line.
class Recorder final : public LiveMatrixVisitor {
 public:
  void device_begins(const DeviceInfo& device, bool sub_device) override {
    calls.push_back(fmt::format("begin {}{}", device.selector_name, sub_device ? " sub" : ""));
  }
  void no_usm(const DeviceInfo& device) override {
    calls.push_back(fmt::format("no-usm {}", device.selector_name));
  }
  void kind_unsupported(const DeviceInfo& device, facts::UsmKind kind) override {
    calls.push_back(fmt::format("unsupported {} {}", device.selector_name, facts::to_string(kind)));
  }
  bool kind_begins(const DeviceInfo& device, facts::UsmKind kind) override {
    calls.push_back(fmt::format("kind {} {}", device.selector_name, facts::to_string(kind)));
    return kind != skipped;
  }
  void tensor(const DeviceInfo& device, const MatrixTensor& tensor) override {
    calls.push_back(fmt::format("tensor {} {}/{}/{}/{}{}", device.selector_name,
                                facts::to_string(tensor.kind), tensor.dtype, tensor.layout,
                                tensor.version, tensor.read_only ? "/read-only" : ""));
  }
  void full_kind_done(const DeviceInfo& device, facts::UsmKind kind) override {
    calls.push_back(fmt::format("done {} {}", device.selector_name, facts::to_string(kind)));
  }
  void root_done(const DeviceInfo& root) override {
    calls.push_back(fmt::format("root-done {}", root.selector_name));
  }

  facts::UsmKind skipped = facts::UsmKind::unknown;
  std::vector<std::string> calls;
};

std::size_t count_prefix(const std::vector<std::string>& calls, const std::string& prefix) {
  std::size_t n = 0;
  for (const std::string& call : calls) n += call.starts_with(prefix) ? 1 : 0;
  return n;
}

TEST(LiveMatrixWalk, RootGetsTheFullMatrixThenReadOnlyPerDtype) {
  runtime::Inventory inventory;
  inventory.platforms.emplace_back();
  inventory.platforms[0].devices.push_back(device("r", true, true, true));
  const char* read_only[] = {"1.0", "1.3"};
  Recorder recorder;
  walk_live_matrix(inventory, read_only, recorder);

  const std::size_t per_kind =
      std::size(kLiveDtypes) * (std::size(kLiveLayouts) * std::size(kLiveVersions) + 2);
  EXPECT_EQ(count_prefix(recorder.calls, "tensor r "), 3 * per_kind);
  ASSERT_GE(recorder.calls.size(), 4u);
  EXPECT_EQ(recorder.calls[0], "begin r");
  EXPECT_EQ(recorder.calls[1], "kind r host");
  EXPECT_EQ(recorder.calls[2], "tensor r host/int8/C/0.8");
  EXPECT_EQ(recorder.calls[3], "tensor r host/int8/C/1.0");
  // After the dtype's layouts x versions, READ_ONLY at the versions given.
  const std::size_t read_only_at = 2 + std::size(kLiveLayouts) * std::size(kLiveVersions);
  EXPECT_EQ(recorder.calls[read_only_at], "tensor r host/int8/C/1.0/read-only");
  EXPECT_EQ(recorder.calls[read_only_at + 1], "tensor r host/int8/C/1.3/read-only");
  EXPECT_EQ(recorder.calls[read_only_at + 2], "tensor r host/float16/C/0.8");
  EXPECT_EQ(recorder.calls[2 + per_kind], "done r host");
  EXPECT_EQ(recorder.calls.back(), "root-done r");
}

TEST(LiveMatrixWalk, SubDevicesGetOneTensorAKindAfterTheirRoot) {
  runtime::Inventory inventory;
  inventory.platforms.emplace_back();
  DeviceInfo root = device("r", true, false, true);
  root.sub_devices.push_back(device("r.0", false, true, true));
  inventory.platforms[0].devices.push_back(root);
  DeviceInfo bare;
  bare.selector_name = "bare";
  inventory.platforms[0].devices.push_back(bare);
  Recorder recorder;
  recorder.skipped = facts::UsmKind::shared;
  walk_live_matrix(inventory, {}, recorder);

  std::vector<std::string> expected = {"begin r", "kind r host"};
  for (const char* dtype : kLiveDtypes) {
    for (const char* layout : kLiveLayouts) {
      for (const char* version : kLiveVersions) {
        expected.push_back(fmt::format("tensor r host/{}/{}/{}", dtype, layout, version));
      }
    }
  }
  std::vector<std::string> rest = {"done r host",
                                   "unsupported r device",
                                   "kind r shared",
                                   "begin r.0 sub",
                                   "unsupported r.0 host",
                                   "kind r.0 device",
                                   "tensor r.0 device/float32/C/1.3",
                                   "kind r.0 shared",
                                   "root-done r",
                                   "begin bare",
                                   "no-usm bare",
                                   "root-done bare"};
  expected.insert(expected.end(), rest.begin(), rest.end());
  EXPECT_EQ(recorder.calls, expected);
}

}  // namespace
}  // namespace dlpack_usm::matrix
