#include "common/text_width.hpp"

#include <algorithm>
#include <utility>

namespace dlpack_usm {
namespace {

bool starts_code_point(char byte) {
  return (static_cast<unsigned char>(byte) & 0xC0) != 0x80;
}

// The byte offset where column `column` starts (the size when the text is
// shorter).
std::size_t offset_of_column(std::string_view text, std::size_t column) {
  std::size_t seen = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (!starts_code_point(text[i])) continue;
    if (seen == column) return i;
    ++seen;
  }
  return text.size();
}

void trim_right(std::string& line) {
  while (!line.empty() && line.back() == ' ') line.pop_back();
}

}  // namespace

std::size_t display_columns(std::string_view text) {
  std::size_t columns = 0;
  for (char byte : text) columns += starts_code_point(byte) ? 1 : 0;
  return columns;
}

std::string cut_to_columns(std::string_view text, std::size_t width, std::string_view mark) {
  if (width == 0 || display_columns(text) <= width) return std::string(text);
  std::size_t mark_columns = std::min(display_columns(mark), width);
  std::string cut(text.substr(0, offset_of_column(text, width - mark_columns)));
  if (mark.empty()) return cut;
  trim_right(cut);
  return cut + std::string(mark);
}

std::vector<std::string> wrap_to_columns(std::string_view text, std::size_t first_width,
                                         std::size_t width) {
  if (first_width == 0 || width == 0) return {std::string(text)};
  std::vector<std::string> lines;
  // The text's own leading blanks stay (an indented line); blanks where a
  // line breaks go.
  std::size_t lead = std::min(text.find_first_not_of(' '), text.size());
  std::string current(text.substr(0, lead));
  bool has_words = false;
  auto limit = [&lines, first_width, width] { return lines.empty() ? first_width : width; };
  for (std::size_t start = lead; start < text.size();) {
    std::size_t space = std::min(text.find(' ', start), text.size());
    std::string_view word = text.substr(start, space - start);
    start = space + 1;
    if (!has_words && word.empty()) continue;
    std::string candidate =
        has_words ? current + ' ' + std::string(word) : current + std::string(word);
    if (display_columns(candidate) <= limit()) {
      current = std::move(candidate);
      has_words = true;
      continue;
    }
    if (has_words) {
      trim_right(current);
      lines.push_back(std::exchange(current, {}));
      if (word.empty()) {
        has_words = false;
        continue;
      }
      candidate = std::string(word);
    }
    // A word wider than a line (a path, a command) stays whole on a line of
    // its own: split, it could no longer be copied.
    if (display_columns(candidate) > limit()) {
      lines.push_back(std::move(candidate));
      current.clear();
      has_words = false;
      continue;
    }
    current = std::move(candidate);
    has_words = true;
  }
  trim_right(current);
  if (!current.empty() || lines.empty()) lines.push_back(std::move(current));
  return lines;
}

std::string wrap_after(std::string_view prefix, std::string_view text,
                       std::string_view continuation, std::size_t width) {
  if (width == 0) return std::string(prefix) + std::string(text) + '\n';
  // Columns left after `used`; at least a few, so that a deep indentation
  // still shows words.
  auto columns_after = [width](std::string_view used) {
    constexpr std::size_t kFewest = 10;
    std::size_t taken = display_columns(used);
    return width > taken + kFewest ? width - taken : kFewest;
  };
  std::vector<std::string> lines =
      wrap_to_columns(text, columns_after(prefix), columns_after(continuation));
  std::string wrapped;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string line = std::string(i == 0 ? prefix : continuation) + lines[i];
    trim_right(line);
    wrapped += line + '\n';
  }
  return wrapped;
}

}  // namespace dlpack_usm
