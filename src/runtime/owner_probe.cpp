#include "runtime/owner_probe.hpp"

#include <algorithm>
#include <map>
#include <mutex>

#include "common/error.hpp"

namespace dlpack_usm::runtime {
namespace {

// Enough for any runtime's smallest allocation; the answer is all it is for.
constexpr std::size_t kProbeBytes = 64;

rules::ProbedDevice probed(const DeviceInfo& device) {
  return {device.selector_name, device.dlpack_device_id()};
}

std::string owner_query_name(const Inventory& inventory) {
  return inventory.backend == "sycl" ? "sycl::get_pointer_device"
                                     : "clGetMemAllocInfoINTEL(CL_MEM_ALLOC_DEVICE_INTEL)";
}

std::optional<rules::OwnerProbe> probe_device(Runtime& runtime, const DeviceInfo& device) {
  std::optional<facts::UsmKind> kind = owned_usm_kind(device);
  if (!kind || !runtime.default_context_holds(device.ref)) return std::nullopt;
  UsmBuffer buffer;
  try {
    buffer = runtime.allocate(device.ref, *kind, kProbeBytes, ContextChoice::platform_default);
  } catch (const Error&) {
    return std::nullopt;
  }
  rules::OwnerProbe probe{probed(device), *kind, std::nullopt};
  PointerInfo info = runtime.query(buffer.data(), buffer.context());
  if (info.owner) {
    if (const DeviceInfo* owner = runtime.inventory().find(*info.owner)) {
      probe.answered = probed(*owner);
    }
  }
  return probe;
}

// The check of `platform`, or nullopt where no device of it was asked.
std::optional<OwnerAnswerCheck> check_platform(Runtime& runtime, const PlatformInfo& platform) {
  OwnerAnswerCheck check;
  check.platform_index = platform.index;
  check.answers = probe_owner_answers(runtime, platform);
  if (check.answers.probes.empty()) return std::nullopt;
  check.first_device = check.answers.probes.front().allocated_on.name;
  check.verdict = rules::judge_owner_answers(check.answers);
  return check;
}

std::vector<OwnerAnswerCheck> check_platforms(Runtime& runtime) {
  std::vector<OwnerAnswerCheck> checks;
  for (const PlatformInfo& platform : runtime.inventory().platforms) {
    if (auto check = check_platform(runtime, platform)) checks.push_back(std::move(*check));
  }
  return checks;
}

bool ids_can_differ(const PlatformInfo& platform) {
  return std::count_if(platform.devices.begin(), platform.devices.end(),
                       [](const DeviceInfo& root) { return owned_usm_kind(root).has_value(); }) >=
         2;
}

}  // namespace

const rules::OwnerProbe* OwnerAnswerCheck::wrong_answer(const std::string& device) const {
  for (const rules::OwnerProbe& probe : verdict.wrong) {
    if (probe.allocated_on.name == device) return &probe;
  }
  return nullptr;
}

std::optional<facts::UsmKind> owned_usm_kind(const DeviceInfo& device) {
  if (!device.usm) return std::nullopt;
  for (facts::UsmKind kind : {facts::UsmKind::device, facts::UsmKind::shared}) {
    if (usm_kind_supported(*device.usm, kind)) return kind;
  }
  return std::nullopt;
}

rules::OwnerAnswers probe_owner_answers(Runtime& runtime, const PlatformInfo& platform) {
  rules::OwnerAnswers answers;
  answers.runtime = runtime.inventory().backend;
  answers.query = owner_query_name(runtime.inventory());
  answers.platform_name = platform.name;
  answers.platform_version = platform.version;
  for (const DeviceInfo& root : platform.devices) {
    if (auto probe = probe_device(runtime, root)) answers.probes.push_back(std::move(*probe));
    for (const DeviceInfo& sub : root.sub_devices) {
      if (auto probe = probe_device(runtime, sub)) answers.probes.push_back(std::move(*probe));
    }
  }
  return answers;
}

const std::vector<OwnerAnswerCheck>& owner_answer_checks(Runtime& runtime) {
  // The runtimes live as long as the process, so their address is a key.
  static std::mutex mutex;
  static std::map<const Runtime*, std::vector<OwnerAnswerCheck>> checked;
  std::lock_guard lock(mutex);
  auto found = checked.find(&runtime);
  if (found == checked.end()) found = checked.emplace(&runtime, check_platforms(runtime)).first;
  return found->second;
}

std::vector<OwnerAnswerCheck> owner_answer_checks_where_ids_can_differ(Runtime& runtime) {
  std::vector<OwnerAnswerCheck> checks;
  // Root devices decide; only a platform that is probed needs its
  // sub-devices made.
  for (const PlatformInfo& roots : runtime.root_inventory().platforms) {
    if (!ids_can_differ(roots)) continue;
    const PlatformInfo& platform =
        runtime.inventory().platforms[static_cast<std::size_t>(roots.index)];
    if (auto check = check_platform(runtime, platform)) checks.push_back(std::move(*check));
  }
  return checks;
}

const OwnerAnswerCheck* find_owner_answer_check(const std::vector<OwnerAnswerCheck>& checks,
                                                std::int32_t platform_index) {
  for (const OwnerAnswerCheck& check : checks) {
    if (check.platform_index == platform_index) return &check;
  }
  return nullptr;
}

}  // namespace dlpack_usm::runtime
