// Typed reading of JSON values for the capsule-file reader: C integer types
// with their exact ranges, addresses, and objects with a closed set of keys.
// Every failure is a DocumentError naming the JSON pointer.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "capsule/document_error.hpp"

namespace dlpack_usm::capsule {

// "the string "abc"", "the number -3", "null", "an object", "an array of 4 entries".
std::string describe_json(const nlohmann::json& value);

[[noreturn]] void fail_expected(const std::string& pointer, std::string_view expected,
                                const nlohmann::json& got);

// An integer of C type T, within T's range. `c_name` is the C declaration
// for the message ("int32_t device_id").
template <typename T>
T read_integer(const nlohmann::json& value, const std::string& pointer, std::string_view c_name) {
  constexpr T low = std::numeric_limits<T>::min();
  constexpr T high = std::numeric_limits<T>::max();
  if (value.is_number_unsigned()) {
    auto number = value.get<std::uint64_t>();
    if (std::cmp_less_equal(number, high)) return static_cast<T>(number);
  } else if (value.is_number_integer()) {
    auto number = value.get<std::int64_t>();
    if (std::cmp_greater_equal(number, low) && std::cmp_less_equal(number, high)) {
      return static_cast<T>(number);
    }
  }
  fail_expected(
      pointer, fmt::format("an integer from {} to {} (the range of {})", low, high, c_name), value);
}

bool read_bool(const nlohmann::json& value, const std::string& pointer);
const std::string& read_string(const nlohmann::json& value, const std::string& pointer);

// An address or size: an integer from 0 to 2^64-1, or a string "0x..." of
// 1 to 16 hex digits.
std::uint64_t read_address(const nlohmann::json& value, const std::string& pointer);

// A JSON object whose keys must all be among `allowed`.
class JsonObject {
 public:
  // `what` names the object for messages ("dl_tensor", "the tensor").
  JsonObject(const nlohmann::json& value, std::string pointer, std::string_view what,
             std::initializer_list<std::string_view> allowed);

  const nlohmann::json* find(std::string_view key) const;
  const nlohmann::json& require(std::string_view key) const;
  std::string pointer_to(std::string_view key) const;
  const std::string& pointer() const { return pointer_; }

 private:
  const nlohmann::json& value_;
  std::string pointer_;
  std::string what_;
};

}  // namespace dlpack_usm::capsule
