#include "bridge/cuda_facts.hpp"

#include <map>
#include <memory>
#include <mutex>

#include <fmt/format.h>

#include "capsule/capsule_file.hpp"
#include "common/error.hpp"
#include "runtime/cuda/cuda_driver.hpp"

namespace dlpack_usm::bridge {
namespace {

using nlohmann::ordered_json;
using runtime::cuda::CudaStream;

// The streams handed out, by handle: the caller holds numbers, the bridge
// the objects that release them.
struct StreamRegistry {
  std::mutex mutex;
  std::map<std::uint64_t, std::unique_ptr<CudaStream>> streams;
};

StreamRegistry& stream_registry() {
  static StreamRegistry registry;
  return registry;
}

}  // namespace

ordered_json cuda_pointer(std::uint64_t address) {
  return {{"runtime", capsule::to_runtime_json(runtime::cuda::cuda_pointer_facts(address))}};
}

ordered_json cuda_stream_create(std::int32_t ordinal) {
  auto stream = std::make_unique<CudaStream>(ordinal);
  std::uint64_t handle = stream->handle();
  StreamRegistry& registry = stream_registry();
  std::lock_guard lock(registry.mutex);
  registry.streams[handle] = std::move(stream);
  return {{"stream", handle}, {"ordinal", ordinal}};
}

ordered_json cuda_stream_destroy(std::uint64_t stream) {
  std::unique_ptr<CudaStream> owned;
  {
    StreamRegistry& registry = stream_registry();
    std::lock_guard lock(registry.mutex);
    auto found = registry.streams.find(stream);
    if (found == registry.streams.end()) {
      throw Error(ExitCode::usage, fmt::format("{:#x} is no stream the bridge created", stream),
                  "pass a handle dlpack_usm_bridge_cuda_stream_create returned, once");
    }
    owned = std::move(found->second);
    registry.streams.erase(found);
  }
  std::int32_t ordinal = owned->ordinal();
  owned->destroy();
  return {{"stream", stream}, {"ordinal", ordinal}};
}

ordered_json cuda_stream_read(std::int32_t ordinal, std::uint64_t stream, std::uint64_t address,
                              std::uint64_t size, void* destination) {
  if (destination == nullptr && size > 0) {
    throw Error(ExitCode::usage, "dlpack_usm_bridge_cuda_stream_read was given no destination");
  }
  runtime::cuda::read_on_stream(ordinal, stream, address, destination,
                                static_cast<std::size_t>(size));
  return {{"copied", size}};
}

ordered_json cuda_synchronize(std::int32_t ordinal) {
  runtime::cuda::synchronize_device(ordinal);
  return {{"ordinal", ordinal}};
}

ordered_json cuda_stream_device(std::uint64_t stream) {
  return {{"stream", stream}, {"ordinal", runtime::cuda::stream_device(stream)}};
}

}  // namespace dlpack_usm::bridge
