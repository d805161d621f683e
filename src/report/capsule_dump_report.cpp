#include "report/capsule_dump_report.hpp"

#include <fmt/format.h>

#include "common/printable.hpp"
#include "dlpack/names.hpp"
#include "report/dims_text.hpp"

namespace dlpack_usm::report {
namespace {

using nlohmann::ordered_json;

const char* abi_name(facts::Abi abi) {
  return abi == facts::Abi::legacy ? "DLManagedTensor" : "DLManagedTensorVersioned";
}

std::string hex(std::uint64_t value) {
  return fmt::format("{:#x}", value);
}

// Names of the known flag bits set in `flags`.
std::vector<std::string> flag_names(std::uint64_t flags) {
  std::vector<std::string> names;
  for (const dl::FlagName& flag : dl::flag_table()) {
    if ((flags & flag.mask) != 0) names.emplace_back(flag.short_name);
  }
  return names;
}

std::uint64_t unknown_flag_bits(std::uint64_t flags) {
  for (const dl::FlagName& flag : dl::flag_table()) flags &= ~flag.mask;
  return flags;
}

template <typename T>
ordered_json optional_json(const std::optional<T>& value) {
  return value ? ordered_json(*value) : ordered_json(nullptr);
}

// ---- JSON writer ----

ordered_json dl_tensor_json(const facts::TensorFacts& facts) {
  const dl::DeviceTypeName* type = dl::find_device_type(facts.device_type);
  const dl::DtypeCodeName* code = dl::find_dtype_code(facts.dtype.code);
  ordered_json tensor;
  tensor["data"] = facts.data == 0 ? ordered_json(nullptr) : ordered_json(hex(facts.data));
  tensor["device"] = {
      {"device_type", facts.device_type},
      {"device_type_name", type ? ordered_json(std::string(type->name)) : ordered_json(nullptr)},
      {"device_id", facts.device_id}};
  tensor["ndim"] = facts.ndim;
  tensor["dtype"] = {
      {"code", facts.dtype.code},
      {"code_name", code ? ordered_json(std::string(code->name)) : ordered_json(nullptr)},
      {"bits", facts.dtype.bits},
      {"lanes", facts.dtype.lanes},
      {"name", dl::dtype_display(facts.dtype)}};
  tensor["shape"] = optional_json(facts.shape);
  tensor["strides"] = optional_json(facts.strides);
  tensor["byte_offset"] = facts.byte_offset;
  return tensor;
}

ordered_json runtime_json(const facts::RuntimeFacts& runtime) {
  ordered_json section;
  section["usm_kind"] =
      runtime.usm_kind ? ordered_json(facts::to_string(*runtime.usm_kind)) : ordered_json(nullptr);
  section["owner_device"] = optional_json(runtime.owner_device_name);
  section["owner_root_index"] = optional_json(runtime.owner_root_index);
  section["owner_sub_device_index"] = optional_json(runtime.owner_sub_device_index);
  section["root_device_count"] = optional_json(runtime.root_device_count);
  section["default_context"] = optional_json(runtime.default_context);
  section["alloc_base"] =
      runtime.alloc_base ? ordered_json(hex(*runtime.alloc_base)) : ordered_json(nullptr);
  section["alloc_size"] = optional_json(runtime.alloc_size);
  return section;
}

ordered_json derived_json(const facts::DerivedFacts& derived) {
  ordered_json section;
  section["element_bytes"] = derived.element_bytes;
  section["element_count"] = optional_json(derived.element_count);
  section["element_count_overflows"] = derived.element_count_overflows;
  section["effective_strides"] = optional_json(derived.effective_strides);
  if (derived.lowest_byte && derived.end_byte) {
    section["byte_extent"] = {{"lowest_byte", *derived.lowest_byte},
                              {"end_byte", *derived.end_byte}};
  } else {
    section["byte_extent"] = nullptr;
  }
  section["extent_overflows"] = derived.extent_overflows;
  section["contiguity"] = facts::to_string(derived.contiguity);
  section["data_alignment"] = derived.data_alignment;
  section["first_element_alignment"] = derived.first_element_alignment;
  return section;
}

ordered_json tensor_json(const TensorDump& tensor) {
  const facts::TensorFacts& facts = tensor.facts;
  bool versioned = facts.abi == facts::Abi::versioned;
  ordered_json out;
  out["origin"] = facts.origin;
  out["abi"] = abi_name(facts.abi);
  out["body_read"] = facts.body_read;
  out["version"] =
      versioned ? ordered_json{{"major", facts.version.major}, {"minor", facts.version.minor}}
                : ordered_json(nullptr);
  if (versioned) {
    out["flags"] = {{"value", facts.flags},
                    {"names", flag_names(facts.flags)},
                    {"unknown_bits", unknown_flag_bits(facts.flags)}};
  } else {
    out["flags"] = nullptr;
  }
  out["deleter"] = facts.has_deleter;
  out["manager_ctx"] = facts.has_manager_ctx;
  out["dl_tensor"] = facts.body_read ? dl_tensor_json(facts) : ordered_json(nullptr);
  out["runtime"] = facts.runtime ? runtime_json(*facts.runtime) : ordered_json(nullptr);
  out["derived"] = facts.body_read ? derived_json(tensor.derived) : ordered_json(nullptr);
  out["reader_notes"] = facts.reader_notes;
  return out;
}

// ---- text writer ----

// A titled block of "key  value" lines with the values aligned.
class Block {
 public:
  void add(std::string key, std::string value) {
    rows_.emplace_back(std::move(key), std::move(value));
  }
  std::string render(const std::string& indent) const {
    std::size_t width = 0;
    for (const auto& row : rows_) width = std::max(width, row.first.size());
    std::string text;
    for (const auto& [key, value] : rows_) {
      text += fmt::format("{}{:<{}}  {}\n", indent, key, width, value);
    }
    return text;
  }

