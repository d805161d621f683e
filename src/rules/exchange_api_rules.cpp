// Exchange-api family: a DLPackExchangeAPI table as dlpack.h 1.3 describes
// it. The rules judge facts::ExchangeApiFacts and current_work_stream's
// answers (check_exchange_api, check_work_stream), not tensors: in the
// catalog their tensor check does nothing. `check --producer LIB:SYMBOL`
// runs them in its exchange-api cases (suite/cases/producer/
// exchange_api_cases.cpp); their vectors are the fixture tables of
// fixtures/plugins/exchange_api.c, listed in fixtures/plugins/behaviour_vectors.json.
#include "rules/exchange_api_rules.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "rules/rule_definition.hpp"
#include "rules/rule_ids.hpp"

namespace dlpack_usm::rules {
namespace {

constexpr std::string_view kMustBeNotNull = "This function must be not NULL.";
constexpr std::string_view kPrevApiReference = "dlpack.h 1.3, DLPackExchangeAPIHeader::prev_api";
constexpr std::string_view kOlderInChain =
    "Optional pointer to an older DLPackExchangeAPI in the chain.";

// A slot rule's RuleInfo, its reference naming the member.
constexpr RuleInfo slot_rule(std::string_view id, std::string_view title,
                             std::string_view reference, std::string_view quote,
                             std::string_view rationale) {
  return {id,           "exchange-api", title,  Severity::error, kExchangeApiSince,
          std::nullopt, reference,      "must", quote,           rationale};
}

constexpr std::array kExchangeApiRules{
    RuleDefinition{slot_rule("DLP-EXCHANGE-API-ALLOCATOR-NULL", "managed_tensor_allocator is NULL",
                             "dlpack.h 1.3, DLPackExchangeAPI::managed_tensor_allocator",
                             "This function must not be NULL.",
                             "A consumer calls it to have the producer allocate a tensor (a "
                             "kernel's output): a NULL slot crashes it."),
                   Scope::header, judged_by_plugin_cases},
    RuleDefinition{
        slot_rule("DLP-EXCHANGE-API-FROM-PY-NULL", "managed_tensor_from_py_object_no_sync is NULL",
                  "dlpack.h 1.3, DLPackExchangeAPI::managed_tensor_from_py_object_no_sync",
                  kMustBeNotNull,
                  "The owning fast path from a Python object: a consumer finding the table calls "
                  "it without checking, as the header lets it."),
        Scope::header, judged_by_plugin_cases},
    RuleDefinition{
        slot_rule("DLP-EXCHANGE-API-TO-PY-NULL", "managed_tensor_to_py_object_no_sync is NULL",
                  "dlpack.h 1.3, DLPackExchangeAPI::managed_tensor_to_py_object_no_sync",
                  kMustBeNotNull,
                  "How a consumer hands a result back as the producer's Python object: a NULL "
                  "slot crashes the return path. Only dltensor_from_py_object_no_sync may be "
                  "NULL (\"can be NULL when the producer does not support this function\")."),
        Scope::header, judged_by_plugin_cases},
    RuleDefinition{slot_rule("DLP-EXCHANGE-API-STREAM-FN-NULL", "current_work_stream is NULL",
                             "dlpack.h 1.3, DLPackExchangeAPI::current_work_stream", kMustBeNotNull,
                             "A consumer asks it for the stream to launch on (the header's N0 "
                             "need); even a CPU-only library provides one that answers NULL."),
                   Scope::header, judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-EXCHANGE-API-PREV-NOT-NULL", "exchange-api",
         "prev_api set where no older exchange API is supported", Severity::error,
         kExchangeApiSince, std::nullopt, kPrevApiReference, "must",
         "It must be NULL if the framework does not support older versions.",
         "prev_api may lead only to a table of an older version the library serves. One that "
         "points to memory that cannot be read, or to a header declaring a version before 1.2 "
         "(DLPack has no exchange API before 1.2: a zeroed or never-filled header), leads to "
         "no supported version, so prev_api must be NULL; a consumer walking it reads garbage "
         "or crashes."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-EXCHANGE-API-PREV-ORDER", "exchange-api",
         "prev_api leads to a table that is not older", Severity::error, kExchangeApiSince,
         std::nullopt, kPrevApiReference, "definition", kOlderInChain,
         "Each prev_api is defined as a pointer to an older table, so versions descend along "
         "the chain; a consumer looking for an older major stops at a table of the same or a "
         "newer version and misses the one it needs."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-EXCHANGE-API-PREV-CYCLE", "exchange-api", "prev_api chain loops back",
         Severity::error, kExchangeApiSince, std::nullopt, kPrevApiReference, "definition",
         kOlderInChain,
         "A chain of ever older tables ends; one whose prev_api leads back to a table already "
         "in it never does, and a consumer walking it for an older version loops forever. "
         "Reported instead of DLP-EXCHANGE-API-PREV-ORDER for the link that closes the loop."},
        Scope::header,
        judged_by_plugin_cases},
    RuleDefinition{
        {"DLP-EXCHANGE-API-STREAM-NULL", "exchange-api",
         "current_work_stream answered NULL for a device whose streams are objects",
         Severity::error, kExchangeApiSince, std::nullopt, "dlpack.h 1.3, DLPackCurrentWorkStream",
         "definition", "Obtain the current work stream of a device from the producer framework.",
         "The answer is the device's current work stream, the queue a consumer launches on. "
         "The header lets a producer answer NULL for kDLCPU, and for CUDA and ROCm memory NULL "
         "is the default stream itself; for other device types (a kDLOneAPI sycl::queue*, a "
         "kDLMetal MTLCommandQueue) NULL is no stream at all: torch-xpu's table answered NULL "
         "for XPU (intel/torch-xpu-ops#3074), and tvm-ffi's for Metal (apache/tvm-ffi#578). "
         "A failed call (-1) is a decline, not judged here."},
        Scope::header,
        judged_by_plugin_cases},
};

const RuleInfo& info_of(std::string_view id) {
  return std::find_if(kExchangeApiRules.begin(), kExchangeApiRules.end(),
                      [id](const RuleDefinition& rule) { return rule.info.id == id; })
      ->info;
}

// The member a finding is about: the published table's own, or one of a
// table further down the chain ("chain[1].current_work_stream").
std::string member_of(std::size_t index, std::string_view member) {
  return index == 0 ? std::string(member) : fmt::format("chain[{}].{}", index, member);
}

std::string table_name(const facts::ExchangeApiLink& link) {
  return fmt::format("the {}.{} table at {:#x}", link.version.major, link.version.minor,
                     link.address);
}

struct SlotCheck {
  std::string_view rule;
  std::string_view member;
  bool facts::ExchangeApiSlots::*slot;
};

constexpr std::array kSlotChecks{
    SlotCheck{ids::kExchangeApiAllocatorNull, "managed_tensor_allocator",
              &facts::ExchangeApiSlots::managed_tensor_allocator},
    SlotCheck{ids::kExchangeApiFromPyNull, "managed_tensor_from_py_object_no_sync",
              &facts::ExchangeApiSlots::managed_tensor_from_py_object_no_sync},
    SlotCheck{ids::kExchangeApiToPyNull, "managed_tensor_to_py_object_no_sync",
              &facts::ExchangeApiSlots::managed_tensor_to_py_object_no_sync},
    SlotCheck{ids::kExchangeApiStreamFnNull, "current_work_stream",
              &facts::ExchangeApiSlots::current_work_stream},
};

void check_slots(const facts::ExchangeApiFacts& table, std::vector<Finding>& findings) {
  for (std::size_t index = 0; index < table.chain.size(); ++index) {
    const facts::ExchangeApiLink& link = table.chain[index];
    if (!link.slots) continue;
    for (const SlotCheck& check : kSlotChecks) {
      if ((*link.slots).*check.slot) continue;
      Reporter report(info_of(check.rule), findings);
      report(member_of(index, check.member),
             fmt::format("{} of {} is NULL, which the header forbids; set it to the library's "
                         "function",
                         check.member, table_name(link)));
    }
  }
}

// A header no framework can serve as an older exchange API: DLPack has
// none before 1.2.
bool before_exchange_api(dl::DLPackVersion version) {
  return dl::Release{version.major, version.minor} < kExchangeApiSince;
}

void check_prev_link(const facts::ExchangeApiLink& newer, const facts::ExchangeApiLink& older,
                     std::size_t index, std::vector<Finding>& findings) {
  const std::string field = member_of(index - 1, "header.prev_api");
  if (before_exchange_api(older.version)) {
    Reporter report(info_of(ids::kExchangeApiPrevNotNull), findings);
    report(field, fmt::format("prev_api of {} leads to a header declaring {}.{}, a version "
                              "without an exchange API (DLPack has one from 1.2 on): no older "
                              "version is supported there, so set prev_api to NULL",
                              table_name(newer), older.version.major, older.version.minor));
    return;
  }
  const dl::Release newer_release{newer.version.major, newer.version.minor};
  if (dl::Release{older.version.major, older.version.minor} < newer_release) return;
  Reporter report(info_of(ids::kExchangeApiPrevOrder), findings);
  report(field, fmt::format("prev_api of {} leads to {}, which is not older; link only "
                            "tables of older versions, newest first",
                            table_name(newer), table_name(older)));
}

void check_chain_end(const facts::ExchangeApiFacts& table, std::vector<Finding>& findings) {
  if (table.chain.empty()) return;
  const std::size_t last = table.chain.size() - 1;
  const std::string field = member_of(last, "header.prev_api");
  if (table.end == facts::ExchangeApiChainEnd::cycle) {
    Reporter report(info_of(ids::kExchangeApiPrevCycle), findings);
    report(field,
           fmt::format("prev_api of {} leads back to {}: a consumer walking the chain "
                       "never reaches its end; end it with NULL",
                       table_name(table.chain[last]), table_name(table.chain[table.cycle_to])));
  } else if (table.end == facts::ExchangeApiChainEnd::unreadable) {
    Reporter report(info_of(ids::kExchangeApiPrevNotNull), findings);
    report(field, fmt::format("prev_api of {} is {:#x}, memory this process cannot read: no "
                              "table of an older version is there, so set prev_api to NULL",
                              table_name(table.chain[last]), table.unreadable_address));
  }
}

}  // namespace

