// Capsule files: JSON documents describing tensors exactly as producers
// handed them over (field names mirror the C structs), plus an optional
// "runtime" section with what the owning runtime says about the pointer.
// The JSON Schema is conformance/schema/capsule.schema.json.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "capsule/bounded_json.hpp"
#include "capsule/tensor_line_reader.hpp"
#include "facts/tensor_facts.hpp"

namespace dlpack_usm::capsule {

// Capsule files are small (a tensor takes a few hundred bytes); reading stops
// past this. JSON lines hold one tensor a line and are read a line at a
// time, so for them it is the limit of one line, not of the file: a capture
// of millions of tensors is one file.
inline constexpr std::size_t kMaxCapsuleFileBytes = std::size_t{64} << 20;
// No capsule object nests more than 4 levels; this leaves room and keeps
// hostile input from exhausting anything.
inline constexpr std::size_t kMaxJsonDepth = 64;

// Called with each tensor of a file as soon as it has been read.
using TensorHandler = std::function<void(facts::TensorFacts&&)>;

// Where a tensor lies in its capsule file, for findings that point into it
// (capsule check --sarif).
struct TensorPlace {
  std::size_t index = 0;  // in file order, from 0: the N of its origin "FILE#N"
  // Its JSON pointer in its document: "/2" in an array, "" where it is the
  // whole document (a one-object file, a JSON line).
  std::string pointer;
  std::size_t line = 1;  // where it begins
  MemberLines members;   // where its members begin, by pointer from the document's root
  // The line of the value `target` (a pointer from the document's root)
  // names, or of the nearest member above it; the tensor's own where none is
  // known.
  std::size_t line_of(std::string_view target) const;
};
using PlacedTensorHandler = std::function<void(facts::TensorFacts&&, const TensorPlace&)>;

// One object, a JSON array of objects, or JSON lines (one object per line).
// Tensors are numbered from 0 in file order and their origin is
// "FILE#N". Throws Error(usage) naming the file, the tensor, the line where
// known and the field (a JSON pointer) on any problem; tensors before the
// problem have been handed over by then.
//
// Streamed: the reader holds one 64 KiB chunk of the file and the text of
// the tensor being read (a JSON line, an array entry's parsed form, or the
// whole of a one-object file), never the file, so its memory follows the
// largest tensor rather than the file's size.
//
// JSON lines go through the line reader (tensor_line_reader.hpp), which
// hands every tensor over in one Facts object it reuses: a handler that
// keeps a tensor moves it out; one that only looks leaves the buffers for
// the next line. `reading` = reference reads them with the reference reader
// alone, as tests do to prove the two give the same facts.
enum class LineReading { fast, reference };
void for_each_capsule_tensor(const std::filesystem::path& path, const TensorHandler& handler,
                             LineReading reading = LineReading::fast);
// The same, each tensor with its place; the lines of its members are kept
// for one tensor at a time.
void for_each_placed_tensor(const std::filesystem::path& path, const PlacedTensorHandler& handler,
                            LineReading reading = LineReading::fast);

// One JSON line of a capsule file: its text without the newline, followed in
// memory by at least kLinePadding readable bytes (the line reader's parser
// reads past the end), the line's number, the column its text starts at,
// and its tensor's index in file order. All its members lie on that line,
// which is the tensor's TensorPlace: TensorPlace{index, "", number, {}}.
inline constexpr std::size_t kLinePadding = 64;
struct JsonLine {
  std::string_view text;
  std::size_t number = 1;
  std::size_t column = 1;
  std::size_t index = 0;
};

// The tensor of `line` of `file` into `facts` (reused): read by `reader`,
// or by the reference reader where it declines or `reading` says so; a
// problem is Error(usage), worded as for_each_capsule_tensor words it.
void read_json_line(const JsonLine& line, const std::string& file, TensorLineReader& reader,
                    LineReading reading, facts::TensorFacts& facts);

// Where the JSON lines of a file go when the reading thread does not read
// them itself (capsule check's evaluation in batches, evaluated_tensors.hpp).
class JsonLineConsumer {
 public:
  virtual ~JsonLineConsumer() = default;
  // `line.text` lives for the call only.
  virtual void take(const JsonLine& line) = 0;
  // No more lines: called at the end of the file, and before a problem of
  // the reading itself goes on, so that the lines before it come first.
  virtual void finish() = 0;
};

// for_each_placed_tensor, with the lines of a JSON-lines file going to
// `lines` instead of being read here; the places of the other tensors have
// the lines of their members only where `member_lines` asks for them.
void for_each_placed_tensor(const std::filesystem::path& path, const PlacedTensorHandler& handler,
                            JsonLineConsumer& lines, bool member_lines);

std::vector<facts::TensorFacts> read_capsule_file(const std::filesystem::path& path);
std::vector<facts::TensorFacts> parse_capsule_text(std::string_view text,
                                                   const std::string& origin);

// The capsule-file form of `facts`; parse_capsule_text of its dump gives the
// same facts back.
nlohmann::ordered_json to_capsule_json(const facts::TensorFacts& facts);
// The JSON pointer, inside a tensor object, of a finding's field (Finding::
// field): "dl_tensor.strides[1]" -> "/dl_tensor/strides/1"; a field of a
// derived value ("dl_tensor.data+byte_offset") names its first member.
std::string pointer_of_field(std::string_view field);

// The "runtime" section alone, as to_capsule_json writes it.
nlohmann::ordered_json to_runtime_json(const facts::RuntimeFacts& runtime);

}  // namespace dlpack_usm::capsule
