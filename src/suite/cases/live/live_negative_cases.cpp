#include "suite/cases/live/live_negative_cases.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include <fmt/format.h>

#include "common/error.hpp"
#include "exchange/export_tensor.hpp"
#include "exchange/import_tensor.hpp"
#include "exchange/rule_refusal.hpp"
#include "rules/rule_ids.hpp"

namespace dlpack_usm::suite {
namespace {

constexpr std::array kNegativeCases{
    NegativeCase{"separate-context", kOwnContextRule},
    NegativeCase{"unknown-pointer", rules::ids::kOneapiUsmUnknown},
    NegativeCase{"major-version-2", rules::ids::kVersionMajor},
    NegativeCase{"device-id-out-of-range", rules::ids::kOneapiDeviceIdRange},
};

// Each case runs in its own child process, so one counter per process is
// enough to see how often the producer's deleter ran.
int g_negative_deleter_calls = 0;
void (*g_original_deleter)(dlpack::DLManagedTensorVersioned*) = nullptr;

void counting_deleter(dlpack::DLManagedTensorVersioned* tensor) {
  ++g_negative_deleter_calls;
  if (g_original_deleter != nullptr) g_original_deleter(tensor);
}

struct HostTensor {
  dlpack::DLManagedTensorVersioned managed{};
  std::vector<float> values = std::vector<float>(16, 1.0f);
  std::int64_t shape[1] = {16};
  std::int64_t strides[1] = {1};
};

void delete_host_tensor(dlpack::DLManagedTensorVersioned* tensor) {
  ++g_negative_deleter_calls;
  delete static_cast<HostTensor*>(tensor->manager_ctx);
}

// A tensor over plain malloc'ed memory that claims to be kDLOneAPI.
dlpack::DLManagedTensorVersioned* unknown_pointer_tensor(std::int32_t device_id) {
  auto* host = new HostTensor;
  dlpack::DLManagedTensorVersioned& t = host->managed;
  t.version = {dlpack::kModelMajor, dlpack::kModelMinor};
  t.manager_ctx = host;
  t.deleter = delete_host_tensor;
  t.dl_tensor = {host->values.data(),
                 {dlpack::kDLOneAPI, device_id},
                 1,
                 {dlpack::kDLFloat, 32, 1},
                 host->shape,
                 host->strides,
                 0};
  return &t;
}

facts::UsmKind first_accessible_kind(const runtime::DeviceInfo& device) {
  if (device.usm->device.allows_access()) return facts::UsmKind::device;
  if (device.usm->single_device_shared.allows_access()) return facts::UsmKind::shared;
  return facts::UsmKind::host;
}

exchange::ExportRequest request_for(const runtime::UsmBuffer& buffer) {
  exchange::ExportRequest request;
  request.data = buffer.data();
  request.context = buffer.context();
  request.dtype = {dlpack::kDLFloat, 32, 1};
  request.shape = {16};
  return request;
}

// A valid export whose deleter is counted, for the consumer to refuse.
dlpack::DLManagedTensorVersioned* counted_export(runtime::Runtime& runtime,
                                                 const runtime::UsmBuffer& buffer) {
  exchange::ExportedTensor exported = exchange::export_tensor(runtime, request_for(buffer), {});
  dlpack::DLManagedTensorVersioned* tensor = exported.capsule.release_versioned();
  g_original_deleter = tensor->deleter;
  tensor->deleter = counting_deleter;
  return tensor;
}

// Runs `attempt`, which must be refused naming `rule_id`.
template <typename Attempt>
CaseResult expect_refusal(const std::string& id, std::string_view rule_id, bool count_deleter,
                          Attempt attempt) {
  CaseResult result{id, Outcome::fail};
  g_negative_deleter_calls = 0;  // a worker runs many cases in one process
  try {
    attempt();
    result.message = fmt::format("accepted; {} should have refused it", rule_id);
    return result;
  } catch (const Error& error) {
    std::string why = error.what();
    std::vector<std::string> refused_by = exchange::refusing_rules(error);
    if (std::find(refused_by.begin(), refused_by.end(), rule_id) == refused_by.end()) {
      result.outcome = error.code() == ExitCode::findings ? Outcome::fail : Outcome::error;
      result.message = fmt::format("refused, but not by {}: {}", rule_id, why);
      return result;
    }
    result.rule_ids.emplace_back(rule_id);
    if (count_deleter && g_negative_deleter_calls != 1) {
      result.message =
          fmt::format("refused by {}, but the producer's deleter ran {} times (must be 1)", rule_id,
                      g_negative_deleter_calls);
      return result;
    }
    result.outcome = Outcome::pass;
    result.message =
        fmt::format("refused by {}{}: {}", rule_id, count_deleter ? ", deleter ran once" : "", why);
    return result;
  }
}

}  // namespace

std::span<const NegativeCase> negative_cases() {
  return kNegativeCases;
}

CaseResult run_own_context_case(runtime::Runtime& runtime, const runtime::DeviceInfo& device,
                                facts::UsmKind kind) {
  std::string id =
      fmt::format("live/{}/{}/own-context", device.selector_name, facts::to_string(kind));
  runtime::UsmBuffer buffer =
      runtime.allocate(device.ref, kind, 64, runtime::ContextChoice::separate);
  CaseResult result = expect_refusal(id, kOwnContextRule, false, [&] {
    exchange::export_tensor(runtime, request_for(buffer), {});
  });
  if (result.outcome == Outcome::pass) {
    result.message = fmt::format(
        "the platform's default context cannot hold {} (SYCL refuses the queue), so its {} USM "
        "lives in a context of its own; {}",
        device.selector_name, facts::to_string(kind), result.message);
  }
  return result;
}

CaseResult run_negative_case(runtime::Runtime& runtime, const runtime::DeviceInfo& device,
                             const std::string& name) {
  std::string id = fmt::format("live/{}/negative/{}", device.selector_name, name);
  if (!device.usm) {
    return {id, Outcome::not_supported, "the device has no USM"};
  }
  facts::UsmKind kind = first_accessible_kind(device);
  if (name == "separate-context") {
    runtime::UsmBuffer buffer =
        runtime.allocate(device.ref, kind, 64, runtime::ContextChoice::separate);
    return expect_refusal(id, kNegativeCases[0].rule_id, false,
                          [&] { exchange::export_tensor(runtime, request_for(buffer), {}); });
  }
  if (name == "unknown-pointer") {
    return expect_refusal(id, kNegativeCases[1].rule_id, true, [&] {
      exchange::import_tensor(runtime, unknown_pointer_tensor(device.ref.root_index));
    });
  }
  runtime::UsmBuffer buffer =
      runtime.allocate(device.ref, kind, 64, runtime::ContextChoice::platform_default);
  if (name == "major-version-2") {
    return expect_refusal(id, kNegativeCases[2].rule_id, true, [&] {
      dlpack::DLManagedTensorVersioned* tensor = counted_export(runtime, buffer);
      tensor->version.major = 2;
      exchange::import_tensor(runtime, tensor);
    });
  }
  if (name == "device-id-out-of-range") {
    return expect_refusal(id, kNegativeCases[3].rule_id, true, [&] {
      dlpack::DLManagedTensorVersioned* tensor = counted_export(runtime, buffer);
      tensor->dl_tensor.device.device_id = runtime.inventory().root_device_count();
      exchange::import_tensor(runtime, tensor);
    });
  }
  return {id, Outcome::error, fmt::format("no negative case '{}'", name)};
}

}  // namespace dlpack_usm::suite
