#include "capsule/bounded_json.hpp"

#include <iterator>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "capsule/document_error.hpp"

namespace dlpack_usm::capsule {
namespace {

using nlohmann::json;

// nlohmann's messages start "[json.exception.parse_error.101] parse error at
// line 1, column 5: "; the reader reports the place itself, so keep the rest.
std::string syntax_message(const std::string& what) {
  std::string_view rest = what;
  if (rest.starts_with("[json.exception.")) {
    std::size_t bracket = rest.find("] ");
    if (bracket != std::string_view::npos) rest.remove_prefix(bracket + 2);
  }
  if (rest.starts_with("parse error")) {
    std::size_t colon = rest.find(": ");
    if (colon != std::string_view::npos) rest.remove_prefix(colon + 2);
  }
  // The lexer quotes what it read, which can be a 60 MiB number.
  constexpr std::size_t kShown = 200;
  if (rest.size() <= kShown) return printable(rest);
  return fmt::format("{}... ({} characters)", printable(rest.substr(0, kShown)), rest.size());
}

std::string non_integer_message(const std::string& text) {
  // The lexer has checked the number's grammar, so the text is plain ASCII.
  std::string shown = text.size() <= 40
                          ? text
                          : fmt::format("{}... ({} characters)", text.substr(0, 40), text.size());
  bool written_as_integer = text.find_first_of(".eE") == std::string::npos;
  if (written_as_integer) {
    return fmt::format("the integer {} does not fit in 64 bits", shown);
  }
  return fmt::format("{} is not an integer; every number in a capsule file is an integer", shown);
}

// Builds the document like nlohmann's own DOM parser (json_sax_dom_parser),
// keeping a frame per open container so that every refusal can name the
// JSON pointer of the place it happened.
class BoundedDomBuilder {
 public:
  BoundedDomBuilder(const JsonLimits& limits, const RootEntryHandler& on_root_entry,
                    const ByteStream* input = nullptr, MemberLines* lines = nullptr)
      : limits_(limits), on_root_entry_(on_root_entry), input_(input), lines_(lines) {}

  bool null() { return add(json(nullptr)); }
  bool boolean(bool value) { return add(json(value)); }
  bool number_integer(json::number_integer_t value) { return add(json(value)); }
  bool number_unsigned(json::number_unsigned_t value) { return add(json(value)); }
  bool number_float(json::number_float_t value, const std::string& text) {
    if (!limits_.integers_only) return add(json(value));
    throw DocumentError(pointer_through(frames_.size()), non_integer_message(text));
  }
  bool string(std::string& value) {
    require_short(value, pointer_through(frames_.size()));
    return add(json(std::move(value)));
  }
  bool binary(json::binary_t& /*value*/) {
    // Only binary formats (CBOR, MessagePack) produce this event.
    throw DocumentError(pointer_through(frames_.size()), "binary values are not JSON");
  }
  bool start_object(std::size_t /*size*/) { return open(json::value_t::object); }
  bool start_array(std::size_t /*size*/) { return open(json::value_t::array); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(std::string& key) {
    require_short(key, pointer_through(frames_.size() - 1));
    Frame& top = frames_.back();
    if (top.value->contains(key)) {
      // fmt, not std::string's operator+: GCC 12 at -O3 raises a false
      // -Wrestrict inside operator+ here (GCC bug 105329).
      throw DocumentError(
          fmt::format("{}/{}", pointer_through(frames_.size() - 1), pointer_token(key)),
          fmt::format("the key {} appears twice in the same object", quote_for_message(key)));
    }
    if (top.entries >= limits_.max_object_members) {
      throw DocumentError(pointer_through(frames_.size() - 1),
                          fmt::format("the object has more than {} members; {}",
                                      limits_.max_object_members, limits_.members_note));
    }
    ++top.entries;
    top.key = std::move(key);
    // The lexer has just read the key's closing quote: the stream is on its line.
    note_line();
    return true;
  }

  bool parse_error(std::size_t position, const std::string& /*last_token*/,
                   const nlohmann::detail::exception& error) {
    throw DocumentError(pointer_through(frames_.size()), syntax_message(error.what()), position);
  }

  json take_root() { return std::move(root_); }

 private:
  struct Frame {
    json* value;
    // Array: entries complete so far (so also the index of the one being
    // read). Object: members whose key has been read.
    std::size_t entries = 0;
    std::string key;        // object: the member being read
    bool streamed = false;  // the top-level array: entries go to the handler
  };

  // The JSON pointer of the value being read inside frames_[0..count-1].
  std::string pointer_through(std::size_t count) const {
    std::string pointer;
    for (std::size_t i = 0; i < count; ++i) {
      const Frame& frame = frames_[i];
      if (frame.value->is_array()) {
        pointer += fmt::format("/{}", frame.entries);
      } else if (frame.entries > 0) {
        // Two appends, not "/" + token: GCC 12 at -O3 sees a false
        // -Wstringop-overflow in operator+ (like the -Wrestrict above).
        pointer += '/';
        pointer += pointer_token(frame.key);
      }
    }
    return pointer;
  }

  // The line of the value being read, where lines are asked for.
  void note_line() {
    if (lines_ == nullptr || input_ == nullptr) return;
    lines_->push_back({pointer_through(frames_.size()), input_->line()});
  }

  void require_short(const std::string& text, const std::string& pointer) const {
    if (text.size() <= limits_.max_string_bytes) return;
    throw DocumentError(pointer, fmt::format("a string of {} bytes, more than the {} allowed",
                                             text.size(), limits_.max_string_bytes));
  }

  // The slot a new value takes in the innermost open container.
  json& place(json value) {
    Frame& top = frames_.back();
    if (top.value->is_object()) return (*top.value)[top.key] = std::move(value);
    if (!top.streamed && top.value->size() >= limits_.max_nested_array_entries) {
      throw DocumentError(
          pointer_through(frames_.size() - 1),
          fmt::format("the array has more than {} entries", limits_.max_nested_array_entries));
    }
    top.value->push_back(std::move(value));
    return top.value->back();
  }

  // A value is complete: count it, and hand top-level array entries over.
  void completed() {
    Frame& top = frames_.back();
    if (!top.value->is_array()) return;
    if (top.streamed) {
      on_root_entry_(top.entries, top.value->back());
      top.value->erase(top.value->size() - 1);
      if (lines_ != nullptr) lines_->clear();
    }
    ++top.entries;
  }

  bool add(json value) {
    if (frames_.empty()) {
      root_ = std::move(value);
      return true;
    }
    place(std::move(value));
    completed();
    return true;
  }

  bool open(json::value_t type) {
    if (frames_.size() >= limits_.max_depth) {
      throw DocumentError(pointer_through(frames_.size()),
                          fmt::format("the JSON nests deeper than {} levels; {}", limits_.max_depth,
                                      limits_.depth_note));
    }
    bool top_level = frames_.empty();
    // The lexer has just read the bracket: the stream is on its line. A
    // member's line is its key's.
    if (!top_level && frames_.back().value->is_array()) note_line();
    json* slot = &root_;
    if (top_level) {
      root_ = json(type);
    } else {
      slot = &place(json(type));
    }
    frames_.push_back(Frame{slot, 0, {}, top_level && type == json::value_t::array});
    return true;
  }

  bool close() {
    frames_.pop_back();
    if (!frames_.empty()) completed();
    return true;
  }

  const JsonLimits& limits_;
  const RootEntryHandler& on_root_entry_;
  const ByteStream* input_;
  MemberLines* lines_;
  json root_;
  std::vector<Frame> frames_;
};

// An input iterator over a ByteStream, as nlohmann's SAX parser reads one.
class ByteStreamIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = char;

