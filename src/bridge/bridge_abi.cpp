// The C ABI of include/dlpack_usm/bridge.h. Every entry point catches
// everything: a C++ exception must never unwind into a caller that may be
// CPython or any other C program.
#include "bridge/exchange_api_table.hpp"
#include "dlpack_usm/bridge.h"
#include "suite/cases/python/python_producer_cases.hpp"

#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "bridge/consumer_cells.hpp"
#include "bridge/consumer_offer.hpp"
#include "bridge/cuda_facts.hpp"
#include "bridge/dlpack_names.hpp"
#include "bridge/plugin_repro.hpp"
#include "bridge/run_summary.hpp"
#include "bridge/sycl_exchange.hpp"
#include "bridge/tensor_inspection.hpp"
#include "build_info.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/printable.hpp"
#include "dlpack/names.hpp"
#include "facts/memory_reader.hpp"
#include "facts/readable_memory.hpp"

namespace {

using dlpack_usm::Error;
using dlpack_usm::ExitCode;
using nlohmann::ordered_json;

// malloc'd so that the caller frees it through dlpack_usm_bridge_free
// whatever C++ runtime it was built with.
void hand_over(const ordered_json& document, char** result_json) noexcept {
  if (result_json == nullptr) return;
  *result_json = nullptr;
  try {
    std::string text = document.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    char* copy = static_cast<char*>(std::malloc(text.size() + 1));
    if (copy == nullptr) return;
    std::memcpy(copy, text.c_str(), text.size() + 1);
    *result_json = copy;
  } catch (...) {
    // Out of memory while formatting: the caller sees NULL, as bridge.h says.
  }
}

// `unreadable`, when set, names the tensor's pointer that led to memory the
// reader could not read (bridge.h).
int answer_error(ExitCode code, const std::string& what, const std::string& hint,
                 char** result_json, const std::string& unreadable = {}) noexcept {
  try {
    ordered_json answer{{"error", what}, {"hint", hint}};
    if (!unreadable.empty()) answer["unreadable"] = unreadable;
    hand_over(answer, result_json);
  } catch (...) {
    if (result_json != nullptr) *result_json = nullptr;
  }
  return static_cast<int>(code);
}

// Runs `body`, which answers a JSON document, turning every exception into
// the bridge's error answer.
template <typename Body>
int guarded(char** result_json, Body body) noexcept {
  try {
    hand_over(body(), result_json);
    return static_cast<int>(ExitCode::ok);
  } catch (const dlpack_usm::facts::UnreadableMemory& error) {
    return answer_error(error.code(), error.what(), error.hint(), result_json, error.field());
  } catch (const Error& error) {
    return answer_error(error.code(), error.what(), error.hint(), result_json);
  } catch (const std::bad_alloc&) {
    return answer_error(ExitCode::internal, "out of memory in the bridge", "", result_json);
  } catch (const std::exception& error) {
    return answer_error(ExitCode::internal, std::string("internal error: ") + error.what(),
                        "this is a bug of dlpack-usm; please report it", result_json);
  } catch (...) {
    return answer_error(ExitCode::internal, "internal error: unknown exception",
                        "this is a bug of dlpack-usm; please report it", result_json);
  }
}

int run_inspection(const void* managed_tensor, const char* capsule_name, const char* request_json,
                   const char* path, char** result_json) noexcept {
  return guarded(result_json, [&] {
    if (capsule_name == nullptr) {
      throw Error(ExitCode::usage, "the bridge was given no capsule name",
                  "pass the capsule's name (PyCapsule_GetName)");
    }
    std::optional<std::filesystem::path> capture_path;
    if (path != nullptr) capture_path = std::filesystem::path(path);
    return dlpack_usm::bridge::inspect_tensor(managed_tensor, capsule_name,
                                              request_json ? request_json : "", capture_path);
  });
}

}  // namespace

