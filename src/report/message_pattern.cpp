#include "report/message_pattern.hpp"

#include <cctype>

namespace dlpack_usm::report {
namespace {

bool is_digit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

bool is_hex_digit(char c) {
  return std::isxdigit(static_cast<unsigned char>(c)) != 0;
}

bool is_word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// The length of the number at `at` (0 where none starts there): "0x" and
// its hex digits, or decimal digits. A number glued to a word's letters
// ("float32") is the word's, so only its digits are masked, never what
// follows.
std::size_t number_at(std::string_view text, std::size_t at) {
  if (!is_digit(text[at])) return 0;
  if (text[at] == '0' && at + 2 < text.size() && (text[at + 1] == 'x' || text[at + 1] == 'X') &&
      is_hex_digit(text[at + 2])) {
    std::size_t end = at + 2;
    while (end < text.size() && is_hex_digit(text[end])) ++end;
    return end - at;
  }
  std::size_t end = at;
  while (end < text.size() && is_digit(text[end])) ++end;
  return end - at;
}

// Drops what `pattern` ends with that belongs to the number about to be
// masked: a sign ("-4", not "x-4"), and a list's separator after a mark
// ("#, " before the next number makes the list one mark).
void absorb_into_mark(std::string& pattern) {
  if (pattern.ends_with('-') &&
      (pattern.size() == 1 || !is_word_char(pattern[pattern.size() - 2]))) {
    pattern.pop_back();
  }
  for (std::string_view separator : {", ", ","}) {
    if (pattern.ends_with(std::string("#") + std::string(separator))) {
      pattern.resize(pattern.size() - separator.size());
      return;
    }
  }
}

}  // namespace

std::string message_pattern(std::string_view message) {
  std::string pattern;
  std::size_t at = 0;
  while (at < message.size()) {
    // An empty list is a list of numbers too: a 0-d tensor's strides "[]"
    // read as a 2-d one's "[5, 1]".
    if (message.compare(at, 2, "[]") == 0) {
      pattern += "[#]";
      at += 2;
      continue;
    }
    std::size_t length = number_at(message, at);
    if (length == 0) {
      pattern += message[at++];
      continue;
    }
    absorb_into_mark(pattern);
    if (!pattern.ends_with('#')) pattern += '#';
    at += length;
  }
  return pattern;
}

}  // namespace dlpack_usm::report
