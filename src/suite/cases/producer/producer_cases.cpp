#include "suite/cases/producer/producer_cases.hpp"

#include <cstring>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/printable.hpp"
#include "exchange/imported_view.hpp"
#include "exchange/pattern.hpp"
#include "exchange/rule_refusal.hpp"
#include "facts/element_size.hpp"
#include "matrix/live_matrix.hpp"
#include "plugin/host_table.hpp"
#include "rules/rule_ids.hpp"
#include "suite/cases/owner_answer/owner_answer_cases.hpp"
#include "suite/cases/plugin/plugin_snippet.hpp"
#include "suite/cases/plugin/produced_tensor.hpp"
#include "suite/cases/producer/produce_request.hpp"
#include "suite/cases/producer/producer_lifetime.hpp"
#include "suite/cases/producer/producer_place.hpp"
#include "suite/cases/producer/producer_stream.hpp"

namespace dlpack_usm::suite {
namespace {

using facts::UsmKind;
using runtime::DeviceInfo;

constexpr std::string_view kContentRule = rules::ids::kProducerContent;
constexpr std::string_view kReadOnlyLegacyRule = rules::ids::kProducerReadOnlyLegacy;

// A producer case: the matrix tensor the library is asked for.
struct ProduceCase final : CaseDetails {
  explicit ProduceCase(matrix::MatrixTensor asked) : tensor(std::move(asked)) {}
  matrix::MatrixTensor tensor;
};

// A lifetime case (producer_lifetime.hpp): the same request, many rounds.
struct LifetimeCase final : CaseDetails {
  explicit LifetimeCase(matrix::MatrixTensor asked) : tensor(std::move(asked)) {}
  matrix::MatrixTensor tensor;
};

std::string tensor_id(const DeviceInfo& device, const matrix::MatrixTensor& tensor) {
  return fmt::format("producer/{}/{}/{}/{}/{}{}", device.selector_name,
                     facts::to_string(tensor.kind), tensor.dtype, tensor.layout, tensor.version,
                     tensor.read_only ? "/read-only" : "");
}

// Device and shared USM have an owner, which the device_id rules compare
// the produced device_id with: a wrong owner answer blocks those cases.
CaseSpec produce_case(const DeviceInfo& device, const matrix::MatrixTensor& tensor,
                      const OwnerAnswerBlocks& blocks) {
  std::vector<std::string> judged{std::string(kContentRule),
                                  std::string(rules::ids::kProducerDeleterLeak)};
  if (tensor.read_only && matrix::live_version(tensor.version) < dlpack::Release{1, 0}) {
    judged.emplace_back(kReadOnlyLegacyRule);
  }
  CaseSpec spec = plugin_case(tensor_id(device, tensor), "producer", device.selector_name,
                              std::move(judged), std::make_shared<const ProduceCase>(tensor));
  spec.place = tensor_place(tensor);
  if (tensor.kind != UsmKind::host) blocks.block(spec);
  return spec;
}

CaseSpec lifetime_case(const DeviceInfo& device, const matrix::MatrixTensor& tensor) {
  CaseSpec spec = plugin_case(fmt::format("{}/lifetime", tensor_id(device, tensor)), "producer",
                              device.selector_name,
                              {std::string(kStructLeakRule), std::string(kNullDeleterOwnsRule),
                               std::string(rules::ids::kProducerDeleterLeak)},
                              std::make_shared<const LifetimeCase>(tensor));
  spec.place = lifetime_place(tensor);
  return spec;
}

// The producer cases, in the order the walk of the matrix visits them: a
// case per tensor, a not-supported case where USM or a kind is missing, and
// both structs' lifetime cases after each kind of a root device.
class ProducerCaseList final : public matrix::LiveMatrixVisitor {
 public:
  ProducerCaseList(const OwnerAnswerBlocks& blocks, int stream_attempts)
      : blocks_(blocks), stream_attempts_(stream_attempts) {}

