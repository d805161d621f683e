// Tensors of the consumer matrix offered to a Python consumer: a cell in
// USM of a kind on a root device (through suite::offer, as `check
// --consumer` offers it) or in plain host memory (kDLCPU), with a deleter
// that counts its calls per tensor. The memory outlives the deleter until
// the caller releases the offer, so that writes into READ_ONLY tensors can
// be found and a consumer's late reads never touch freed memory.
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

namespace dlpack_usm::bridge {

// `request`: {"cell": NAME, "memory": "cpu"|"host"|"device"|"shared",
// "device_id": N (USM), "version": "MAJOR.MINOR" (at most this version; the
// cell's own where it is older), "copied": bool (sets IS_COPIED)}.
// Returns the DLManagedTensorVersioned* or DLManagedTensor* (NULL where the
// cell cannot be tested here, with "untestable" saying why, or needs a
// newer version than asked for, with "consumer_too_old") and fills
// `info`: {"handle", "capsule_name", "device": [type, id], "version",
// "flags", "dtype", "shape", "element_bytes", "elements" (hex, logical
// order), "checksum", "dropped_flags"}.
void* offer_cell(const nlohmann::json& request, nlohmann::ordered_json& info);

// {"deleter_calls", "written_bytes", "stray_deleter_calls"} of offer `handle`.
nlohmann::ordered_json offer_state(std::uint64_t handle);

// Forgets offer `handle` and frees its memory, unless its deleter never ran:
// then the consumer may still hold the data, and the memory is kept.
nlohmann::ordered_json offer_release(std::uint64_t handle);

}  // namespace dlpack_usm::bridge
