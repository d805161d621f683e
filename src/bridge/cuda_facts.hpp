// The bridge's CUDA calls (ABI 3): what the CUDA driver of the caller's
// process says about a pointer, and streams a caller passes to a producer's
// __dlpack__(stream=...). The driver is process-wide, so the bridge can ask
// about memory that torch, cupy or jax made in the same process.
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

namespace dlpack_usm::bridge {

// {"runtime": {...}}: the capsule-file "runtime" section for `address`.
nlohmann::ordered_json cuda_pointer(std::uint64_t address);

// {"stream": N, "ordinal": K}: a new stream of device `ordinal`'s primary
// context, owned by the bridge until cuda_stream_destroy(N).
nlohmann::ordered_json cuda_stream_create(std::int32_t ordinal);
nlohmann::ordered_json cuda_stream_destroy(std::uint64_t stream);

// The stream checks (ABI 9): a read on a consumer's stream, the device
// idle, a stream's device.
nlohmann::ordered_json cuda_stream_read(std::int32_t ordinal, std::uint64_t stream,
                                        std::uint64_t address, std::uint64_t size,
                                        void* destination);
nlohmann::ordered_json cuda_synchronize(std::int32_t ordinal);
nlohmann::ordered_json cuda_stream_device(std::uint64_t stream);

}  // namespace dlpack_usm::bridge
