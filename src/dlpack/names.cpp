#include "dlpack/names.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <vector>

#include <fmt/format.h>

#include "common/error.hpp"

namespace dlpack_usm::dlpack {
namespace {

using enum Generation;

// The first header generation that defines each enumerator, checked against
// the dmlc/dlpack tags v0.6 to v1.1 (their dlpack.h), the 1.3 header of
// apache-tvm-ffi, and the pull requests merged since (generations.cpp says
// which). Everything of Debian's 0.6 header is v0_6, whatever older release
// introduced it: the model starts there. host_memory marks the device types
// whose device_id is 0 by the header's convention ("vanilla CPU memory,
// pinned memory, or managed memory"; kDLTPUHost is TPU's pinned host memory,
// dlpack#188's mirror of kDLCUDAHost); opaque_data the ones whose data is a
// handle of their API (data_is_handle()).
constexpr std::array kDeviceTypes{
    DeviceTypeName{kDLCPU, "kDLCPU", "cpu", v0_6, true, false},
    DeviceTypeName{kDLCUDA, "kDLCUDA", "cuda", v0_6, false, false},
    DeviceTypeName{kDLCUDAHost, "kDLCUDAHost", "cuda_host", v0_6, true, false},
    DeviceTypeName{kDLOpenCL, "kDLOpenCL", "opencl", v0_6, false, true},
    DeviceTypeName{kDLVulkan, "kDLVulkan", "vulkan", v0_6, false, true},
    DeviceTypeName{kDLMetal, "kDLMetal", "metal", v0_6, false, true},
    DeviceTypeName{kDLVPI, "kDLVPI", "vpi", v0_6, false, false},
    DeviceTypeName{kDLROCM, "kDLROCM", "rocm", v0_6, false, false},
    DeviceTypeName{kDLROCMHost, "kDLROCMHost", "rocm_host", v0_6, true, false},
    DeviceTypeName{kDLExtDev, "kDLExtDev", "ext_dev", v0_6, false, false},
    DeviceTypeName{kDLCUDAManaged, "kDLCUDAManaged", "cuda_managed", v0_6, true, false},
    DeviceTypeName{kDLOneAPI, "kDLOneAPI", "oneapi", v0_7, false, false},
    DeviceTypeName{kDLWebGPU, "kDLWebGPU", "webgpu", v0_7, false, true},
    DeviceTypeName{kDLHexagon, "kDLHexagon", "hexagon", v0_7, false, false},
    DeviceTypeName{kDLMAIA, "kDLMAIA", "maia", v1_0, false, false},
    DeviceTypeName{kDLTrn, "kDLTrn", "trn", v1_2, false, false},
    DeviceTypeName{kDLTPU, "kDLTPU", "tpu", main_after_1_3, false, false},
    DeviceTypeName{kDLTPUHost, "kDLTPUHost", "tpu_host", main_after_1_3, true, false},
    DeviceTypeName{kDLAscend, "kDLAscend", "ascend", main_after_1_3, false, false},
};

constexpr std::array kDtypeCodes{
    DtypeCodeName{kDLInt, "kDLInt", "int", v0_6},
    DtypeCodeName{kDLUInt, "kDLUInt", "uint", v0_6},
    DtypeCodeName{kDLFloat, "kDLFloat", "float", v0_6},
    DtypeCodeName{kDLOpaqueHandle, "kDLOpaqueHandle", "opaque_handle", v0_6},
    DtypeCodeName{kDLBfloat, "kDLBfloat", "bfloat", v0_6},
    DtypeCodeName{kDLComplex, "kDLComplex", "complex", v0_6},
    DtypeCodeName{kDLBool, "kDLBool", "bool", v0_8},
    DtypeCodeName{kDLFloat8_e3m4, "kDLFloat8_e3m4", "float8_e3m4", v1_1},
    DtypeCodeName{kDLFloat8_e4m3, "kDLFloat8_e4m3", "float8_e4m3", v1_1},
    DtypeCodeName{kDLFloat8_e4m3b11fnuz, "kDLFloat8_e4m3b11fnuz", "float8_e4m3b11fnuz", v1_1},
    DtypeCodeName{kDLFloat8_e4m3fn, "kDLFloat8_e4m3fn", "float8_e4m3fn", v1_1},
    DtypeCodeName{kDLFloat8_e4m3fnuz, "kDLFloat8_e4m3fnuz", "float8_e4m3fnuz", v1_1},
    DtypeCodeName{kDLFloat8_e5m2, "kDLFloat8_e5m2", "float8_e5m2", v1_1},
    DtypeCodeName{kDLFloat8_e5m2fnuz, "kDLFloat8_e5m2fnuz", "float8_e5m2fnuz", v1_1},
    DtypeCodeName{kDLFloat8_e8m0fnu, "kDLFloat8_e8m0fnu", "float8_e8m0fnu", v1_1},
    DtypeCodeName{kDLFloat6_e2m3fn, "kDLFloat6_e2m3fn", "float6_e2m3fn", v1_1},
    DtypeCodeName{kDLFloat6_e3m2fn, "kDLFloat6_e3m2fn", "float6_e3m2fn", v1_1},
    DtypeCodeName{kDLFloat4_e2m1fn, "kDLFloat4_e2m1fn", "float4_e2m1fn", v1_1},
    DtypeCodeName{kDLBcomplex, "kDLBcomplex", "bcomplex", main_after_1_3},
};

constexpr std::array kFlags{
    FlagName{kFlagReadOnly, "DLPACK_FLAG_BITMASK_READ_ONLY", "READ_ONLY", {1, 0}},
    FlagName{kFlagIsCopied, "DLPACK_FLAG_BITMASK_IS_COPIED", "IS_COPIED", {1, 0}},
    FlagName{kFlagIsSubbyteTypePadded,
             "DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED",
             "IS_SUBBYTE_TYPE_PADDED",
             {1, 1}},
};

// ASCII case, as the C locale's tolower has it, without a call per byte:
// capsule files name a device type and a dtype code per tensor.
bool same_name_ignoring_case(std::string_view a, std::string_view b) {
  auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c | 0x20) : c; };
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [&lower](char x, char y) { return lower(x) == lower(y); });
}

