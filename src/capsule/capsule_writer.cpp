// to_capsule_json: the canonical capsule-file form of Facts. Enum values are
// written as names where the model knows them, addresses as hex strings, so
// that a file reads like the C struct it describes.
#include <fmt/format.h>

#include "capsule/capsule_file.hpp"
#include "dlpack/names.hpp"

namespace dlpack_usm::capsule {
namespace {

using nlohmann::ordered_json;

ordered_json address(std::uint64_t value) {
  return fmt::format("{:#x}", value);
}

ordered_json dims(const std::optional<std::vector<std::int64_t>>& values) {
  if (!values) return nullptr;
  return ordered_json(*values);
}

ordered_json dl_tensor(const facts::TensorFacts& facts) {
  ordered_json device;
  const dlpack::DeviceTypeName* type = dlpack::find_device_type(facts.device_type);
  device["device_type"] =
      type ? ordered_json(std::string(type->name)) : ordered_json(facts.device_type);
  device["device_id"] = facts.device_id;

  ordered_json dtype;
  const dlpack::DtypeCodeName* code = dlpack::find_dtype_code(facts.dtype.code);
  dtype["code"] = code ? ordered_json(std::string(code->name)) : ordered_json(facts.dtype.code);
  dtype["bits"] = facts.dtype.bits;
  dtype["lanes"] = facts.dtype.lanes;

  ordered_json tensor;
  tensor["data"] = facts.data == 0 ? ordered_json(nullptr) : address(facts.data);
  tensor["device"] = std::move(device);
  tensor["ndim"] = facts.ndim;
  tensor["dtype"] = std::move(dtype);
  tensor["shape"] = dims(facts.shape);
  tensor["strides"] = dims(facts.strides);
  tensor["byte_offset"] = facts.byte_offset;
  return tensor;
}

}  // namespace

ordered_json to_runtime_json(const facts::RuntimeFacts& runtime) {
  ordered_json section = ordered_json::object();
  if (runtime.usm_kind) section["usm_kind"] = facts::to_string(*runtime.usm_kind);
  if (runtime.owner_root_index) section["owner_root_index"] = *runtime.owner_root_index;
  if (runtime.owner_sub_device_index) {
    section["owner_sub_device_index"] = *runtime.owner_sub_device_index;
  }
  if (runtime.owner_device_name) section["owner_device"] = *runtime.owner_device_name;
  if (runtime.root_device_count) section["root_device_count"] = *runtime.root_device_count;
  if (runtime.default_context) section["default_context"] = *runtime.default_context;
  if (runtime.alloc_base) section["alloc_base"] = address(*runtime.alloc_base);
  if (runtime.alloc_size) section["alloc_size"] = *runtime.alloc_size;
  if (runtime.cuda_memory_type) {
    section["cuda_memory_type"] = facts::to_string(*runtime.cuda_memory_type);
  }
  if (runtime.cuda_ordinal) section["cuda_ordinal"] = *runtime.cuda_ordinal;
  if (runtime.cuda_device_count) section["cuda_device_count"] = *runtime.cuda_device_count;
  if (runtime.cuda_visible_devices) section["cuda_visible_devices"] = *runtime.cuda_visible_devices;
  return section;
}

ordered_json to_capsule_json(const facts::TensorFacts& facts) {
  ordered_json capsule;
  if (facts.abi == facts::Abi::versioned) {
    capsule["version"] = {{"major", facts.version.major}, {"minor", facts.version.minor}};
    capsule["flags"] = dlpack::flags_display(facts.flags);
  }
  capsule["deleter"] = facts.has_deleter;
  capsule["manager_ctx"] = facts.has_manager_ctx;
  // An unknown major version leaves the body unread; nothing to write.
  if (facts.body_read) capsule["dl_tensor"] = dl_tensor(facts);
  if (facts.runtime) capsule["runtime"] = to_runtime_json(*facts.runtime);
  if (!facts.origin.empty()) capsule["origin"] = facts.origin;
  return capsule;
}

}  // namespace dlpack_usm::capsule
