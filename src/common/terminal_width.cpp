#include "common/terminal_width.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>

namespace dlpack_usm {
namespace {

// Wider than any terminal: a COLUMNS past it is a mistake, not a width.
constexpr std::size_t kWidestTerminal = 100000;

}  // namespace

std::size_t columns_setting() {
  const char* text = std::getenv("COLUMNS");
  if (text == nullptr || *text == '\0') return 0;
  std::size_t columns = 0;
  for (const char* c = text; *c != '\0'; ++c) {
    if (*c < '0' || *c > '9' || columns > kWidestTerminal) return 0;
    columns = columns * 10 + static_cast<std::size_t>(*c - '0');
  }
  return columns > kWidestTerminal ? 0 : columns;
}

std::size_t terminal_width(int fd, std::size_t fallback) {
  if (std::size_t columns = columns_setting(); columns > 0) return columns;
  winsize size{};
  if (isatty(fd) != 0 && ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) {
    return size.ws_col;
  }
  return fallback;
}

}  // namespace dlpack_usm
