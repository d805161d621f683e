#include "exchange/export_tensor.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "common/error.hpp"
#include "exchange/live_facts.hpp"
#include "exchange/rule_gate.hpp"
#include "exchange/rule_ids.hpp"
#include "exchange/rule_refusal.hpp"
#include "facts/derived.hpp"

namespace dlpack_usm::exchange {
namespace {

// Everything one export takes, in one allocation that the deleter frees:
// the tensor struct itself, the shape and strides it points to, and the
// reference that keeps the allocation alive. Only one of the two structs is
// handed out; keeping both avoids a second allocation per export.
struct ExportManager {
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides;
  std::shared_ptr<const void> keep_alive;
  dlpack::DLManagedTensorVersioned versioned{};
  dlpack::DLManagedTensor legacy{};
};

void delete_versioned(dlpack::DLManagedTensorVersioned* self) noexcept {
  delete static_cast<ExportManager*>(self->manager_ctx);
}

void delete_legacy(dlpack::DLManagedTensor* self) noexcept {
  delete static_cast<ExportManager*>(self->manager_ctx);
}

void check_request(const ExportRequest& request) {
  if (request.data == nullptr) {
    fail_usage("cannot export a NULL pointer: the protocol asks the runtime which device owns it",
               "export a USM allocation (even a size-0 tensor keeps its allocation's pointer)");
  }
  if (static_cast<std::int64_t>(request.shape.size()) > facts::kMaxReadableDims) {
    fail_usage(fmt::format("cannot export {} dimensions; the limit is {}", request.shape.size(),
                           facts::kMaxReadableDims));
  }
  if (request.strides && request.strides->size() != request.shape.size()) {
    fail_usage(fmt::format("{} strides given for {} dimensions", request.strides->size(),
                           request.shape.size()));
  }
}

// The device SYCL's get_pointer_device() names: the owner for device and
// shared allocations; for host allocations, which belong to no device, the
// first device of the context (what DPC++ answers).
runtime::DeviceRef pointer_device(runtime::Runtime& runtime, const runtime::PointerInfo& info,
                                  const runtime::ContextRef& context) {
  if (info.owner) return *info.owner;
  const auto& platforms = runtime.inventory().platforms;
  if (info.kind == facts::UsmKind::host && context.platform_index >= 0 &&
      static_cast<std::size_t>(context.platform_index) < platforms.size() &&
      !platforms[static_cast<std::size_t>(context.platform_index)].devices.empty()) {
    return platforms[static_cast<std::size_t>(context.platform_index)].devices.front().ref;
  }
  // The seed protocol's "failed finding device_id": the owner is no device
  // the enumeration (after ONEAPI_DEVICE_SELECTOR) knows.
  throw Error(ExitCode::findings,
              "could not produce DLPack: the device owning the pointer is not among the "
              "enumerated root devices or their sub-devices, so it has no device_id",
              "check ONEAPI_DEVICE_SELECTOR; 'dlpack-usm list-devices' shows what is visible");
}

CapsuleOwner build_capsule(const ExportRequest& request, const ExportOptions& options,
                           std::int32_t device_id) {
  dlpack::Release version = negotiated_version(options.max_version);
  bool legacy = version < dlpack::Release{1, 0};
  if (legacy && options.read_only) {
    fail_usage("a legacy DLManagedTensor has no flags, so READ_ONLY cannot be expressed",
               "ask for max_version 1.0 or later, or export without read-only");
  }
  auto manager = std::make_unique<ExportManager>();
  manager->shape = request.shape;
  bool null_strides = !request.strides && version < dlpack::Release{1, 2};
  if (request.strides) {
    manager->strides = *request.strides;
  } else {
    auto compact = facts::row_major_strides(request.shape);
    if (!compact) {
      fail_usage("the shape is too large: its row-major strides overflow 64 bits",
                 "pass explicit strides or a smaller shape");
    }
    manager->strides = std::move(*compact);
  }
  manager->keep_alive = request.keep_alive;

  dlpack::DLTensor tensor{};
  bool empty = std::find(request.shape.begin(), request.shape.end(), 0) != request.shape.end();
  tensor.data = empty && request.null_data_when_empty ? nullptr : request.data;
  tensor.device = dlpack::DLDevice{dlpack::kDLOneAPI, device_id};
  tensor.ndim = static_cast<std::int32_t>(request.shape.size());
  tensor.dtype = request.dtype;
  // ndim 0: shape and strides stay NULL, which the header allows for scalars.
  tensor.shape = manager->shape.empty() ? nullptr : manager->shape.data();
  tensor.strides = manager->strides.empty() || null_strides ? nullptr : manager->strides.data();
  tensor.byte_offset = request.byte_offset;

  ExportManager* raw = manager.release();
  if (legacy) {
    raw->legacy = dlpack::DLManagedTensor{tensor, raw, delete_legacy};
    return CapsuleOwner(&raw->legacy);
  }
  raw->versioned.version = dlpack::DLPackVersion{version.major, version.minor};
  raw->versioned.manager_ctx = raw;
  raw->versioned.deleter = delete_versioned;
  // IS_COPIED never: export hands out the caller's own pointer.
  raw->versioned.flags = options.read_only ? dlpack::kFlagReadOnly : 0;
  raw->versioned.dl_tensor = tensor;
  return CapsuleOwner(&raw->versioned);
}

}  // namespace

dlpack::Release negotiated_version(dlpack::Release max_version) {
  if (max_version < dlpack::Release{1, 0}) return dlpack::kLastLegacyRelease;
  if (max_version.major == dlpack::kModelMajor) {
    return dlpack::Release{dlpack::kModelMajor, std::min(max_version.minor, dlpack::kModelMinor)};
  }
  return dlpack::kModelRelease;
}

ExportedTensor export_tensor(runtime::Runtime& runtime, const ExportRequest& request,
                             const ExportOptions& options) {
  check_request(request);

  // Get the device where the allocation was made (it may be a sub-device).
  runtime::PointerInfo info = runtime.query(request.data, request.context);
  if (info.kind == facts::UsmKind::unknown) {
    throw RuleRefusal(
        {std::string(rule_ids::kUsmUnknown)},
        fmt::format("cannot export {}: the context it was said to be bound to does not "
                    "know it as USM (rule {})",
                    request.data, rule_ids::kUsmUnknown),
        "export only pointers returned by a USM allocation in that context");
  }
  runtime::DeviceRef owner = pointer_device(runtime, info, request.context);

  // The pointer must be bound to the default context of that device's platform.
  const runtime::PlatformInfo* platform = runtime.inventory().platform_of(owner);
  if (platform == nullptr) fail_environment("the owning device has no platform");
  runtime::ContextRef default_context = runtime.default_context(platform->index);
  if (default_context.handle != request.context.handle) {
    throw RuleRefusal({std::string(rule_ids::kDefaultContext)},
                      fmt::format("cannot export USM allocations not bound to the default platform "
                                  "context: {} belongs to another context of platform {} (rule {})",
                                  request.data, platform->index, rule_ids::kDefaultContext),
                      "allocate in the platform's default context; a consumer looks the pointer up "
                      "there and would not find it");
  }

  // The parent root device's index among all root devices is the device_id.
  ExportedTensor exported;
  exported.capsule = build_capsule(request, options, owner.root_index);

  // Every exported tensor must pass the rule engine on its live facts; if it
  // does not, the capsule is released here (its owner calls the deleter).
  const runtime::DeviceInfo* owner_info = runtime.inventory().find(owner);
  exported.facts = read_capsule_facts(
      exported.capsule,
      fmt::format("live:export:{}", owner_info ? owner_info->selector_name : "?"));
  exported.facts.runtime = live_runtime_facts(runtime, info, request.context);
  exported.findings = enforce_rules(exported.facts, "export");
  return exported;
}

}  // namespace dlpack_usm::exchange
