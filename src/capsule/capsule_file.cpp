#include "capsule/capsule_file.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <streambuf>

#include <fmt/format.h>

#include "capsule/bounded_json.hpp"
#include "capsule/capsule_fields.hpp"
#include "capsule/document_error.hpp"
#include "capsule/tensor_line_reader.hpp"
#include "common/error.hpp"

namespace dlpack_usm::capsule {
namespace {

using nlohmann::json;

constexpr std::string_view kFormatHint =
    "the capsule-file format is described in dlpack-usm-capsule(1) and "
    "conformance/schema/capsule.schema.json";

const JsonLimits& capsule_limits() {
  static const JsonLimits limits{kMaxJsonDepth, static_cast<std::size_t>(facts::kMaxReadableDims),
                                 64};
  return limits;
}

bool is_blank(std::string_view text) {
  return text.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

// The text of a capsule file, a chunk at a time: only the chunk being read
// and the tensor being parsed are ever held, whatever the file's size. It
// numbers what it hands out so that a syntax error in a streamed array can
// still be placed by line and column.
class TextSource : public ByteStream {
 public:
  TextSource(std::streambuf& input, std::string file) : input_(input), file_(std::move(file)) {
    // A UTF-8 byte order mark is allowed (RFC 8259 lets parsers ignore it);
    // positions count from after it.
    fill();
    if (std::string_view(chunk_.data() + at_, end_ - at_).starts_with("\xEF\xBB\xBF")) at_ += 3;
  }

  // The next byte without taking it; EOF at the end.
  int peek() override {
    if (at_ == end_ && !fill()) return std::char_traits<char>::eof();
    return static_cast<unsigned char>(chunk_[at_]);
  }

  // Takes the next byte, remembering where it lay (see place_of).
  int get() override {
    int byte = peek();
    if (byte == std::char_traits<char>::eof()) return byte;
    ++at_;
    recent_[taken_ % recent_.size()] = {line_, column_};
    ++taken_;
    if (byte == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
    return byte;
  }

  // Line and column (1-based) of the byte at `index` (0-based, among the
  // last few taken): what a parser reports as its position.
  std::pair<std::size_t, std::size_t> place_of(std::size_t index) const {
    if (taken_ == 0) return {1, 1};
    std::size_t last = taken_ - 1;
    index = std::min(index, last);
    if (last - index >= recent_.size()) index = last - recent_.size() + 1;
    const Position& position = recent_[index % recent_.size()];
    return {position.line, position.column};
  }

  std::size_t line() const override { return line_; }

  // The rest of the current line, its newline included where there is
  // one; false at the end. A line is found a chunk at a time, not byte by
  // byte, and its bytes are not numbered for place_of (only a streamed
  // array needs that).
  bool next_line(std::string& text) {
    text.clear();
    if (peek() == std::char_traits<char>::eof()) return false;
    while (at_ < end_ || fill()) {
      const char* begin = chunk_.data() + at_;
      const void* newline = std::memchr(begin, '\n', end_ - at_);
      std::size_t length =
          newline == nullptr
              ? end_ - at_
              : static_cast<std::size_t>(static_cast<const char*>(newline) - begin) + 1;
      text.append(begin, length);
      at_ += length;
      if (each_line_ && text.size() > kMaxCapsuleFileBytes) refuse_line();
      if (newline != nullptr) {
        ++line_;
        column_ = 1;
        break;
      }
    }
    return true;
  }

  // From here on the limit holds for each line rather than for the file:
  // JSON lines are read one at a time, so a file of millions of tensors
  // needs no more memory than its longest line.
  void limit_each_line() { each_line_ = true; }

  // Reads to the end of the file, appending to `text`; nothing is numbered
  // after this.
  void rest(std::string& text) {
    while (peek() != std::char_traits<char>::eof()) {
      text.append(chunk_.data() + at_, end_ - at_);
      at_ = end_;
    }
  }

 private:
  struct Position {
    std::size_t line = 1;
    std::size_t column = 1;
  };

  bool fill() {
    at_ = 0;
    end_ = static_cast<std::size_t>(
        input_.sgetn(chunk_.data(), static_cast<std::streamsize>(chunk_.size())));
    read_ += end_;
    // Reading stops one chunk past the limit: no file is asked its size, as
    // only JSON lines may be larger (their limit is per line).
    if (!each_line_ && read_ > kMaxCapsuleFileBytes) {
      throw Error(ExitCode::usage,
                  fmt::format("{}: more than {} bytes, more than a capsule file may hold",
                              printable(file_), kMaxCapsuleFileBytes),
                  std::string(kFormatHint));
    }
    return end_ > 0;
  }

  [[noreturn]] void refuse_line() const {
    throw Error(ExitCode::usage,
                fmt::format("{}:{}: a line of more than {} bytes, more than one tensor of a "
                            "capsule file may take",
                            printable(file_), line_, kMaxCapsuleFileBytes),
                std::string(kFormatHint));
  }

  std::streambuf& input_;
  std::string file_;
  std::array<char, std::size_t{1} << 16> chunk_{};
  std::size_t at_ = 0;
  std::size_t end_ = 0;
  std::size_t read_ = 0;
  std::size_t taken_ = 0;
  std::size_t line_ = 1;
  std::size_t column_ = 1;
  std::array<Position, 8> recent_{};
  bool each_line_ = false;
};

bool is_blank_byte(int byte) {
  return byte == ' ' || byte == '\t' || byte == '\r' || byte == '\n';
}

// Where a problem lies, for the message: the file, the line (and column for
// syntax errors), and the tensor.
struct Place {
  std::string file;
  std::optional<std::size_t> line;
  std::optional<std::size_t> column;
  std::optional<std::size_t> tensor;
};

// A pointer for a message: deep nesting gives long ones, of which the start
// says enough.
std::string shown_pointer(const std::string& pointer) {
  constexpr std::size_t kShown = 96;
  if (pointer.size() <= kShown) return printable(pointer);
  return fmt::format("{}... ({} characters)", printable(pointer.substr(0, kShown)), pointer.size());
}

[[noreturn]] void fail_at(const Place& place, const std::string& pointer,
                          const std::string& message) {
  std::string where = place.file;
  if (place.line) where += fmt::format(":{}", *place.line);
  if (place.column) where += fmt::format(":{}", *place.column);
  std::string subject;
  if (place.tensor) subject = fmt::format("tensor #{} ", *place.tensor);
  subject += pointer.empty() ? "at the top level" : fmt::format("at {}", shown_pointer(pointer));
  std::string hint;
  if (place.column) {
    hint = fmt::format("the file must be JSON (RFC 8259); {}", kFormatHint);
  } else if (!pointer.empty() && pointer.size() <= 96) {
    hint = fmt::format("correct {}; {}", shown_pointer(pointer), kFormatHint);
  } else {
    hint = std::string(kFormatHint);
  }
  throw Error(ExitCode::usage, printable(fmt::format("{}: {}: {}", where, subject, message)),
              std::move(hint));
}

// Line and column (1-based) of the byte nlohmann's lexer stopped after.
std::pair<std::size_t, std::size_t> line_and_column(std::string_view text, std::size_t position) {
  std::size_t index = std::min(position == 0 ? 0 : position - 1, text.size());
  std::size_t line = 1 + static_cast<std::size_t>(std::count(
                             text.begin(), text.begin() + static_cast<long>(index), '\n'));
  std::size_t line_start = text.rfind('\n', index == 0 ? 0 : index - 1);
  line_start = (line_start == std::string_view::npos || index == 0) ? 0 : line_start + 1;
  return {line, index - line_start + 1};
}

// The tensor a pointer into a top-level array lies in ("/3/dl_tensor" -> 3).
std::optional<std::size_t> leading_index(const std::string& pointer) {
  if (pointer.size() < 2 || pointer[0] != '/') return std::nullopt;
  std::size_t end = pointer.find('/', 1);
  std::string token = pointer.substr(1, end == std::string::npos ? std::string::npos : end - 1);
  if (token.empty() || token.size() > 18 ||
      token.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  return std::stoull(token);
}

// A top-level array, streamed: each entry becomes a tensor as soon as it is
// complete, and only the chunk being read and that entry are held.
void stream_array(TextSource& source, const std::string& file, const PlacedTensorHandler& handler,
                  MemberLines* lines) {
  std::size_t count = 0;
  try {
    auto on_entry = [&](std::size_t index, const json& entry) {
      TensorPlace place{index, fmt::format("/{}", index), source.line(), {}};
      if (lines != nullptr) {
        place.members = std::move(*lines);
        lines->clear();
        place.line = place.line_of(place.pointer);
      }
      handler(tensor_from_json(entry, place.pointer, fmt::format("{}#{}", file, index)), place);
      ++count;
    };
    parse_bounded_json(source, capsule_limits(), on_entry, lines);
  } catch (const DocumentError& error) {
    Place place{file, {}, {}, leading_index(error.pointer())};
    if (error.byte_offset()) {
      std::size_t position = *error.byte_offset();
      std::tie(place.line, place.column) = source.place_of(position == 0 ? 0 : position - 1);
    }
    fail_at(place, error.pointer(), error.what());
  }
  if (count == 0) {
    fail_at(Place{file, {}, {}, {}}, "",
            "the array holds no tensor; a capsule file describes at least one");
  }
}

// Where the text of one tensor starts in its file, for syntax errors.
struct TextStart {
  std::size_t line = 1;
  std::size_t column = 1;
};

// One tensor object, the whole of a document or of one JSON line, handed
// over with its place when it has been read; `lines` (null: not asked for)
// gets the lines of its members.
void parse_one(std::string_view text, Place place, TextStart start,
               const PlacedTensorHandler& handler, MemberLines* lines) {
  facts::TensorFacts tensor;
  TensorPlace where{*place.tensor, "", start.line, {}};
  try {
    json document = parse_bounded_json(
        text, capsule_limits(),
        [](std::size_t, const json&) {
          throw DocumentError("", "expected one tensor object here, got an array");
        },
        lines);
    tensor = tensor_from_json(document, "", fmt::format("{}#{}", place.file, *place.tensor));
  } catch (const DocumentError& error) {
    if (error.byte_offset()) {
      auto [line, column] = line_and_column(text, *error.byte_offset());
      place.line = start.line + line - 1;
      place.column = line == 1 ? column + start.column - 1 : column;
    }
    fail_at(place, error.pointer(), error.what());
  }
  if (lines != nullptr) {
    // Counted from the text's first line, which is the file's start.line.
    for (MemberLine& member : *lines) member.line += start.line - 1;
    where.members = std::move(*lines);
    lines->clear();
  }
  handler(std::move(tensor), where);
}

// Who gets the tensors of a file, and how its JSON lines are read.
struct Sink {
  const PlacedTensorHandler& handler;
  MemberLines* lines;  // null: not asked for
  LineReading reading = LineReading::fast;
  JsonLineConsumer* consumer = nullptr;  // takes JSON lines where given
};

// The tensors of JSON lines, line by line: each read into one Facts that is
// reused, so a stream of millions allocates nothing per tensor, or handed
// to the sink's consumer.
class LineTensors {
 public:
  LineTensors(const std::string& file, const Sink& sink) : file_(file), sink_(sink) {}

  // `text` (its newline is dropped) is line `number` of the file, starting
  // at `column`.
  void read(std::string& text, std::size_t number, std::size_t column) {
    if (text.ends_with('\n')) text.pop_back();
    text.reserve(text.size() + kLinePadding);
    JsonLine line{text, number, column, index_++};
    if (sink_.consumer != nullptr) {
      sink_.consumer->take(line);
      return;
    }
    if (sink_.reading == LineReading::reference) {
      // The reference path as it always was, member lines and all.
      parse_one(text, Place{file_, number, {}, line.index}, TextStart{number, column},
                sink_.handler, sink_.lines);
      return;
    }
    read_json_line(line, file_, reader_, sink_.reading, facts_);
    sink_.handler(std::move(facts_), TensorPlace{line.index, {}, number, {}});
  }

 private:
  const std::string& file_;
  const Sink& sink_;
  TensorLineReader reader_;
  facts::TensorFacts facts_;
  std::size_t index_ = 0;
};

// The JSON lines of a file, the first two read already. A problem of the
// reading itself (a line past the limit) comes after what the consumer
// holds, which is earlier in the file.
void stream_lines(TextSource& source, const std::string& file, const Sink& sink, std::string& first,
                  TextStart start, std::string& second, std::size_t number) {
  LineTensors tensors(file, sink);
  try {
    tensors.read(first, start.line, start.column);
    tensors.read(second, number, 1);
    std::string& line = second;
    for (number = source.line(); source.next_line(line); number = source.line()) {
      if (!is_blank(line)) tensors.read(line, number, 1);
    }
  } catch (...) {
    if (sink.consumer != nullptr) sink.consumer->finish();
    throw;
  }
  if (sink.consumer != nullptr) sink.consumer->finish();
}

// JSON lines when there are several non-blank lines and the first one is a
// whole object by itself (a pretty-printed object's first line never is);
// otherwise the file is one tensor object. Holds one line at a time, or the
// one object.
void stream_objects(TextSource& source, const std::string& file, const Sink& sink,
                    std::size_t first_column) {
  TextStart start{source.line(), first_column};
  std::string first;
  source.next_line(first);
  std::string text = first;
  std::string line;
  std::size_t number = source.line();
  bool several = false;
  while (source.next_line(line)) {
    text += line;
    if (!is_blank(line)) {
      several = true;
      break;
    }
    number = source.line();
  }
  std::string_view head = first;
  if (head.ends_with('\n')) head.remove_suffix(1);
  if (!several || !head.starts_with('{') || !json::accept(head)) {
    // One object: its place is the file's; lines only for syntax errors.
    source.rest(text);
    parse_one(text, Place{file, {}, {}, 0}, start, sink.handler, sink.lines);
    return;
  }
  text.clear();
  text.shrink_to_fit();
  source.limit_each_line();
  stream_lines(source, file, sink, first, start, line, number);
}

void stream_capsule_text(std::streambuf& input, const std::string& origin, const Sink& sink) {
  TextSource source(input, origin);
  std::size_t column = 1;
  while (is_blank_byte(source.peek())) {
    column = source.get() == '\n' ? 1 : column + 1;
  }
  if (source.peek() == std::char_traits<char>::eof()) {
    fail_at(Place{origin, {}, {}, {}}, "",
            "the file is empty; expected a tensor object, a JSON array of them, or one per line "
            "(JSON lines)");
  }
  if (source.peek() == '[') {
    stream_array(source, origin, sink.handler, sink.lines);
  } else {
    stream_objects(source, origin, sink, column);
  }
}

// A streambuf over text the caller holds, without copying it.
class ViewBuffer : public std::streambuf {
 public:
  explicit ViewBuffer(std::string_view text) {
    char* begin = const_cast<char*>(text.data());
    setg(begin, begin, begin + text.size());
  }
};

// The tensors of the file at `path`, each handed over as soon as it is
// read.
void read_capsule_tensors(const std::filesystem::path& path, const Sink& sink) {
  std::string file = path.string();
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) {
    throw Error(ExitCode::usage, fmt::format("{}: is a directory, not a capsule file", file),
                "name a capsule file (JSON)");
  }
  std::filebuf stream;
  if (stream.open(path, std::ios::in | std::ios::binary) == nullptr) {
    throw Error(ExitCode::usage,
                fmt::format("{}: cannot open the capsule file: {}", file, std::strerror(errno)),
                "check the path and the file's permissions");
  }
  stream_capsule_text(stream, file, sink);
}

}  // namespace

void read_json_line(const JsonLine& line, const std::string& file, TensorLineReader& reader,
                    LineReading reading, facts::TensorFacts& facts) {
  // "FILE#N", built without a format string: a capture's millions of
  // lines each need one, and fmt's parsing of "{}#{}" cost more than
  // appending.
  fmt::memory_buffer origin;
  origin.append(file.data(), file.data() + file.size());
  origin.push_back('#');
  char digits[24];
  char* end = std::to_chars(std::begin(digits), std::end(digits), line.index).ptr;
  origin.append(digits, end);
  if (reading == LineReading::fast &&
      reader.read(line.text, std::string_view(origin.data(), origin.size()), facts)) {
    return;
  }
  parse_one(
      line.text, Place{file, line.number, {}, line.index}, TextStart{line.number, line.column},
      [&facts](facts::TensorFacts&& tensor, const TensorPlace&) { facts = std::move(tensor); },
      nullptr);
}

std::vector<facts::TensorFacts> parse_capsule_text(std::string_view text,
                                                   const std::string& origin) {
  if (text.size() > kMaxCapsuleFileBytes) {
    fail_at(Place{origin, {}, {}, {}}, "",
            fmt::format("{} bytes is more than a capsule file may hold ({} bytes)", text.size(),
                        kMaxCapsuleFileBytes));
  }
  std::vector<facts::TensorFacts> tensors;
  ViewBuffer buffer(text);
  PlacedTensorHandler keep = [&](facts::TensorFacts&& tensor, const TensorPlace&) {
    tensors.push_back(std::move(tensor));
  };
  stream_capsule_text(buffer, origin, Sink{keep, nullptr});
  return tensors;
}

void for_each_capsule_tensor(const std::filesystem::path& path, const TensorHandler& handler,
                             LineReading reading) {
  PlacedTensorHandler unplaced = [&handler](facts::TensorFacts&& tensor, const TensorPlace&) {
    handler(std::move(tensor));
  };
  read_capsule_tensors(path, Sink{unplaced, nullptr, reading});
}

void for_each_placed_tensor(const std::filesystem::path& path, const PlacedTensorHandler& handler,
                            LineReading reading) {
  MemberLines lines;
  read_capsule_tensors(path, Sink{handler, &lines, reading});
}

void for_each_placed_tensor(const std::filesystem::path& path, const PlacedTensorHandler& handler,
                            JsonLineConsumer& consumer, bool member_lines) {
  MemberLines lines;
  read_capsule_tensors(
      path, Sink{handler, member_lines ? &lines : nullptr, LineReading::fast, &consumer});
}

std::size_t TensorPlace::line_of(std::string_view target) const {
  // The member itself, or the nearest one above it: "/dl_tensor/strides/1"
  // (a number in an array has no line of its own) is on "/dl_tensor/strides"'s.
  for (std::string_view at = target;;) {
    for (const MemberLine& member : members) {
      if (member.pointer == at) return member.line;
    }
    if (at.empty() || at == pointer) return line;
    std::size_t slash = at.rfind('/');
    at = slash == std::string_view::npos ? std::string_view() : at.substr(0, slash);
  }
}

std::string pointer_of_field(std::string_view field) {
  // "dl_tensor.data+byte_offset" is about data; "strides[1]" is strides/1.
  field = field.substr(0, field.find_first_of("+ "));
  std::string pointer;
  for (char c : field) {
    if (c == '.' || c == '[') {
      pointer += '/';
    } else if (c == ']') {
      continue;
    } else if (c == '~') {
      pointer += "~0";
    } else if (c == '/') {
      pointer += "~1";
    } else {
      pointer += c;
    }
  }
  return field.empty() ? pointer : "/" + pointer;
}

std::vector<facts::TensorFacts> read_capsule_file(const std::filesystem::path& path) {
  std::vector<facts::TensorFacts> tensors;
  for_each_capsule_tensor(
      path, [&](facts::TensorFacts&& tensor) { tensors.push_back(std::move(tensor)); });
  return tensors;
}

}  // namespace dlpack_usm::capsule
