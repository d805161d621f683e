// A file descriptor with one owner, which closes it: moved, never copied, so
// that no way out of a function (an early return, a throw) leaks it and no
// descriptor is closed twice.
//
// Between fork() and exec() or _exit() a child runs no destructor: it
// closes and duplicates descriptors with the raw calls on get(). reset() is
// a plain close(), safe there too.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <utility>

namespace dlpack_usm {

class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) noexcept : fd_(fd) {}
  UniqueFd(UniqueFd&& other) noexcept : fd_(other.release()) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    reset(other.release());
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd() { reset(); }

  int get() const noexcept { return fd_; }
  explicit operator bool() const noexcept { return fd_ >= 0; }
  // Gives the descriptor up, open, to the caller.
  [[nodiscard]] int release() noexcept { return std::exchange(fd_, -1); }
  // Closes the descriptor held (if any) and holds `fd` instead.
  void reset(int fd = -1) noexcept {
    if (fd_ >= 0 && fd_ != fd) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

// pipe2(`flags`) into two owners; false, with errno set, when it fails.
inline bool open_pipe(UniqueFd& read_end, UniqueFd& write_end, int flags) {
  int fds[2];
  if (pipe2(fds, flags) != 0) return false;
  read_end.reset(fds[0]);
  write_end.reset(fds[1]);
  return true;
}

}  // namespace dlpack_usm
