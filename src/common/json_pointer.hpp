// JSON pointers (RFC 6901), which every reader of an untrusted JSON document
// names the place of a problem with.
#pragma once

#include <string>
#include <string_view>

namespace dlpack_usm {

// RFC 6901 escaping of one reference token ('~' -> "~0", '/' -> "~1").
std::string pointer_token(std::string_view key);

}  // namespace dlpack_usm