extern "C" {

uint32_t dlpack_usm_bridge_abi_version(void) {
  return DLPACK_USM_BRIDGE_ABI_VERSION;
}

const char* dlpack_usm_bridge_tool_version(void) {
  return dlpack_usm::kToolVersion;
}

int dlpack_usm_bridge_inspect(const void* managed_tensor, const char* capsule_name,
                              const char* request_json, char** result_json) {
  return run_inspection(managed_tensor, capsule_name, request_json, nullptr, result_json);
}

int dlpack_usm_bridge_capture(const void* managed_tensor, const char* capsule_name,
                              const char* request_json, const char* path, char** result_json) {
  if (path == nullptr) {
    return answer_error(ExitCode::usage, "the bridge was given no capture path",
                        "pass the path of the capsule file to write", result_json);
  }
  return run_inspection(managed_tensor, capsule_name, request_json, path, result_json);
}

int dlpack_usm_bridge_sycl_export(const char* usm_kind, int32_t device_id, const char* dtype,
                                  const void* host_data, uint64_t bytes, void** managed_tensor,
                                  char** result_json) {
  if (managed_tensor != nullptr) *managed_tensor = nullptr;
  return guarded(result_json, [&] {
    if (usm_kind == nullptr || dtype == nullptr || managed_tensor == nullptr ||
        (host_data == nullptr && bytes > 0)) {
      throw Error(ExitCode::usage, "dlpack_usm_bridge_sycl_export was given a NULL argument");
    }
    ordered_json info;
    *managed_tensor =
        dlpack_usm::bridge::sycl_export(usm_kind, device_id, dtype, host_data, bytes, info);
    return info;
  });
}

int dlpack_usm_bridge_sycl_import(void* managed_tensor, const char* capsule_name,
                                  char** result_json) {
  return guarded(result_json, [&] {
    if (capsule_name == nullptr) throw Error(ExitCode::usage, "no capsule name");
    return dlpack_usm::bridge::sycl_import(managed_tensor, capsule_name);
  });
}

int dlpack_usm_bridge_cuda_pointer(uint64_t address, char** result_json) {
  return guarded(result_json, [&] { return dlpack_usm::bridge::cuda_pointer(address); });
}

int dlpack_usm_bridge_cuda_stream_create(int32_t ordinal, uint64_t* stream, char** result_json) {
  if (stream != nullptr) *stream = 0;
  return guarded(result_json, [&] {
    if (stream == nullptr) {
      throw Error(ExitCode::usage, "dlpack_usm_bridge_cuda_stream_create was given no stream slot");
    }
    ordered_json info = dlpack_usm::bridge::cuda_stream_create(ordinal);
    *stream = info["stream"].get<uint64_t>();
    return info;
  });
}

int dlpack_usm_bridge_cuda_stream_destroy(uint64_t stream, char** result_json) {
  return guarded(result_json, [&] { return dlpack_usm::bridge::cuda_stream_destroy(stream); });
}

int dlpack_usm_bridge_cuda_stream_read(int32_t ordinal, uint64_t stream, uint64_t address,
                                       uint64_t size, void* destination, char** result_json) {
  return guarded(result_json, [&] {
    return dlpack_usm::bridge::cuda_stream_read(ordinal, stream, address, size, destination);
  });
}

int dlpack_usm_bridge_cuda_synchronize(int32_t ordinal, char** result_json) {
  return guarded(result_json, [&] { return dlpack_usm::bridge::cuda_synchronize(ordinal); });
}

int dlpack_usm_bridge_cuda_stream_device(uint64_t stream, char** result_json) {
  return guarded(result_json, [&] { return dlpack_usm::bridge::cuda_stream_device(stream); });
}

int dlpack_usm_bridge_sycl_queue_read(void* queue, uint64_t address, uint64_t size,
                                      void* destination, char** result_json) {
  return guarded(result_json, [&] {
    return dlpack_usm::bridge::sycl_queue_read(queue, address, size, destination);
  });
}

int dlpack_usm_bridge_read_memory(const void* address, uint64_t size, void* destination) {
  if (destination == nullptr) return 2;
  return dlpack_usm::facts::copy_readable(destination, address, size) ? 0 : 1;
}

int dlpack_usm_bridge_consumer_matrix(char** result_json) {
  return guarded(result_json, [] { return dlpack_usm::bridge::consumer_matrix_json(); });
}

int dlpack_usm_bridge_consumer_offer(const char* request_json, void** managed_tensor,
                                     char** result_json) {
  if (managed_tensor != nullptr) *managed_tensor = nullptr;
  return guarded(result_json, [&] {
    if (request_json == nullptr || managed_tensor == nullptr) {
      throw Error(ExitCode::usage, "dlpack_usm_bridge_consumer_offer was given a NULL argument");
    }
    nlohmann::json request = nlohmann::json::parse(request_json, nullptr, false);
    if (!request.is_object() || !request.contains("cell")) {
      throw Error(ExitCode::usage, "the offer request is no JSON object with a \"cell\"",
                  "pass {\"cell\": NAME, \"memory\": KIND, ...} (bridge.h)");
    }
    ordered_json info;
    *managed_tensor = dlpack_usm::bridge::offer_cell(request, info);
    return info;
  });
}

int dlpack_usm_bridge_plugin_host(const char* runtime, const struct DlpackUsmHost** host,
                                  char** result_json) {
  if (host != nullptr) *host = nullptr;
  return guarded(result_json, [&] {
    if (host == nullptr) {
      throw Error(ExitCode::usage, "dlpack_usm_bridge_plugin_host was given a NULL host");
    }
    std::string name;
    *host = dlpack_usm::bridge::plugin_host(runtime != nullptr ? runtime : "auto", name);
    return ordered_json{{"runtime", name}};
  });
}

int dlpack_usm_bridge_produce_request(const char* request_json,
                                      const struct DlpackUsmProduceRequest** request,
                                      char** result_json) {
  if (request != nullptr) *request = nullptr;
  return guarded(result_json, [&] {
    if (request_json == nullptr || request == nullptr) {
      throw Error(ExitCode::usage, "dlpack_usm_bridge_produce_request was given a NULL argument");
    }
    nlohmann::json parsed = nlohmann::json::parse(request_json, nullptr, false);
    if (!parsed.is_object()) {
      throw Error(ExitCode::usage, "the produce request is no JSON object",
                  "pass {\"device_id\": N, \"memory\": KIND, \"dtype\": ...} (bridge.h)");
    }
    ordered_json info;
    *request = dlpack_usm::bridge::produce_request(parsed, info);
    return info;
  });
}

int dlpack_usm_bridge_consumer_offer_state(uint64_t handle, char** result_json) {
  return guarded(result_json, [&] { return dlpack_usm::bridge::offer_state(handle); });
}

int dlpack_usm_bridge_consumer_offer_release(uint64_t handle, char** result_json) {
  return guarded(result_json, [&] { return dlpack_usm::bridge::offer_release(handle); });
}

int dlpack_usm_bridge_write_output(const char* path, const void* content, uint64_t size,
                                   const char* option, char** result_json) {
  return guarded(result_json, [&] {
    if (path == nullptr || (content == nullptr && size > 0)) {
      throw Error(ExitCode::usage, "dlpack_usm_bridge_write_output was given a NULL argument");
    }
    dlpack_usm::write_file_atomically(path,
                                      std::string_view(static_cast<const char*>(content), size),
                                      option != nullptr ? option : "");
    return ordered_json{{"written", size}};
  });
}

int dlpack_usm_bridge_rules(char** result_json) {
  return guarded(result_json, [] { return dlpack_usm::bridge::rules_json(); });
}

int dlpack_usm_bridge_consumer_verdict(const char* observation_json, char** result_json) {
  return guarded(result_json, [&] {
    if (observation_json == nullptr) {
      throw Error(ExitCode::usage, "dlpack_usm_bridge_consumer_verdict was given no observation");
    }
    return dlpack_usm::bridge::consumer_verdict_json(observation_json);
  });
}

int dlpack_usm_bridge_dlpack_names(char** result_json) {
  return guarded(result_json, [] { return dlpack_usm::bridge::dlpack_names_json(); });
}

int dlpack_usm_bridge_max_version(const char* text, const char* what, char** result_json) {
  return guarded(result_json, [&] {
    dlpack_usm::dlpack::Release release =
        dlpack_usm::dlpack::require_max_version(text ? text : "", what ? what : "max_version");
    return nlohmann::ordered_json{{"major", release.major}, {"minor", release.minor}};
  });
}

int dlpack_usm_bridge_printable(const char* text, char** result_json) {
  return guarded(result_json, [&] {
    return nlohmann::ordered_json{{"text", dlpack_usm::printable(text ? text : "")}};
  });
}

int dlpack_usm_bridge_run_summary(const char* request_json, char** result_json) {
  return guarded(result_json, [&] {
    if (request_json == nullptr) {
      throw Error(ExitCode::usage, "dlpack_usm_bridge_run_summary was given no request");
    }
    return dlpack_usm::bridge::run_summary_json(request_json);
  });
}

int dlpack_usm_bridge_exchange_api_table(uint64_t address, char** result_json) {
  return guarded(result_json, [&] { return dlpack_usm::bridge::exchange_api_table_json(address); });
}

int dlpack_usm_bridge_python_steps(char** result_json) {
  return guarded(result_json, [] {
    ordered_json steps = ordered_json::array();
    for (const dlpack_usm::suite::PythonStep& step : dlpack_usm::suite::python_steps()) {
      steps.push_back(
          {{"name", step.name}, {"asked", step.asked}, {"escape_rule", step.escape_rule}});
    }
    return ordered_json{{"steps", steps}};
  });
}

void dlpack_usm_bridge_free(char* text) {
  std::free(text);
}

}  // extern "C"