std::span<const RuleDefinition> exchange_api_rules() {
  return kExchangeApiRules;
}

std::vector<Finding> check_exchange_api(const facts::ExchangeApiFacts& table) {
  std::vector<Finding> findings;
  check_slots(table, findings);
  for (std::size_t index = 1; index < table.chain.size(); ++index) {
    check_prev_link(table.chain[index - 1], table.chain[index], index, findings);
  }
  check_chain_end(table, findings);
  return findings;
}

bool null_is_a_stream(std::int32_t device_type) {
  switch (device_type) {
    case dl::kDLCPU:
    case dl::kDLCUDA:
    case dl::kDLCUDAHost:
    case dl::kDLCUDAManaged:
    case dl::kDLROCM:
    case dl::kDLROCMHost:
      return true;
    default:
      return false;
  }
}

std::vector<Finding> check_work_stream(const facts::WorkStreamAnswer& answer) {
  std::vector<Finding> findings;
  if (answer.status != 0 || answer.stream != 0 || null_is_a_stream(answer.device_type)) {
    return findings;
  }
  Reporter report(info_of(ids::kExchangeApiStreamNull), findings);
  report("current_work_stream",
         fmt::format("current_work_stream({}, {}) succeeded with a NULL stream: {} has no NULL "
                     "stream, so a consumer has no queue to launch on. Return the library's "
                     "current stream of that device",
                     dl::device_type_display(answer.device_type), answer.device_id,
                     dl::device_type_display(answer.device_type)));
  return findings;
}

}  // namespace dlpack_usm::rules