  ByteStreamIterator() = default;
  explicit ByteStreamIterator(ByteStream& input) : input_(&input) {}
  char operator*() const { return static_cast<char>(input_->peek()); }
  ByteStreamIterator& operator++() {
    input_->get();
    return *this;
  }
  ByteStreamIterator operator++(int) {
    ByteStreamIterator before = *this;
    ++*this;
    return before;
  }
  bool operator==(const ByteStreamIterator& other) const { return at_end() == other.at_end(); }
  bool operator!=(const ByteStreamIterator& other) const { return !(*this == other); }

 private:
  bool at_end() const {
    return input_ == nullptr || input_->peek() == std::char_traits<char>::eof();
  }
  ByteStream* input_ = nullptr;
};

// Text the caller holds, as a ByteStream that counts its lines.
class TextStream : public ByteStream {
 public:
  explicit TextStream(std::string_view text) : text_(text) {}
  int peek() override {
    return at_ < text_.size() ? static_cast<unsigned char>(text_[at_])
                              : std::char_traits<char>::eof();
  }
  int get() override {
    int byte = peek();
    if (byte == '\n') ++line_;
    if (byte != std::char_traits<char>::eof()) ++at_;
    return byte;
  }
  std::size_t line() const override { return line_; }

 private:
  std::string_view text_;
  std::size_t at_ = 0;
  std::size_t line_ = 1;
};

}  // namespace

nlohmann::json parse_bounded_json(ByteStream& input, const JsonLimits& limits,
                                  const RootEntryHandler& on_root_entry, MemberLines* lines) {
  BoundedDomBuilder builder(limits, on_root_entry, &input, lines);
  json::sax_parse(ByteStreamIterator(input), ByteStreamIterator(), &builder);
  return builder.take_root();
}

nlohmann::json parse_bounded_json(std::string_view text, const JsonLimits& limits,
                                  const RootEntryHandler& on_root_entry, MemberLines* lines) {
  if (lines != nullptr) {
    TextStream stream(text);
    return parse_bounded_json(stream, limits, on_root_entry, lines);
  }
  BoundedDomBuilder builder(limits, on_root_entry);
  json::sax_parse(text.begin(), text.end(), &builder);
  return builder.take_root();
}

}  // namespace dlpack_usm::capsule
