#include "runtime/sycl/dpctl_api.hpp"

#include <dlfcn.h>

#include <mutex>

#include <fmt/format.h>

#include "common/contained_call.hpp"
#include "dlpack/names.hpp"
#include "runtime/runtime.hpp"
#include "runtime/sycl/dpctl_location.hpp"

namespace dlpack_usm::runtime::sycl {
namespace {

void* g_library = nullptr;  // the dlopen handle, kept for dpctl_symbol()

template <typename Function>
bool resolve(void* library, const char* name, Function*& slot, std::string* missing) {
  slot = reinterpret_cast<Function*>(dlsym(library, name));
  if (slot == nullptr && missing->empty()) *missing = name;
  return slot != nullptr;
}

#define DLPACK_USM_RESOLVE(name) resolve(library, #name, api->name, &missing)

std::string resolve_all(void* library, DpctlApi* api) {
  std::string missing;
  DLPACK_USM_RESOLVE(DPCTLDeviceMgr_GetDevices);
  DLPACK_USM_RESOLVE(DPCTLDeviceMgr_GetPositionInDevices);
  DLPACK_USM_RESOLVE(DPCTLDeviceMgr_GetRelativeId);
  DLPACK_USM_RESOLVE(DPCTLDeviceVector_Size);
  DLPACK_USM_RESOLVE(DPCTLDeviceVector_GetAt);
  DLPACK_USM_RESOLVE(DPCTLDeviceVector_Delete);
  DLPACK_USM_RESOLVE(DPCTLDevice_Delete);
  DLPACK_USM_RESOLVE(DPCTLDevice_AreEq);
  DLPACK_USM_RESOLVE(DPCTLDevice_GetBackend);
  DLPACK_USM_RESOLVE(DPCTLDevice_GetDeviceType);
  DLPACK_USM_RESOLVE(DPCTLDevice_GetName);
  DLPACK_USM_RESOLVE(DPCTLDevice_GetVendor);
  DLPACK_USM_RESOLVE(DPCTLDevice_GetDriverVersion);
  DLPACK_USM_RESOLVE(DPCTLDevice_GetMaxComputeUnits);
  DLPACK_USM_RESOLVE(DPCTLDevice_GetPartitionMaxSubDevices);
  DLPACK_USM_RESOLVE(DPCTLDevice_HasAspect);
  DLPACK_USM_RESOLVE(DPCTLDevice_GetPlatform);
  DLPACK_USM_RESOLVE(DPCTLDevice_CreateSubDevicesEqually);
  DLPACK_USM_RESOLVE(DPCTLDevice_GetParentDevice);
  DLPACK_USM_RESOLVE(DPCTLPlatform_Delete);
  DLPACK_USM_RESOLVE(DPCTLPlatform_AreEq);
  DLPACK_USM_RESOLVE(DPCTLPlatform_GetName);
  DLPACK_USM_RESOLVE(DPCTLPlatform_GetVendor);
  DLPACK_USM_RESOLVE(DPCTLPlatform_GetVersion);
  DLPACK_USM_RESOLVE(DPCTLPlatform_GetDefaultContext);
  DLPACK_USM_RESOLVE(DPCTLContext_Create);
  DLPACK_USM_RESOLVE(DPCTLContext_Delete);
  DLPACK_USM_RESOLVE(DPCTLQueue_Create);
  DLPACK_USM_RESOLVE(DPCTLQueue_Delete);
  DLPACK_USM_RESOLVE(DPCTLQueue_Memcpy);
  DLPACK_USM_RESOLVE(DPCTLEvent_Wait);
  DLPACK_USM_RESOLVE(DPCTLEvent_Delete);
  DLPACK_USM_RESOLVE(DPCTLmalloc_device);
  DLPACK_USM_RESOLVE(DPCTLmalloc_shared);
  DLPACK_USM_RESOLVE(DPCTLmalloc_host);
  DLPACK_USM_RESOLVE(DPCTLfree_with_queue);
  DLPACK_USM_RESOLVE(DPCTLUSM_GetPointerType);
  DLPACK_USM_RESOLVE(DPCTLUSM_GetPointerDevice);
  DLPACK_USM_RESOLVE(DPCTLCString_Delete);
  DLPACK_USM_RESOLVE(DPCTLService_GetDPCPPVersion);
  // Optional ones leave `missing` alone: the control says what it lacks.
  std::string optional;
  resolve(library, "DPCTLQueue_Fill32", api->DPCTLQueue_Fill32, &optional);
  resolve(library, "DPCTLQueue_Wait", api->DPCTLQueue_Wait, &optional);
  resolve(library, "DPCTLQueue_SubmitBarrierForEvents", api->DPCTLQueue_SubmitBarrierForEvents,
          &optional);
  return missing;
}

#undef DLPACK_USM_RESOLVE

// How long loading dpctl (and SYCL's runtime behind it) may take in the
// probe: seconds on a loaded machine, never minutes.
constexpr std::chrono::seconds kLoadDeadline{30};

// Loads the library in a child process first: its constructors (SYCL's
// runtime, its plugins) run at load, and one that crashes or hangs must
// not take the tool with it. Why it may not be loaded here, or nullopt.
std::optional<std::string> probe_load(const DpctlCandidate& candidate) {
  ContainedAnswer probe = call_contained(
      [&candidate] {
        return dlopen(candidate.path.c_str(), RTLD_NOW | RTLD_LOCAL) != nullptr
                   ? std::string("loaded")
                   : std::string("not loaded");
      },
      probe_deadline(kLoadDeadline), 64);
  if (probe.ok()) return std::nullopt;
  return fmt::format(
      "{} (found by {}) {} while a probe process loaded it (its constructors "
      "start SYCL's runtime); the tool does not load it into itself",
      candidate.path, candidate.found_by, probe.how);
}

std::optional<DpctlLibrary> open_dpctl(std::string* why) {
  std::vector<std::string> tried;
  std::optional<DpctlCandidate> candidate = locate_dpctl(&tried);
  if (!candidate) {
    *why = fmt::format("dpctl's C interface ({}) was not found: {}", kDpctlLibraryName,
                       fmt::join(tried, "; "));
    return std::nullopt;
  }
  std::string needed = fmt::format("dpctl {}.{} or a later {}.x", kMinimumDpctlMajor,
                                   kMinimumDpctlMinor, kMinimumDpctlMajor);
  if (!candidate->version.empty()) {
    // "0.22.1" is 0.22: a patch or a suffix may follow.
    std::optional<dlpack::Release> version = dlpack::parse_release(candidate->version).release;
    if (!version || version->major != kMinimumDpctlMajor || version->minor < kMinimumDpctlMinor) {
      *why = fmt::format("{} (found by {}) belongs to dpctl {}; the tool needs {}", candidate->path,
                         candidate->found_by, candidate->version, needed);
      return std::nullopt;
    }
  }
  if (std::optional<std::string> failed = probe_load(*candidate)) {
    *why = *failed;
    return std::nullopt;
  }
  // RTLD_LOCAL: SYCL's own libraries stay out of the global namespace, where
  // a plugin under test might bring another copy.
  void* library = dlopen(candidate->path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    *why = fmt::format("{} (found by {}) cannot be loaded: {}", candidate->path,
                       candidate->found_by, dlerror());
    return std::nullopt;
  }
  g_library = library;
  static DpctlApi api{};
  std::string missing = resolve_all(library, &api);
  if (!missing.empty()) {
    *why = fmt::format("{} (found by {}, dpctl {}) lacks {}; the tool needs {}", candidate->path,
                       candidate->found_by,
                       candidate->version.empty() ? "of unknown version" : candidate->version,
                       missing, needed);
    return std::nullopt;
  }
  DpctlLibrary loaded{&api, candidate->path, candidate->found_by, candidate->version, {}};
  loaded.dpcpp_version = take_string(api, api.DPCTLService_GetDPCPPVersion());
  return loaded;
}

}  // namespace

std::string take_string(const DpctlApi& api, const char* text) {
  if (text == nullptr) return {};
  std::string copy(text);
  api.DPCTLCString_Delete(text);
  return copy;
}

std::optional<DpctlLibrary> load_dpctl(std::string* why) {
  static std::once_flag once;
  static std::optional<DpctlLibrary> library;
  static std::string failure;
  std::call_once(once, [] { library = open_dpctl(&failure); });
  if (!library && why != nullptr) *why = failure;
  return library;
}

}  // namespace dlpack_usm::runtime::sycl

namespace dlpack_usm::runtime {

void* dpctl_symbol(const char* name) {
  if (!sycl::load_dpctl(nullptr) || sycl::g_library == nullptr) return nullptr;
  return dlsym(sycl::g_library, name);
}

}  // namespace dlpack_usm::runtime
