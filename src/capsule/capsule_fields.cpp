#include "capsule/capsule_fields.hpp"

#include <fmt/format.h>

#include "capsule/capsule_tokens.hpp"
#include "capsule/json_fields.hpp"
#include "dlpack/names.hpp"
#include "facts/reader_notes.hpp"

namespace dlpack_usm::capsule {
namespace {

using nlohmann::json;

std::string device_type_names() {
  std::string names;
  for (const dlpack::DeviceTypeName& type : dlpack::device_type_table()) {
    if (!names.empty()) names += ", ";
    names += std::string(type.name);
  }
  return names;
}

std::int32_t read_device_type(const json& value, const std::string& pointer) {
  if (value.is_string()) {
    const std::string& name = value.get_ref<const std::string&>();
    if (const dlpack::DeviceTypeName* known = dlpack::find_device_type(std::string_view(name))) {
      return known->value;
    }
    fail_expected(pointer,
                  fmt::format("a DLDeviceType number or name ({}; or short names such as "
                              "\"oneapi\")",
                              device_type_names()),
                  value);
  }
  return read_integer<std::int32_t>(value, pointer, "int32_t DLDeviceType");
}

std::uint8_t read_dtype_code(const json& value, const std::string& pointer) {
  if (value.is_string()) {
    const std::string& name = value.get_ref<const std::string&>();
    if (const dlpack::DtypeCodeName* known = dlpack::find_dtype_code(std::string_view(name))) {
      return known->code;
    }
    fail_expected(pointer, "a DLDataTypeCode number or name (\"kDLFloat\" or \"float\")", value);
  }
  return read_integer<std::uint8_t>(value, pointer, "uint8_t code");
}

// A dtype name, with lanes where written ("float32x4").
dlpack::DLDataType read_dtype_shorthand(const json& value, const std::string& pointer) {
  std::optional<dlpack::DLDataType> dtype =
      dtype_from_shorthand(value.get_ref<const std::string&>());
  if (!dtype) {
    fail_expected(pointer,
                  "a dtype object {\"code\", \"bits\", \"lanes\"} or a dtype name such as "
                  "\"float32\", \"int8\", \"bool\", \"bfloat16\", \"complex64\", \"float8_e5m2\" "
                  "or, with 1 to 65535 lanes, \"float32x4\"",
                  value);
  }
  return *dtype;
}

dlpack::DLDataType read_dtype(const json& value, const std::string& pointer) {
  if (value.is_string()) {
    return read_dtype_shorthand(value, pointer);
  }
  JsonObject dtype(value, pointer, "dtype", {"code", "bits", "lanes"});
  return dlpack::DLDataType{
      read_dtype_code(dtype.require("code"), dtype.pointer_to("code")),
      read_integer<std::uint8_t>(dtype.require("bits"), dtype.pointer_to("bits"), "uint8_t bits"),
      read_integer<std::uint16_t>(dtype.require("lanes"), dtype.pointer_to("lanes"),
                                  "uint16_t lanes")};
}

constexpr std::string_view kFlagsExpected =
    "flags as a number, a string of flag names joined by '|' (\"READ_ONLY|IS_COPIED\"), or an "
    "array of flag names; known names: READ_ONLY, IS_COPIED, IS_SUBBYTE_TYPE_PADDED";

std::uint64_t read_flags(const json& value, const std::string& pointer) {
  if (value.is_string()) {
    std::optional<std::uint64_t> flags = flags_from_text(value.get_ref<const std::string&>());
    if (!flags) fail_expected(pointer, kFlagsExpected, value);
    return *flags;
  }
  if (value.is_array()) {
    std::uint64_t flags = 0;
    for (std::size_t i = 0; i < value.size(); ++i) {
      std::string entry_pointer = fmt::format("{}/{}", pointer, i);
      std::optional<std::uint64_t> flag = flag_from_token(read_string(value[i], entry_pointer));
      if (!flag) fail_expected(entry_pointer, kFlagsExpected, value[i]);
      flags |= *flag;
    }
    return flags;
  }
  return read_integer<std::uint64_t>(value, pointer, "uint64_t flags");
}

std::optional<std::vector<std::int64_t>> read_dims(const json& value, const std::string& pointer,
                                                   std::string_view name) {
  if (value.is_null()) return std::nullopt;
  if (!value.is_array()) {
    fail_expected(pointer, fmt::format("{} as an array of int64_t, or null for NULL", name), value);
  }
  if (value.size() > static_cast<std::size_t>(facts::kMaxReadableDims)) {
    throw DocumentError(pointer,
                        fmt::format("{} has {} entries, more than the reader's limit of {}", name,
                                    value.size(), facts::kMaxReadableDims));
  }
  std::vector<std::int64_t> dims;
  dims.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i) {
    dims.push_back(read_integer<std::int64_t>(value[i], fmt::format("{}/{}", pointer, i),
                                              fmt::format("int64_t {}[]", name)));
  }
  return dims;
}

// shape and strides hold exactly ndim entries, as the C arrays do; where
// the reader would not read them (ndim negative or past the limit) the file
// must say null, since no entry count could be right.
void check_dims_match_ndim(const std::optional<std::vector<std::int64_t>>& dims, std::int64_t ndim,
                           const std::string& pointer, std::string_view name) {
  if (!dims) return;
  if (ndim < 0 || ndim > facts::kMaxReadableDims) {
    throw DocumentError(pointer,
                        fmt::format("{} must be null when ndim is {} ({}): the reader "
                                    "does not read it then",
                                    name, ndim, ndim < 0 ? "negative" : "past the reader's limit"));
  }
  if (static_cast<std::int64_t>(dims->size()) != ndim) {
    throw DocumentError(pointer, fmt::format("{} has {} entries but ndim is {}; it must hold "
                                             "exactly ndim entries (or be null for NULL)",
                                             name, dims->size(), ndim));
  }
}

void read_dl_tensor(const json& value, const std::string& pointer, facts::TensorFacts& facts) {
  JsonObject tensor(value, pointer, "dl_tensor",
                    {"data", "device", "ndim", "dtype", "shape", "strides", "byte_offset"});
  const json& data = tensor.require("data");
  facts.data = data.is_null() ? 0 : read_address(data, tensor.pointer_to("data"));

  JsonObject device(tensor.require("device"), tensor.pointer_to("device"), "device",
                    {"device_type", "device_id"});
  facts.device_type =
      read_device_type(device.require("device_type"), device.pointer_to("device_type"));
  facts.device_id = read_integer<std::int32_t>(device.require("device_id"),
                                               device.pointer_to("device_id"), "int32_t device_id");

  facts.ndim =
      read_integer<std::int32_t>(tensor.require("ndim"), tensor.pointer_to("ndim"), "int32_t ndim");
  facts.dtype = read_dtype(tensor.require("dtype"), tensor.pointer_to("dtype"));
  facts.shape = read_dims(tensor.require("shape"), tensor.pointer_to("shape"), "shape");
  facts.strides = read_dims(tensor.require("strides"), tensor.pointer_to("strides"), "strides");
  check_dims_match_ndim(facts.shape, facts.ndim, tensor.pointer_to("shape"), "shape");
  check_dims_match_ndim(facts.strides, facts.ndim, tensor.pointer_to("strides"), "strides");
  if (facts.ndim < 0) facts.reader_notes.push_back(facts::note_ndim_negative(facts.ndim));
  if (facts.ndim > facts::kMaxReadableDims) {
    facts.reader_notes.push_back(facts::note_ndim_beyond_limit(facts.ndim));
  }
  if (const json* offset = tensor.find("byte_offset")) {
    facts.byte_offset = read_integer<std::uint64_t>(*offset, tensor.pointer_to("byte_offset"),
                                                    "uint64_t byte_offset");
  }
}

// The CUDA driver's facts (kDLCUDA, kDLCUDAHost, kDLCUDAManaged tensors).
void read_cuda_runtime(const JsonObject& section, facts::RuntimeFacts& runtime) {
  if (const json* type = section.find("cuda_memory_type")) {
    std::string where = section.pointer_to("cuda_memory_type");
    runtime.cuda_memory_type = facts::parse_cuda_memory_type(read_string(*type, where));
    if (!runtime.cuda_memory_type) {
      fail_expected(where, "one of \"unregistered\", \"device\", \"host\", \"managed\", \"array\"",
                    *type);
    }
  }
  if (const json* ordinal = section.find("cuda_ordinal")) {
    runtime.cuda_ordinal = read_integer<std::int32_t>(*ordinal, section.pointer_to("cuda_ordinal"),
                                                      "int32_t cuda_ordinal");
  }
  if (const json* count = section.find("cuda_device_count")) {
    runtime.cuda_device_count = read_integer<std::int32_t>(
        *count, section.pointer_to("cuda_device_count"), "int32_t cuda_device_count");
  }
  if (const json* visible = section.find("cuda_visible_devices")) {
    runtime.cuda_visible_devices =
        read_string(*visible, section.pointer_to("cuda_visible_devices"));
  }
}

facts::RuntimeFacts read_runtime(const json& value, const std::string& pointer) {
  JsonObject section(
      value, pointer, "runtime",
      {"usm_kind", "owner_root_index", "owner_sub_device_index", "owner_device",
       "root_device_count", "default_context", "alloc_base", "alloc_size", "cuda_memory_type",
       "cuda_ordinal", "cuda_device_count", "cuda_visible_devices"});
  facts::RuntimeFacts runtime;
  if (const json* kind = section.find("usm_kind")) {
    std::string where = section.pointer_to("usm_kind");
    runtime.usm_kind = facts::parse_usm_kind(read_string(*kind, where));
    if (!runtime.usm_kind) {
      fail_expected(where, "one of \"unknown\", \"host\", \"device\", \"shared\"", *kind);
    }
  }
  if (const json* index = section.find("owner_root_index")) {
    runtime.owner_root_index = read_integer<std::int32_t>(
        *index, section.pointer_to("owner_root_index"), "int32_t owner_root_index");
  }
  if (const json* index = section.find("owner_sub_device_index"); index && !index->is_null()) {
    runtime.owner_sub_device_index = read_integer<std::int32_t>(
        *index, section.pointer_to("owner_sub_device_index"), "int32_t owner_sub_device_index");
  }
  if (const json* name = section.find("owner_device")) {
    runtime.owner_device_name = read_string(*name, section.pointer_to("owner_device"));
  }
  if (const json* count = section.find("root_device_count")) {
    runtime.root_device_count = read_integer<std::int32_t>(
        *count, section.pointer_to("root_device_count"), "int32_t root_device_count");
  }
  if (const json* flag = section.find("default_context")) {
    runtime.default_context = read_bool(*flag, section.pointer_to("default_context"));
  }
  if (const json* base = section.find("alloc_base")) {
    runtime.alloc_base = read_address(*base, section.pointer_to("alloc_base"));
  }
  if (const json* size = section.find("alloc_size")) {
    runtime.alloc_size = read_address(*size, section.pointer_to("alloc_size"));
  }
  read_cuda_runtime(section, runtime);
  return runtime;
}

}  // namespace

