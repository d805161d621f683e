#include "suite/cases/producer/exchange_api_cases.hpp"

#include <array>

#include <fmt/format.h>

#include "exchange/live_facts.hpp"
#include "facts/memory_reader.hpp"
#include "rules/exchange_api_rules.hpp"
#include "rules/rule_ids.hpp"
#include "suite/cases/plugin/produced_tensor.hpp"
#include "suite/cases/producer/exchange_api_calls.hpp"
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

// The case of the table's slots and prev_api chain (no device).
struct ExchangeTableCase final : CaseDetails {};

// The case of current_work_stream for what the library produces on a device.
struct WorkStreamCase final : CaseDetails {};

// A case that cannot run because the slot it calls is NULL: the table case
// reports the slot's rule, once.
CaseResult missing_slot_result(const CaseSpec& spec, std::string_view member,
                               std::string_view rule) {
  return {spec.id, Outcome::not_supported,
          fmt::format("{} is NULL, so this case cannot call it (rule {}, reported by "
                      "exchange-api/table)",
                      member, rule)};
}

CaseResult run_allocate(PluginSession& session, const CaseSpec& spec,
                        const runtime::DeviceInfo& device) {
  const dlpack::DLPackExchangeAPI& table = *session.exchange_api().table;
  if (table.managed_tensor_allocator == nullptr) {
    return missing_slot_result(spec, "managed_tensor_allocator",
                               rules::ids::kExchangeApiAllocatorNull);
  }
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

  AllocatorCall call = call_allocator(table, given);
  CaseFindings found;
  if (call.status != 0 && call.error_set) {
    // A refusal with its reason: a library may decline anything.
    CaseResult declined{spec.id, Outcome::not_supported,
                        fmt::format("managed_tensor_allocator declined ({}): {}: {}", call.status,
                                    call.error_kind, call.error_message)};
    declined.exchange = ExchangeOutcome::refused;
    return declined;
  }
  if (call.status != 0) {
    found.add(std::string(rules::ids::kPluginStatus),
              fmt::format("rule {}: managed_tensor_allocator returned {} without calling "
                          "SetError, so the failure has no reason",
                          rules::ids::kPluginStatus, call.status));
    return found.result(spec.id, "");
  }
  if (call.out == nullptr) {
    found.add(kPrototypeRule,
              fmt::format("rule {}: managed_tensor_allocator returned 0 without a tensor",
                          kPrototypeRule));
    return found.result(spec.id, "");
  }
  ProducedTensor tensor =
      judge_produced(session.runtime(), exchange::CapsuleOwner(call.out), device.ref,
                     fmt::format("plugin:exchange-api:{}", device.selector_name), found);
  if (tensor.facts.body_read) check_prototype(asked, tensor.facts, found);
  release_and_check_freed(session.runtime(), tensor, found);
  return found.result(spec.id, fmt::format("the tensor matches its prototype and the rules; {}",
                                           release_note(tensor)));
}

// The table itself: its slots and its prev_api chain, as read when the
// library was loaded.
CaseResult run_exchange_table(PluginSession& session, const CaseSpec& spec) {
  const facts::ExchangeApiFacts& table = session.exchange_api().facts;
  CaseFindings found;
  for (const rules::Finding& finding : rules::check_exchange_api(table)) {
    found.add(finding,
              fmt::format("rule {} ({}): {}", finding.rule_id, finding.field, finding.message));
  }
  return found.result(spec.id, fmt::format("{} table(s) in the chain; every slot the header "
                                           "requires is set, and prev_api leads to older "
                                           "tables and ends",
                                           table.chain.size()));
}