  void no_usm(const DeviceInfo& device) override {
    CaseSpec& spec = cases.emplace_back(plugin_not_supported_case(
        fmt::format("producer/{}/usm", device.selector_name), "producer", device.selector_name,
        "the device has no cl_intel_unified_shared_memory"));
    spec.place = missing_memory_place("usm");
  }
  void kind_unsupported(const DeviceInfo& device, UsmKind kind) override {
    CaseSpec& spec = cases.emplace_back(plugin_not_supported_case(
        fmt::format("producer/{}/{}", device.selector_name, facts::to_string(kind)), "producer",
        device.selector_name,
        fmt::format("the device cannot allocate {} USM", facts::to_string(kind))));
    spec.place = missing_memory_place(usm_memory(kind));
  }
  void tensor(const DeviceInfo& device, const matrix::MatrixTensor& tensor) override {
    cases.push_back(produce_case(device, tensor, blocks_));
  }
  void full_kind_done(const DeviceInfo& device, UsmKind kind) override {
    // Both structs: a legacy and a versioned one.
    cases.push_back(lifetime_case(device, {kind, "float32", "C", "0.8", false}));
    cases.push_back(lifetime_case(device, {kind, "float32", "C", "1.3", false}));
    // And whether its elements are ready on the consumer's queue.
    CaseSpec stream = stream_case(device, kind, stream_attempts_);
    if (kind != UsmKind::host) blocks_.block(stream);
    cases.push_back(std::move(stream));
  }

  std::vector<CaseSpec> cases;

