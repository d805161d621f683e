// --runtime sycl|opencl|auto: which runtime a process works with. One table
// (decide_runtime) decides it for every caller: the commands, check's
// workers and probe, and the bridge. A command's choice is made once per
// process; everything that needs a runtime afterwards asks active_runtime().
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "runtime/runtime.hpp"

namespace dlpack_usm::runtime {

enum class RuntimeChoice { automatic, sycl, opencl };

// "auto", "sycl", "opencl"; nullopt for anything else.
std::optional<RuntimeChoice> parse_runtime_choice(std::string_view text);

// Which handles the libraries under test take from the runtime, besides the
// tool's own use of it.
enum class LibrariesUnderTest {
  none,
  // OpenCL handles only: what plugin ABI 1 hands out. A check run probes its
  // plugins on the runtime chosen, so before that any of them may be ABI 1.
  opencl_handles,
  // SYCL's handles where the runtime is SYCL (plugin ABI 2, a SYCL library
  // in the same process), OpenCL's otherwise.
  sycl_handles,
  // SYCL's handles only: a plugin that declares DLPACK_USM_PLUGIN_RUNTIME
  // ("sycl"). auto chooses SYCL, and where it does not load nothing runs.
  sycl_required,
};

// What a caller knows when it asks for a runtime.
struct RuntimeRequest {
  RuntimeChoice choice = RuntimeChoice::automatic;
  LibrariesUnderTest libraries = LibrariesUnderTest::none;
};

// What the SYCL runtime (dpctl's C interface) offers on this machine.
struct SyclAvailability {
  bool loads = false;
  std::string why_not;      // where it does not load
  std::string description;  // where it does: "dpctl 0.22.1 at PATH, found by ..."
};

struct RuntimeDecision {
  std::string name;  // "sycl" or "opencl"
  // For auto: one line saying what was picked and why; empty otherwise.
  std::string note;
};

// The table:
//   opencl                                     -> opencl
//   sycl     where SYCL loads                  -> sycl
//   sycl     where it does not                 -> Error(environment)
//   auto     libraries take OpenCL handles     -> opencl, saying why
//   auto     otherwise, where SYCL loads       -> sycl, saying so
//   auto     otherwise, where it does not      -> opencl, saying why
// `probe_sycl` is called at most once, and only where its answer matters.
RuntimeDecision decide_runtime(const RuntimeRequest& request,
                               const std::function<SyclAvailability()>& probe_sycl);

struct SelectedRuntime : RuntimeDecision {
  Runtime* runtime = nullptr;
};

// decide_runtime() on this machine, leaving the active runtime as it is:
// for a library that lives in another program's process (the bridge).
SelectedRuntime find_runtime(const RuntimeRequest& request);

// find_runtime(), and makes the result the active runtime. A chosen SYCL
// runtime exports DLPACK_USM_DPCTL, so that child processes load the same
// library without asking Python again.
SelectedRuntime select_runtime(const RuntimeRequest& request);

// The runtime select_runtime() chose; the OpenCL runtime where nothing was
// chosen (library code run outside a command, as the unit tests do).
Runtime& active_runtime();
std::string active_runtime_name();

}  // namespace dlpack_usm::runtime