// The device type and id of what the library produces on `device`: a
// one-element tensor of its allocator, read and released at once. nullopt
// when it gives none (the allocate cases judge why).
std::optional<dlpack::DLDevice> produced_device_of(const dlpack::DLPackExchangeAPI& table,
                                                   const runtime::DeviceInfo& device) {
  std::int64_t extent = 1;
  dlpack::DLTensor prototype{};
  prototype.device = {dlpack::kDLOneAPI, device.ref.root_index};
  prototype.ndim = 1;
  prototype.dtype = {dlpack::kDLFloat, 32, 1};
  prototype.shape = &extent;
  AllocatorCall call = call_allocator(table, prototype);
  if (call.status != 0 || call.out == nullptr) return std::nullopt;
  exchange::CapsuleOwner tensor(call.out);
  try {
    facts::TensorFacts facts = exchange::read_capsule_facts(tensor, "exchange-api:stream");
    if (!facts.body_read) return std::nullopt;
    return dlpack::DLDevice{facts.device_type, facts.device_id};
  } catch (const facts::UnreadableMemory&) {
    // An unreadable struct has no deleter to call either: leaked, not run.
    tensor.release_versioned();
    return std::nullopt;
  }
}

CaseResult run_work_stream(PluginSession& session, const CaseSpec& spec,
                           const runtime::DeviceInfo& device) {
  const dlpack::DLPackExchangeAPI& table = *session.exchange_api().table;
  if (table.current_work_stream == nullptr) {
    return missing_slot_result(spec, "current_work_stream", rules::ids::kExchangeApiStreamFnNull);
  }
  if (table.managed_tensor_allocator == nullptr) {
    return missing_slot_result(spec, "managed_tensor_allocator",
                               rules::ids::kExchangeApiAllocatorNull);
  }
  std::optional<dlpack::DLDevice> produced = produced_device_of(table, device);
  if (!produced) {
    return {spec.id, Outcome::not_supported,
            "managed_tensor_allocator gives no tensor on this device, so it produces no device "
            "type here to ask a stream for"};
  }
  facts::WorkStreamAnswer answer =
      call_work_stream(table, produced->device_type, produced->device_id);
  const std::string call =
      fmt::format("current_work_stream({}, {})", dlpack::device_type_display(answer.device_type),
                  answer.device_id);
  if (answer.status != 0) {
    return {spec.id, Outcome::not_supported,
            fmt::format("{} failed ({}): the library declines to name its stream", call,
                        answer.status)};
  }
  CaseFindings found;
  for (const rules::Finding& finding : rules::check_work_stream(answer)) {
    found.add(finding, fmt::format("rule {}: {}", finding.rule_id, finding.message));
  }
  return found.result(spec.id, fmt::format("{} gave stream {:#x}", call, answer.stream));
}

}  // namespace

std::vector<CaseSpec> ExchangeApiCaseSource::cases() {
  std::vector<std::string> table_rules;
  for (const rules::RuleInfo& rule : rules::rule_catalog()) {
    if (rule.family == "exchange-api" && rule.id != rules::ids::kExchangeApiStreamNull) {
      table_rules.emplace_back(rule.id);
    }
  }
  std::vector<CaseSpec> cases{plugin_case("exchange-api/table", "exchange-api", "",
                                          std::move(table_rules),
                                          std::make_shared<const ExchangeTableCase>())};
  cases.front().place = exchange_api_place("table");
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
    CaseSpec& stream = cases.emplace_back(
        plugin_case(fmt::format("exchange-api/{}/stream", root.selector_name), "exchange-api",
                    root.selector_name, {std::string(rules::ids::kExchangeApiStreamNull)},
                    std::make_shared<const WorkStreamCase>()));
    stream.place = exchange_api_place("current_work_stream");
  }
  return cases;
}

CaseResult ExchangeApiCaseSource::run_on(PluginSession& session, const CaseSpec& spec,
                                         const runtime::DeviceInfo& device) {
  if (dynamic_cast<const WorkStreamCase*>(spec.details.get()) != nullptr) {
    return run_work_stream(session, spec, device);
  }
  CaseResult result = run_allocate(session, spec, device);
  if (result.exchange == ExchangeOutcome::none) result.exchange = judged_producer_exchange(result);
  return result;
}

CaseResult ExchangeApiCaseSource::run_unplaced(PluginSession& session, const CaseSpec& spec) {
  return run_exchange_table(session, spec);
}

}  // namespace dlpack_usm::suite
