// simdjson (Debian 12's libsimdjson-dev 3.0) rather than a scanner of our
// own: its first stage validates UTF-8, string escapes and control bytes and
// indexes the structure of a line in one pass, and its On-Demand front end
// reads values in place, so a capsule line costs about a microsecond and no
// allocation. What it leaves lazy (values nobody asks for) cannot reach
// Facts here: every key must be known and every value is read.
#include "capsule/tensor_line_reader.hpp"

#if DLPACK_USM_HAVE_SIMDJSON
#include <simdjson.h>

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "capsule/capsule_tokens.hpp"
#include "dlpack/names.hpp"
#endif

namespace dlpack_usm::capsule {
#if DLPACK_USM_HAVE_SIMDJSON
namespace {

namespace od = simdjson::ondemand;

// Whatever the reader leaves to the reference reader. Thrown from deep in a
// line and caught in read(), never further: declines are rare (a malformed
// or unusual line), and unwinding keeps every reading step one line long.
struct Declined {};

template <typename T>
T take(simdjson::simdjson_result<T>&& result) {
  T value;
  if (std::move(result).get(value) != simdjson::SUCCESS) throw Declined{};
  return value;
}

// The bytes of a string that has no escape. One with an escape is declined:
// simdjson and nlohmann agree on escapes, but agreement is shown here only
// for the bytes themselves.
std::string_view plain(od::raw_json_string raw) {
  const char* begin = raw.raw();
  const char* end = begin;
  // The first stage has paired every quote, so the closing one is there.
  while (*end != '"') {
    if (*end == '\\') throw Declined{};
    ++end;
  }
  return {begin, static_cast<std::size_t>(end - begin)};
}

std::string_view plain_string(od::value& value) {
  return plain(take(value.get_raw_json_string()));
}

// An integer of C type T within T's range, as read_integer<T> takes it.
template <typename T>
T integer(od::value& value) {
  if constexpr (std::is_signed_v<T>) {
    std::int64_t number = take(value.get_int64());
    if (!std::in_range<T>(number)) throw Declined{};
    return static_cast<T>(number);
  } else {
    std::uint64_t number = take(value.get_uint64());
    if (!std::in_range<T>(number)) throw Declined{};
    return static_cast<T>(number);
  }
}

bool boolean(od::value& value) {
  return take(value.get_bool());
}

// Consumes a null; false (consuming nothing) for any other value.
bool null(od::value& value) {
  return take(value.is_null());
}

std::uint64_t address(od::value& value) {
  if (take(value.type()) != od::json_type::string) return integer<std::uint64_t>(value);
  std::optional<std::uint64_t> parsed = address_from_text(plain_string(value));
  if (!parsed) throw Declined{};
  return *parsed;
}

template <typename T>
T known(std::optional<T> value) {
  if (!value) throw Declined{};
  return *value;
}

// Byte by byte, not memcmp: keys are a dozen bytes, and a library call per
// key costs more than the comparison.
bool same_key(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

// Calls member(k, value) for each member of `object`, k being its key's
// place in `keys`: every key known, none twice. Returns the set of keys
// seen, bit k for keys[k].
template <typename Member>
std::uint32_t members(od::object object, std::initializer_list<std::string_view> keys,
                      Member&& member) {
  std::uint32_t seen = 0;
  for (auto item : object) {
    od::field field = take(std::move(item));
    std::string_view key = plain(field.key());
    std::uint32_t k = 0;
    for (std::string_view name : keys) {
      if (same_key(name, key)) break;
      ++k;
    }
    if (k == keys.size() || (seen & (1U << k)) != 0) throw Declined{};
    seen |= 1U << k;
    member(k, field.value());
  }
  return seen;
}

template <typename Member>
std::uint32_t members(od::value& value, std::initializer_list<std::string_view> keys,
                      Member&& member) {
  return members(take(value.get_object()), keys, std::forward<Member>(member));
}

// Keys every one of which must be there.
void require(std::uint32_t seen, std::uint32_t required) {
  if ((seen & required) != required) throw Declined{};
}

}  // namespace

// Buffers kept from one line to the next: what Facts hold in vectors and
// strings goes back here before a line is read, and out again as it is.
struct TensorLineReader::State {
  od::parser parser;
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides;
  std::string owner_device;
  std::string visible_devices;

