#include "cli/result_stream.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "report/formats/results_stream.hpp"

namespace dlpack_usm::cli {
namespace {

[[noreturn]] void fail_stream(const std::string& path, const char* step, int error,
                              const char* lines = "the lines written so far are complete") {
  fail_environment(fmt::format("cannot write the results stream {}: {} failed: {}", path, step,
                               std::strerror(error)),
                   fmt::format("free some space or choose another --stream path; {}", lines));
}

}  // namespace

ResultStream::ResultStream(const std::string& path) : path_(path) {
  if (path.empty()) return;
  OutputTarget target = resolve_output(path, "--stream");
  if (target.kind == OutputTarget::Kind::standard_output) {
    fd_ = dup(STDOUT_FILENO);
    if (fd_ < 0) fail_stream(path, "dup", errno);
    return;
  }
  // No O_TRUNC before the lock: a second run must not empty the first's file.
  fd_ = open(target.path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NONBLOCK, 0644);
  if (fd_ < 0 && errno == ENXIO) {
    fail_usage(fmt::format("--stream {}: no process reads this FIFO", path),
               "start its reader first, or write to a regular file");
  }
  if (fd_ < 0) fail_stream(path, "opening", errno);
  fcntl(fd_, F_SETFL, fcntl(fd_, F_GETFL) & ~O_NONBLOCK);
  if (target.kind == OutputTarget::Kind::write_in_place) return;
  regular_ = true;
  if (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    int error = errno;
    close(fd_);
    fd_ = -1;
    if (error == EWOULDBLOCK) {
      fail_environment(fmt::format("the results stream {} is being written by another run", path),
                       "give each run its own --stream (or --report directory)");
    }
    fail_stream(path, "locking", error);
  }
  if (ftruncate(fd_, 0) != 0) fail_stream(path, "emptying", errno);
}

ResultStream::~ResultStream() {
  if (fd_ >= 0) close(fd_);  // the lock goes with the descriptor
}

void ResultStream::write(const suite::RecordedCase& recorded) {
  if (fd_ < 0) return;
  std::string line = report::recorded_case_line(recorded) + "\n";
  std::size_t written = 0;
  while (written < line.size()) {
    ssize_t n = ::write(fd_, line.data() + written, line.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) cut_back_and_fail(errno);
    written += static_cast<std::size_t>(n);
  }
  whole_bytes_ += line.size();
}

void ResultStream::cut_back_and_fail(int error) {
  // A full disk (or a file size limit) takes part of a line: a reader of
  // the file must not meet half a line, so the file ends after the last whole one.
  if (!regular_) {
    fail_stream(path_, "write", error,
                "its last line may be cut (a device or FIFO cannot be cut back)");
  }
  if (ftruncate(fd_, static_cast<off_t>(whole_bytes_)) != 0) {
    fail_stream(
        path_, "write", error,
        "its last line may be cut: cutting the file back to the last whole line failed too");
  }
  fail_stream(path_, "write", error);
}

}  // namespace dlpack_usm::cli
