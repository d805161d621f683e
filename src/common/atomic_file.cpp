#include "common/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>

#include "common/error.hpp"

namespace dlpack_usm {
namespace {

[[noreturn]] void fail_write(const std::filesystem::path& path, const char* step, int error) {
  fail_environment(
      fmt::format("cannot write {}: {} failed: {}", path.string(), step, std::strerror(error)),
      "check that the directory exists and is writable");
}

}  // namespace

void write_file_atomically(const std::filesystem::path& path, std::string_view content) {
  if (path == "-") {
    std::fwrite(content.data(), 1, content.size(), stdout);
    std::fflush(stdout);
    return;
  }
  std::filesystem::path directory = path.parent_path().empty() ? "." : path.parent_path();
  std::string temporary =
      (directory / fmt::format(".{}.tmp.{}", path.filename().string(), static_cast<long>(getpid())))
          .string();
  int fd = open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail_write(path, "creating a temporary file", errno);
  std::size_t written = 0;
  while (written < content.size()) {
    ssize_t n = write(fd, content.data() + written, content.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int error = errno;
      close(fd);
      unlink(temporary.c_str());
      fail_write(path, "write", error);
    }
    written += static_cast<std::size_t>(n);
  }
  // fsync so that a crash after rename cannot leave an empty report behind.
  if (fsync(fd) != 0 || close(fd) != 0) {
    int error = errno;
    unlink(temporary.c_str());
    fail_write(path, "flushing", error);
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    int error = errno;
    unlink(temporary.c_str());
    fail_write(path, "rename", error);
  }
}

}  // namespace dlpack_usm
