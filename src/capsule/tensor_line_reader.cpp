// A scanner made for capsule lines (line_scanner.hpp) rather than a general
// parser: a capture's lines are all of one shape, printable ASCII, integers
// and a few dozen keys, and reading them byte by byte into Facts, keys
// matched as they come, costs a third of what simdjson's On-Demand front end
// (the reader before this one) took on the same lines. A line is read by
// the shape of the last one read in full (line_shape.hpp) where its bytes
// between values are that line's, which leaves the values alone to read:
// 0.49 s -> 0.28 s for a million CUDA tensors on the CI machine. What it
// leaves to the reference reader (escapes, UTF-8, fractions, malformed JSON)
// is rare in a capture and read there exactly.
#include "capsule/tensor_line_reader.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "capsule/capsule_tokens.hpp"
#include "capsule/line_scanner.hpp"
#include "capsule/line_shape.hpp"
#include "dlpack/names.hpp"

namespace dlpack_usm::capsule {

// Outside the anonymous namespace: the reader's State, which has linkage,
// holds them.
//
// The last names a field held and what they named: a capture repeats its
// names ("kDLCUDA", "kDLFloat", "device") line after line, and comparing a
// dozen bytes costs a fraction of finding the name again among dozens. A
// few are kept (a training step's tensors take turns among a few dtypes),
// the oldest giving way; only names that were found.
template <typename Named>
class LastName {
 public:
  template <typename Find>
  Named find(std::string_view name, Find&& find_name) {
    for (std::size_t i = 0; i < held_; ++i) {
      if (name == names_[i]) return named_[i];
    }
    Named named = find_name(name);
    if (!named) throw LineDeclined{};
    std::size_t slot = next_++ % kKept;
    names_[slot].assign(name);
    named_[slot] = named;
    held_ = std::max(held_, slot + 1);
    return named;
  }