 private:
  const OwnerAnswerBlocks& blocks_;
  int stream_attempts_;
};

// Below 1.0 no flag can carry READ_ONLY: the library should decline.
constexpr const char* kProducerReadOnlyVersions[] = {"0.8", "1.0", "1.3"};

// Reads every element in logical order through the declared strides and
// byte_offset, as a consumer would, and compares it with the pattern.
void compare_with_pattern(runtime::Runtime& runtime, ProducedTensor& tensor,
                          const runtime::DeviceRef& requested, CaseFindings& found,
                          std::uint64_t& elements_checked) {
  try {
    exchange::ImportedView view = import_produced(runtime, tensor, requested);
    std::vector<std::byte> elements = view.read_all();
    std::vector<std::byte> expected(view.element_bytes());
    std::uint64_t mismatches = 0;
    std::uint64_t first = 0;
    for (std::uint64_t i = 0; i < view.element_count(); ++i) {
      exchange::pattern_element(i, view.element_bytes(), expected.data());
      if (std::memcmp(elements.data() + i * view.element_bytes(), expected.data(),
                      view.element_bytes()) != 0 &&
          mismatches++ == 0) {
        first = i;
      }
    }
    elements_checked = view.element_count();
    if (mismatches > 0) {
      found.add(kContentRule,
                fmt::format("rule {}: {} of {} elements read through the declared strides [{}] "
                            "and byte_offset {} differ from the pattern, the first at logical "
                            "index {}",
                            kContentRule, mismatches, view.element_count(),
                            fmt::join(view.strides(), ", "), view.byte_offset(), first));
    }
    // The view goes out of scope here and calls the deleter once.
  } catch (const Error& error) {
    if (error.code() != ExitCode::findings) throw;
    std::vector<std::string> rules = exchange::refusing_rules(error);
    found.add(rules.empty() ? kContentRule : rules.front(), error.what());
  }
}

// The library declined the request: refused, which passes where the
// request was a READ_ONLY tensor below 1.0 (no flag could say so) and is
// not supported otherwise.
CaseResult declined_result(const CaseSpec& spec, bool read_only_legacy, const std::string& why) {
  CaseResult declined =
      read_only_legacy
          ? CaseResult{spec.id, Outcome::pass,
                       fmt::format("the library declined a READ_ONLY tensor below DLPack 1.0, "
                                   "which has no flag to say so: {}",
                                   why)}
          : CaseResult{spec.id, Outcome::not_supported, fmt::format("the library cannot: {}", why)};
  declined.exchange = ExchangeOutcome::refused;
  return declined;
}

CaseResult run_produce(PluginSession& session, const CaseSpec& spec, const DeviceInfo& device) {
  runtime::Runtime& runtime = session.runtime();
  ProduceRequest request =
      make_produce_request(session, device, spec.details_as<ProduceCase>().tensor);
  char message[512] = {};
  void* out = nullptr;
  int status =
      session.table().table->produce(session.host(), &request.c, &out, message, sizeof message);
  message[sizeof message - 1] = '\0';
  // The library's text, escaped for terminals and made valid UTF-8 for JSON.
  std::string why = printable(message);
  bool read_only_legacy = request.read_only && !request.versioned();
  if (status == DLPACK_USM_UNSUPPORTED) return declined_result(spec, read_only_legacy, why);
  CaseFindings found;
  if (status != DLPACK_USM_OK) {
    found.add(
        std::string(rules::ids::kPluginStatus),
        fmt::format("rule {}: produce returned {} ({}): {}", rules::ids::kPluginStatus, status,
                    status == DLPACK_USM_FAILED ? "FAILED" : "not a DLPACK_USM_* code", why));
    return found.result(spec.id, "");
  }
  if (out == nullptr) {
    found.add(kContentRule,
              fmt::format("rule {}: produce returned OK without a tensor", kContentRule));
    return found.result(spec.id, "");
  }
  if (read_only_legacy) {
    found.add(kReadOnlyLegacyRule,
              fmt::format("rule {}: asked for a READ_ONLY tensor at DLPack {}.{}, the library "
                          "handed out a legacy DLManagedTensor, which has no flags: its consumer "
                          "may write into memory meant to be read only",
                          kReadOnlyLegacyRule, request.version.major, request.version.minor));
  }
  exchange::CapsuleOwner capsule =
      request.versioned()
          ? exchange::CapsuleOwner(static_cast<dlpack::DLManagedTensorVersioned*>(out))
          : exchange::CapsuleOwner(static_cast<dlpack::DLManagedTensor*>(out));
  ProducedTensor tensor =
      judge_produced(runtime, std::move(capsule), device.ref,
                     fmt::format("plugin:produce:{}", device.selector_name), found);
  std::uint64_t elements_checked = 0;
  if (!found.has_errors() && matches_request(request, tensor.facts, found)) {
    compare_with_pattern(runtime, tensor, device.ref, found, elements_checked);
  }
  release_and_check_freed(runtime, tensor, found);
  return found.result(spec.id,
                      fmt::format("{} elements read back in logical order match the pattern; {}",
                                  elements_checked, release_note(tensor)));
}

}  // namespace

std::vector<CaseSpec> ProducerCaseSource::cases() {
  OwnerAnswerBlocks blocks(runtime());
  ProducerCaseList list(blocks, stream_attempts_);
  matrix::walk_live_matrix(runtime().inventory(), kProducerReadOnlyVersions, list);
  if (plugin_spec().exchange_api()) return std::move(list.cases);
  // Each tensor's C snippet: the same request made of the plugin's produce
  // in a program of its own.
  SnippetTarget target = snippet_target(plugin_spec().path);
  auto snippet_of = [&](const CaseSpec& spec, const DeviceInfo& device) {
    const auto* produce = dynamic_cast<const ProduceCase*>(spec.details.get());
    if (produce == nullptr) return std::string();
    return plugin_produce_snippet(target, device.ref, produce->tensor);
  };
  add_snippets(runtime().inventory(), list.cases, snippet_of);
  return std::move(list.cases);
}

CaseResult ProducerCaseSource::run_on(PluginSession& session, const CaseSpec& spec,
                                      const runtime::DeviceInfo& device) {
  CaseResult result;
  if (const auto* lifetime = dynamic_cast<const LifetimeCase*>(spec.details.get())) {
    result = run_lifetime(session, spec, device, lifetime->tensor);
  } else if (const auto* stream = dynamic_cast<const StreamCase*>(spec.details.get())) {
    result = run_stream(session, spec, device, *stream);
  } else {
    result = run_produce(session, spec, device);
  }
  // A decline is set where the library declined; the rest follows from the result.
  if (result.exchange == ExchangeOutcome::none) result.exchange = judged_producer_exchange(result);
  return result;
}

}  // namespace dlpack_usm::suite
