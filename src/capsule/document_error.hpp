// A problem inside one capsule-file document, located by JSON pointer. The
// capsule-file reader turns it into the user-facing Error, adding the file,
// the tensor number and the line.
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "common/json_pointer.hpp"
#include "common/printable.hpp"

namespace dlpack_usm::capsule {

class DocumentError : public std::runtime_error {
 public:
  DocumentError(std::string pointer, const std::string& message,
                std::optional<std::size_t> byte_offset = std::nullopt)
      : std::runtime_error(message), pointer_(std::move(pointer)), byte_offset_(byte_offset) {}

  // JSON pointer (RFC 6901) of the offending value; "" is the whole document.
  const std::string& pointer() const { return pointer_; }
  // Where the JSON syntax broke, for syntax errors only.
  const std::optional<std::size_t>& byte_offset() const { return byte_offset_; }

 private:
  std::string pointer_;
  std::optional<std::size_t> byte_offset_;
};

}  // namespace dlpack_usm::capsule
