#include "common/terminal_width.hpp"

#include <sys/ioctl.h>

#include <cstdlib>
#include <string>

namespace dlpack_usm {
namespace {

// COLUMNS as a count: digits only, 1 to a width no terminal has.
std::size_t columns_from_environment() {
  const char* text = std::getenv("COLUMNS");
  if (text == nullptr || *text == '\0') return 0;
  std::size_t columns = 0;
  for (const char* c = text; *c != '\0'; ++c) {
    if (*c < '0' || *c > '9' || columns > 100000) return 0;
    columns = columns * 10 + static_cast<std::size_t>(*c - '0');
  }
  return columns;
}

}  // namespace

std::size_t terminal_columns(int fd) {
  if (std::size_t columns = columns_from_environment(); columns > 0) return columns;
  winsize size{};
  if (ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  return kDefaultColumns;
}

std::string truncate_to_columns(std::string_view text, std::size_t columns) {
  std::size_t seen = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    // A byte that starts a code point (not 10xxxxxx) starts a column.
    bool starts = (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
    if (starts && ++seen > columns) return std::string(text.substr(0, i));
  }
  return std::string(text);
}

}  // namespace dlpack_usm
