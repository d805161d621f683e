// Writing an output file so that readers see either the old file or the
// whole new one, never a half-written one: write a temporary file next to
// it, flush it, then rename it over the target.
#pragma once

#include <filesystem>
#include <string_view>

namespace dlpack_usm {

// Throws Error(environment) naming the path when the file cannot be written;
// the temporary file is removed then.
void write_file_atomically(const std::filesystem::path& path, std::string_view contents);

}  // namespace dlpack_usm
