#include "common/json_fields.hpp"

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/json_pointer.hpp"

namespace dlpack_usm {

using nlohmann::json;

void fail_input(const JsonInput& input, const std::string& what) {
  fail_usage(fmt::format("{}: {}: {}", input.command, input.file, what), input.hint);
}

const char* json_type_name(const json& value) {
  switch (value.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::object:
      return "an object";
    case json::value_t::array:
      return "an array";
    case json::value_t::string:
      return "a string";
    case json::value_t::boolean:
      return "a boolean";
    default:
      return "a number";
  }
}

const json& JsonFields::value(const char* key, bool (json::*is_type)() const noexcept,
                              const char* expected) const {
  auto it = object_.find(key);
  if (it == object_.end()) {
    fail_input(input_, fmt::format("{} is missing ({} expected)", where(key), expected));
  }
  if (!((*it).*is_type)()) wrong(key, *it, expected);
  return *it;
}

std::string JsonFields::text(const char* key) const {
  return value(key, &json::is_string, "a string").get<std::string>();
}

std::string JsonFields::text_or_null(const char* key) const {
  const json& found = value(key, &json::is_primitive, "a string or null");
  if (found.is_null()) return {};
  if (!found.is_string()) wrong(key, found, "a string or null");
  return found.get<std::string>();
}

std::string JsonFields::optional_text(const char* key) const {
  return has(key) ? text_or_null(key) : std::string();
}

bool JsonFields::flag(const char* key) const {
  return value(key, &json::is_boolean, "true or false").get<bool>();
}

double JsonFields::milliseconds(const char* key) const {
  double number = value(key, &json::is_number, "a number").get<double>();
  if (!(number >= 0)) fail_input(input_, fmt::format("{} is negative", where(key)));
  return number;
}

std::int64_t JsonFields::integer(const char* key, std::int64_t low, std::int64_t high) const {
  const json& found = value(key, &json::is_number_integer, "an integer");
  bool too_large =
      found.is_number_unsigned() && found.get<std::uint64_t>() > static_cast<std::uint64_t>(high);
  std::int64_t number = too_large ? high : found.get<std::int64_t>();
  if (too_large || number < low || number > high) {
    fail_input(input_,
               fmt::format("{} is {}, not from {} to {}", where(key), found.dump(), low, high));
  }
  return number;
}

JsonFields JsonFields::object(const char* key) const {
  return {input_, value(key, &json::is_object, "an object"), where(key)};
}

const json& JsonFields::array(const char* key) const {
  return value(key, &json::is_array, "an array");
}

std::vector<JsonFields> JsonFields::objects(const char* key) const {
  std::vector<JsonFields> items;
  const json& list = array(key);
  for (std::size_t i = 0; i < list.size(); ++i) {
    std::string pointer = fmt::format("{}/{}", where(key), i);
    if (!list[i].is_object()) {
      fail_input(input_, fmt::format("{} is {}, not an object", pointer, json_type_name(list[i])));
    }
    items.emplace_back(input_, list[i], std::move(pointer));
  }
  return items;
}

std::vector<std::string> JsonFields::texts(const char* key) const {
  std::vector<std::string> items;
  const json& list = array(key);
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (!list[i].is_string()) {
      fail_input(input_,
                 fmt::format("{}/{} is {}, not a string", where(key), i, json_type_name(list[i])));
    }
    items.push_back(list[i].get<std::string>());
  }
  return items;
}

std::string JsonFields::where(const char* key) const {
  return fmt::format("{}/{}", pointer_, pointer_token(key));
}

void JsonFields::wrong(const char* key, const json& found, const char* expected) const {
  fail_input(input_, fmt::format("{} is {}, not {}", where(key), json_type_name(found), expected));
}

}  // namespace dlpack_usm
