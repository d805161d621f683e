#include "bridge/plugin_repro.hpp"

#include <algorithm>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>

#include <fmt/format.h>

#include "common/error.hpp"
#include "matrix/live_matrix.hpp"
#include "plugin/host_table.hpp"
#include "runtime/selection.hpp"
#include "suite/cases/producer/produce_request.hpp"

namespace dlpack_usm::bridge {
namespace {

struct ReproState {
  std::mutex mutex;
  std::string choice;  // as asked: "opencl", "sycl", "auto"
  runtime::SelectedRuntime selected;
  std::unique_ptr<plugin::HostTable> host;
  std::optional<suite::ProduceRequest> request;  // the last one asked
};

ReproState& state() {
  // Never destroyed: a plugin's deleter may run at the program's exit.
  static ReproState* held = new ReproState;
  return *held;
}

template <std::size_t N>
std::string one_of(const nlohmann::json& request, const char* key, const char* const (&names)[N]) {
  std::string value = request.value(key, std::string());
  if (std::find(std::begin(names), std::end(names), value) == std::end(names)) {
    fail_usage(fmt::format("the produce request's \"{}\" is '{}', not one of {}", key, value,
                           fmt::join(names, ", ")),
               "bridge.h lists the values of dlpack_usm_bridge_produce_request");
  }
  return value;
}

// The request's members, each of its type (a mistyped one is a usage
// error, not the bridge's internal error).
matrix::MatrixTensor matrix_tensor(const nlohmann::json& request) try {
  matrix::MatrixTensor tensor;
  std::optional<facts::UsmKind> kind =
      facts::parse_usm_kind(request.value("memory", std::string("device")));
  if (!kind || *kind == facts::UsmKind::unknown) {
    fail_usage("the produce request's \"memory\" is not host, device or shared");
  }
  tensor.kind = *kind;
  tensor.dtype = one_of(request, "dtype", matrix::kLiveDtypes);
  tensor.layout = one_of(request, "layout", matrix::kLiveLayouts);
  tensor.version = one_of(request, "version", matrix::kLiveVersions);
  tensor.read_only = request.value("read_only", false);
  return tensor;
} catch (const nlohmann::json::type_error& error) {
  fail_usage(fmt::format("the produce request has a member of the wrong type: {}", error.what()),
             "bridge.h gives each member's type");
}

runtime::DeviceRef device_ref(const nlohmann::json& request) try {
  runtime::DeviceRef ref{request.value("device_id", 0), std::nullopt};
  if (int sub = request.value("sub_device", -1); sub >= 0) ref.sub_index = sub;
  return ref;
} catch (const nlohmann::json::type_error& error) {
  fail_usage(
      fmt::format("the produce request's device_id or sub_device is no integer: {}", error.what()));
}

}  // namespace

const DlpackUsmHost* plugin_host(const std::string& runtime_choice, std::string& name) {
  ReproState& held = state();
  std::lock_guard lock(held.mutex);
  if (held.host) {
    if (runtime_choice != held.choice) {
      fail_usage(fmt::format("the plugin host was made on '{}' already, not '{}'", held.choice,
                             runtime_choice),
                 "one process holds one host table: run another process for another runtime");
    }
    name = held.selected.name;
    return held.host->get();
  }
  std::optional<runtime::RuntimeChoice> choice = runtime::parse_runtime_choice(runtime_choice);
  if (!choice)
    fail_usage(fmt::format("unknown runtime '{}'", runtime_choice), "opencl, sycl or auto");
  held.selected = runtime::find_runtime({*choice, runtime::LibrariesUnderTest::sycl_handles});
  held.host = std::make_unique<plugin::HostTable>(*held.selected.runtime);
  held.choice = runtime_choice;
  name = held.selected.name;
  return held.host->get();
}

runtime::Runtime* plugin_host_runtime(std::string* name) {
  ReproState& held = state();
  std::lock_guard lock(held.mutex);
  if (!held.host) return nullptr;
  if (name != nullptr) *name = held.selected.name;
  return held.selected.runtime;
}

const DlpackUsmProduceRequest* produce_request(const nlohmann::json& request,
                                               nlohmann::ordered_json& info) {
  runtime::Runtime* runtime = plugin_host_runtime();
  if (runtime == nullptr) {
    fail_usage("no plugin host was made before the produce request",
               "call dlpack_usm_bridge_plugin_host first");
  }
  runtime::DeviceRef ref = device_ref(request);
  const runtime::DeviceInfo* device = runtime->inventory().find(ref);
  if (device == nullptr) {
    fail_usage(fmt::format("no device has device_id {} and sub-device {}", ref.root_index,
                           ref.sub_index.value_or(-1)),
               "dlpack-usm list-devices --verbose lists them");
  }
  ReproState& held = state();
  std::lock_guard lock(held.mutex);
  held.request = suite::make_produce_request(*runtime, *device, matrix_tensor(request));
  const suite::ProduceRequest& made = *held.request;
  info = {{"shape", made.layout.shape},
          {"strides", made.layout.strides},
          {"byte_offset", made.layout.byte_offset},
          {"allocation_bytes", made.layout.allocation_bytes}};
  return &made.c;
}

}  // namespace dlpack_usm::bridge
