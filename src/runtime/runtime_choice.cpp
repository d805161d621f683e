#include "runtime/runtime_choice.hpp"

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

SelectedRuntime use(Runtime* runtime, std::string name, std::string note) {
  g_active = runtime;
  g_active_name = name;
  if (name == "sycl") {
    if (auto library = sycl::load_dpctl(nullptr)) {
      setenv("DLPACK_USM_DPCTL", library->path.c_str(), 1);
    }
  }
  return {runtime, std::move(name), std::move(note)};
}

}  // namespace

std::optional<RuntimeChoice> parse_runtime_choice(std::string_view text) {
  if (text == "auto") return RuntimeChoice::automatic;
  if (text == "sycl") return RuntimeChoice::sycl;
  if (text == "opencl") return RuntimeChoice::opencl;
  return std::nullopt;
}

SelectedRuntime select_runtime(RuntimeChoice choice) {
  if (choice == RuntimeChoice::opencl) return use(&opencl_runtime(), "opencl", {});
  std::string why;
  Runtime* sycl = sycl_runtime_or_null(&why);
  if (choice == RuntimeChoice::sycl) {
    if (sycl == nullptr) {
      fail_environment(fmt::format("--runtime sycl: {}", why),
                       "install dpctl (scripts/setup.sh does), point DLPACK_USM_DPCTL at its "
                       "libDPCTLSyclInterface.so, or use --runtime opencl");
    }
    return use(sycl, "sycl", {});
  }
  if (sycl != nullptr) {
    return use(sycl, "sycl",
               fmt::format("--runtime auto chose sycl ({}): device ids are SYCL's own",
                           sycl_description()));
  }
  return use(
      &opencl_runtime(), "opencl",
      fmt::format("--runtime auto chose opencl: {}; device ids follow the OpenCL ICD order", why));
}

Runtime& active_runtime() {
  return g_active != nullptr ? *g_active : opencl_runtime();
}

std::string active_runtime_name() {
  return g_active_name;
}

}  // namespace dlpack_usm::runtime