 private:
  static constexpr std::size_t kKept = 8;
  std::array<std::string, kKept> names_;
  std::array<Named, kKept> named_{};
  std::size_t held_ = 0;
  std::size_t next_ = 0;
};

// The names a reader keeps, one per field that holds names.
struct LastNames {
  LastName<const dlpack::DtypeCodeName*> dtype_code;
  LastName<const dlpack::DeviceTypeName*> device_type;
  LastName<std::optional<facts::UsmKind>> usm_kind;
  LastName<std::optional<facts::CudaMemoryType>> cuda_memory_type;
};

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

void read_dtype_member(std::uint32_t k, LineScanner& scan, dlpack::DLDataType& dtype,
                       LastNames& names) {
  if (k == 0 && scan.peek() == '"') {
    dtype.code = names.dtype_code
                     .find(scan.string(),
                           [](std::string_view name) { return dlpack::find_dtype_code(name); })
                     ->code;
  } else if (k == 0) {
    dtype.code = scan.integer<std::uint8_t>();
  } else if (k == 1) {
    dtype.bits = scan.integer<std::uint8_t>();
  } else {
    dtype.lanes = scan.integer<std::uint16_t>();
  }
}

void read_device_member(std::uint32_t k, LineScanner& scan, facts::TensorFacts& facts,
                        LastNames& names) {
  if (k == 1) {
    facts.device_id = scan.integer<std::int32_t>();
  } else if (scan.peek() == '"') {
    facts.device_type =
        names.device_type
            .find(scan.string(),
                  [](std::string_view name) { return dlpack::find_device_type(name); })
            ->value;
  } else {
    facts.device_type = scan.integer<std::int32_t>();
  }
}

void read_version_member(std::uint32_t k, LineScanner& scan, facts::TensorFacts& facts) {
  (k == 0 ? facts.version.major : facts.version.minor) = scan.integer<std::uint32_t>();
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

// What the tensor object's members leave for the checks after its last.
struct TensorMembers {
  std::optional<std::uint64_t> flags;
  std::string_view recorded_origin;
};

// Buffers kept from one line to the next: what Facts hold in vectors and
// strings goes back here before a line is read, and out again as it is.
// And the shape of the last line read in full, to read the next one by.
struct TensorLineReader::State {
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides;
  std::string owner_device;
  std::string visible_devices;
  LineShape line_shape;  // replayed
  LineShape learning;    // recorded by each full reading
  LastNames names;
  std::size_t shaped_reads = 0;

  void recycle(facts::TensorFacts& facts);
  bool read_as_shaped(LineScanner& scan, std::string_view origin, facts::TensorFacts& facts);
  void read_tensor(LineScanner& scan, std::string_view origin, facts::TensorFacts& facts);
  void read_tensor_member(std::uint32_t k, LineScanner& scan, facts::TensorFacts& facts,
                          TensorMembers& members);
  void finish_tensor(std::uint32_t seen, const TensorMembers& members, std::string_view origin,
                     facts::TensorFacts& facts);
  void read_version(LineScanner& scan, facts::TensorFacts& facts);
  void read_device(LineScanner& scan, facts::TensorFacts& facts);
  void read_dtype_object(LineScanner& scan, dlpack::DLDataType& dtype);
  void read_dl_tensor(LineScanner& scan, facts::TensorFacts& facts);
  void read_dl_tensor_member(std::uint32_t k, LineScanner& scan, facts::TensorFacts& facts);
  void read_dims(LineScanner& scan, std::vector<std::int64_t>& spare,
                 std::optional<std::vector<std::int64_t>>& dims);
  void read_runtime(LineScanner& scan, facts::RuntimeFacts& runtime);
  void read_runtime_member(std::uint32_t k, LineScanner& scan, facts::RuntimeFacts& runtime);

  // A value of the full reading, recorded into the line's shape.
  template <typename Read>
  void shaped_value(ShapeObject object, std::uint32_t k, LineScanner& scan, Read&& read) {
    learning.value(object, static_cast<std::uint8_t>(k), scan.position());
    read();
    learning.value_end(scan.position());
  }
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
  // Entries as next_entry walks them, ", " between them (how captures
  // write lists) taken at once; match reads a word of its bytes.
  static constexpr char kCommaSpace[kLiteralPadding] = ", ";
  if (!scan.accept(']')) {
    do {
      if (spare.size() == static_cast<std::size_t>(facts::kMaxReadableDims)) throw LineDeclined{};
      spare.push_back(scan.integer<std::int64_t>());
    } while (scan.match(std::string_view(kCommaSpace, 2)) || scan.accept(','));
    scan.expect(']');
  }
  take_out(spare, dims);
}

void TensorLineReader::State::read_dl_tensor_member(std::uint32_t k, LineScanner& scan,
                                                    facts::TensorFacts& facts) {
  switch (k) {
    case 0:
      facts.data = scan.null() ? 0 : address(scan);
      break;
    case 2:
      facts.ndim = scan.integer<std::int32_t>();
      break;
    case 3:  // "float32": an object's members are values of their own
      facts.dtype = known(dtype_from_shorthand(scan.string()));
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

// Past these the reference reader adds notes and other refusals.
void check_dl_tensor(const facts::TensorFacts& facts) {
  if (facts.ndim < 0 || facts.ndim > facts::kMaxReadableDims) throw LineDeclined{};
  check_dims(facts.shape, facts.ndim);
  check_dims(facts.strides, facts.ndim);
}

// The objects within the tensor: each member a value of the line's shape.
void TensorLineReader::State::read_version(LineScanner& scan, facts::TensorFacts& facts) {
  std::uint32_t seen = members(scan, {"major", "minor"}, [&](std::uint32_t k) {
    shaped_value(ShapeObject::version, k, scan, [&] { read_version_member(k, scan, facts); });
  });
  require(seen, 0b11);
}

void TensorLineReader::State::read_device(LineScanner& scan, facts::TensorFacts& facts) {
  std::uint32_t seen = members(scan, {"device_type", "device_id"}, [&](std::uint32_t k) {
    shaped_value(ShapeObject::device, k, scan, [&] { read_device_member(k, scan, facts, names); });
  });
  require(seen, 0b11);
}

void TensorLineReader::State::read_dtype_object(LineScanner& scan, dlpack::DLDataType& dtype) {
  std::uint32_t seen = members(scan, {"code", "bits", "lanes"}, [&](std::uint32_t k) {
    shaped_value(ShapeObject::dtype, k, scan, [&] { read_dtype_member(k, scan, dtype, names); });
  });
  require(seen, 0b111);
}

void TensorLineReader::State::read_dl_tensor(LineScanner& scan, facts::TensorFacts& facts) {
  std::uint32_t seen =
      members(scan, {"data", "device", "ndim", "dtype", "shape", "strides", "byte_offset"},
              [&](std::uint32_t k) {
                if (k == 1) {
                  read_device(scan, facts);
                } else if (k == 3 && scan.peek() != '"') {
                  read_dtype_object(scan, facts.dtype);
                } else {
                  shaped_value(ShapeObject::dl_tensor, k, scan,
                               [&] { read_dl_tensor_member(k, scan, facts); });
                }
              });
  require(seen, 0b111111);
  check_dl_tensor(facts);
}

void TensorLineReader::State::read_runtime_member(std::uint32_t k, LineScanner& scan,
                                                  facts::RuntimeFacts& runtime) {
  switch (k) {
    case 0:
      runtime.usm_kind = *names.usm_kind.find(scan.string(), [](std::string_view name) {
        return facts::parse_usm_kind(std::string(name));
      });
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
      runtime.cuda_memory_type = *names.cuda_memory_type.find(
          scan.string(),
          [](std::string_view name) { return facts::parse_cuda_memory_type(std::string(name)); });
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
          [&](std::uint32_t k) {
            shaped_value(ShapeObject::runtime, k, scan,
                         [&] { read_runtime_member(k, scan, runtime); });
          });
}

void TensorLineReader::State::read_tensor_member(std::uint32_t k, LineScanner& scan,
                                                 facts::TensorFacts& facts,
                                                 TensorMembers& members_read) {
  if (k == 1) {
    members_read.flags = read_flags(scan);
  } else if (k == 2 || k == 3) {
    (k == 2 ? facts.has_deleter : facts.has_manager_ctx) = scan.boolean();
  } else {
    // "origin" joins the facts' origin; "comment" is read and set aside.
    std::string_view text = scan.string();
    if (k == 6) members_read.recorded_origin = text;
  }
}

void TensorLineReader::State::finish_tensor(std::uint32_t seen, const TensorMembers& members_read,
                                            std::string_view origin, facts::TensorFacts& facts) {
  bool versioned = (seen & 0b1) != 0;
  // A legacy tensor with flags, another major (its body set aside) and a
  // missing dl_tensor are the reference reader's to word.
  if ((!versioned && members_read.flags) ||
      (versioned && facts.version.major != dlpack::kModelMajor) || (seen & 0b10000) == 0) {
    throw LineDeclined{};
  }
  facts.abi = versioned ? facts::Abi::versioned : facts::Abi::legacy;
  if (!versioned) facts.version = {0, 0};
  facts.flags = members_read.flags.value_or(0);
  facts.origin.assign(origin);
  if ((seen & 0b1000000) != 0) {
    facts.origin += " (";
    facts.origin += members_read.recorded_origin;
    facts.origin += ')';
  }
}

void TensorLineReader::State::read_tensor(LineScanner& scan, std::string_view origin,
                                          facts::TensorFacts& facts) {
  TensorMembers members_read;
  std::uint32_t seen = members(
      scan,
      {"version", "flags", "deleter", "manager_ctx", "dl_tensor", "runtime", "origin", "comment"},
      [&](std::uint32_t k) {
        if (k == 0) {
          read_version(scan, facts);
        } else if (k == 4) {
          read_dl_tensor(scan, facts);
        } else if (k == 5) {
          read_runtime(scan, facts.runtime.emplace());
        } else {
          shaped_value(ShapeObject::tensor, k, scan,
                       [&] { read_tensor_member(k, scan, facts, members_read); });
        }
      });
  finish_tensor(seen, members_read, origin, facts);
  learning.end(seen);
}

// The line read by the shape of the last one read in full: its bytes
// between values must be that line's, byte for byte, and each value is read
// by the full reading's own reader of its field; then the same checks. So
// the facts are the full reading's. False (or LineDeclined) where the line
// differs: it is then read in full.
bool TensorLineReader::State::read_as_shaped(LineScanner& scan, std::string_view origin,
                                             facts::TensorFacts& facts) {
  const LineShape& by = line_shape;
  std::uint32_t seen = by.tensor_keys();
  TensorMembers members_read;
  if ((seen & 0b100000) != 0) facts.runtime.emplace();
  const std::vector<ShapeValue>& values = by.values();
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!scan.match(by.literal(i))) return false;
    std::uint32_t k = values[i].key;
    switch (values[i].object) {
      case ShapeObject::tensor:
        read_tensor_member(k, scan, facts, members_read);
        break;
      case ShapeObject::dl_tensor:
        read_dl_tensor_member(k, scan, facts);
        break;
      case ShapeObject::runtime:
        read_runtime_member(k, scan, *facts.runtime);
        break;
      case ShapeObject::version:
        read_version_member(k, scan, facts);
        break;
      case ShapeObject::device:
        read_device_member(k, scan, facts, names);
        break;
      case ShapeObject::dtype:
        read_dtype_member(k, scan, facts.dtype, names);
    }
  }
  if (!scan.match(by.literal(values.size())) || !scan.at_line_end()) return false;
  check_dl_tensor(facts);
  finish_tensor(seen, members_read, origin, facts);
  return true;
}

TensorLineReader::TensorLineReader() : state_(std::make_unique<State>()) {}

TensorLineReader::~TensorLineReader() = default;

bool TensorLineReader::read(std::string_view line, std::string_view origin,
                            facts::TensorFacts& facts) {
  State& state = *state_;
  if (!state.line_shape.empty()) {
    state.recycle(facts);
    try {
      LineScanner scan(line);
      if (state.read_as_shaped(scan, origin, facts)) {
        ++state.shaped_reads;
        return true;
      }
    } catch (const LineDeclined&) {
    }
  }
  state.recycle(facts);
  try {
    LineScanner scan(line);
    state.learning.begin(line);
    state.read_tensor(scan, origin, facts);
    // Anything after the object (a second value, a stray bracket) is an
    // error the reference reader words.
    if (!scan.at_end()) return false;
  } catch (const LineDeclined&) {
    return false;
  }
  std::swap(state.line_shape, state.learning);
  return true;
}

std::size_t TensorLineReader::lines_read_by_shape() const {
  return state_->shaped_reads;
}

}  // namespace dlpack_usm::capsule
