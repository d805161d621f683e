#include "bridge/tensor_inspection.hpp"

#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "capsule/capsule_file.hpp"
#include "common/error.hpp"
#include "exchange/capsule_save.hpp"
#include "facts/memory_reader.hpp"
#include "report/capsule_dump_report.hpp"
#include "report/findings_report.hpp"
#include "rules/rule.hpp"

namespace dlpack_usm::bridge {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

constexpr std::string_view kLegacyName = "dltensor";
constexpr std::string_view kVersionedName = "dltensor_versioned";

struct Request {
  std::string origin = "bridge";
  std::optional<json> runtime;
};

Request parse_request(std::string_view text) {
  Request request;
  if (text.empty()) return request;
  json document = json::parse(text, nullptr, false);
  if (document.is_discarded() || !document.is_object()) {
    fail_usage("the bridge request is not a JSON object",
               "pass NULL or an object with \"origin\" and \"runtime\" members");
  }
  for (const auto& [key, value] : document.items()) {
    if (key == "origin") {
      if (!value.is_string()) fail_usage("the bridge request's \"origin\" is not a string");
      request.origin = value.get<std::string>();
    } else if (key == "runtime") {
      request.runtime = value;
    } else {
      fail_usage(fmt::format("the bridge request has an unknown member \"{}\"", key),
                 "the members are \"origin\" and \"runtime\"");
    }
  }
  return request;
}

facts::TensorFacts read_tensor(const void* managed_tensor, std::string_view capsule_name,
                               std::string origin) {
  if (managed_tensor == nullptr) {
    fail_usage("the bridge was given a NULL tensor",
               "pass the pointer the capsule carries (PyCapsule_GetPointer)");
  }
  if (capsule_name == kVersionedName) {
    return facts::read_managed_tensor_versioned(
        static_cast<const dlpack::DLManagedTensorVersioned*>(managed_tensor), std::move(origin));
  }
  if (capsule_name == kLegacyName) {
    return facts::read_managed_tensor(static_cast<const dlpack::DLManagedTensor*>(managed_tensor),
                                      std::move(origin));
  }
  fail_usage(fmt::format("capsule name \"{}\" names no DLPack tensor the bridge can read",
                         std::string(capsule_name)),
             "the names are \"dltensor\" (DLManagedTensor) and \"dltensor_versioned\" "
             "(DLManagedTensorVersioned); a \"used_\" capsule was already consumed");
}

// The runtime section goes through the capsule-file parser, so a caller's
// runtime facts are refused exactly where a capsule file's would be.
facts::TensorFacts with_runtime(const facts::TensorFacts& read, const json& runtime) {
  ordered_json document = capsule::to_capsule_json(read);
  document["runtime"] = runtime;
  std::vector<facts::TensorFacts> parsed =
      capsule::parse_capsule_text(document.dump(), "bridge request");
  facts::TensorFacts judged = std::move(parsed.at(0));
  judged.origin = read.origin;
  judged.reader_notes = read.reader_notes;
  return judged;
}

}  // namespace

ordered_json inspect_tensor(const void* managed_tensor, std::string_view capsule_name,
                            std::string_view request_json,
                            const std::optional<std::filesystem::path>& capture_path) {
  Request request = parse_request(request_json);
  facts::TensorFacts tensor = read_tensor(managed_tensor, capsule_name, request.origin);
  if (request.runtime) tensor = with_runtime(tensor, *request.runtime);

  ordered_json findings = ordered_json::array();
  for (const rules::Finding& finding : rules::evaluate(tensor)) {
    findings.push_back(report::finding_to_json(finding));
  }
  if (capture_path) exchange::save_capsule_file(*capture_path, tensor);
  // What `capsule dump` prints of the tensor, so that Python's inspect shows
  // it field by field in the same words, from the same walk.
  report::CapsuleDump dump = report::build_capsule_dump(tensor.origin, {tensor});
  return {{"capsule", capsule::to_capsule_json(tensor)},
          {"reader_notes", tensor.reader_notes},
          {"findings", std::move(findings)},
          {"dump", report::capsule_dump_to_json(dump).at("tensors").at(0)},
          {"dump_text", report::capsule_dump_to_text(dump)}};
}

}  // namespace dlpack_usm::bridge
