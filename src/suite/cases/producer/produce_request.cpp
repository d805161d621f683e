#include "suite/cases/producer/produce_request.hpp"

#include "common/error.hpp"
#include "facts/element_size.hpp"
#include "plugin/host_table.hpp"

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

ProduceRequest make_produce_request(PluginSession& session, const runtime::DeviceInfo& device,
                                    const MatrixTensor& tensor) {
  runtime::Runtime& runtime = session.runtime();
  ProduceRequest request;
  request.dtype = *dl::parse_dtype(tensor.dtype);
  request.element_bytes = facts::element_storage_bytes(request.dtype);
  exchange::Order order = live_order(tensor.layout);
  request.layout = exchange::make_layout(live_shape(tensor.layout), request.element_bytes, order);
  request.version = live_version(tensor.version);
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
  c.flags = request.read_only ? dl::kFlagReadOnly : 0;
  return request;
}

}  // namespace dlpack_usm::suite