 private:
  std::vector<std::pair<std::string, std::string>> rows_;
};

template <typename T>
std::string optional_text(const std::optional<T>& value) {
  return value ? fmt::format("{}", *value) : "-";
}

std::string named_value(std::string_view name, std::int64_t value) {
  return name.empty()
             ? fmt::format("{} (no name in DLPack {})", value, dl::to_string(dl::kModelRelease))
             : fmt::format("{} ({})", name, value);
}

std::string header_text(const facts::TensorFacts& facts) {
  Block block;
  block.add("abi", abi_name(facts.abi));
  if (facts.abi == facts::Abi::versioned) {
    block.add("version", fmt::format("{}.{}", facts.version.major, facts.version.minor));
    block.add("flags", facts.flags == 0 ? "0"
                                        : fmt::format("{} ({})", hex(facts.flags),
                                                      dl::flags_display(facts.flags)));
  }
  block.add("deleter", facts.has_deleter ? "present" : "NULL");
  block.add("manager_ctx", facts.has_manager_ctx ? "present" : "NULL");
  return block.render("  ");
}

std::string dl_tensor_text(const facts::TensorFacts& facts) {
  const dl::DeviceTypeName* type = dl::find_device_type(facts.device_type);
  const dl::DtypeCodeName* code = dl::find_dtype_code(facts.dtype.code);
  Block block;
  block.add("data", facts.data == 0 ? "NULL" : hex(facts.data));
  block.add("device_type", named_value(type ? type->name : "", facts.device_type));
  block.add("device_id", fmt::format("{}", facts.device_id));
  block.add("ndim", fmt::format("{}", facts.ndim));
  block.add("dtype", fmt::format("{} (code {}, bits {}, lanes {})", dl::dtype_display(facts.dtype),
                                 named_value(code ? code->name : "", facts.dtype.code),
                                 facts.dtype.bits, facts.dtype.lanes));
  block.add("shape", dims_text(facts.shape));
  block.add("strides", dims_text(facts.strides));
  block.add("byte_offset", fmt::format("{}", facts.byte_offset));
  return "  dl_tensor\n" + block.render("    ");
}

std::string runtime_text(const facts::RuntimeFacts& runtime) {
  Block block;
  block.add("usm_kind", runtime.usm_kind ? facts::to_string(*runtime.usm_kind) : "-");
  block.add("owner_device",
            runtime.owner_device_name ? printable(*runtime.owner_device_name) : "-");
  block.add("owner_root_index", optional_text(runtime.owner_root_index));
  block.add("owner_sub_device_index", optional_text(runtime.owner_sub_device_index));
  block.add("root_device_count", optional_text(runtime.root_device_count));
  block.add("default_context",
            runtime.default_context ? (*runtime.default_context ? "yes" : "no") : "-");
  block.add("alloc_base", runtime.alloc_base ? hex(*runtime.alloc_base) : "-");
  block.add("alloc_size", optional_text(runtime.alloc_size));
  return "  runtime\n" + block.render("    ");
}

std::string extent_text(const facts::DerivedFacts& derived) {
  if (derived.lowest_byte && derived.end_byte) {
    return fmt::format("[{}, {}) bytes from data + byte_offset", *derived.lowest_byte,
                       *derived.end_byte);
  }
  return derived.extent_overflows ? "overflows 64 bits" : "unknown (shape or strides unreadable)";
}

std::string derived_text(const facts::TensorFacts& facts, const facts::DerivedFacts& derived) {
  Block block;
  block.add("element_bytes", fmt::format("{}", derived.element_bytes));
  block.add("element_count", derived.element_count ? fmt::format("{}", *derived.element_count)
                             : derived.element_count_overflows ? "overflows 64 bits"
                                                               : "unknown (shape unreadable)");
  std::string strides = dims_text(derived.effective_strides);
  if (!derived.effective_strides) strides = "unknown";
  if (derived.effective_strides && !facts.strides) strides += " (row-major, strides NULL)";
  block.add("effective_strides", strides);
  block.add("byte_extent", extent_text(derived));
  block.add("contiguity", facts::to_string(derived.contiguity));
  block.add("data_alignment", fmt::format("{}", derived.data_alignment));
  block.add("first_element_alignment", fmt::format("{}", derived.first_element_alignment));
  return "  derived\n" + block.render("    ");
}

std::string tensor_dump_text(const TensorDump& tensor) {
  const facts::TensorFacts& facts = tensor.facts;
  std::string text = fmt::format("{}\n", printable(facts.origin));
  text += header_text(facts);
  if (facts.body_read) {
    text += dl_tensor_text(facts);
  } else {
    text += "  dl_tensor  not read (unknown major version)\n";
  }
  if (facts.runtime) text += runtime_text(*facts.runtime);
  if (facts.body_read) text += derived_text(facts, tensor.derived);
  if (!facts.reader_notes.empty()) {
    text += "  reader notes\n";
    for (const std::string& note : facts.reader_notes)
      text += fmt::format("    - {}\n", printable(note));
  }
  return text;
}

}  // namespace

CapsuleDump build_capsule_dump(std::string file, std::vector<facts::TensorFacts> tensors) {
  CapsuleDump dump{std::move(file), {}};
  dump.tensors.reserve(tensors.size());
  for (facts::TensorFacts& facts : tensors) {
    facts::DerivedFacts derived = facts::derive(facts);
    dump.tensors.push_back({std::move(facts), std::move(derived)});
  }
  return dump;
}

ordered_json capsule_dump_to_json(const CapsuleDump& dump) {
  ordered_json out;
  out["file"] = dump.file;
  out["tensors"] = ordered_json::array();
  for (const TensorDump& tensor : dump.tensors) out["tensors"].push_back(tensor_json(tensor));
  return out;
}

std::string capsule_dump_to_text(const CapsuleDump& dump) {
  std::string text;
  for (const TensorDump& tensor : dump.tensors) {
    if (!text.empty()) text += '\n';
    text += tensor_dump_text(tensor);
  }
  return text;
}

}  // namespace dlpack_usm::report
