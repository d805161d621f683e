#include "suite/cases/producer/produce_request.hpp"

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/printable.hpp"
#include "facts/element_size.hpp"
#include "plugin/host_table.hpp"
#include "rules/rule_ids.hpp"

namespace dlpack_usm::suite {
namespace {

std::uint32_t layout_code(exchange::Order order) {
  switch (order) {
    case exchange::Order::c:
      return DLPACK_USM_LAYOUT_C;
    case exchange::Order::f:
      return DLPACK_USM_LAYOUT_F;
    case exchange::Order::strided:
      return DLPACK_USM_LAYOUT_STRIDED;
    case exchange::Order::offset:
      return DLPACK_USM_LAYOUT_OFFSET;
    case exchange::Order::negative:
      return DLPACK_USM_LAYOUT_NEGATIVE;
  }
  return DLPACK_USM_LAYOUT_C;
}

}  // namespace

ProduceRequest make_produce_request(runtime::Runtime& runtime, const runtime::DeviceInfo& device,
                                    const matrix::MatrixTensor& tensor) {
  ProduceRequest request;
  request.dtype = *dlpack::parse_dtype(tensor.dtype);
  request.element_bytes = facts::element_storage_bytes(request.dtype);
  exchange::Order order = matrix::live_order(tensor.layout);
  request.layout =
      exchange::make_layout(matrix::live_shape(tensor.layout), request.element_bytes, order);
  request.version = matrix::live_version(tensor.version);
  request.read_only = tensor.read_only;

  const runtime::PlatformInfo* platform = runtime.inventory().platform_of(device.ref);
  if (platform == nullptr) fail_environment("the device has no platform");
  DlpackUsmProduceRequest& c = request.c;
  c.struct_size = sizeof(DlpackUsmProduceRequest);
  c.device_id = device.ref.root_index;
  c.sub_device = device.ref.sub_index.value_or(-1);
  // Each runtime fills its own handles: OpenCL's (ABI 1) or SYCL's (ABI 2).
  runtime::ContextRef context = runtime.default_context(platform->index);
  runtime::SyclHandles sycl = runtime.sycl_handles(device.ref);
  c.cl_device = runtime.native_handles(device.ref).device;
  c.cl_context = sycl.device == nullptr ? context.handle : nullptr;
  c.sycl_device = sycl.device;
  c.sycl_context = sycl.default_context;
  c.usm_kind = plugin::usm_kind_code(tensor.kind);
  c.layout = layout_code(order);
  c.dtype_code = request.dtype.code;
  c.dtype_bits = request.dtype.bits;
  c.dtype_lanes = request.dtype.lanes;
  c.ndim = static_cast<std::int32_t>(request.layout.shape.size());
  c.shape = request.layout.shape.empty() ? nullptr : request.layout.shape.data();
  c.strides = request.layout.strides.empty() ? nullptr : request.layout.strides.data();
  c.byte_offset = request.layout.byte_offset;
  c.allocation_bytes = request.layout.allocation_bytes;
  c.dlpack_major = request.version.major;
  c.dlpack_minor = request.version.minor;
  c.flags = request.read_only ? dlpack::kFlagReadOnly : 0;
  return request;
}

void reshape_request(ProduceRequest& request, const std::vector<std::int64_t>& shape) {
  request.layout = exchange::make_layout(shape, request.element_bytes, exchange::Order::c);
  DlpackUsmProduceRequest& c = request.c;
  c.layout = DLPACK_USM_LAYOUT_C;
  c.ndim = static_cast<std::int32_t>(request.layout.shape.size());
  c.shape = request.layout.shape.empty() ? nullptr : request.layout.shape.data();
  c.strides = request.layout.strides.empty() ? nullptr : request.layout.strides.data();
  c.byte_offset = request.layout.byte_offset;
  c.allocation_bytes = request.layout.allocation_bytes;
}

bool matches_request(const ProduceRequest& request, const facts::TensorFacts& tensor,
                     CaseFindings& found) {
  if (tensor.dtype.code != request.dtype.code || tensor.dtype.bits != request.dtype.bits ||
      tensor.dtype.lanes != request.dtype.lanes) {
    found.add(
        rules::ids::kProducerContent,
        fmt::format("rule {}: dtype is {}, {} was asked for", rules::ids::kProducerContent,
                    dlpack::dtype_display(tensor.dtype), dlpack::dtype_display(request.dtype)));
    return false;
  }
  std::vector<std::int64_t> shape = tensor.shape.value_or(std::vector<std::int64_t>{});
  if (shape != request.layout.shape) {
    found.add(
        rules::ids::kProducerContent,
        fmt::format("rule {}: shape is [{}], [{}] was asked for", rules::ids::kProducerContent,
                    fmt::join(shape, ", "), fmt::join(request.layout.shape, ", ")));
    return false;
  }
  // A legacy tensor has no flags (DLP-PRODUCER-READ-ONLY-LEGACY says so).
  if (request.read_only && request.versioned() && (tensor.flags & dlpack::kFlagReadOnly) == 0) {
    found.add(rules::ids::kProducerContent,
              fmt::format("rule {}: READ_ONLY was asked for and is not set",
                          rules::ids::kProducerContent));
  }
  return true;
}

Produced produce_once(PluginSession& session, const CaseSpec& spec, ProduceRequest& request) {
  char message[512] = {};
  void* out = nullptr;
  int status =
      session.table().table->produce(session.host(), &request.c, &out, message, sizeof message);
  message[sizeof message - 1] = '\0';
  Produced produced;
  if (status == DLPACK_USM_UNSUPPORTED) {
    produced.refused = CaseResult{spec.id, Outcome::not_supported,
                                  fmt::format("the library cannot: {}", printable(message))};
    produced.refused->exchange = ExchangeOutcome::refused;
  } else if (status != DLPACK_USM_OK || out == nullptr) {
    CaseFindings found;
    found.add(std::string(rules::ids::kPluginStatus),
              fmt::format("rule {}: produce returned {} and {}: {}", rules::ids::kPluginStatus,
                          status, out == nullptr ? "no tensor" : "a tensor", printable(message)));
    produced.refused = found.result(spec.id, "");
  } else if (request.versioned()) {
    produced.capsule = exchange::CapsuleOwner(static_cast<dlpack::DLManagedTensorVersioned*>(out));
  } else {
    produced.capsule = exchange::CapsuleOwner(static_cast<dlpack::DLManagedTensor*>(out));
  }
  return produced;
}

}  // namespace dlpack_usm::suite