// The element kinds whose dtype names carry no "bits" suffix: bool and the
// float8/6/4 formats, whose names say their width.
bool name_carries_no_bits(std::uint8_t code) {
  return code == kDLBool || (code >= kDLFloat8_e3m4 && code <= kDLFloat4_e2m1fn);
}

// The widths each code may carry. Decisions beyond the header's examples:
// int/uint also take 1, 2 and 4 bits, the sub-byte integers of ml_dtypes
// and PyTorch that DLPack 1.1's packed sub-byte layout describes; complex
// also takes 32 bits, PyTorch's complex32 (ComplexHalf). Opaque handles
// take any width, as their layout is agreed between the two frameworks.
constexpr std::array<unsigned, 7> kIntBits{1, 2, 4, 8, 16, 32, 64};
constexpr std::array<unsigned, 3> kFloatBits{16, 32, 64};
constexpr std::array<unsigned, 3> kComplexBits{32, 64, 128};
constexpr std::array<unsigned, 1> k32Bits{32};
constexpr std::array<unsigned, 1> k16Bits{16};
constexpr std::array<unsigned, 1> k8Bits{8};
constexpr std::array<unsigned, 1> k6Bits{6};
constexpr std::array<unsigned, 1> k4Bits{4};

}  // namespace

ReleaseText parse_release(std::string_view text) {
  using Problem = ReleaseText::Problem;
  ReleaseText read;
  std::size_t dot = text.find('.');
  if (dot == std::string_view::npos) {
    read.problem = Problem::no_dot;
    return read;
  }
  read.major = text.substr(0, dot);
  read.minor = text.substr(dot + 1);
  // Signed, so that "-1" reads as a number out of range, not as no number.
  std::int64_t major = 0;
  auto [major_end, major_error] =
      std::from_chars(read.major.data(), read.major.data() + read.major.size(), major);
  if (major_error != std::errc() || major_end != read.major.data() + read.major.size()) {
    read.problem = Problem::major_not_integer;
    return read;
  }
  std::int64_t minor = 0;
  auto [minor_end, minor_error] =
      std::from_chars(read.minor.data(), read.minor.data() + read.minor.size(), minor);
  if (minor_error != std::errc()) {
    read.problem = Problem::minor_not_integer;
    return read;
  }
  read.rest = read.minor.substr(static_cast<std::size_t>(minor_end - read.minor.data()));
  if (major < 0 || minor < 0 || major > UINT32_MAX || minor > UINT32_MAX) {
    read.problem = Problem::out_of_range;
    return read;
  }
  read.release = Release{static_cast<std::uint32_t>(major), static_cast<std::uint32_t>(minor)};
  return read;
}

Release require_max_version(std::string_view text, std::string_view what) {
  using Problem = ReleaseText::Problem;
  ReleaseText read = parse_release(text);
  if (read.problem == Problem::no_dot) {
    fail_usage(fmt::format("{} '{}' is not MAJOR.MINOR", what, text));
  }
  if (read.problem == Problem::major_not_integer) {
    fail_usage(fmt::format("{} major '{}' is not an integer", what, read.major));
  }
  if (read.problem == Problem::minor_not_integer || !read.rest.empty()) {
    fail_usage(fmt::format("{} minor '{}' is not an integer", what, read.minor));
  }
  if (read.problem == Problem::out_of_range) {
    fail_usage(fmt::format("{} '{}' is out of range", what, text));
  }
  return *read.release;
}

std::span<const unsigned> valid_bits(std::uint8_t code) {
  switch (code) {
    case kDLInt:
    case kDLUInt:
      return kIntBits;
    case kDLFloat:
      return kFloatBits;
    case kDLBfloat:
      return k16Bits;
    case kDLComplex:
      return kComplexBits;
    case kDLBcomplex:  // "2x bfloat16" (dlpack#187)
      return k32Bits;
    case kDLBool:
      return k8Bits;
    case kDLFloat6_e2m3fn:
    case kDLFloat6_e3m2fn:
      return k6Bits;
    case kDLFloat4_e2m1fn:
      return k4Bits;
    default:
      break;
  }
  if (code >= kDLFloat8_e3m4 && code <= kDLFloat8_e8m0fnu) return k8Bits;
  return {};
}

