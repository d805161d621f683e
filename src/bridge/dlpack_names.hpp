// DLPack's numbers by the names the bridge's answers use (the tool's own
// tables, src/dlpack/names.cpp), so that a caller reading those answers
// keeps no copy of the tables.
#pragma once

#include <nlohmann/json.hpp>

namespace dlpack_usm::bridge {

// {"model_version": "1.3", "device_types": {"kDLCPU": 1, ...},
//  "dtype_codes": {"kDLInt": 0, ...}, "flags": {"READ_ONLY": 1, ...}}
nlohmann::ordered_json dlpack_names_json();

}  // namespace dlpack_usm::bridge
