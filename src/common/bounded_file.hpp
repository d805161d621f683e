// Reads an input file the user named (a baseline, a shard report) with a
// size bound and only when it is a regular file: /dev/zero would grow without
// end, a FIFO could block, and a directory is no file of any kind.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace dlpack_usm {

// Throws Error(usage) naming `option` ("--baseline", "report merge") when the
// path is not a regular file, cannot be read, or holds more than
// `max_bytes`; `expected` says what the file should be ("a text file of case
// ids, one per line").
std::string read_bounded_file(const std::filesystem::path& path, std::size_t max_bytes,
                              std::string_view option, std::string_view expected);

}  // namespace dlpack_usm
