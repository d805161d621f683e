// A JSON parser for untrusted documents (capsule files, the reports that
// `report merge` reads): it refuses, with the JSON pointer of the place, what
// could exhaust the stack, memory or time of a later stage (nesting, long
// arrays, objects with many members, long strings), duplicate keys (which
// would otherwise hide typos or a forged second value) and, for capsule
// files, non-integer numbers (no capsule field holds one; numbers beyond 64
// bits arrive here as floats).
#pragma once

#include <cstddef>
#include <functional>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace dlpack_usm::capsule {

struct JsonLimits {
  std::size_t max_depth = 64;
  // Arrays below the top level (shape, strides) may hold at most this many
  // entries; the top-level array (one entry per tensor) is streamed instead.
  std::size_t max_nested_array_entries = 1024;
  std::size_t max_object_members = 64;
  // Capsule files hold integers only; reports hold durations.
  bool integers_only = true;
  // Bytes of one string or key.
  std::size_t max_string_bytes = std::numeric_limits<std::size_t>::max();
  // What the documents hold, after a refusal of depth or of many members.
  std::string_view depth_note = "capsule files nest 4 levels at most";
  std::string_view members_note = "capsule objects have a dozen at most";
};

// Called with each entry of a top-level array as soon as it is complete; the
// parser then drops the entry, so memory holds one tensor at a time.
using RootEntryHandler = std::function<void(std::size_t index, const nlohmann::json& entry)>;

// Bytes of a document read as a stream (a capsule file a chunk at a time):
// peek() and get() give the next byte, or EOF (std::char_traits<char>) at
// the end.
class ByteStream {
 public:
  virtual ~ByteStream() = default;
  virtual int peek() = 0;
  virtual int get() = 0;
  // The line (1-based) of the next byte, for MemberLines; 0 where the
  // stream does not count lines.
  virtual std::size_t line() const { return 0; }
};

// Where a member of a document begins, for tools that point people at a
// field (capsule check --sarif): its JSON pointer and the line of its key
// (of its opening bracket, for an object or array inside an array).
struct MemberLine {
  std::string pointer;
  std::size_t line = 0;
};
using MemberLines = std::vector<MemberLine>;

// Parses exactly one JSON document. A top-level array is handed entry by
// entry to `on_root_entry` and comes back empty; any other value comes back
// whole. Throws DocumentError (with byte offset for syntax errors). Where
// `lines` is given, the line of every member is added to it, counted from
// 1 at the start of `text`.
nlohmann::json parse_bounded_json(std::string_view text, const JsonLimits& limits,
                                  const RootEntryHandler& on_root_entry,
                                  MemberLines* lines = nullptr);
// The same, reading `input` to its end; byte offsets count from where it
// stood, lines are input.line()'s. An entry of a streamed top-level array
// takes the lines of its members with it: `lines` holds them while
// on_root_entry runs, and is cleared after.
nlohmann::json parse_bounded_json(ByteStream& input, const JsonLimits& limits,
                                  const RootEntryHandler& on_root_entry,
                                  MemberLines* lines = nullptr);

}  // namespace dlpack_usm::capsule
