#include "common/library_search.hpp"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string_view>

namespace dlpack_usm {
namespace {

// The directories glibc searches after the cache, as Debian's multiarch
// x86-64 build has them, and the hwcaps subdirectories it tries first.
constexpr const char* kSystemDirectories[] = {"/lib/x86_64-linux-gnu",
                                              "/usr/lib/x86_64-linux-gnu",
                                              "/lib64",
                                              "/usr/lib64",
                                              "/lib",
                                              "/usr/lib"};
constexpr const char* kHwcaps[] = {"", "/glibc-hwcaps/x86-64-v4", "/glibc-hwcaps/x86-64-v3",
                                   "/glibc-hwcaps/x86-64-v2"};

bool in_directory(std::string_view directory, const std::string& name) {
  for (const char* hwcaps : kHwcaps) {
    std::string path = std::string(directory.empty() ? "." : directory) + hwcaps + "/" + name;
    if (access(path.c_str(), F_OK) == 0) return true;
  }
  return false;
}

bool in_library_path(const std::string& name) {
  const char* value = std::getenv("LD_LIBRARY_PATH");
  std::string_view directories = value != nullptr ? value : "";
  while (!directories.empty()) {
    std::size_t end = directories.find_first_of(":;");
    if (in_directory(directories.substr(0, end), name)) return true;
    directories = end == std::string_view::npos ? "" : directories.substr(end + 1);
  }
  return false;
}

// Whether the cache names `name`, or cannot be read: its entries are the
// libraries' names and paths, NUL-terminated.
bool in_cache_or_unknown(const std::string& name) {
  std::ifstream cache("/etc/ld.so.cache", std::ios::binary);
  if (!cache) return access("/etc/ld.so.cache", F_OK) == 0;
  std::string bytes((std::istreambuf_iterator<char>(cache)), std::istreambuf_iterator<char>());
  return bytes.find(name + '\0') != std::string::npos;
}

}  // namespace

bool shared_library_may_be_found(const std::string& name) {
  if (name.find('/') != std::string::npos) return access(name.c_str(), F_OK) == 0;
  if (in_library_path(name) || in_cache_or_unknown(name)) return true;
  for (const char* directory : kSystemDirectories) {
    if (in_directory(directory, name)) return true;
  }
  return false;
}

}  // namespace dlpack_usm
