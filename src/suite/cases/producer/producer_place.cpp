#include "suite/cases/producer/producer_place.hpp"

#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "rules/rule_ids.hpp"

namespace dlpack_usm::suite {
namespace {

// The tensor the lines of the producer matrix cross at.
constexpr std::string_view kBaseDtype = "float32";
constexpr std::string_view kBaseLayout = "C";
const std::string_view kNewestVersion = std::end(matrix::kLiveVersions)[-1];

// The live matrix's layouts under the consumer matrix's names, where both
// mean the same tensor, so that the two directions share rows.
std::string layout_value(const std::string& layout) {
  static const std::pair<std::string_view, std::string_view> kNames[] = {
      {"C", "c-order"},
      {"F", "f-order"},
      {"offset", "byte-offset"},
      {"negative", "negative-stride"},
      {"ndim0", "ndim-0"}};
  for (const auto& [live, consumer] : kNames) {
    if (layout == live) return std::string(consumer);
  }
  return layout;
}

// The lines of the matrix a tensor case lies on (the base tensor on three).
std::vector<MatrixLine> tensor_lines(const matrix::MatrixTensor& tensor) {
  bool base_dtype = tensor.dtype == kBaseDtype;
  bool base_layout = tensor.layout == kBaseLayout;
  if (tensor.read_only) {
    if (base_dtype && base_layout) return {{"read-only", tensor.version}};
    return {};
  }
  std::vector<MatrixLine> lines;
  if (base_dtype && base_layout) lines.push_back({"version", tensor.version});
  if (base_layout && tensor.version == kNewestVersion) lines.push_back({"dtype", tensor.dtype});
  if (base_dtype && tensor.version == kNewestVersion) {
    lines.push_back({"layout", layout_value(tensor.layout)});
  }
  return lines;
}

CasePlace producer_place(std::string memory, std::vector<MatrixLine> lines) {
  return {Direction::producer, std::move(memory), std::move(lines), std::nullopt};
}

// The rule of a result's worst finding: the first error's.
std::string first_error_rule(const CaseResult& result) {
  for (const CaseFinding& finding : result.findings) {
    if (finding.severity == rules::Severity::error) return finding.rule_id;
  }
  return {};
}

}  // namespace

CasePlace tensor_place(const matrix::MatrixTensor& tensor) {
  CasePlace place = producer_place(usm_memory(tensor.kind), tensor_lines(tensor));
  if (place.lines.empty()) {
    place.off_line =
        MatrixLine{"combined", fmt::format("{}/{}/{}{}", tensor.dtype, layout_value(tensor.layout),
                                           tensor.version, tensor.read_only ? "/read-only" : "")};
  }
  return place;
}

CasePlace lifetime_place(const matrix::MatrixTensor& tensor) {
  return producer_place(usm_memory(tensor.kind), {{"lifetime", tensor.version}});
}

CasePlace stream_place(facts::UsmKind kind) {
  return producer_place(usm_memory(kind), {{"stream", "consumer-queue"}});
}

CasePlace missing_memory_place(std::string memory) {
  std::string value = memory;
  return producer_place(std::move(memory), {{"memory", std::move(value)}});
}

CasePlace exchange_api_place(std::string prototype) {
  return producer_place("", {{"exchange-api", std::move(prototype)}});
}

ExchangeOutcome judged_producer_exchange(const CaseResult& result) {
  switch (result.outcome) {
    case Outcome::pass:
    case Outcome::warn:
      return ExchangeOutcome::emitted;
    case Outcome::fail:
      return first_error_rule(result) == rules::ids::kPluginStatus
                 ? ExchangeOutcome::wrong
                 : ExchangeOutcome::emitted_invalid;
    case Outcome::not_supported:
      return ExchangeOutcome::not_applicable;
    default:
      return ExchangeOutcome::none;
  }
}

}  // namespace dlpack_usm::suite
