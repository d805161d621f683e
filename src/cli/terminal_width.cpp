#include "cli/terminal_width.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <string_view>

namespace dlpack_usm::cli {
namespace {

// Wider than any terminal: a COLUMNS past it is a mistake, not a width.
constexpr std::size_t kWidestTerminal = 100000;

std::size_t columns_variable() {
  const char* value = std::getenv("COLUMNS");
  if (value == nullptr) return 0;
  std::string_view text(value);
  std::size_t columns = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), columns);
  if (error != std::errc() || end != text.data() + text.size() || columns > kWidestTerminal) {
    return 0;
  }
  return columns;
}

}  // namespace

std::size_t output_width() {
  if (std::size_t columns = columns_variable(); columns > 0) return columns;
  winsize size{};
  if (isatty(STDOUT_FILENO) != 0 && ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0) {
    return size.ws_col;
  }
  return 0;
}

}  // namespace dlpack_usm::cli
