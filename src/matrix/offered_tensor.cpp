#include "matrix/offered_tensor.hpp"

#include <algorithm>

#include "exchange/export_tensor.hpp"
#include "exchange/pattern.hpp"
#include "facts/element_size.hpp"

namespace dlpack_usm::matrix {
namespace {

using facts::UsmKind;
using runtime::DeviceInfo;

// Each case runs in its own child process, so one counter per process sees
// how often the consumer called the tool's deleter. Only the first call
// frees; later ones are counted and touch nothing.
int g_consumer_deleter_calls = 0;
void (*g_versioned_deleter)(dlpack::DLManagedTensorVersioned*) = nullptr;
void (*g_legacy_deleter)(dlpack::DLManagedTensor*) = nullptr;

void counting_versioned_deleter(dlpack::DLManagedTensorVersioned* tensor) {
  if (++g_consumer_deleter_calls == 1 && g_versioned_deleter != nullptr)
    g_versioned_deleter(tensor);
}

void counting_legacy_deleter(dlpack::DLManagedTensor* tensor) {
  if (++g_consumer_deleter_calls == 1 && g_legacy_deleter != nullptr) g_legacy_deleter(tensor);
}

}  // namespace

int offered_deleter_calls() {
  return g_consumer_deleter_calls;
}

void reset_offered_deleter_calls() {
  g_consumer_deleter_calls = 0;
}

void free_unconsumed(const OfferedTensor& offered) {
  if (offered.kept_deleter) {
    offered.kept_deleter(offered.tensor);
  } else if (offered.versioned) {
    g_versioned_deleter(static_cast<dlpack::DLManagedTensorVersioned*>(offered.tensor));
  } else {
    g_legacy_deleter(static_cast<dlpack::DLManagedTensor*>(offered.tensor));
  }
}

namespace {

// What export is given for a cell. A broadcast view is exported with
// compact strides over an allocation large enough for them, and the zeros
// are written in afterwards, so the export's rule gate judges (and
// refuses) nothing about the broadcast.
struct ExportGeometry {
  std::vector<std::int64_t> strides;
  std::uint64_t allocation_bytes = 0;
  bool broadcast = false;
};

ExportGeometry export_geometry(const exchange::Layout& layout, std::uint64_t element_bytes) {
  exchange::Layout compact_layout =
      exchange::make_layout(layout.shape, element_bytes, exchange::Order::c);
  ExportGeometry geometry{layout.strides, layout.allocation_bytes, false};
  for (std::size_t k = 0; k < geometry.strides.size(); ++k) {
    if (geometry.strides[k] != 0 || layout.shape[k] <= 1) continue;
    geometry.strides[k] = compact_layout.strides[k];
    geometry.broadcast = true;
  }
  if (geometry.broadcast) {
    geometry.allocation_bytes =
        std::max(layout.allocation_bytes, layout.byte_offset + compact_layout.allocation_bytes);
  }
  return geometry;
}

// The checksum of the elements in logical order, each read from the image
// at its position, so that broadcast axes (stride 0) count their shared
// element each time.
std::uint64_t offered_checksum(const std::vector<std::byte>& image, const exchange::Layout& layout,
                               std::uint64_t element_bytes) {
  std::uint64_t checksum = DLPACK_USM_CHECKSUM_SEED;
  std::uint64_t count = facts::checked_element_count(layout.shape).value_or(0);
  for (std::uint64_t i = 0; i < count; ++i) {
    std::int64_t at =
        static_cast<std::int64_t>(layout.byte_offset) +
        exchange::element_byte_position(i, layout.shape, layout.strides, element_bytes);
    checksum = dlpack_usm_checksum(checksum, image.data() + at, element_bytes);
  }
  return checksum;
}

// Allocates the cell's memory in the default context and writes its image.
void allocate_offered(runtime::Runtime& runtime, const DeviceInfo& device, UsmKind kind,
                      const OfferedShape& shape, std::uint64_t allocation_bytes,
                      OfferedTensor& offered) {
  offered.buffer = std::make_shared<runtime::UsmBuffer>(
      runtime.allocate(device.ref, kind, std::max<std::uint64_t>(allocation_bytes, 1),
                       runtime::ContextChoice::platform_default));
  offered.image = offered_image(shape);
  offered.image.resize(allocation_bytes, exchange::kGapFiller);
  runtime.copy(offered.buffer->context(), device.ref, offered.buffer->data(), offered.image.data(),
               offered.image.size());
}

exchange::ExportedTensor export_offered(runtime::Runtime& runtime, const OfferedShape& shape,
                                        const ExportGeometry& geometry,
                                        const OfferedTensor& offered) {
  exchange::ExportRequest request;
  // The matrix says itself which size-0 cells have NULL data (size0-null-data).
  request.null_data_when_empty = false;
  request.data = offered.buffer->data();
  request.context = offered.buffer->context();
  request.dtype = shape.dtype;
  request.shape = shape.layout.shape;
  if (shape.explicit_strides) request.strides = geometry.strides;
  request.byte_offset = shape.layout.byte_offset;
  request.keep_alive = offered.buffer;
  exchange::ExportOptions options;
  options.max_version = shape.version;
  options.read_only = (shape.flags & dlpack::kFlagReadOnly) != 0;
  return exchange::export_tensor(runtime, request, options);
}

// Takes the exported tensor out of its capsule with the counting deleter in
// place of the exporter's (or none, for a NULL-deleter cell, whose tensor
// the tool frees); its version and flags as the cell says. Its DLTensor.
dlpack::DLTensor* take_with_counted_deleter(exchange::CapsuleOwner& capsule,
                                            const OfferedShape& shape, OfferedTensor& offered) {
  if (capsule.is_versioned()) {
    dlpack::DLManagedTensorVersioned* tensor = capsule.release_versioned();
    g_versioned_deleter = tensor->deleter;
    tensor->deleter = shape.null_deleter ? nullptr : counting_versioned_deleter;
    if (shape.null_deleter) {
      offered.kept_deleter = [](void* kept) {
        g_versioned_deleter(static_cast<dlpack::DLManagedTensorVersioned*>(kept));
      };
    }
    tensor->flags |= shape.flags;
    if (shape.name == "major-version-2") tensor->version.major = 2;
    offered.tensor = tensor;
    return &tensor->dl_tensor;
  }
  dlpack::DLManagedTensor* tensor = capsule.release_legacy();
  g_legacy_deleter = tensor->deleter;
  tensor->deleter = shape.null_deleter ? nullptr : counting_legacy_deleter;
  if (shape.null_deleter) {
    offered.kept_deleter = [](void* kept) {
      g_legacy_deleter(static_cast<dlpack::DLManagedTensor*>(kept));
    };
  }
  offered.tensor = tensor;
  offered.versioned = false;
  return &tensor->dl_tensor;
}

// Breaks the exported tensor the way its cell says, after export (whose
// rule gate would refuse it before): NULL data or strides, the broadcast
// strides, fields out of range, data of another context or no USM at all.
void break_after_offer(runtime::Runtime& runtime, const DeviceInfo& device, UsmKind kind,
                       const OfferedShape& shape, bool broadcast, dlpack::DLTensor& body,
                       OfferedTensor& offered) {
  const std::string& name = shape.name;
  if (shape.null_data) body.data = nullptr;
  if (broadcast) std::copy(shape.layout.strides.begin(), shape.layout.strides.end(), body.strides);
  if (name == "strides-null-1.2") body.strides = nullptr;
  break_after_export(name, body, runtime.inventory().root_device_count());
  if (name == "separate-context") {
    offered.separate = runtime.allocate(device.ref, kind, offered.buffer->size(),
                                        runtime::ContextChoice::separate);
    body.data = offered.separate.data();
  }
  if (name == "unknown-pointer") {
    offered.host_memory = std::make_unique<float[]>(16);
    body.data = offered.host_memory.get();
  }
}

}  // namespace

// Exports the pattern in `shape`'s layout from a default-context allocation,
// counts its deleter, and breaks it the way an invalid case needs.
OfferedTensor offer(runtime::Runtime& runtime, const DeviceInfo& device, UsmKind kind,
                    const OfferedShape& shape) {
  std::uint64_t element_bytes = element_bytes_of(shape);
  ExportGeometry geometry = export_geometry(shape.layout, element_bytes);
  OfferedTensor offered;
  allocate_offered(runtime, device, kind, shape, geometry.allocation_bytes, offered);
  offered.checksum = offered_checksum(offered.image, shape.layout, element_bytes);
  exchange::ExportedTensor exported = export_offered(runtime, shape, geometry, offered);
  dlpack::DLTensor* body = take_with_counted_deleter(exported.capsule, shape, offered);
  break_after_offer(runtime, device, kind, shape, geometry.broadcast, *body, offered);
  return offered;
}

std::size_t written_bytes(runtime::Runtime& runtime, const DeviceInfo& device,
                          const OfferedTensor& offered) {
  std::vector<std::byte> now(offered.image.size());
  runtime.copy(offered.buffer->context(), device.ref, now.data(), offered.buffer->data(),
               now.size());
  std::size_t changed = 0;
  for (std::size_t i = 0; i < now.size(); ++i) changed += now[i] != offered.image[i] ? 1 : 0;
  return changed;
}

}  // namespace dlpack_usm::matrix
