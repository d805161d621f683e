#include "runtime/selection.hpp"

#include <cstdlib>

#include <fmt/format.h>

#include "common/error.hpp"
#include "runtime/sycl/dpctl_api.hpp"

namespace dlpack_usm::runtime {
namespace {

Runtime* g_active = nullptr;
std::string g_active_name = "opencl";

std::string sycl_description() {
  std::optional<sycl::DpctlLibrary> library = sycl::load_dpctl(nullptr);
  if (!library) return "dpctl";
  return fmt::format("dpctl {} at {}, found by {}",
                     library->dpctl_version.empty() ? "(version unknown)" : library->dpctl_version,
                     library->path, library->found_by);
}

SyclAvailability sycl_on_this_machine() {
  SyclAvailability sycl;
  sycl.loads = sycl_runtime_or_null(&sycl.why_not) != nullptr;
  if (sycl.loads) sycl.description = sycl_description();
  return sycl;
}

}  // namespace

std::optional<RuntimeChoice> parse_runtime_choice(std::string_view text) {
  if (text == "auto") return RuntimeChoice::automatic;
  if (text == "sycl") return RuntimeChoice::sycl;
  if (text == "opencl") return RuntimeChoice::opencl;
  return std::nullopt;
}

namespace {

// A library that declared it takes SYCL's handles runs on SYCL or not at all.
RuntimeDecision decide_sycl_required(const RuntimeRequest& request,
                                     const std::function<SyclAvailability()>& probe_sycl) {
  if (request.choice == RuntimeChoice::opencl) {
    fail_usage(
        "--runtime opencl: a library under test declares that it takes SYCL's handles "
        "(DLPACK_USM_PLUGIN_RUNTIME(\"sycl\"))",
        "use --runtime sycl or auto for it, and check OpenCL libraries in a run of their "
        "own");
  }
  SyclAvailability sycl = probe_sycl();
  if (!sycl.loads) {
    fail_environment(fmt::format("a library under test declares that it takes SYCL's handles "
                                 "(DLPACK_USM_PLUGIN_RUNTIME(\"sycl\")), but SYCL cannot start "
                                 "here: {}",
                                 sycl.why_not),
                     "install dpctl (scripts/setup.sh does) or point DLPACK_USM_DPCTL at its "
                     "libDPCTLSyclInterface.so");
  }
  if (request.choice == RuntimeChoice::sycl) return {"sycl", {}};
  return {"sycl", fmt::format("--runtime auto chose sycl ({}): a library under test declares "
                              "that it takes SYCL's handles",
                              sycl.description)};
}

}  // namespace

RuntimeDecision decide_runtime(const RuntimeRequest& request,
                               const std::function<SyclAvailability()>& probe_sycl) {
  if (request.libraries == LibrariesUnderTest::sycl_required) {
    return decide_sycl_required(request, probe_sycl);
  }
  if (request.choice == RuntimeChoice::opencl) return {"opencl", {}};
  if (request.choice == RuntimeChoice::automatic &&
      request.libraries == LibrariesUnderTest::opencl_handles) {
    return {"opencl",
            "--runtime auto chose opencl for the libraries under test: none declares "
            "DLPACK_USM_PLUGIN_RUNTIME(\"sycl\"); a library that takes SYCL's handles (plugin ABI "
            "2) declares it, or is run with --runtime sycl"};
  }
  SyclAvailability sycl = probe_sycl();
  if (request.choice == RuntimeChoice::sycl) {
    if (!sycl.loads) {
      fail_environment(fmt::format("--runtime sycl: {}", sycl.why_not),
                       "install dpctl (scripts/setup.sh does), point DLPACK_USM_DPCTL at its "
                       "libDPCTLSyclInterface.so, or use --runtime opencl");
    }
    return {"sycl", {}};
  }
  if (sycl.loads) {
    return {"sycl", fmt::format("--runtime auto chose sycl ({}): device ids are SYCL's own",
                                sycl.description)};
  }
  return {"opencl",
          fmt::format("--runtime auto chose opencl: {}; device ids follow the OpenCL ICD order",
                      sycl.why_not)};
}

SelectedRuntime find_runtime(const RuntimeRequest& request) {
  RuntimeDecision decision = decide_runtime(request, sycl_on_this_machine);
  Runtime* runtime = decision.name == "sycl" ? sycl_runtime_or_null(nullptr) : &opencl_runtime();
  return {std::move(decision), runtime};
}

SelectedRuntime select_runtime(const RuntimeRequest& request) {
  SelectedRuntime selected = find_runtime(request);
  g_active = selected.runtime;
  g_active_name = selected.name;
  if (selected.name == "sycl") {
    if (auto library = sycl::load_dpctl(nullptr)) {
      setenv("DLPACK_USM_DPCTL", library->path.c_str(), 1);
    }
  }
  return selected;
}

Runtime& active_runtime() {
  return g_active != nullptr ? *g_active : opencl_runtime();
}

std::string active_runtime_name() {
  return g_active_name;
}

}  // namespace dlpack_usm::runtime
