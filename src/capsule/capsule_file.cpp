#include "capsule/capsule_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>

#include <fmt/format.h>

#include "capsule/bounded_json.hpp"
#include "capsule/capsule_fields.hpp"
#include "capsule/document_error.hpp"
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

struct Line {
  std::string_view text;
  std::size_t number;  // 1-based
};

// The non-blank lines of a text, one at a time: a hostile file can have
// millions, so they are never all held at once.
class NonBlankLines {
 public:
  explicit NonBlankLines(std::string_view text) : text_(text) {}
  std::optional<Line> next() {
    while (start_ <= text_.size()) {
      std::size_t end = text_.find('\n', start_);
      if (end == std::string_view::npos) end = text_.size();
      std::string_view line = text_.substr(start_, end - start_);
      start_ = end + 1;
      ++number_;
      if (!is_blank(line)) return Line{line, number_};
    }
    return std::nullopt;
  }

 private:
  std::string_view text_;
  std::size_t start_ = 0;
  std::size_t number_ = 0;
};

// JSON lines when there are several non-blank lines and the first one is a
// whole object by itself; a pretty-printed object's first line never is.
bool looks_like_json_lines(std::string_view text) {
  NonBlankLines lines(text);
  std::optional<Line> first = lines.next();
  if (!first || !lines.next()) return false;
  std::size_t start = first->text.find_first_not_of(" \t\r");
  if (start == std::string_view::npos || first->text[start] != '{') return false;
  return json::accept(first->text);
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

std::vector<facts::TensorFacts> parse_array(std::string_view text, const std::string& file) {
  std::vector<facts::TensorFacts> tensors;
  try {
    parse_bounded_json(text, capsule_limits(), [&](std::size_t index, const json& entry) {
      std::string pointer = fmt::format("/{}", index);
      tensors.push_back(tensor_from_json(entry, pointer, fmt::format("{}#{}", file, index)));
    });
  } catch (const DocumentError& error) {
    Place place{file, {}, {}, leading_index(error.pointer())};
    if (error.byte_offset()) {
      std::tie(place.line, place.column) = line_and_column(text, *error.byte_offset());
    }
    fail_at(place, error.pointer(), error.what());
  }
  if (tensors.empty()) {
    fail_at(Place{file, {}, {}, {}}, "",
            "the array holds no tensor; a capsule file describes at least one");
  }
  return tensors;
}

// One tensor object, the whole of a document or of one JSON line.
facts::TensorFacts parse_one(std::string_view text, Place place) {
  try {
    json document = parse_bounded_json(text, capsule_limits(), [](std::size_t, const json&) {
      throw DocumentError("", "expected one tensor object here, got an array");
    });
    return tensor_from_json(document, "", fmt::format("{}#{}", place.file, *place.tensor));
  } catch (const DocumentError& error) {
    if (error.byte_offset()) {
      auto [line, column] = line_and_column(text, *error.byte_offset());
      place.line = place.line.value_or(1) + line - 1;
      place.column = column;
    }
    fail_at(place, error.pointer(), error.what());
  }
}

}  // namespace

std::vector<facts::TensorFacts> parse_capsule_text(std::string_view text,
                                                   const std::string& origin) {
  if (text.size() > kMaxCapsuleFileBytes) {
    fail_at(Place{origin, {}, {}, {}}, "",
            fmt::format("{} bytes is more than a capsule file may hold ({} bytes)", text.size(),
                        kMaxCapsuleFileBytes));
  }
  // A UTF-8 byte order mark is allowed (RFC 8259 lets parsers ignore it);
  // without it the first character tells an array from the rest.
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) {
    fail_at(Place{origin, {}, {}, {}}, "",
            "the file is empty; expected a tensor object, a JSON array of them, or one per line "
            "(JSON lines)");
  }
  if (text[first] == '[') return parse_array(text, origin);

  if (!looks_like_json_lines(text)) return {parse_one(text, Place{origin, {}, {}, 0})};
  std::vector<facts::TensorFacts> tensors;
  NonBlankLines lines(text);
  while (std::optional<Line> line = lines.next()) {
    tensors.push_back(parse_one(line->text, Place{origin, line->number, {}, tensors.size()}));
  }
  return tensors;
}

std::vector<facts::TensorFacts> read_capsule_file(const std::filesystem::path& path) {
  std::string file = path.string();
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) {
    throw Error(ExitCode::usage, fmt::format("{}: is a directory, not a capsule file", file),
                "name a capsule file (JSON)");
  }
  std::ifstream stream(path, std::ios::binary);
  if (!stream) {
    throw Error(ExitCode::usage,
                fmt::format("{}: cannot open the capsule file: {}", file, std::strerror(errno)),
                "check the path and the file's permissions");
  }
  // A large regular file is refused before reading; a pipe or device has
  // no size, so reading stops one chunk past the limit instead.
  std::uintmax_t size = std::filesystem::is_regular_file(path, ignored)
                            ? std::filesystem::file_size(path, ignored)
                            : 0;
  if (size > kMaxCapsuleFileBytes) {
    throw Error(ExitCode::usage,
                fmt::format("{}: {} bytes is more than a capsule file may hold ({} bytes)", file,
                            size, kMaxCapsuleFileBytes),
                std::string(kFormatHint));
  }
  std::string text;
  text.reserve(static_cast<std::size_t>(size) + 1);
  char chunk[1 << 16];
  while (text.size() <= kMaxCapsuleFileBytes && stream.read(chunk, sizeof chunk).gcount() > 0) {
    text.append(chunk, static_cast<std::size_t>(stream.gcount()));
  }
  if (stream.bad()) {
    throw Error(ExitCode::usage, fmt::format("{}: cannot read the capsule file", file),
                "check that it is a readable file");
  }
  return parse_capsule_text(text, file);
}

}  // namespace dlpack_usm::capsule
