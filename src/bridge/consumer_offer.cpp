#include "bridge/consumer_offer.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>

#include <fmt/format.h>

#include "bridge/consumer_cells.hpp"
#include "common/error.hpp"
#include "dlpack/abi.hpp"
#include "dlpack/names.hpp"
#include "exchange/layout.hpp"
#include "exchange/pattern.hpp"
#include "facts/element_size.hpp"
#include "matrix/offered_tensor.hpp"

namespace dlpack_usm::bridge {
namespace {

using nlohmann::ordered_json;
using suite::OfferedShape;

struct FreeDeleter {
  void operator()(std::byte* memory) const noexcept { std::free(memory); }
};

// The struct, shape and strides of a kDLCPU offer, freed by its deleter.
struct HostManager {
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides;
  dl::DLManagedTensorVersioned versioned{};
  dl::DLManagedTensor legacy{};
};

void free_host_versioned(dl::DLManagedTensorVersioned* self) noexcept {
  delete static_cast<HostManager*>(self->manager_ctx);
}

void free_host_legacy(dl::DLManagedTensor* self) noexcept {
  delete static_cast<HostManager*>(self->manager_ctx);
}

// One tensor offered: its memory (USM through suite::offer, or host memory)
// and the deleter it had before the counting one took its place.
struct Offer {
  std::uint64_t handle = 0;
  suite::OfferedTensor usm;  // USM offers
  const runtime::DeviceInfo* device = nullptr;
  std::unique_ptr<std::byte, FreeDeleter> host;  // kDLCPU offers
  std::vector<std::byte> image;                  // the memory's bytes as offered
  void* tensor = nullptr;
  bool versioned = true;
  void (*free_versioned)(dl::DLManagedTensorVersioned*) = nullptr;
  void (*free_legacy)(dl::DLManagedTensor*) = nullptr;
  int calls = 0;
};

std::mutex g_mutex;
std::uint64_t g_next_handle = 1;
std::map<std::uint64_t, std::unique_ptr<Offer>> g_offers;
std::map<const void*, Offer*> g_by_tensor;
// Offers whose deleter never ran: the consumer may still read their memory.
std::vector<std::unique_ptr<Offer>> g_kept;
int g_stray_calls = 0;

// The first call frees the struct (the memory stays with the offer); every
// call is counted, later ones touch nothing.
template <typename Tensor>
void counting_deleter(Tensor* tensor) noexcept {
  Offer* offer = nullptr;
  {
    std::lock_guard lock(g_mutex);
    auto found = g_by_tensor.find(tensor);
    if (found == g_by_tensor.end()) {
      ++g_stray_calls;
      return;
    }
    offer = found->second;
    if (++offer->calls != 1) return;
  }
  if constexpr (std::is_same_v<Tensor, dl::DLManagedTensorVersioned>) {
    suite::reset_offered_deleter_calls();
    if (offer->free_versioned != nullptr) offer->free_versioned(tensor);
  } else {
    suite::reset_offered_deleter_calls();
    if (offer->free_legacy != nullptr) offer->free_legacy(tensor);
  }
}

std::string hex(const std::byte* bytes, std::size_t size) {
  std::string text;
  text.reserve(size * 2);
  for (std::size_t i = 0; i < size; ++i)
    text += fmt::format("{:02x}", static_cast<unsigned>(bytes[i]));
  return text;
}

// The request's "version": MAJOR.MINOR; what follows it is ignored.
dl::Release request_version(const std::string& text) {
  std::optional<dl::Release> release = dl::parse_release(text).release;
  if (!release) fail_usage(fmt::format("version '{}' is not MAJOR.MINOR", text));
  return *release;
}

// Offers `shape` in 256-byte aligned host memory as a kDLCPU tensor, broken
// the way an invalid cell needs; the image and strides as the layout says.
void offer_host(Offer& offer, const OfferedShape& shape) {
  const exchange::Layout& layout = shape.layout;
  std::uint64_t bytes = std::max<std::uint64_t>(layout.allocation_bytes, 1);
  offer.image = suite::offered_image(shape);
  offer.image.resize(bytes, exchange::kGapFiller);
  std::size_t rounded = (bytes + 255) / 256 * 256;
  offer.host.reset(static_cast<std::byte*>(std::aligned_alloc(256, rounded)));
  if (!offer.host) fail_environment("out of host memory for an offered tensor");
  std::copy(offer.image.begin(), offer.image.end(), offer.host.get());

  auto manager = std::make_unique<HostManager>();
  manager->shape = layout.shape;
  manager->strides = layout.strides;
  dl::DLTensor body{};
  body.data = shape.null_data ? nullptr : offer.host.get();
  body.device = dl::DLDevice{dl::kDLCPU, 0};
  body.ndim = static_cast<std::int32_t>(layout.shape.size());
  body.dtype = shape.dtype;
  body.shape = manager->shape.empty() ? nullptr : manager->shape.data();
  bool null_strides = (!shape.explicit_strides && shape.version < dl::Release{1, 2}) ||
                      shape.name == "strides-null-1.2";
  body.strides = manager->strides.empty() || null_strides ? nullptr : manager->strides.data();
  body.byte_offset = layout.byte_offset;
  // The invalid cells broken in one field of the struct, as suite::offer
  // breaks them in USM (the device-id cell is about kDLOneAPI ids only).
  suite::break_after_export(shape.name, body, 1);
  HostManager* raw = manager.release();
  if (shape.version < dl::Release{1, 0}) {
    raw->legacy = dl::DLManagedTensor{body, raw, free_host_legacy};
    offer.tensor = &raw->legacy;
    offer.versioned = false;
    offer.free_legacy = free_host_legacy;
    return;
  }
  raw->versioned.version = dl::DLPackVersion{shape.version.major, shape.version.minor};
  if (shape.name == "major-version-2") raw->versioned.version.major = 2;
  raw->versioned.manager_ctx = raw;
  raw->versioned.deleter = free_host_versioned;
  raw->versioned.flags = shape.flags;
  raw->versioned.dl_tensor = body;
  offer.tensor = &raw->versioned;
  offer.free_versioned = free_host_versioned;
}

// Offers `shape` in USM of `kind` on root device `device_id`, exactly as
// `check --consumer` does (suite::offer). Returns a reason where the cell
// cannot be tested on this runtime (the tensor is then freed already).
std::string offer_usm(Offer& offer, const OfferedShape& shape, facts::UsmKind kind,
                      std::int32_t device_id) {
  runtime::Runtime& runtime = offer_runtime();
  offer.device = runtime.inventory().find(runtime::DeviceRef{device_id, std::nullopt});
  if (offer.device == nullptr) {
    fail_usage(fmt::format("no root device has device_id {}", device_id),
               "list the devices with dlpack_usm_bridge_consumer_matrix");
  }
  offer.usm = suite::offer(runtime, *offer.device, kind, shape);
  offer.image = offer.usm.image;
  if (shape.name == "separate-context") {
    // As in `check --consumer`: a runtime whose default context knows other
    // contexts' allocations (PoCL 5.0) makes the cell untestable.
    runtime::PointerInfo seen =
        runtime.query(offer.usm.separate.data(),
                      runtime.default_context(offer.usm.separate.context().platform_index));
    if (seen.kind != facts::UsmKind::unknown) {
      suite::free_unconsumed(offer.usm);
      offer.tensor = nullptr;
      return "this runtime's default context knows allocations of other contexts, so an "
             "importer cannot tell them apart";
    }
  }
  offer.tensor = offer.usm.tensor;
  offer.versioned = offer.usm.versioned;
  if (offer.versioned) {
    offer.free_versioned = static_cast<dl::DLManagedTensorVersioned*>(offer.tensor)->deleter;
  } else {
    offer.free_legacy = static_cast<dl::DLManagedTensor*>(offer.tensor)->deleter;
  }
  return {};
}

// The elements in logical row-major order, as the image holds them.
std::vector<std::byte> logical_elements(const Offer& offer, const OfferedShape& shape) {
  std::uint64_t element_bytes = suite::element_bytes_of(shape);
  std::uint64_t count =
      shape.null_data ? 0 : facts::checked_element_count(shape.layout.shape).value_or(0);
  std::vector<std::byte> elements;
  elements.reserve(count * element_bytes);
  for (std::uint64_t i = 0; i < count; ++i) {
    std::int64_t at =
        static_cast<std::int64_t>(shape.layout.byte_offset) +
        exchange::element_byte_position(i, shape.layout.shape, shape.layout.strides, element_bytes);
    const std::byte* first = offer.image.data() + at;
    elements.insert(elements.end(), first, first + element_bytes);
  }
  return elements;
}

Offer& find_offer(std::uint64_t handle) {
  auto found = g_offers.find(handle);
  if (found == g_offers.end()) fail_usage(fmt::format("no offer has handle {}", handle));
  return *found->second;
}

// Why `shape` cannot be offered at `version` (the newest the consumer
// asked for), or nothing. `consumer_too_old` tells whether the consumer's
// own max_version is the reason (a decline of the cell's feature) rather
// than the cell having no form at that version (not applicable).
std::string unofferable(const OfferedShape& shape, dl::Release version, bool& consumer_too_old) {
  consumer_too_old = false;
  // The other invalid cells break a field both structs have.
  if (shape.name == "major-version-2" && version < dl::Release{1, 0}) {
    return fmt::format(
        "the invalid cell '{}' needs a versioned tensor; the consumer asked for "
        "a legacy one",
        shape.name);
  }
  if (shape.name == "strides-null-1.2" && version < dl::Release{1, 2}) {
    return fmt::format(
        "NULL strides are invalid from DLPack 1.2 on; the consumer asked for at "
        "most {}, where they mean compact row-major",
        dl::to_string(version));
  }
  if (shape.name.starts_with("version-") && version < shape.version) {
    // The version axis asks whether the consumer takes that version at all.
    consumer_too_old = true;
    return fmt::format("the consumer asked for at most DLPack {}, so it never gets {}",
                       dl::to_string(version), dl::to_string(shape.version));
  }
  for (const dl::DtypeCodeName& code : dl::dtype_code_table()) {
    const dl::Release since = dl::declared_by(code.known_since);
    if (code.code == shape.dtype.code && version < since) {
      consumer_too_old = true;
      return fmt::format("{} exists from DLPack {} on; the consumer asked for at most {}",
                         code.name, dl::to_string(since), dl::to_string(version));
    }
  }
  return {};
}

// A cell as one request offers it: the shape at the version offered, and
// what became of it on the way.
struct CellOffer {
  OfferedShape shape;
  bool valid = true;
  std::string memory;  // "cpu", or a USM kind
  dl::Release version;
  std::uint64_t dropped_flags = 0;
  std::string untestable;  // why the cell cannot be tested here, or ""
};

// The info of a cell that is not offered: why, as untestable, or as the
// consumer's too old max_version.
ordered_json unoffered_info(const CellOffer& cell, const std::string& why, bool consumer_too_old) {
  return {{"handle", 0},
          {"cell", cell.shape.name},
          {"valid", cell.valid},
          {"untestable", consumer_too_old ? ordered_json(nullptr) : ordered_json(why)},
          {"consumer_too_old", consumer_too_old ? ordered_json(why) : ordered_json(nullptr)}};
}

// Brings the cell to the version offered; IS_COPIED where `copied`. A
// legacy tensor has no flags: READ_ONLY and the rest are dropped, and
// returned.
std::uint64_t fit_to_version(OfferedShape& shape, dl::Release version, bool copied) {
  std::uint64_t dropped_flags = 0;
  if (version < dl::Release{1, 0} && shape.version >= dl::Release{1, 0}) {
    dropped_flags = shape.flags;
    shape.flags = 0;
  }
  shape.version = version;
  if (copied) {
    if (version < dl::Release{1, 0}) fail_usage("a legacy tensor cannot say IS_COPIED");
    shape.flags |= dl::kFlagIsCopied;
  }
  return dropped_flags;
}

// Puts the cell in the memory asked for: host memory for "cpu", USM of
// that kind otherwise. Returns why it cannot be tested, or "".
std::string place_offer(Offer& offer, const CellOffer& cell, const nlohmann::json& request) {
  const OfferedShape& shape = cell.shape;
  if (cell.memory == "cpu") {
    if (shape.name == "separate-context" || shape.name == "unknown-pointer" ||
        shape.name == "oneapi-device-id-range") {
      fail_usage(fmt::format("the invalid cell '{}' is about USM pointers", shape.name));
    }
    offer_host(offer, shape);
    return {};
  }
  std::optional<facts::UsmKind> kind = facts::parse_usm_kind(cell.memory);
  if (!kind || *kind == facts::UsmKind::unknown) {
    fail_usage(fmt::format("memory '{}' is not cpu, host, device or shared", cell.memory));
  }
  return offer_usm(offer, shape, *kind, request.value("device_id", 0));
}

// The info of an offered cell (consumer_offer.hpp lists it).
ordered_json offered_info(const Offer& offer, const CellOffer& cell, const nlohmann::json& request,
                          const std::vector<std::byte>& elements) {
  const OfferedShape& shape = cell.shape;
  bool cpu = cell.memory == "cpu";
  std::uint64_t checksum =
      dlpack_usm_checksum(DLPACK_USM_CHECKSUM_SEED, elements.data(), elements.size());
  return {{"handle", offer.handle},
          {"cell", shape.name},
          {"valid", cell.valid},
          {"capsule_name", offer.versioned ? "dltensor_versioned" : "dltensor"},
          {"device",
           {cpu ? static_cast<int>(dl::kDLCPU) : static_cast<int>(dl::kDLOneAPI),
            cpu ? 0 : request.value("device_id", 0)}},
          {"version", dl::to_string(cell.version)},
          {"flags", shape.flags},
          {"dropped_flags", cell.dropped_flags},
          {"dtype", dl::dtype_display(shape.dtype)},
          {"dtype_code", shape.dtype.code},
          {"dtype_bits", shape.dtype.bits},
          {"shape", shape.layout.shape},
          {"element_bytes", suite::element_bytes_of(shape)},
          {"elements", hex(elements.data(), elements.size())},
          {"checksum", fmt::format("{:#018x}", checksum)},
          {"untestable",
           cell.untestable.empty() ? ordered_json(nullptr) : ordered_json(cell.untestable)},
          {"consumer_too_old", nullptr}};
}

// Puts the counting deleter in the tensor's place and files the offer
// under its handle and its tensor; called with g_mutex held. The tensor.
void* file_offer(std::unique_ptr<Offer> offer) {
  void* tensor = offer->tensor;
  if (tensor != nullptr) {
    if (offer->versioned) {
      static_cast<dl::DLManagedTensorVersioned*>(tensor)->deleter =
          counting_deleter<dl::DLManagedTensorVersioned>;
    } else {
      static_cast<dl::DLManagedTensor*>(tensor)->deleter = counting_deleter<dl::DLManagedTensor>;
    }
    g_by_tensor[tensor] = offer.get();
  }
  g_offers[offer->handle] = std::move(offer);
  return tensor;
}

}  // namespace

void* offer_cell(const nlohmann::json& request, ordered_json& info) {
  CellOffer cell;
  cell.shape = find_cell(request.at("cell").get<std::string>(), cell.valid);
  cell.memory = request.value("memory", std::string("cpu"));
  dl::Release asked = request_version(request.value("version", dl::to_string(dl::kModelRelease)));
  if (asked < dl::Release{1, 0}) asked = dl::kLastLegacyRelease;
  cell.version = std::min(asked, cell.shape.version);
  bool consumer_too_old = false;
  if (std::string why = unofferable(cell.shape, asked, consumer_too_old); !why.empty()) {
    info = unoffered_info(cell, why, consumer_too_old);
    return nullptr;
  }
  cell.dropped_flags = fit_to_version(cell.shape, cell.version, request.value("copied", false));
  auto offer = std::make_unique<Offer>();
  cell.untestable = place_offer(*offer, cell, request);
  std::vector<std::byte> elements = logical_elements(*offer, cell.shape);
  std::lock_guard lock(g_mutex);
  offer->handle = g_next_handle++;
  info = offered_info(*offer, cell, request, elements);
  return file_offer(std::move(offer));
}

ordered_json offer_state(std::uint64_t handle) {
  std::lock_guard lock(g_mutex);
  Offer& offer = find_offer(handle);
  std::size_t written = 0;
  if (offer.host) {
    for (std::size_t i = 0; i < offer.image.size(); ++i) {
      written += offer.host.get()[i] != offer.image[i] ? 1 : 0;
    }
  } else if (offer.device != nullptr && offer.usm.buffer) {
    written = suite::written_bytes(offer_runtime(), *offer.device, offer.usm);
  }
  return {{"deleter_calls", offer.calls},
          {"written_bytes", written},
          {"stray_deleter_calls", g_stray_calls}};
}

ordered_json offer_release(std::uint64_t handle) {
  std::lock_guard lock(g_mutex);
  Offer& offer = find_offer(handle);
  bool kept = offer.calls == 0 && offer.tensor != nullptr;
  std::unique_ptr<Offer> owned = std::move(g_offers[handle]);
  g_offers.erase(handle);
  if (kept) {
    g_kept.push_back(std::move(owned));
  } else if (offer.tensor != nullptr) {
    g_by_tensor.erase(offer.tensor);
  }
  return {{"released", !kept}};
}

}  // namespace dlpack_usm::bridge
