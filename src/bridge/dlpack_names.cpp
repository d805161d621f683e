#include "bridge/dlpack_names.hpp"

#include <cstddef>
#include <string>

#include "dlpack/abi.hpp"
#include "dlpack/names.hpp"

namespace dlpack_usm::bridge {

using nlohmann::ordered_json;

ordered_json dlpack_names_json() {
  ordered_json device_types = ordered_json::object();
  for (const dl::DeviceTypeName& type : dl::device_type_table()) {
    device_types[std::string(type.name)] = type.value;
  }
  ordered_json dtype_codes = ordered_json::object();
  for (const dl::DtypeCodeName& code : dl::dtype_code_table()) {
    dtype_codes[std::string(code.name)] = code.code;
  }
  // Flags go by their short names: capsule files write "READ_ONLY|IS_COPIED".
  ordered_json flags = ordered_json::object();
  for (const dl::FlagName& flag : dl::flag_table()) {
    flags[std::string(flag.short_name)] = flag.mask;
  }
  // Where each struct keeps its deleter, by the name of the capsule that
  // carries it: a capsule's destructor calls it without a struct of its own.
  ordered_json deleter_offsets{
      {"dltensor", offsetof(dl::DLManagedTensor, deleter)},
      {"dltensor_versioned", offsetof(dl::DLManagedTensorVersioned, deleter)}};
  return {{"model_version", dl::to_string(dl::kModelRelease)},
          {"device_types", device_types},
          {"dtype_codes", dtype_codes},
          {"flags", flags},
          {"deleter_offsets", deleter_offsets}};
}

}  // namespace dlpack_usm::bridge
