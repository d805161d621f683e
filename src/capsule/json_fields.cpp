#include "capsule/json_fields.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "capsule/capsule_tokens.hpp"

namespace dlpack_usm::capsule {
namespace {

using nlohmann::json;

// Edit distance, to suggest the key a typo meant; keys are short.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string join(std::initializer_list<std::string_view> names) {
  std::string text;
  for (std::string_view name : names) {
    if (!text.empty()) text += ", ";
    text += name;
  }
  return text;
}

}  // namespace

std::string describe_json(const json& value) {
  switch (value.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::boolean:
      return value.get<bool>() ? "true" : "false";
    case json::value_t::number_integer:
      return fmt::format("the number {}", value.get<std::int64_t>());
    case json::value_t::number_unsigned:
      return fmt::format("the number {}", value.get<std::uint64_t>());
    case json::value_t::number_float:
      return fmt::format("the number {}", value.get<double>());
    case json::value_t::string:
      return fmt::format("the string {}", quote_for_message(value.get_ref<const std::string&>()));
    case json::value_t::object:
      return fmt::format("an object with {} members", value.size());
    case json::value_t::array:
      return fmt::format("an array of {} entries", value.size());
    case json::value_t::binary:
    case json::value_t::discarded:
      break;
  }
  return "a value that is not JSON";
}

void fail_expected(const std::string& pointer, std::string_view expected, const json& got) {
  throw DocumentError(pointer, fmt::format("expected {}, got {}", expected, describe_json(got)));
}

bool read_bool(const json& value, const std::string& pointer) {
  if (!value.is_boolean()) fail_expected(pointer, "true or false", value);
  return value.get<bool>();
}

const std::string& read_string(const json& value, const std::string& pointer) {
  if (!value.is_string()) fail_expected(pointer, "a string", value);
  return value.get_ref<const std::string&>();
}

std::uint64_t read_address(const json& value, const std::string& pointer) {
  constexpr std::string_view expected =
      "an address: an integer from 0 to 18446744073709551615 or a string \"0x...\" of 1 to 16 "
      "hex digits";
  if (value.is_number_unsigned()) return value.get<std::uint64_t>();
  if (!value.is_string()) fail_expected(pointer, expected, value);
  std::optional<std::uint64_t> address = address_from_text(value.get_ref<const std::string&>());
  if (!address) fail_expected(pointer, expected, value);
  return *address;
}

JsonObject::JsonObject(const json& value, std::string pointer, std::string_view what,
                       std::initializer_list<std::string_view> allowed)
    : value_(value), pointer_(std::move(pointer)), what_(what) {
  if (!value.is_object()) {
    fail_expected(pointer_, fmt::format("{} as an object with the keys {}", what_, join(allowed)),
                  value);
  }
  for (const auto& item : value.items()) {
    const std::string& key = item.key();
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    std::string message = fmt::format("unknown key {} in {}", quote_for_message(key), what_);
    auto closest = std::min_element(allowed.begin(), allowed.end(), [&](auto a, auto b) {
      return edit_distance(key, a) < edit_distance(key, b);
    });
    if (closest != allowed.end() && edit_distance(key, *closest) <= 2) {
      message += fmt::format(" (did you mean \"{}\"?)", *closest);
    }
    message += fmt::format("; the keys allowed there are {}", join(allowed));
    throw DocumentError(pointer_to(key), message);
  }
}

const json* JsonObject::find(std::string_view key) const {
  auto it = value_.find(key);
  return it == value_.end() ? nullptr : &*it;
}

const json& JsonObject::require(std::string_view key) const {
  const json* member = find(key);
  if (member == nullptr) {
    throw DocumentError(pointer_to(key),
                        fmt::format("{} lacks the required key \"{}\"", what_, key));
  }
  return *member;
}

std::string JsonObject::pointer_to(std::string_view key) const {
  return pointer_ + "/" + pointer_token(key);
}

}  // namespace dlpack_usm::capsule
