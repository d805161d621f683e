// Writes a whole file so that readers see the old content or the new, never
// half of it: a temporary file in the same directory, flushed, then renamed.
#pragma once

#include <filesystem>
#include <string_view>

namespace dlpack_usm {

// "-" writes to stdout. Throws Error(environment) naming the path when the
// file cannot be written.
void write_file_atomically(const std::filesystem::path& path, std::string_view content);

}  // namespace dlpack_usm
