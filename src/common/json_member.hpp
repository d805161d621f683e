// The optional members of a JSON request a caller of the bridge builds (a
// consumer observation, a run summary): absent or null takes the fallback,
// a member of another type is a usage error naming the member.
#pragma once

#include <string>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/error.hpp"

namespace dlpack_usm {

// `what` names the request in the error ("consumer observation"), `hint`
// says where its shape is written down.
template <typename T>
T json_member_or(const nlohmann::json& object, const char* key, T fallback, std::string_view what,
                 std::string_view hint) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return fallback;
  try {
    return it->get<T>();
  } catch (const nlohmann::json::exception&) {
    fail_usage(fmt::format("{}: '{}' has the wrong type", what, key), std::string(hint));
  }
}

}  // namespace dlpack_usm
