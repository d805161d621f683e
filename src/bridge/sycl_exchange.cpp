#include "bridge/sycl_exchange.hpp"

#include <fmt/format.h>

#include "common/error.hpp"
#include "dlpack/names.hpp"
#include "exchange/export_tensor.hpp"
#include "exchange/import_tensor.hpp"
#include "report/findings_report.hpp"
#include "runtime/runtime.hpp"

namespace dlpack_usm::bridge {
namespace {

runtime::Runtime& sycl() {
  std::string why;
  runtime::Runtime* runtime = runtime::sycl_runtime_or_null(&why);
  if (runtime == nullptr) {
    fail_environment(why, "install dpctl (scripts/setup.sh does) or set DLPACK_USM_DPCTL");
  }
  return *runtime;
}

nlohmann::ordered_json findings_json(const std::vector<rules::Finding>& findings) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const rules::Finding& finding : findings) list.push_back(report::finding_to_json(finding));
  return list;
}

std::string hex_bytes(const std::vector<std::byte>& bytes) {
  std::string text;
  text.reserve(bytes.size() * 2);
  for (std::byte b : bytes) text += fmt::format("{:02x}", static_cast<unsigned>(b));
  return text;
}

}  // namespace

void* sycl_export(const std::string& usm_kind, std::int32_t device_id, const std::string& dtype,
                  const void* host_data, std::uint64_t bytes, nlohmann::ordered_json& info) {
  auto kind = facts::parse_usm_kind(usm_kind);
  if (!kind || *kind == facts::UsmKind::unknown) {
    fail_usage(fmt::format("USM kind '{}' is not host, device or shared", usm_kind));
  }
  auto type = dlpack::parse_dtype(dtype);
  if (!type || type->bits % 8 != 0 || type->bits == 0) {
    fail_usage(fmt::format("'{}' is no whole-byte dtype name", dtype));
  }
  std::uint64_t element_bytes = type->bits / 8u * type->lanes;
  if (bytes % element_bytes != 0) {
    fail_usage(fmt::format("{} bytes are no whole number of {} elements", bytes, dtype));
  }
  runtime::Runtime& runtime = sycl();
  runtime::DeviceRef device{device_id, std::nullopt};
  auto buffer = std::make_shared<runtime::UsmBuffer>(
      runtime.allocate(device, *kind, bytes, runtime::ContextChoice::platform_default));
  runtime.copy(buffer->context(), device, buffer->data(), host_data, bytes);

  exchange::ExportRequest request;
  request.data = buffer->data();
  request.context = buffer->context();
  request.dtype = *type;
  request.shape = {static_cast<std::int64_t>(bytes / element_bytes)};
  request.keep_alive = buffer;
  exchange::ExportedTensor exported = exchange::export_tensor(runtime, request, {});
  info = {{"device_id", device_id},
          {"usm_kind", facts::to_string(*kind)},
          {"data", fmt::format("0x{:x}", reinterpret_cast<std::uintptr_t>(request.data))},
          {"findings", findings_json(exported.findings)}};
  return exported.capsule.release_versioned();
}

nlohmann::ordered_json sycl_import(void* managed_tensor, const std::string& capsule_name) {
  if (managed_tensor == nullptr) fail_usage("no tensor to import");
  runtime::Runtime& runtime = sycl();
  exchange::CapsuleOwner capsule;
  if (capsule_name == "dltensor_versioned") {
    capsule =
        exchange::CapsuleOwner(static_cast<dlpack::DLManagedTensorVersioned*>(managed_tensor));
  } else if (capsule_name == "dltensor") {
    capsule = exchange::CapsuleOwner(static_cast<dlpack::DLManagedTensor*>(managed_tensor));
  } else {
    fail_usage(
        fmt::format("capsule name '{}' is not dltensor or dltensor_versioned", capsule_name));
  }
  exchange::ImportedView view = exchange::import_tensor(runtime, std::move(capsule));
  const exchange::ImportedPlacement& placement = view.placement();
  const runtime::DeviceInfo* owner =
      placement.owner_device ? runtime.inventory().find(*placement.owner_device) : nullptr;
  return {{"device_id", placement.root_device.root_index},
          {"usm_kind", facts::to_string(placement.usm_kind)},
          {"owner", owner ? nlohmann::ordered_json(owner->selector_name) : nullptr},
          {"bytes", hex_bytes(view.read_all())},
          {"findings", findings_json(view.findings())}};
}

nlohmann::ordered_json sycl_queue_read(void* queue, std::uint64_t address, std::uint64_t size,
                                       void* destination) {
  if (queue == nullptr || (destination == nullptr && size > 0)) {
    fail_usage("dlpack_usm_bridge_sycl_queue_read needs a queue and a destination");
  }
  // The caller's queue, borrowed: no runtime releases it when this goes.
  runtime::ConsumerQueue borrowed(nullptr, queue, {}, true);
  sycl().read_on_queue(borrowed, destination, reinterpret_cast<const void*>(address),
                       static_cast<std::size_t>(size));
  return {{"copied", size}};
}

}  // namespace dlpack_usm::bridge