  void recycle(facts::TensorFacts& facts);
  void read_tensor(od::object object, std::string_view origin, facts::TensorFacts& facts);
  void read_dl_tensor(od::value& value, facts::TensorFacts& facts);
  void read_dims(od::value& value, std::vector<std::int64_t>& spare,
                 std::optional<std::vector<std::int64_t>>& dims);
  void read_runtime(od::value& value, facts::RuntimeFacts& runtime);
  void read_runtime_member(std::uint32_t k, od::value& value, facts::RuntimeFacts& runtime);
};

namespace {

template <typename T>
void give_back(std::optional<T>& held, T& spare) {
  if (held) spare = std::move(*held);
  held.reset();
}

template <typename T>
void take_out(T& spare, std::optional<T>& held) {
  held = std::move(spare);
}

dlpack::DLDataType read_dtype(od::value& value) {
  if (take(value.type()) == od::json_type::string) {
    return known(dtype_from_shorthand(plain_string(value)));
  }
  dlpack::DLDataType dtype{};
  std::uint32_t seen = members(value, {"code", "bits", "lanes"}, [&](std::uint32_t k, od::value v) {
    if (k == 0) {
      bool named = take(v.type()) == od::json_type::string;
      const dlpack::DtypeCodeName* code =
          named ? dlpack::find_dtype_code(plain_string(v)) : nullptr;
      if (named && code == nullptr) throw Declined{};
      dtype.code = named ? code->code : integer<std::uint8_t>(v);
    } else if (k == 1) {
      dtype.bits = integer<std::uint8_t>(v);
    } else {
      dtype.lanes = integer<std::uint16_t>(v);
    }
  });
  require(seen, 0b111);
  return dtype;
}

void read_device(od::value& value, facts::TensorFacts& facts) {
  std::uint32_t seen =
      members(value, {"device_type", "device_id"}, [&](std::uint32_t k, od::value v) {
        if (k == 1) {
          facts.device_id = integer<std::int32_t>(v);
        } else if (take(v.type()) == od::json_type::string) {
          const dlpack::DeviceTypeName* type = dlpack::find_device_type(plain_string(v));
          if (type == nullptr) throw Declined{};
          facts.device_type = type->value;
        } else {
          facts.device_type = integer<std::int32_t>(v);
        }
      });
  require(seen, 0b11);
}

std::uint64_t read_flags(od::value& value) {
  od::json_type type = take(value.type());
  if (type == od::json_type::string) return known(flags_from_text(plain_string(value)));
  if (type != od::json_type::array) return integer<std::uint64_t>(value);
  std::uint64_t flags = 0;
  for (auto entry : take(value.get_array())) {
    od::value flag = take(std::move(entry));
    if (take(flag.type()) != od::json_type::string) throw Declined{};
    flags |= known(flag_from_token(plain_string(flag)));
  }
  return flags;
}

// shape and strides as the reference reader checks them against ndim.
void check_dims(const std::optional<std::vector<std::int64_t>>& dims, std::int64_t ndim) {
  if (dims && static_cast<std::int64_t>(dims->size()) != ndim) throw Declined{};
}

}  // namespace

void TensorLineReader::State::recycle(facts::TensorFacts& facts) {
  give_back(facts.shape, shape);
  give_back(facts.strides, strides);
  if (facts.runtime) {
    give_back(facts.runtime->owner_device_name, owner_device);
    give_back(facts.runtime->cuda_visible_devices, visible_devices);
  }
  std::string origin = std::move(facts.origin);
  facts = facts::TensorFacts{};
  facts.origin = std::move(origin);
}

void TensorLineReader::State::read_dims(od::value& value, std::vector<std::int64_t>& spare,
                                        std::optional<std::vector<std::int64_t>>& dims) {
  if (null(value)) return;
  spare.clear();
  for (auto entry : take(value.get_array())) {
    od::value extent = take(std::move(entry));
    if (spare.size() == static_cast<std::size_t>(facts::kMaxReadableDims)) throw Declined{};
    spare.push_back(integer<std::int64_t>(extent));
  }
  take_out(spare, dims);
}

void TensorLineReader::State::read_dl_tensor(od::value& value, facts::TensorFacts& facts) {
  std::uint32_t seen =
      members(value, {"data", "device", "ndim", "dtype", "shape", "strides", "byte_offset"},
              [&](std::uint32_t k, od::value v) {
                switch (k) {
                  case 0:
                    facts.data = null(v) ? 0 : address(v);
                    break;
                  case 1:
                    read_device(v, facts);
                    break;
                  case 2:
                    facts.ndim = integer<std::int32_t>(v);
                    break;
                  case 3:
                    facts.dtype = read_dtype(v);
                    break;
                  case 4:
                    read_dims(v, shape, facts.shape);
                    break;
                  case 5:
                    read_dims(v, strides, facts.strides);
                    break;
                  default:
                    facts.byte_offset = integer<std::uint64_t>(v);
                }
              });
  require(seen, 0b111111);
  // Past these the reference reader adds notes and other refusals.
  if (facts.ndim < 0 || facts.ndim > facts::kMaxReadableDims) throw Declined{};
  check_dims(facts.shape, facts.ndim);
  check_dims(facts.strides, facts.ndim);
}

void TensorLineReader::State::read_runtime_member(std::uint32_t k, od::value& value,
                                                  facts::RuntimeFacts& runtime) {
  switch (k) {
    case 0:
      runtime.usm_kind = known(facts::parse_usm_kind(std::string(plain_string(value))));
      break;
    case 1:
      runtime.owner_root_index = integer<std::int32_t>(value);
      break;
    case 2:
      if (!null(value)) runtime.owner_sub_device_index = integer<std::int32_t>(value);
      break;
    case 3:
      owner_device.assign(plain_string(value));
      take_out(owner_device, runtime.owner_device_name);
      break;
    case 4:
      runtime.root_device_count = integer<std::int32_t>(value);
      break;
    case 5:
      runtime.default_context = boolean(value);
      break;
    case 6:
      runtime.alloc_base = address(value);
      break;
    case 7:
      runtime.alloc_size = address(value);
      break;
    case 8:
      runtime.cuda_memory_type =
          known(facts::parse_cuda_memory_type(std::string(plain_string(value))));
      break;
    case 9:
      runtime.cuda_ordinal = integer<std::int32_t>(value);
      break;
    case 10:
      runtime.cuda_device_count = integer<std::int32_t>(value);
      break;
    default:
      visible_devices.assign(plain_string(value));
      take_out(visible_devices, runtime.cuda_visible_devices);
  }
}

void TensorLineReader::State::read_runtime(od::value& value, facts::RuntimeFacts& runtime) {
  members(value,
          {"usm_kind", "owner_root_index", "owner_sub_device_index", "owner_device",
           "root_device_count", "default_context", "alloc_base", "alloc_size", "cuda_memory_type",
           "cuda_ordinal", "cuda_device_count", "cuda_visible_devices"},
          [&](std::uint32_t k, od::value v) { read_runtime_member(k, v, runtime); });
}

void TensorLineReader::State::read_tensor(od::object object, std::string_view origin,
                                          facts::TensorFacts& facts) {
  std::optional<std::uint64_t> flags;
  std::string_view recorded;
  std::uint32_t seen = members(
      object,
      {"version", "flags", "deleter", "manager_ctx", "dl_tensor", "runtime", "origin", "comment"},
      [&](std::uint32_t k, od::value v) {
        if (k == 0) {
          std::uint32_t numbers = members(v, {"major", "minor"}, [&](std::uint32_t n, od::value x) {
            (n == 0 ? facts.version.major : facts.version.minor) = integer<std::uint32_t>(x);
          });
          require(numbers, 0b11);
        } else if (k == 1) {
          flags = read_flags(v);
        } else if (k == 2 || k == 3) {
          (k == 2 ? facts.has_deleter : facts.has_manager_ctx) = boolean(v);
        } else if (k == 4) {
          read_dl_tensor(v, facts);
        } else if (k == 5) {
          read_runtime(v, facts.runtime.emplace());
        } else {
          // "origin" joins the facts' origin; "comment" is read and set aside.
          std::string_view text = plain_string(v);
          if (k == 6) recorded = text;
        }
      });
  bool versioned = (seen & 0b1) != 0;
  // A legacy tensor with flags, another major (its body set aside) and a
  // missing dl_tensor are the reference reader's to word.
  if ((!versioned && flags) || (versioned && facts.version.major != dlpack::kModelMajor) ||
      (seen & 0b10000) == 0) {
    throw Declined{};
  }
  facts.abi = versioned ? facts::Abi::versioned : facts::Abi::legacy;
  if (!versioned) facts.version = {0, 0};
  facts.flags = flags.value_or(0);
  facts.origin.assign(origin);
  if ((seen & 0b1000000) != 0) {
    facts.origin += " (";
    facts.origin += recorded;
    facts.origin += ')';
  }
}

TensorLineReader::TensorLineReader() : state_(std::make_unique<State>()) {}

TensorLineReader::~TensorLineReader() = default;

bool TensorLineReader::reads_lines() {
  return true;
}

bool TensorLineReader::read(std::string_view line, std::string_view origin,
                            facts::TensorFacts& facts) {
  static_assert(simdjson::SIMDJSON_PADDING <= 64);
  state_->recycle(facts);
  try {
    od::document document =
        take(state_->parser.iterate(line.data(), line.size(), line.size() + 64));
    state_->read_tensor(take(document.get_object()), origin, facts);
    // Anything after the object (a second value, a stray bracket) is an
    // error the reference reader words.
    return document.current_location().error() == simdjson::OUT_OF_BOUNDS;
  } catch (const Declined&) {
    return false;
  }
}

#else

// Built without simdjson: the reader declines every line, and the reference
// reader reads it (the same facts and messages, only slower).
struct TensorLineReader::State {};

TensorLineReader::TensorLineReader() : state_(std::make_unique<State>()) {}

TensorLineReader::~TensorLineReader() = default;

bool TensorLineReader::reads_lines() {
  return false;
}

bool TensorLineReader::read(std::string_view /*line*/, std::string_view /*origin*/,
                            facts::TensorFacts& /*facts*/) {
  return false;
}

#endif
}  // namespace dlpack_usm::capsule
