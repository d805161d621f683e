// What the bridge does for one tensor a caller holds: read it with the
// facts reader of the command line, add the runtime facts the caller's own
// runtime gave, judge it with the rule catalog, and optionally write it down
// as a capsule file. The C ABI (bridge_abi.cpp) only wraps this.
#pragma once

#include <filesystem>
#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

namespace dlpack_usm::bridge {

// `capsule_name` says what `managed_tensor` points to ("dltensor": a
// DLManagedTensor, "dltensor_versioned": a DLManagedTensorVersioned).
// `request_json` is empty or the request object of bridge.h. Returns
// {"capsule", "reader_notes", "findings", "dump", "dump_text"}. Throws Error(usage) for a NULL
// tensor, another capsule name or a bad request, Error(environment) when
// `capture_path` cannot be written.
nlohmann::ordered_json inspect_tensor(const void* managed_tensor, std::string_view capsule_name,
                                      std::string_view request_json,
                                      const std::optional<std::filesystem::path>& capture_path);

}  // namespace dlpack_usm::bridge
