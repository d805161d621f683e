#include "common/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "common/error.hpp"

namespace dlpack_usm {
namespace {

// Closes and, unless committed, removes the temporary file.
class TemporaryFile {
 public:
  explicit TemporaryFile(std::filesystem::path path) : path_(std::move(path)) {
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  ~TemporaryFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_) ::unlink(path_.c_str());
  }
  int fd() const { return fd_; }
  bool close() {
    int fd = fd_;
    fd_ = -1;
    return ::close(fd) == 0;
  }
  void commit() { committed_ = true; }

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  bool committed_ = false;
};

[[noreturn]] void fail_write(const std::filesystem::path& path, const char* step, int error) {
  fail_environment(
      fmt::format("cannot write '{}': {} failed: {}", path.string(), step, std::strerror(error)),
      "check that the directory exists and is writable");
}

}  // namespace

void write_file_atomically(const std::filesystem::path& path, std::string_view contents) {
  // Same directory as the target, so that rename() cannot cross file systems.
  std::filesystem::path temporary = path;
  temporary += fmt::format(".tmp.{}", ::getpid());
  TemporaryFile file(temporary);
  if (file.fd() < 0) fail_write(path, "creating the temporary file", errno);
  const char* next = contents.data();
  std::size_t left = contents.size();
  while (left > 0) {
    ssize_t written = ::write(file.fd(), next, left);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) fail_write(path, "write", errno);
    next += written;
    left -= static_cast<std::size_t>(written);
  }
  if (::fsync(file.fd()) != 0) fail_write(path, "fsync", errno);
  if (!file.close()) fail_write(path, "close", errno);
  if (::rename(temporary.c_str(), path.c_str()) != 0) fail_write(path, "rename", errno);
  file.commit();
}

}  // namespace dlpack_usm
