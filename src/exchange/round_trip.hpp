// One whole exchange on a real device, as `dlpack-usm exchange` runs it:
// allocate USM, write the known pattern through the device, export, import
// the capsule back, and check that the consumer sees the producer's pointer
// (zero copy), the parent root's device_id, and every element in logical
// order. The result is a plain model; reporters print it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "exchange/export_tensor.hpp"
#include "exchange/imported_view.hpp"
#include "exchange/layout.hpp"

namespace dlpack_usm::exchange {

struct RoundTripRequest {
  runtime::DeviceRef device;  // a root device or a sub-device
  facts::UsmKind kind = facts::UsmKind::device;
  dlpack::DLDataType dtype{dlpack::kDLFloat, 32, 1};
  std::vector<std::int64_t> shape;
  Order order = Order::c;
  ExportOptions options;
};

struct RoundTripReport {
  RoundTripRequest request;
  std::string device_name;  // "opencl:cpu:0.1"
  std::string device_description;
  std::int32_t expected_device_id = 0;  // the root index of the device

  Layout layout;
  std::uint64_t element_bytes = 0;
  std::uint64_t allocation_address = 0;
  std::uint64_t allocation_bytes = 0;  // what was asked of the runtime
  std::uint64_t bytes_written = 0;     // the pattern, through the device
  // The runtime's calls that allocated and filled it, by its own names
  // (clDeviceMemAllocINTEL, DPCTLQueue_Memcpy): what the steps say was done.
  std::string allocate_call;
  std::string copy_call;

  // Set once export succeeded.
  std::optional<facts::TensorFacts> exported;
  std::vector<rules::Finding> export_findings;

  // Set once import succeeded.
  std::optional<ImportedPlacement> placement;
  std::uint64_t imported_data = 0;
  bool writable = false;
  std::vector<rules::Finding> import_findings;

  // The checks.
  bool pointer_identity = false;
  bool device_id_matches = false;
  std::uint64_t elements_checked = 0;
  std::uint64_t mismatches = 0;
  std::optional<std::uint64_t> first_mismatch;
  // The consumer's view released the capsule, and with it export's
  // reference to the allocation.
  bool deleter_released_allocation = false;

  // When export or import refused the tensor: which, and why.
  std::optional<std::string> refused_at;  // "export" or "import"
  std::string refusal;
  std::string refusal_hint;
  std::vector<std::string> refusal_rule_ids;  // the catalog rules that refused

  bool ok() const;
};

// Errors of the environment (no such device, no USM, allocation failure) and
// of usage propagate as Error; refusals by the protocol or the rules are
// recorded in the report, so the steps before them can still be shown.
RoundTripReport run_round_trip(runtime::Runtime& runtime, const RoundTripRequest& request);

}  // namespace dlpack_usm::exchange
