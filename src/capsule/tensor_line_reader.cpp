// A scanner made for capsule lines (line_scanner.hpp) rather than a general
// parser: a capture's lines are all of one shape, printable ASCII, integers
// and a few dozen keys, and reading them byte by byte into Facts, keys
// matched as they come, costs a third of what simdjson's On-Demand front end
// (the reader before this one) took on the same lines. What it leaves to the
// reference reader (escapes, UTF-8, fractions, malformed JSON) is rare in a
// capture and read there exactly.
#include "capsule/tensor_line_reader.hpp"

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <utility>
#include <vector>

#include "capsule/capsule_tokens.hpp"
#include "capsule/line_scanner.hpp"
#include "dlpack/names.hpp"

namespace dlpack_usm::capsule {
namespace {

template <typename T>
T known(std::optional<T> value) {
  if (!value) throw LineDeclined{};
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

// The place of `key` in `keys` (keys.size() for none), tried first at
// `guess`: a capture writes its keys in one order, so the key after the
// previous one is nearly always the one.
std::uint32_t key_place(std::string_view key, std::initializer_list<std::string_view> keys,
                        std::uint32_t guess) {
  const std::string_view* names = keys.begin();
  auto count = static_cast<std::uint32_t>(keys.size());
  if (guess < count && same_key(names[guess], key)) return guess;
  std::uint32_t k = 0;
  while (k < count && !same_key(names[k], key)) ++k;
  return k;
}

// Calls member(k) for each member of the object at `scan`, k being its
// key's place in `keys`, with the scanner at its value: every key known,
// none twice. Returns the set of keys seen, bit k for keys[k].
template <typename Member>
std::uint32_t members(LineScanner& scan, std::initializer_list<std::string_view> keys,
                      Member&& member) {
  std::uint32_t seen = 0;
  std::uint32_t k = 0;
  scan.begin_object();
  for (bool first = true; scan.next_member(first); first = false) {
    k = key_place(scan.key(), keys, first ? 0 : k + 1);
    if (k == keys.size() || (seen & (1U << k)) != 0) throw LineDeclined{};
    seen |= 1U << k;
    member(k);
  }
  return seen;
}

// Keys every one of which must be there.
void require(std::uint32_t seen, std::uint32_t required) {
  if ((seen & required) != required) throw LineDeclined{};
}

// An address: a "0x..." string or an integer.
std::uint64_t address(LineScanner& scan) {
  if (scan.peek() == '"') return known(address_from_text(scan.string()));
  return scan.integer<std::uint64_t>();
}

dlpack::DLDataType read_dtype(LineScanner& scan) {
  if (scan.peek() == '"') return known(dtype_from_shorthand(scan.string()));
  dlpack::DLDataType dtype{};
  std::uint32_t seen = members(scan, {"code", "bits", "lanes"}, [&](std::uint32_t k) {
    if (k == 0 && scan.peek() == '"') {
      const dlpack::DtypeCodeName* code = dlpack::find_dtype_code(scan.string());
      if (code == nullptr) throw LineDeclined{};
      dtype.code = code->code;
    } else if (k == 0) {
      dtype.code = scan.integer<std::uint8_t>();
    } else if (k == 1) {
      dtype.bits = scan.integer<std::uint8_t>();
    } else {
      dtype.lanes = scan.integer<std::uint16_t>();
    }
  });
  require(seen, 0b111);
  return dtype;
}

void read_device(LineScanner& scan, facts::TensorFacts& facts) {
  std::uint32_t seen = members(scan, {"device_type", "device_id"}, [&](std::uint32_t k) {
    if (k == 1) {
      facts.device_id = scan.integer<std::int32_t>();
    } else if (scan.peek() == '"') {
      const dlpack::DeviceTypeName* type = dlpack::find_device_type(scan.string());
      if (type == nullptr) throw LineDeclined{};
      facts.device_type = type->value;
    } else {
      facts.device_type = scan.integer<std::int32_t>();
    }
  });
  require(seen, 0b11);
}

std::uint64_t read_flags(LineScanner& scan) {
  char next = scan.peek();
  if (next == '"') return known(flags_from_text(scan.string()));
  if (next != '[') return scan.integer<std::uint64_t>();
  std::uint64_t flags = 0;
  scan.begin_array();
  for (bool first = true; scan.next_entry(first); first = false) {
    flags |= known(flag_from_token(scan.string()));
  }
  return flags;
}

// shape and strides as the reference reader checks them against ndim.
void check_dims(const std::optional<std::vector<std::int64_t>>& dims, std::int64_t ndim) {
  if (dims && static_cast<std::int64_t>(dims->size()) != ndim) throw LineDeclined{};
}

template <typename T>
void give_back(std::optional<T>& held, T& spare) {
  if (held) spare = std::move(*held);
  held.reset();
}

template <typename T>
void take_out(T& spare, std::optional<T>& held) {
  held = std::move(spare);
}

}  // namespace

// Buffers kept from one line to the next: what Facts hold in vectors and
// strings goes back here before a line is read, and out again as it is.
struct TensorLineReader::State {
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides;
  std::string owner_device;
  std::string visible_devices;

