#include "report/capsule_dump_report.hpp"

#include <fmt/format.h>

#include "common/printable.hpp"
#include "dlpack/names.hpp"
#include "report/dims_text.hpp"
#include "report/envelope.hpp"
#include "report/json_printer.hpp"
#include "report/text_printer.hpp"

namespace dlpack_usm::report {
namespace {

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
Value optional_value(const std::optional<T>& value) {
  return value ? Value(*value) : Value(nullptr);
}

template <typename T>
std::string optional_text(const std::optional<T>& value) {
  return value ? fmt::format("{}", *value) : "-";
}

// "kDLOneAPI (14)", or the number alone with a note where DLPack has no name.
std::string named_value(std::string_view name, std::int64_t value) {
  return name.empty()
             ? fmt::format("{} (no name in DLPack {})", value, dl::to_string(dl::kModelRelease))
             : fmt::format("{} ({})", name, value);
}

TextView titled_section(std::string title) {
  TextView view;
  view.title = std::move(title);
  view.indent = 2;
  return view;
}

void print_header(Printer& printer, const facts::TensorFacts& facts) {
  printer.field("abi", abi_name(facts.abi), abi_name(facts.abi));
  printer.data("body_read", facts.body_read);
  if (facts.abi == facts::Abi::versioned) {
    printer.field("version", {{"major", facts.version.major}, {"minor", facts.version.minor}},
                  fmt::format("{}.{}", facts.version.major, facts.version.minor));
    printer.field("flags",
                  {{"value", facts.flags},
                   {"names", flag_names(facts.flags)},
                   {"unknown_bits", unknown_flag_bits(facts.flags)}},
                  facts.flags == 0
                      ? "0"
                      : fmt::format("{} ({})", hex(facts.flags), dl::flags_display(facts.flags)));
  } else {
    printer.data("version", nullptr);
    printer.data("flags", nullptr);
  }
  printer.field("deleter", facts.has_deleter, facts.has_deleter ? "present" : "NULL");
  printer.field("manager_ctx", facts.has_manager_ctx, facts.has_manager_ctx ? "present" : "NULL");
}

void print_dl_tensor(Printer& printer, const facts::TensorFacts& facts) {
  ObjectScope scope(printer, "dl_tensor", titled_section("dl_tensor"));
  const dl::DeviceTypeName* type = dl::find_device_type(facts.device_type);
  const dl::DtypeCodeName* code = dl::find_dtype_code(facts.dtype.code);
  printer.field("data", facts.data == 0 ? Value(nullptr) : Value(hex(facts.data)),
                facts.data == 0 ? "NULL" : hex(facts.data));
  {
    // One object for machines; text shows its fields among the others.
    ObjectScope device(printer, "device");
    printer.field("device_type", facts.device_type,
                  named_value(type ? type->name : "", facts.device_type));
    printer.data("device_type_name", type ? Value(std::string(type->name)) : Value(nullptr));
    printer.field("device_id", facts.device_id, fmt::format("{}", facts.device_id));
  }
  printer.field("ndim", facts.ndim, fmt::format("{}", facts.ndim));
  printer.field("dtype",
                {{"code", facts.dtype.code},
                 {"code_name", code ? Value(std::string(code->name)) : Value(nullptr)},
                 {"bits", facts.dtype.bits},
                 {"lanes", facts.dtype.lanes},
                 {"name", dl::dtype_display(facts.dtype)}},
                fmt::format("{} (code {}, bits {}, lanes {})", dl::dtype_display(facts.dtype),
                            named_value(code ? code->name : "", facts.dtype.code), facts.dtype.bits,
                            facts.dtype.lanes));
  printer.field("shape", optional_value(facts.shape), dims_text(facts.shape));
  printer.field("strides", optional_value(facts.strides), dims_text(facts.strides));
  printer.field("byte_offset", facts.byte_offset, fmt::format("{}", facts.byte_offset));
}

void print_runtime_facts(Printer& printer, const facts::RuntimeFacts& runtime) {
  ObjectScope scope(printer, "runtime", titled_section("runtime"));
  printer.field("usm_kind",
                runtime.usm_kind ? Value(facts::to_string(*runtime.usm_kind)) : Value(nullptr),
                runtime.usm_kind ? facts::to_string(*runtime.usm_kind) : "-");
  printer.field("owner_device", optional_value(runtime.owner_device_name),
                runtime.owner_device_name ? printable(*runtime.owner_device_name) : "-");
  printer.field("owner_root_index", optional_value(runtime.owner_root_index),
                optional_text(runtime.owner_root_index));
  printer.field("owner_sub_device_index", optional_value(runtime.owner_sub_device_index),
                optional_text(runtime.owner_sub_device_index));
  printer.field("root_device_count", optional_value(runtime.root_device_count),
                optional_text(runtime.root_device_count));
  printer.field("default_context", optional_value(runtime.default_context),
                runtime.default_context ? (*runtime.default_context ? "yes" : "no") : "-");
  printer.field("alloc_base", runtime.alloc_base ? Value(hex(*runtime.alloc_base)) : Value(nullptr),
                runtime.alloc_base ? hex(*runtime.alloc_base) : "-");
  printer.field("alloc_size", optional_value(runtime.alloc_size),
                optional_text(runtime.alloc_size));
}

std::string extent_text(const facts::DerivedFacts& derived) {
  if (derived.lowest_byte && derived.end_byte) {
    return fmt::format("[{}, {}) bytes from data + byte_offset", *derived.lowest_byte,
                       *derived.end_byte);
  }
  return derived.extent_overflows ? "overflows 64 bits" : "unknown (shape or strides unreadable)";
}

std::string effective_strides_text(const facts::TensorFacts& facts,
                                   const facts::DerivedFacts& derived) {
  if (!derived.effective_strides) return "unknown";
  std::string strides = dims_text(derived.effective_strides);
  if (!facts.strides) strides += " (row-major, strides NULL)";
  return strides;
}

void print_derived(Printer& printer, const facts::TensorFacts& facts,
                   const facts::DerivedFacts& derived) {
  ObjectScope scope(printer, "derived", titled_section("derived"));
  printer.field("element_bytes", derived.element_bytes, fmt::format("{}", derived.element_bytes));
  printer.field("element_count", optional_value(derived.element_count),
                derived.element_count             ? fmt::format("{}", *derived.element_count)
                : derived.element_count_overflows ? "overflows 64 bits"
                                                  : "unknown (shape unreadable)");
  printer.data("element_count_overflows", derived.element_count_overflows);
  printer.field("effective_strides", optional_value(derived.effective_strides),
                effective_strides_text(facts, derived));
  printer.field("byte_extent",
                derived.lowest_byte && derived.end_byte
                    ? Value{{"lowest_byte", *derived.lowest_byte}, {"end_byte", *derived.end_byte}}
                    : Value(nullptr),
                extent_text(derived));
  printer.data("extent_overflows", derived.extent_overflows);
  printer.field("contiguity", facts::to_string(derived.contiguity),
                facts::to_string(derived.contiguity));
  printer.data("data_is_handle", derived.data_is_handle);
  // A handle is no address: its alignments are 0, which text says in words.
  const std::string handle = "none (data is a handle, not an address)";
  printer.field("data_alignment", derived.data_alignment,
                derived.data_is_handle ? handle : fmt::format("{}", derived.data_alignment));
  printer.field(
      "first_element_alignment", derived.first_element_alignment,
      derived.data_is_handle ? handle : fmt::format("{}", derived.first_element_alignment));
}

void print_reader_notes(Printer& printer, const std::vector<std::string>& notes) {
  ListScope scope(printer, "reader_notes", titled_section("reader notes"));
  for (const std::string& note : notes) {
    printer.data({}, note);
    printer.line(fmt::format("- {}", printable(note)));
  }
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

TensorDump dump_tensor(const facts::TensorFacts& tensor) {
  return {tensor, facts::derive(tensor)};
}

void print_tensor_dump(Printer& printer, std::string_view key, const TensorDump& tensor) {
  const facts::TensorFacts& facts = tensor.facts;
  ObjectScope scope(printer, key, titled_section(printable(facts.origin)));
  printer.data("origin", facts.origin);
  print_header(printer, facts);
  if (facts.body_read) {
    print_dl_tensor(printer, facts);
  } else {
    printer.data("dl_tensor", nullptr);
    printer.line("dl_tensor  not read (unknown major version)");
  }
  if (facts.runtime) {
    print_runtime_facts(printer, *facts.runtime);
  } else {
    printer.data("runtime", nullptr);
  }
  if (facts.body_read) {
    print_derived(printer, facts, tensor.derived);
  } else {
    printer.data("derived", nullptr);
  }
  print_reader_notes(printer, facts.reader_notes);
}

void print_capsule_dump(Printer& printer, const CapsuleDump& dump) {
  print_envelope(printer, kCapsuleDumpSchema);
  printer.data("file", dump.file);
  ListScope tensors(printer, "tensors");
  for (std::size_t i = 0; i < dump.tensors.size(); ++i) {
    if (i > 0) printer.line("");
    print_tensor_dump(printer, {}, dump.tensors[i]);
  }
}

nlohmann::ordered_json capsule_dump_to_json(const CapsuleDump& dump) {
  return render_json(print_capsule_dump, dump);
}

std::string capsule_dump_to_text(const CapsuleDump& dump) {
  return render_text(print_capsule_dump, dump);
}

}  // namespace dlpack_usm::report
