#include "common/bounded_file.hpp"

#include <fstream>

#include <fmt/format.h>

#include "common/error.hpp"

namespace dlpack_usm {

std::string read_bounded_file(const std::filesystem::path& path, std::size_t max_bytes,
                              std::string_view option, std::string_view expected) {
  std::error_code error;
  std::filesystem::file_status status = std::filesystem::status(path, error);
  if (!error && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) {
    fail_usage(fmt::format("{} {} is not a regular file", option, path.string()),
               fmt::format("give {} {}", option, expected));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    fail_usage(fmt::format("{}: cannot read {}", option, path.string()),
               fmt::format("check the path; {} takes {}", option, expected));
  }
  // In chunks, so a small file costs little whatever the bound.
  std::string text;
  char chunk[65536];
  while (text.size() <= max_bytes && in.read(chunk, sizeof chunk).gcount() > 0) {
    text.append(chunk, static_cast<std::size_t>(in.gcount()));
  }
  if (text.size() > max_bytes) {
    fail_usage(fmt::format("{} {} is larger than {} MiB", option, path.string(), max_bytes >> 20),
               fmt::format("check that the path names {}", expected));
  }
  return text;
}

}  // namespace dlpack_usm
