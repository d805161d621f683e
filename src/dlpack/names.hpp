// Names of every DLPack enumerator the model knows, and the header
// generation that introduced it (generations.hpp), so that reports speak in
// names and rules can tell a value the declared version does not define.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dlpack/abi.hpp"
#include "dlpack/generations.hpp"

namespace dlpack_usm::dl {

// "MAJOR.MINOR" read from the start of a text: the one reader of version
// text in C++ (--max-version, the bridge's offer requests, dpctl's version).
// MAJOR is the text before the first '.', MINOR the integer after it; both
// are decimal integers of 0 to UINT32_MAX. What follows MINOR (".1" of
// "0.22.1") is left in `rest`, for a caller to refuse or to ignore.
struct ReleaseText {
  enum class Problem { none, no_dot, major_not_integer, minor_not_integer, out_of_range };
  std::optional<Release> release;  // where problem is none
  Problem problem = Problem::none;
  std::string_view major;  // the text before the first '.'
  std::string_view minor;  // all the text after it, `rest` included
  std::string_view rest;   // what follows MINOR's digits
};
ReleaseText parse_release(std::string_view text);
// `text` as a whole "MAJOR.MINOR" (a max_version asked for: nothing after
// MINOR); Error(usage) naming `what` ("--max-version") and the part that is
// wrong otherwise. The C++ commands and, through the bridge, Python's read
// max_version with it.
Release require_max_version(std::string_view text, std::string_view what);

struct DeviceTypeName {
  std::int32_t value;
  std::string_view name;        // "kDLOneAPI"
  std::string_view short_name;  // "oneapi", accepted in capsule files
  Generation known_since;       // the first dlpack.h that defines it
  bool host_memory;             // device_id is 0 by convention (CPU, pinned, managed)
  bool opaque_data;  // data is a handle (cl_mem, VkBuffer, id<MTLBuffer>), not an address
};

struct DtypeCodeName {
  std::uint8_t code;
  std::string_view name;        // "kDLFloat"
  std::string_view short_name;  // "float"
  Generation known_since;       // the first dlpack.h that defines it
};

struct FlagName {
  std::uint64_t mask;
  std::string_view name;        // "DLPACK_FLAG_BITMASK_READ_ONLY"
  std::string_view short_name;  // "READ_ONLY"
  Release since;
};

std::span<const DeviceTypeName> device_type_table();
std::span<const DtypeCodeName> dtype_code_table();
std::span<const FlagName> flag_table();

const DeviceTypeName* find_device_type(std::int32_t value);
const DtypeCodeName* find_dtype_code(std::uint8_t code);
// Accepts "kDLOneAPI", "oneapi" or "ONEAPI".
const DeviceTypeName* find_device_type(std::string_view name);
const DtypeCodeName* find_dtype_code(std::string_view name);

// Whether `data` of a tensor of this device type is a handle of its API
// (cl_mem, VkBuffer, id<MTLBuffer>, a WebGPU buffer) rather than an address:
// no address arithmetic, alignment or read may be made on it. False for
// device types the model does not know.
bool data_is_handle(std::int32_t device_type);

// "kDLOneAPI", or "unknown(42)" for a value the model does not know.
std::string device_type_display(std::int32_t value);
std::string dtype_code_display(std::uint8_t code);
// "float32", "complex64", "bool", "float8_e4m3fn", "int8x4"; falls back to
// "code5:bits7:lanes1" where no name fits.
std::string dtype_display(DLDataType dtype);
// "READ_ONLY|IS_COPIED|0x10"; "0" for none.
std::string flags_display(std::uint64_t flags);

// The widths in bits a dtype code may carry (the dtype rules judge by
// them); empty for codes of any width (opaque handles) and unknown codes.
std::span<const unsigned> valid_bits(std::uint8_t code);
// The name of every one-lane dtype those widths give, table order: "int1",
// ..., "float32", ..., "bool", "float8_e5m2", ...
std::vector<std::string> dtype_names();

// Parses "float32", "int8", "bool", "complex128", "bfloat16", "uint16",
// "float8_e5m2" and the like into a dtype with one lane.
std::optional<DLDataType> parse_dtype(std::string_view text);

}  // namespace dlpack_usm::dl
