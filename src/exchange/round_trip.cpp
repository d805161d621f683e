#include "exchange/round_trip.hpp"

#include <algorithm>
#include <cstring>
#include <memory>

#include <fmt/format.h>

#include "common/error.hpp"
#include "exchange/import_tensor.hpp"
#include "exchange/pattern.hpp"
#include "exchange/rule_refusal.hpp"
#include "facts/element_size.hpp"

namespace dlpack_usm::exchange {
namespace {

void record_refusal(RoundTripReport& report, const char* step, const Error& error) {
  report.refused_at = step;
  report.refusal = error.what();
  report.refusal_hint = error.hint();
  report.refusal_rule_ids = refusing_rules(error);
}

void verify(RoundTripReport& report, const ImportedView& view, const void* allocation) {
  report.imported_data = reinterpret_cast<std::uint64_t>(view.data());
  // A size-0 tensor is exported with NULL data (dlpack.h recommends it).
  report.pointer_identity =
      view.data() == allocation || (view.data() == nullptr && view.element_count() == 0);
  report.device_id_matches = view.placement().root_device.root_index == report.expected_device_id;
  // Element by element against the pattern, in address order (a window of
  // device USM at a time): no copy of the tensor beside the allocation.
  std::vector<std::byte> expected(report.element_bytes);
  view.for_each_element([&](std::uint64_t i, const std::byte* element) {
    pattern_element(i, report.element_bytes, expected.data());
    if (std::memcmp(element, expected.data(), report.element_bytes) != 0) {
      ++report.mismatches;
      if (!report.first_mismatch || i < *report.first_mismatch) report.first_mismatch = i;
    }
    ++report.elements_checked;
  });
}

// The report's device, and the layout of the pattern in its memory. Fails
// for a device that is gone and for elements smaller than a byte.
RoundTripReport plan_round_trip(runtime::Runtime& runtime, const RoundTripRequest& request) {
  RoundTripReport report;
  report.request = request;
  const runtime::DeviceInfo* device = runtime.inventory().find(request.device);
  if (device == nullptr) {
    fail_environment("no such device", "'dlpack-usm list-devices' shows the devices");
  }
  report.device_name = device->selector_name;
  report.device_description = device->name;
  report.expected_device_id = request.device.root_index;

  report.element_bytes = facts::element_storage_bytes(request.dtype);
  if (report.element_bytes == 0 || request.dtype.bits % 8 != 0) {
    fail_usage(fmt::format("the round trip needs whole-byte elements, not {} bits",
                           static_cast<unsigned>(request.dtype.bits)));
  }
  report.layout = make_layout(request.shape, report.element_bytes, request.order);
  report.allocation_bytes = std::max<std::uint64_t>(report.layout.allocation_bytes, 1);
  return report;
}

// Allocates the tensor's memory and writes the pattern through the device,
// a window of host staging at a time.
std::shared_ptr<runtime::UsmBuffer> allocate_pattern(runtime::Runtime& runtime,
                                                     const RoundTripRequest& request,
                                                     RoundTripReport& report) {
  auto buffer = std::make_shared<runtime::UsmBuffer>(
      runtime.allocate(request.device, request.kind, report.allocation_bytes,
                       runtime::ContextChoice::platform_default));
  report.allocation_address = reinterpret_cast<std::uint64_t>(buffer->data());
  report.allocate_call = runtime.call_name(runtime::RuntimeCall::allocate, request.kind);
  report.copy_call = runtime.call_name(runtime::RuntimeCall::copy, request.kind);
  auto* allocation = static_cast<std::byte*>(buffer->data());
  write_pattern_windows(report.layout, report.element_bytes, kStagingWindowBytes,
                        [&](std::uint64_t offset, std::span<const std::byte> bytes) {
                          runtime.copy(buffer->context(), request.device, allocation + offset,
                                       bytes.data(), bytes.size());
                          report.bytes_written += bytes.size();
                        });
  return buffer;
}

// Exports the buffer; nullopt when export refused it (the report says why).
// C order goes as "compact row-major", so export decides whether the
// emitted version lets it write NULL strides. Once this returns, only the
// tensor holds export's reference to the buffer.
std::optional<ExportedTensor> export_buffer(runtime::Runtime& runtime,
                                            const RoundTripRequest& request,
                                            const std::shared_ptr<runtime::UsmBuffer>& buffer,
                                            RoundTripReport& report) {
  ExportRequest export_request;
  export_request.data = buffer->data();
  export_request.context = buffer->context();
  export_request.dtype = request.dtype;
  export_request.shape = report.layout.shape;
  if (request.order != Order::c) export_request.strides = report.layout.strides;
  export_request.byte_offset = report.layout.byte_offset;
  export_request.keep_alive = buffer;
  try {
    ExportedTensor exported = export_tensor(runtime, export_request, request.options);
    report.exported = exported.facts;
    report.export_findings = exported.findings;
    return exported;
  } catch (const Error& error) {
    if (error.code() != ExitCode::findings) throw;
    record_refusal(report, "export", error);
    return std::nullopt;
  }
}

// Imports the capsule back, as a consumer would, and reads it; a refusal
// goes into the report.
void import_and_verify(runtime::Runtime& runtime, CapsuleOwner capsule, const void* allocation,
                       RoundTripReport& report) {
  try {
    ImportedView view = import_tensor(runtime, std::move(capsule));
    report.placement = view.placement();
    report.writable = view.writable();
    report.import_findings = view.findings();
    verify(report, view, allocation);
  } catch (const Error& error) {
    if (error.code() != ExitCode::findings) throw;
    record_refusal(report, "import", error);
  }
}

}  // namespace

bool RoundTripReport::ok() const {
  std::uint64_t expected_elements = 1;
  for (std::int64_t extent : layout.shape) expected_elements *= static_cast<std::uint64_t>(extent);
  return !refused_at && exported && placement && pointer_identity && device_id_matches &&
         mismatches == 0 && elements_checked == expected_elements && deleter_released_allocation;
}

RoundTripReport run_round_trip(runtime::Runtime& runtime, const RoundTripRequest& request) {
  RoundTripReport report = plan_round_trip(runtime, request);
  std::shared_ptr<runtime::UsmBuffer> buffer = allocate_pattern(runtime, request, report);
  std::optional<ExportedTensor> exported = export_buffer(runtime, request, buffer, report);
  if (!exported) return report;
  import_and_verify(runtime, std::move(exported->capsule), buffer->data(), report);
  // The view is gone: its deleter must have dropped export's reference.
  report.deleter_released_allocation = buffer.use_count() == 1;
  return report;
}

}  // namespace dlpack_usm::exchange
