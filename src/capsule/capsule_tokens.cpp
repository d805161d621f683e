#include "capsule/capsule_tokens.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "dlpack/names.hpp"

namespace dlpack_usm::capsule {

namespace {

// Each byte's value as a hex digit, -1 for none.
constexpr std::array<std::int8_t, 256> kHexDigits = [] {
  std::array<std::int8_t, 256> digits{};
  digits.fill(-1);
  for (int i = 0; i < 10; ++i)
    digits[static_cast<std::size_t>('0' + i)] = static_cast<std::int8_t>(i);
  for (int i = 0; i < 6; ++i) {
    digits[static_cast<std::size_t>('a' + i)] = static_cast<std::int8_t>(10 + i);
    digits[static_cast<std::size_t>('A' + i)] = static_cast<std::int8_t>(10 + i);
  }
  return digits;
}();

}  // namespace

std::optional<std::uint64_t> address_from_text(std::string_view text) {
  bool prefixed = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  std::string_view digits = prefixed ? text.substr(2) : std::string_view();
  if (digits.empty() || digits.size() > 16) return std::nullopt;
  std::uint64_t address = 0;
  for (char c : digits) {
    // The C locale's hex digits, looked up: every tensor of a capture
    // writes its addresses so.
    std::int8_t digit = kHexDigits[static_cast<unsigned char>(c)];
    if (digit < 0) return std::nullopt;
    address = address << 4 | static_cast<std::uint64_t>(digit);
  }
  return address;
}

std::optional<dlpack::DLDataType> dtype_from_shorthand(std::string_view text) {
  if (std::optional<dlpack::DLDataType> whole = dlpack::parse_dtype(text)) return whole;
  std::size_t x = text.rfind('x');
  bool lanes_written = x != std::string_view::npos && x + 1 < text.size() &&
                       text.size() - x - 1 <= 5 &&
                       text.find_first_not_of("0123456789", x + 1) == std::string_view::npos;
  if (!lanes_written) return std::nullopt;
  std::optional<dlpack::DLDataType> dtype = dlpack::parse_dtype(text.substr(0, x));
  unsigned long lanes = std::stoul(std::string(text.substr(x + 1)));
  if (!dtype || lanes == 0 || lanes > 0xFFFF) return std::nullopt;
  dtype->lanes = static_cast<std::uint16_t>(lanes);
  return dtype;
}

std::optional<std::uint64_t> flag_from_token(std::string_view token) {
  while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
  while (!token.empty() && token.back() == ' ') token.remove_suffix(1);
  for (const dlpack::FlagName& flag : dlpack::flag_table()) {
    if (token == flag.short_name || token == flag.name) return flag.mask;
  }
  bool hex = token.size() > 2 && token[0] == '0' && (token[1] == 'x' || token[1] == 'X');
  std::string_view digits = hex ? token.substr(2) : token;
  std::string_view allowed = hex ? "0123456789abcdefABCDEF" : "0123456789";
  if (digits.empty() || digits.size() > (hex ? 16U : 20U) ||
      digits.find_first_not_of(allowed) != std::string_view::npos) {
    return std::nullopt;
  }
  errno = 0;
  unsigned long long number = std::strtoull(std::string(digits).c_str(), nullptr, hex ? 16 : 10);
  if (errno == ERANGE) return std::nullopt;
  return number;
}

std::optional<std::uint64_t> flags_from_text(std::string_view text) {
  std::uint64_t flags = 0;
  std::size_t start = 0;
  while (true) {
    std::size_t bar = text.find('|', start);
    std::optional<std::uint64_t> flag = flag_from_token(text.substr(start, bar - start));
    if (!flag) return std::nullopt;
    flags |= *flag;
    if (bar == std::string_view::npos) return flags;
    start = bar + 1;
  }
}

}  // namespace dlpack_usm::capsule
