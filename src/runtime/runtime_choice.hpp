// --runtime sycl|opencl|auto: which runtime a command works with. The choice
// is made once per process; everything that needs a runtime afterwards asks
// active_runtime().
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "runtime/runtime.hpp"

namespace dlpack_usm::runtime {

enum class RuntimeChoice { automatic, sycl, opencl };

// "auto", "sycl", "opencl"; nullopt for anything else.
std::optional<RuntimeChoice> parse_runtime_choice(std::string_view text);

struct SelectedRuntime {
  Runtime* runtime = nullptr;
  std::string name;  // "sycl" or "opencl"
  // For auto: one line saying what was picked and why; empty otherwise.
  std::string note;
};

// Resolves `choice` and makes the result the active runtime. --runtime sycl
// without a loadable interface throws Error(environment) saying what was
// found and what is needed. A chosen SYCL runtime exports DLPACK_USM_DPCTL,
// so that child processes load the same library without asking Python again.
SelectedRuntime select_runtime(RuntimeChoice choice);

// The runtime select_runtime() chose; the OpenCL runtime where nothing was
// chosen (library code run outside a command, as the unit tests do).
Runtime& active_runtime();
std::string active_runtime_name();

}  // namespace dlpack_usm::runtime