  void recycle(facts::TensorFacts& facts);
  void read_tensor(LineScanner& scan, std::string_view origin, facts::TensorFacts& facts);
  void read_dl_tensor(LineScanner& scan, facts::TensorFacts& facts);
  void read_dl_tensor_member(std::uint32_t k, LineScanner& scan, facts::TensorFacts& facts);
  void read_dims(LineScanner& scan, std::vector<std::int64_t>& spare,
                 std::optional<std::vector<std::int64_t>>& dims);
  void read_runtime(LineScanner& scan, facts::RuntimeFacts& runtime);
  void read_runtime_member(std::uint32_t k, LineScanner& scan, facts::RuntimeFacts& runtime);
};

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

void TensorLineReader::State::read_dims(LineScanner& scan, std::vector<std::int64_t>& spare,
                                        std::optional<std::vector<std::int64_t>>& dims) {
  if (scan.null()) return;
  spare.clear();
  scan.begin_array();
  for (bool first = true; scan.next_entry(first); first = false) {
    if (spare.size() == static_cast<std::size_t>(facts::kMaxReadableDims)) throw LineDeclined{};
    spare.push_back(scan.integer<std::int64_t>());
  }
  take_out(spare, dims);
}

void TensorLineReader::State::read_dl_tensor_member(std::uint32_t k, LineScanner& scan,
                                                    facts::TensorFacts& facts) {
  switch (k) {
    case 0:
      facts.data = scan.null() ? 0 : address(scan);
      break;
    case 1:
      read_device(scan, facts);
      break;
    case 2:
      facts.ndim = scan.integer<std::int32_t>();
      break;
    case 3:
      facts.dtype = read_dtype(scan);
      break;
    case 4:
      read_dims(scan, shape, facts.shape);
      break;
    case 5:
      read_dims(scan, strides, facts.strides);
      break;
    default:
      facts.byte_offset = scan.integer<std::uint64_t>();
  }
}

void TensorLineReader::State::read_dl_tensor(LineScanner& scan, facts::TensorFacts& facts) {
  std::uint32_t seen =
      members(scan, {"data", "device", "ndim", "dtype", "shape", "strides", "byte_offset"},
              [&](std::uint32_t k) { read_dl_tensor_member(k, scan, facts); });
  require(seen, 0b111111);
  // Past these the reference reader adds notes and other refusals.
  if (facts.ndim < 0 || facts.ndim > facts::kMaxReadableDims) throw LineDeclined{};
  check_dims(facts.shape, facts.ndim);
  check_dims(facts.strides, facts.ndim);
}

void TensorLineReader::State::read_runtime_member(std::uint32_t k, LineScanner& scan,
                                                  facts::RuntimeFacts& runtime) {
  switch (k) {
    case 0:
      runtime.usm_kind = known(facts::parse_usm_kind(std::string(scan.string())));
      break;
    case 1:
      runtime.owner_root_index = scan.integer<std::int32_t>();
      break;
    case 2:
      if (!scan.null()) runtime.owner_sub_device_index = scan.integer<std::int32_t>();
      break;
    case 3:
      owner_device.assign(scan.string());
      take_out(owner_device, runtime.owner_device_name);
      break;
    case 4:
      runtime.root_device_count = scan.integer<std::int32_t>();
      break;
    case 5:
      runtime.default_context = scan.boolean();
      break;
    case 6:
      runtime.alloc_base = address(scan);
      break;
    case 7:
      runtime.alloc_size = address(scan);
      break;
    case 8:
      runtime.cuda_memory_type = known(facts::parse_cuda_memory_type(std::string(scan.string())));
      break;
    case 9:
      runtime.cuda_ordinal = scan.integer<std::int32_t>();
      break;
    case 10:
      runtime.cuda_device_count = scan.integer<std::int32_t>();
      break;
    default:
      visible_devices.assign(scan.string());
      take_out(visible_devices, runtime.cuda_visible_devices);
  }
}

void TensorLineReader::State::read_runtime(LineScanner& scan, facts::RuntimeFacts& runtime) {
  members(scan,
          {"usm_kind", "owner_root_index", "owner_sub_device_index", "owner_device",
           "root_device_count", "default_context", "alloc_base", "alloc_size", "cuda_memory_type",
           "cuda_ordinal", "cuda_device_count", "cuda_visible_devices"},
          [&](std::uint32_t k) { read_runtime_member(k, scan, runtime); });
}

void TensorLineReader::State::read_tensor(LineScanner& scan, std::string_view origin,
                                          facts::TensorFacts& facts) {
  std::optional<std::uint64_t> flags;
  std::string_view recorded;
  std::uint32_t seen = members(
      scan,
      {"version", "flags", "deleter", "manager_ctx", "dl_tensor", "runtime", "origin", "comment"},
      [&](std::uint32_t k) {
        if (k == 0) {
          std::uint32_t numbers = members(scan, {"major", "minor"}, [&](std::uint32_t n) {
            (n == 0 ? facts.version.major : facts.version.minor) = scan.integer<std::uint32_t>();
          });
          require(numbers, 0b11);
        } else if (k == 1) {
          flags = read_flags(scan);
        } else if (k == 2 || k == 3) {
          (k == 2 ? facts.has_deleter : facts.has_manager_ctx) = scan.boolean();
        } else if (k == 4) {
          read_dl_tensor(scan, facts);
        } else if (k == 5) {
          read_runtime(scan, facts.runtime.emplace());
        } else {
          // "origin" joins the facts' origin; "comment" is read and set aside.
          std::string_view text = scan.string();
          if (k == 6) recorded = text;
        }
      });
  bool versioned = (seen & 0b1) != 0;
  // A legacy tensor with flags, another major (its body set aside) and a
  // missing dl_tensor are the reference reader's to word.
  if ((!versioned && flags) || (versioned && facts.version.major != dlpack::kModelMajor) ||
      (seen & 0b10000) == 0) {
    throw LineDeclined{};
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

bool TensorLineReader::read(std::string_view line, std::string_view origin,
                            facts::TensorFacts& facts) {
  state_->recycle(facts);
  try {
    LineScanner scan(line);
    state_->read_tensor(scan, origin, facts);
    // Anything after the object (a second value, a stray bracket) is an
    // error the reference reader words.
    return scan.at_end();
  } catch (const LineDeclined&) {
    return false;
  }
}

}  // namespace dlpack_usm::capsule