std::vector<std::string> dtype_names() {
  std::vector<std::string> names;
  for (const DtypeCodeName& code : kDtypeCodes) {
    for (unsigned bits : valid_bits(code.code)) {
      names.push_back(dtype_display({code.code, static_cast<std::uint8_t>(bits), 1}));
    }
  }
  return names;
}

std::span<const DeviceTypeName> device_type_table() {
  return kDeviceTypes;
}
std::span<const DtypeCodeName> dtype_code_table() {
  return kDtypeCodes;
}
std::span<const FlagName> flag_table() {
  return kFlags;
}

const DeviceTypeName* find_device_type(std::int32_t value) {
  auto it = std::find_if(kDeviceTypes.begin(), kDeviceTypes.end(),
                         [value](const DeviceTypeName& d) { return d.value == value; });
  return it == kDeviceTypes.end() ? nullptr : &*it;
}

const DtypeCodeName* find_dtype_code(std::uint8_t code) {
  auto it = std::find_if(kDtypeCodes.begin(), kDtypeCodes.end(),
                         [code](const DtypeCodeName& d) { return d.code == code; });
  return it == kDtypeCodes.end() ? nullptr : &*it;
}

const DeviceTypeName* find_device_type(std::string_view name) {
  auto it = std::find_if(kDeviceTypes.begin(), kDeviceTypes.end(), [name](const DeviceTypeName& d) {
    return same_name_ignoring_case(d.name, name) || same_name_ignoring_case(d.short_name, name);
  });
  return it == kDeviceTypes.end() ? nullptr : &*it;
}

const DtypeCodeName* find_dtype_code(std::string_view name) {
  auto it = std::find_if(kDtypeCodes.begin(), kDtypeCodes.end(), [name](const DtypeCodeName& d) {
    return same_name_ignoring_case(d.name, name) || same_name_ignoring_case(d.short_name, name);
  });
  return it == kDtypeCodes.end() ? nullptr : &*it;
}

bool data_is_handle(std::int32_t device_type) {
  const DeviceTypeName* known = find_device_type(device_type);
  return known != nullptr && known->opaque_data;
}

std::string device_type_display(std::int32_t value) {
  const DeviceTypeName* known = find_device_type(value);
  return known ? std::string(known->name) : fmt::format("unknown({})", value);
}

std::string dtype_code_display(std::uint8_t code) {
  const DtypeCodeName* known = find_dtype_code(code);
  return known ? std::string(known->name) : fmt::format("unknown({})", code);
}

std::string dtype_display(DLDataType dtype) {
  const DtypeCodeName* known = find_dtype_code(dtype.code);
  if (known == nullptr) {
    return fmt::format("code{}:bits{}:lanes{}", dtype.code, dtype.bits, dtype.lanes);
  }
  std::string name = name_carries_no_bits(dtype.code)
                         ? std::string(known->short_name)
                         : fmt::format("{}{}", known->short_name, dtype.bits);
  if (dtype.lanes != 1) name += fmt::format("x{}", dtype.lanes);
  return name;
}

std::string flags_display(std::uint64_t flags) {
  if (flags == 0) return "0";
  std::string text;
  for (const FlagName& flag : kFlags) {
    if ((flags & flag.mask) == 0) continue;
    if (!text.empty()) text += '|';
    text += flag.short_name;
    flags &= ~flag.mask;
  }
  if (flags != 0) text += fmt::format("{}{:#x}", text.empty() ? "" : "|", flags);
  return text;
}

std::optional<DLDataType> parse_dtype(std::string_view text) {
  if (const DtypeCodeName* whole = find_dtype_code(text);
      whole != nullptr && name_carries_no_bits(whole->code)) {
    // bool is 8 bits by the header's convention; float8/6/4 carry their width.
    std::uint8_t bits = whole->code == kDLBool             ? 8
                        : whole->code <= kDLFloat8_e8m0fnu ? 8
                        : whole->code == kDLFloat4_e2m1fn  ? 4
                                                           : 6;
    return DLDataType{whole->code, bits, 1};
  }
  std::size_t digits = text.find_first_of("0123456789");
  if (digits == std::string_view::npos || digits == 0) return std::nullopt;
  const DtypeCodeName* code = find_dtype_code(text.substr(0, digits));
  if (code == nullptr || name_carries_no_bits(code->code)) return std::nullopt;
  unsigned bits = 0;
  for (char c : text.substr(digits)) {
    if (c < '0' || c > '9' || bits > 255) return std::nullopt;
    bits = bits * 10 + static_cast<unsigned>(c - '0');
  }
  if (bits == 0 || bits > 255) return std::nullopt;
  return DLDataType{code->code, static_cast<std::uint8_t>(bits), 1};
}

}  // namespace dlpack_usm::dlpack