facts::TensorFacts tensor_from_json(const json& value, const std::string& pointer,
                                    const std::string& origin) {
  JsonObject tensor(
      value, pointer, "the tensor",
      {"version", "flags", "deleter", "manager_ctx", "dl_tensor", "runtime", "origin", "comment"});
  facts::TensorFacts facts;
  facts.origin = origin;
  if (const json* recorded = tensor.find("origin")) {
    facts.origin += fmt::format(" ({})", read_string(*recorded, tensor.pointer_to("origin")));
  }
  if (const json* comment = tensor.find("comment"))
    read_string(*comment, tensor.pointer_to("comment"));

  const json* version = tensor.find("version");
  const json* flags = tensor.find("flags");
  if (version == nullptr) {
    facts.abi = facts::Abi::legacy;
    facts.version = {0, 0};
    if (flags != nullptr) {
      throw DocumentError(tensor.pointer_to("flags"),
                          "a legacy DLManagedTensor (no \"version\") has no flags; add "
                          "\"version\" to describe a DLManagedTensorVersioned, or drop \"flags\"");
    }
  } else {
    JsonObject numbers(*version, tensor.pointer_to("version"), "version", {"major", "minor"});
    facts.abi = facts::Abi::versioned;
    facts.version.major = read_integer<std::uint32_t>(
        numbers.require("major"), numbers.pointer_to("major"), "uint32_t major");
    facts.version.minor = read_integer<std::uint32_t>(
        numbers.require("minor"), numbers.pointer_to("minor"), "uint32_t minor");
    if (flags != nullptr) facts.flags = read_flags(*flags, tensor.pointer_to("flags"));
  }
  if (const json* deleter = tensor.find("deleter")) {
    facts.has_deleter = read_bool(*deleter, tensor.pointer_to("deleter"));
  }
  if (const json* context = tensor.find("manager_ctx")) {
    facts.has_manager_ctx = read_bool(*context, tensor.pointer_to("manager_ctx"));
  }

  // Under another major version only the header is meaningful (dlpack.h);
  // a dl_tensor written anyway is checked for form and then set aside.
  bool body_readable =
      facts.abi == facts::Abi::legacy || facts.version.major == dlpack::kModelMajor;
  if (body_readable) {
    read_dl_tensor(tensor.require("dl_tensor"), tensor.pointer_to("dl_tensor"), facts);
  } else {
    if (const json* body = tensor.find("dl_tensor")) {
      facts::TensorFacts set_aside;
      read_dl_tensor(*body, tensor.pointer_to("dl_tensor"), set_aside);
    }
    facts.body_read = false;
    facts.reader_notes.push_back(facts::note_unknown_major(facts.version.major));
  }
  if (const json* runtime = tensor.find("runtime")) {
    facts.runtime = read_runtime(*runtime, tensor.pointer_to("runtime"));
  }
  return facts;
}

}  // namespace dlpack_usm::capsule
