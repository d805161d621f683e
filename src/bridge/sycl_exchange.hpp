// The tool's own kDLOneAPI export and import on the SYCL runtime, for a
// caller in the same process as a SYCL library (the Python package with
// dpnp): the tool's export goes to that library's importer, and that
// library's export to the tool's importer, through one SYCL runtime and its
// default platform contexts.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace dlpack_usm::bridge {

// Allocates `bytes` of `usm_kind` USM for root device `device_id` in SYCL's
// default context, copies `host_data` into it through the device, and
// exports it as a 1-D tensor of `dtype` (a dtype name); the deleter frees
// the allocation. Returns the DLManagedTensorVersioned* and fills `info`.
void* sycl_export(const std::string& usm_kind, std::int32_t device_id, const std::string& dtype,
                  const void* host_data, std::uint64_t bytes, nlohmann::ordered_json& info);

// Imports a DLManagedTensorVersioned* ("dltensor_versioned") or legacy
// DLManagedTensor* ("dltensor") through the tool's importer, reads every
// element back and releases it (its deleter runs once, refused or not).
nlohmann::ordered_json sycl_import(void* managed_tensor, const std::string& capsule_name);

// Copies `size` bytes at `address` to `destination` on `queue`, a
// DPCTLSyclQueueRef of a caller's, and waits for that copy (ABI 9).
nlohmann::ordered_json sycl_queue_read(void* queue, std::uint64_t address, std::uint64_t size,
                                       void* destination);

}  // namespace dlpack_usm::bridge
