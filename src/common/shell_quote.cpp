#include "common/shell_quote.hpp"

#include <algorithm>
#include <cctype>

namespace dlpack_usm {

std::string shell_quote(std::string_view text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string shell_word(std::string_view text) {
  bool plain = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 ||
           std::string_view("_-./:=,+").find(c) != std::string_view::npos;
  });
  return plain ? std::string(text) : shell_quote(text);
}

}  // namespace dlpack_usm
