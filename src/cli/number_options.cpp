#include "cli/number_options.hpp"

#include <charconv>

#include <fmt/format.h>

#include "common/printable.hpp"

namespace dlpack_usm::cli {

CLI::Validator whole_number(std::string what, long long lowest, long long highest,
                            std::string range_words) {
  if (range_words.empty()) range_words = fmt::format("give {} to {}", lowest, highest);
  return CLI::Validator(
      [what, lowest, highest, range_words](std::string& text) -> std::string {
        long long value = 0;
        const char* begin = text.data() + (text.starts_with('+') ? 1 : 0);
        auto [end, error] = std::from_chars(begin, text.data() + text.size(), value);
        bool whole = error == std::errc() && end == text.data() + text.size() && !text.empty();
        if (whole && value >= lowest && value <= highest) return {};
        return fmt::format("{} is not {}: {}", quote_for_message(text), what, range_words);
      },
      "");
}

}  // namespace dlpack_usm::cli
