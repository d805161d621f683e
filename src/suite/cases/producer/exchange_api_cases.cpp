#include "suite/cases/producer/exchange_api_cases.hpp"

#include <array>

#include <fmt/format.h>

#include "rules/rule_ids.hpp"
#include "suite/cases/plugin/produced_tensor.hpp"
#include "suite/cases/producer/producer_cases.hpp"
#include "suite/cases/producer/producer_place.hpp"

namespace dlpack_usm::suite {
namespace {

constexpr std::string_view kPrototypeRule = rules::ids::kExchangeApiPrototype;

struct Prototype {
  const char* name;
  const char* dtype;
  std::array<std::int64_t, 3> shape;
  std::int32_t ndim;
};

// One of each kind of shape a caller asks for: a matrix, a 3-D tensor of
// 1-byte elements, an empty one and a scalar.
constexpr std::array kPrototypes{
    Prototype{"matrix", "float32", {3, 5, 0}, 2},
    Prototype{"cube", "int8", {2, 3, 4}, 3},
    Prototype{"empty", "float32", {0, 5, 0}, 2},
    Prototype{"scalar", "float64", {0, 0, 0}, 0},
};

struct ErrorSink {
  bool called = false;
  std::string kind;
  std::string message;
};

void record_error(void* context, const char* kind, const char* message) {
  auto* sink = static_cast<ErrorSink*>(context);
  sink->called = true;
  sink->kind = kind != nullptr ? kind : "";
  sink->message = message != nullptr ? message : "";
}

void check_prototype(const dlpack::DLTensor& prototype, const facts::TensorFacts& tensor,
                     CaseFindings& found) {
  std::vector<std::int64_t> asked(prototype.shape, prototype.shape + prototype.ndim);
  std::vector<std::int64_t> shape = tensor.shape.value_or(std::vector<std::int64_t>{});
  std::vector<std::string> differences;
  if (tensor.dtype.code != prototype.dtype.code || tensor.dtype.bits != prototype.dtype.bits ||
      tensor.dtype.lanes != prototype.dtype.lanes) {
    differences.push_back(fmt::format("dtype {} instead of {}", dlpack::dtype_display(tensor.dtype),
                                      dlpack::dtype_display(prototype.dtype)));
  }
  if (tensor.ndim != prototype.ndim || shape != asked) {
    differences.push_back(
        fmt::format("shape [{}] instead of [{}]", fmt::join(shape, ", "), fmt::join(asked, ", ")));
  }
  if (tensor.device_type != prototype.device.device_type ||
      tensor.device_id != prototype.device.device_id) {
    differences.push_back(fmt::format("device ({}, {}) instead of ({}, {})", tensor.device_type,
                                      tensor.device_id, prototype.device.device_type,
                                      prototype.device.device_id));
  }
  if (!differences.empty()) {
    found.add(kPrototypeRule, fmt::format("rule {}: the tensor has {}", kPrototypeRule,
                                          fmt::join(differences, ", ")));
  }
}

// An exchange-API case: the prototype tensor the library allocates like.
struct AllocateCase final : CaseDetails {
  explicit AllocateCase(const Prototype* asked) : prototype(asked) {}
  const Prototype* prototype;  // one of kPrototypes
};

CaseResult run_allocate(PluginSession& session, const CaseSpec& spec,
                        const runtime::DeviceInfo& device) {
  const Prototype* prototype = spec.details_as<AllocateCase>().prototype;
  std::array<std::int64_t, 3> shape = prototype->shape;
  dlpack::DLTensor asked{};
  asked.device = {dlpack::kDLOneAPI, device.ref.root_index};
  asked.ndim = prototype->ndim;
  asked.dtype = *dlpack::parse_dtype(prototype->dtype);
  asked.shape = prototype->ndim == 0 ? nullptr : shape.data();
  // The allocator gets its own copy, so a prototype it scribbles on still
  // compares against what was asked.
  std::array<std::int64_t, 3> given_shape = shape;
  dlpack::DLTensor given = asked;
  given.shape = prototype->ndim == 0 ? nullptr : given_shape.data();

  ErrorSink errors;
  dlpack::DLManagedTensorVersioned* out = nullptr;
  int status =
      session.exchange_api().table->managed_tensor_allocator(&given, &out, &errors, record_error);
  CaseFindings found;
  if (status != 0 && errors.called) {
    // A refusal with its reason: a library may decline anything.
    CaseResult declined{spec.id, Outcome::not_supported,
                        fmt::format("managed_tensor_allocator declined ({}): {}: {}", status,
                                    errors.kind, errors.message)};
    declined.exchange = ExchangeOutcome::refused;
    return declined;
  }
  if (status != 0) {
    found.add(std::string(rules::ids::kPluginStatus),
              fmt::format("rule {}: managed_tensor_allocator returned {} without calling "
                          "SetError, so the failure has no reason",
                          rules::ids::kPluginStatus, status));
    return found.result(spec.id, "");
  }
  if (out == nullptr) {
    found.add(kPrototypeRule,
              fmt::format("rule {}: managed_tensor_allocator returned 0 without a tensor",
                          kPrototypeRule));
    return found.result(spec.id, "");
  }
  ProducedTensor tensor =
      judge_produced(session.runtime(), exchange::CapsuleOwner(out), device.ref,
                     fmt::format("plugin:exchange-api:{}", device.selector_name), found);
  if (tensor.facts.body_read) check_prototype(asked, tensor.facts, found);
  release_and_check_freed(session.runtime(), tensor, found);
  return found.result(spec.id, fmt::format("the tensor matches its prototype and the rules; {}",
                                           release_note(tensor)));
}

}  // namespace

std::vector<CaseSpec> ExchangeApiCaseSource::cases() {
  std::vector<CaseSpec> cases;
  for (const auto& [platform, root] : runtime().inventory().roots()) {
    if (!root.usm) {
      CaseSpec& spec = cases.emplace_back(plugin_not_supported_case(
          fmt::format("exchange-api/{}/usm", root.selector_name), "exchange-api",
          root.selector_name, "the device has no cl_intel_unified_shared_memory"));
      spec.place = missing_memory_place("usm");
      continue;
    }
    for (const Prototype& prototype : kPrototypes) {
      CaseSpec& spec = cases.emplace_back(
          plugin_case(fmt::format("exchange-api/{}/{}", root.selector_name, prototype.name),
                      "exchange-api", root.selector_name,
                      {std::string(kPrototypeRule), std::string(rules::ids::kProducerDeleterLeak)},
                      std::make_shared<const AllocateCase>(&prototype)));
      spec.place = exchange_api_place(prototype.name);
    }
  }
  return cases;
}

CaseResult ExchangeApiCaseSource::run_on(PluginSession& session, const CaseSpec& spec,
                                         const runtime::DeviceInfo& device) {
  CaseResult result = run_allocate(session, spec, device);
  if (result.exchange == ExchangeOutcome::none) result.exchange = judged_producer_exchange(result);
  return result;
}

}  // namespace dlpack_usm::suite
