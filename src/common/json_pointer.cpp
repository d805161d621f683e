#include "common/json_pointer.hpp"

namespace dlpack_usm {

std::string pointer_token(std::string_view key) {
  std::string token;
  token.reserve(key.size());
  for (char c : key) {
    if (c == '~') {
      token += "~0";
    } else if (c == '/') {
      token += "~1";
    } else {
      token += c;
    }
  }
  return token;
}

}  // namespace dlpack_usm
