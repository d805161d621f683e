#include "cli/color_option.hpp"

#include <unistd.h>

#include <cstdlib>
#include <map>
#include <string_view>

#include "report/status_colors.hpp"

namespace dlpack_usm::cli {

void add_color_option(CLI::App& command, ColorMode& mode) {
  static const std::map<std::string, ColorMode> kWhen{
      {"auto", ColorMode::automatic}, {"always", ColorMode::always}, {"never", ColorMode::never}};
  command
      .add_option("--color", mode,
                  "Colour the statuses: auto (on a terminal, unless NO_COLOR is set), always "
                  "or never (default auto)")
      ->transform(CLI::CheckedTransformer(kWhen))
      ->option_text("WHEN");
}

bool use_color(ColorMode mode, std::FILE* stream) {
  if (mode != ColorMode::automatic) return mode == ColorMode::always;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color != nullptr && *no_color != '\0') return false;
  const char* term = std::getenv("TERM");
  if (term != nullptr && std::string_view(term) == "dumb") return false;
  return isatty(fileno(stream)) != 0;
}

std::string colored_for(ColorMode mode, std::FILE* stream, const std::string& text) {
  return use_color(mode, stream) ? report::color_status_words(text) : text;
}

}  // namespace dlpack_usm::cli
